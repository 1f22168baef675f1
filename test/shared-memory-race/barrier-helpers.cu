// Helpers that hold a block barrier, called twice or in a loop: the shape of
// LLM kernels' blockReduce (a per-warp partial in shared memory, a barrier,
// every warp reads the partials back). A call runs the helper's accesses
// before its first barrier, the barrier, then its accesses after its last
// barrier: the reads after the barrier of one call and the writes before the
// barrier of the next call are in one barrier interval.
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race,cuda-divergent-barrier \
// RUN:   --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__device__ float warpSum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}
__device__ float warpMax(float v) {
  for (int o = 16; o > 0; o >>= 1) {
    const float u = __shfl_xor_sync(0xffffffff, v, o);
    v = u > v ? u : v;
  }
  return v;
}

// Its own scratch per instantiation; the barrier at the end only on request.
template <float (*Reduce)(float)>
__device__ float blockReduce(float val, bool finalSync = false) {
  __shared__ float partial[32];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  float w = Reduce(val);
  if (lane == 0)
    partial[warp] = w;
  __syncthreads();
  w = lane < blockDim.x / 32 ? partial[lane] : 0.0f;
  w = Reduce(w);
  if (finalSync)
    __syncthreads();
  return w;
}

// Layernorm statistics: the mean, then the variance through the same
// scratch. Warp 1 writes its partial for the variance while warp 0 may still
// read it for the mean.
__global__ void layerNormStats(const float *x, float *mean, float *rstd,
                               int C) {
  const float *row = x + blockIdx.x * C;
  float sum = 0.0f;
  for (int i = threadIdx.x; i < C; i += blockDim.x)
    sum += row[i];
  const float m = blockReduce<warpSum>(sum) / C;
  float sq = 0.0f;
  for (int i = threadIdx.x; i < C; i += blockDim.x)
    sq += (row[i] - m) * (row[i] - m);
  const float v = blockReduce<warpSum>(sq) / C;
  // warning@-1:19 {{threads of different warps race on shared memory 'partial' with no barrier between a read and a write}}
  // note@-22:32 {{thread 1 reads 'partial[1]' here}}
  // note@-25:5 {{thread 32, in another warp, writes it here in the same barrier interval}}
  // note@-8:19 {{the first access is made after the last barrier of this call to 'blockReduce'}}
  // note@-5:19 {{the second access is made before the first barrier of this call to 'blockReduce'}}
  // FIXED: {{^}}    sq += (row[i] - m) * (row[i] - m);{{$}}
  // FIXED-NEXT: {{^}}  __syncthreads();{{$}}
  // FIXED-NEXT: {{^}}  const float v = blockReduce<warpSum>(sq) / C;{{$}}
  if (threadIdx.x == 0) {
    mean[blockIdx.x] = m;
    rstd[blockIdx.x] = 1.0f / (v + 1e-5f);
  }
}

// The first call asks for the final barrier: silent.
__global__ void layerNormStatsSync(const float *x, float *mean, float *rstd,
                                   int C) {
  const float *row = x + blockIdx.x * C;
  float sum = 0.0f;
  for (int i = threadIdx.x; i < C; i += blockDim.x)
    sum += row[i];
  const float m = blockReduce<warpSum>(sum, true) / C;
  float sq = 0.0f;
  for (int i = threadIdx.x; i < C; i += blockDim.x)
    sq += (row[i] - m) * (row[i] - m);
  const float v = blockReduce<warpSum>(sq) / C;
  if (threadIdx.x == 0) {
    mean[blockIdx.x] = m;
    rstd[blockIdx.x] = 1.0f / (v + 1e-5f);
  }
}

// Softmax statistics: a maximum and a sum, two instantiations with scratch
// of their own: silent.
__global__ void softmaxStats(const float *x, float *out, int C) {
  const float *row = x + blockIdx.x * C;
  float mx = row[0];
  for (int i = threadIdx.x; i < C; i += blockDim.x)
    mx = row[i] > mx ? row[i] : mx;
  const float rowMax = blockReduce<warpMax>(mx);
  float sum = 0.0f;
  for (int i = threadIdx.x; i < C; i += blockDim.x)
    sum += row[i] - rowMax;
  const float rowSum = blockReduce<warpSum>(sum);
  if (threadIdx.x == 0)
    out[blockIdx.x] = rowMax + rowSum;
}

