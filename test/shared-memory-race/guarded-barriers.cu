// Barriers under a condition that holds wherever it is tested: the barrier
// separates as an unconditional one would. The shape of ggml's mmvf kernel
// (the last barrier of each column's reduction under `if (j < ncols)`, which
// the loop's own test already implies) and of helpers whose final barrier is
// asked for by an argument.
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race,cuda-divergent-barrier \
// RUN:   --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__device__ float warpSum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}

// One dot product per column: each column's partials go through the same
// scratch; the barrier at the end of an iteration is under a condition the
// loop's test implies. Silent.
template <int ncols, int block_size>
__global__ void dotColumns(const float *x, const float *y, float *dst,
                           int n) {
  __shared__ float partial[32];
  const int tid = threadIdx.x;
  float sum[ncols] = {};
  for (int i = tid; i < n; i += block_size)
    for (int j = 0; j < ncols; ++j)
      sum[j] += x[i] * y[j * n + i];
  for (int j = 0; j < ncols; ++j) {
    sum[j] = warpSum(sum[j]);
    if (block_size > 32) {
      if (tid % 32 == 0)
        partial[tid / 32] = sum[j];
      __syncthreads();
      if (tid < 32) {
        sum[j] = tid < block_size / 32 ? partial[tid] : 0.0f;
        sum[j] = warpSum(sum[j]);
      }
      if (j < ncols)
        __syncthreads();
    }
  }
  if (tid < ncols)
    dst[blockIdx.x * ncols + tid] = sum[tid];
}

// The same over a number of columns known when the kernel runs. Silent.
__global__ void dotColumnsN(const float *x, const float *y, float *dst, int n,
                            int ncols) {
  __shared__ float partial[32];
  const int tid = threadIdx.x;
  for (int j = 0; j < ncols; ++j) {
    float s = 0.0f;
    for (int i = tid; i < n; i += blockDim.x)
      s += x[i] * y[j * n + i];
    s = warpSum(s);
    if (tid % 32 == 0)
      partial[tid / 32] = s;
    __syncthreads();
    if (tid < 32) {
      s = tid < blockDim.x / 32 ? partial[tid] : 0.0f;
      s = warpSum(s);
      if (tid == 0)
        dst[blockIdx.x * ncols + j] = s;
    }
    if (j < ncols)
      __syncthreads();
  }
}

// The barrier only for the columns a runtime count says are valid: on the
// others the next column's partials overwrite those warp 0 is reading.
__global__ void dotColumnsSome(const float *x, const float *y, float *dst,
                               int n, int nvalid) {
  __shared__ float partial[32];
  const int tid = threadIdx.x;
  for (int j = 0; j < 4; ++j) {
    float s = 0.0f;
    for (int i = tid; i < n; i += blockDim.x)
      s += x[i] * y[j * n + i];
    s = warpSum(s);
    if (tid % 32 == 0)
      partial[tid / 32] = s;
      // warning@-1:7 {{threads of different warps race on shared memory 'partial' with no barrier between a read and a write}}
      // note@+5:35 {{thread 1 reads 'partial[1]' here}}
      // note@-3:7 {{thread 32, in another warp, writes it here in the same barrier interval}}
      // note@-10:3 {{the next iteration of this loop reaches the second access before any barrier}}
    __syncthreads();
    if (tid < 32) {
      s = tid < blockDim.x / 32 ? partial[tid] : 0.0f;
      s = warpSum(s);
      if (tid == 0)
        dst[blockIdx.x * 4 + j] = s;
    }
    if (j < nvalid)
      __syncthreads();
  }
  // FIXED: {{^}}    if (j < nvalid){{$}}
  // FIXED-NEXT: {{^}}      __syncthreads();{{$}}
  // FIXED-NEXT: {{^}}    __syncthreads();{{$}}
  // FIXED-NEXT: {{^}}  }{{$}}
}

// A helper whose final barrier is asked for by its caller.
__device__ float blockSum(float *scratch, float v, bool finalSync) {
  v = warpSum(v);
  if (threadIdx.x % 32 == 0)
    scratch[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x % 32 < blockDim.x / 32 ? scratch[threadIdx.x % 32] : 0.0f;
  v = warpSum(v);
  if (finalSync)
    __syncthreads();
  return v;
}

// Asked for: silent.
__global__ void normalise(float *x) {
  __shared__ float scratch[32];
  float *row = x + blockIdx.x * 256;
  const float v = row[threadIdx.x];
  const float mean = blockSum(scratch, v, true) / 256;
  const float sq = blockSum(scratch, (v - mean) * (v - mean), false) / 256;
  row[threadIdx.x] = (v - mean) / (sq + 1e-5f);
}

// Not asked for: the second call's partials race with the first call's
// reads.
__global__ void normaliseNoSync(float *x) {
  __shared__ float scratch[32];
  float *row = x + blockIdx.x * 256;
  const float v = row[threadIdx.x];
  const float mean = blockSum(scratch, v, false) / 256;
  const float sq = blockSum(scratch, (v - mean) * (v - mean), false) / 256;
  // warning@-1:20 {{threads of different warps race on shared memory 'scratch' with no barrier between a read and a write}}
  // note@-26:44 {{thread 1 reads 'scratch[1]' here}}
  // note@-29:5 {{thread 32, in another warp, writes it here in the same barrier interval}}
  // note@-5:22 {{the first access is made after the last barrier of this call to 'blockSum'}}
  // note@-5:20 {{the second access is made before the first barrier of this call to 'blockSum'}}
  row[threadIdx.x] = (v - mean) / (sq + 1e-5f);
  // FIXED: {{^}}  const float mean = blockSum(scratch, v, false) / 256;{{$}}
  // FIXED-NEXT: {{^}}  __syncthreads();{{$}}
  // FIXED-NEXT: {{^}}  const float sq = blockSum(scratch, (v - mean) * (v - mean), false) / 256;{{$}}
}

void launch(const float *x, const float *y, float *d, float *w, int n) {
  dotColumns<4, 256><<<64, 256>>>(x, y, d, n);
  dotColumns<2, 128><<<64, 128>>>(x, y, d, n);
  dotColumnsN<<<64, 256>>>(x, y, d, n, 8);
  dotColumnsSome<<<64, 256>>>(x, y, d, n, 2);
  normalise<<<64, 256>>>(w);
  normaliseNoSync<<<64, 256>>>(w);
}