// One row per iteration: the next iteration's partials overwrite those the
// previous iteration is still reading.
__global__ void rowCentre(float *x, int rows, int C) {
  for (int r = 0; r < 4; ++r) {
    float *row = x + (blockIdx.x * 4 + r) * C;
    float sum = 0.0f;
    for (int i = threadIdx.x; i < C; i += blockDim.x)
      sum += row[i];
    const float m = blockReduce<warpSum>(sum) / C;
    // warning@-1:21 {{threads of different warps race on shared memory 'partial' with no barrier between a read and a write}}
    // note@-79:32 {{thread 1 reads 'partial[1]' here}}
    // note@-82:5 {{thread 32, in another warp, writes it here in the same barrier interval}}
    // note@-9:3 {{the next iteration of this loop reaches the second access before any barrier}}
    // note@-5:21 {{the first access is made after the last barrier of this call to 'blockReduce'}}
    // note@-6:21 {{the second access is made before the first barrier of this call to 'blockReduce'}}
    for (int i = threadIdx.x; i < C; i += blockDim.x)
      row[i] -= m;
  }
  // FIXED: {{^}}      row[i] -= m;{{$}}
  // FIXED-NEXT: {{^}}    __syncthreads();{{$}}
  // FIXED-NEXT: {{^}}  }{{$}}
}

// The same asking for the final barrier: silent.
__global__ void rowCentreSync(float *x, int rows, int C) {
  for (int r = 0; r < 4; ++r) {
    float *row = x + (blockIdx.x * 4 + r) * C;
    float sum = 0.0f;
    for (int i = threadIdx.x; i < C; i += blockDim.x)
      sum += row[i];
    const float m = blockReduce<warpSum>(sum, true) / C;
    for (int i = threadIdx.x; i < C; i += blockDim.x)
      row[i] -= m;
  }
}

// The scratch passed in by the caller.
__device__ float blockSum(float *scratch, float val) {
  const int lane = threadIdx.x % 32;
  float w = warpSum(val);
  if (lane == 0)
    scratch[threadIdx.x / 32] = w;
  __syncthreads();
  w = lane < blockDim.x / 32 ? scratch[lane] : 0.0f;
  return warpSum(w);
}

__global__ void dotAndNorm(const float *a, const float *b, float *out) {
  __shared__ float scratch[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float dot = blockSum(scratch, a[i] * b[i]);
  const float norm = blockSum(scratch, a[i] * a[i]);
  // warning@-1:22 {{threads of different warps race on shared memory 'scratch' with no barrier between a read and a write}}
  // note@-10:32 {{thread 1 reads 'scratch[1]' here}}
  // note@-13:5 {{thread 32, in another warp, writes it here in the same barrier interval}}
  // note@-5:21 {{the first access is made after the last barrier of this call to 'blockSum'}}
  // note@-5:22 {{the second access is made before the first barrier of this call to 'blockSum'}}
  // FIXED: {{^}}  const float dot = blockSum(scratch, a[i] * b[i]);{{$}}
  // FIXED-NEXT: {{^}}  __syncthreads();{{$}}
  // FIXED-NEXT: {{^}}  const float norm = blockSum(scratch, a[i] * a[i]);{{$}}
  if (threadIdx.x == 0)
    out[blockIdx.x] = dot / norm;
}

// A barrier between the calls: silent.
__global__ void dotAndNormSync(const float *a, const float *b, float *out) {
  __shared__ float scratch[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float dot = blockSum(scratch, a[i] * b[i]);
  __syncthreads();
  const float norm = blockSum(scratch, a[i] * a[i]);
  if (threadIdx.x == 0)
    out[blockIdx.x] = dot / norm;
}

void launch(const float *x, float *y, float *a, float *b, int C) {
  layerNormStats<<<64, 256>>>(x, a, b, C);
  layerNormStatsSync<<<64, 256>>>(x, a, b, C);
  softmaxStats<<<64, 256>>>(x, a, C);
  rowCentre<<<16, 256>>>(y, 64, C);
  rowCentreSync<<<16, 256>>>(y, 64, C);
  dotAndNorm<<<64, 256>>>(x, x, a);
  dotAndNormSync<<<64, 256>>>(x, x, a);
}
