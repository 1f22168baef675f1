// A loop that threads leave one by one: each thread breaks out when its own
// value converges, while the others stay in the loop and wait at its
// barriers. The leavers wait at the barrier after the loop instead; kernels
// of this shape hang an H100. The loop's barriers and the first barrier
// after it are reported, with a note at the exit. When the block decides
// together (a shared flag written before a barrier, read after it), all
// threads leave in the same iteration: silent.
// RUN: %check_cuda_tidy --checks=cuda-divergent-barrier %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__global__ void jacobi(float *out, const float *b, int iters, float eps) {
  __shared__ float buf[258];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  float v = b[g];
  for (int it = 0; it < iters; ++it) {
    __syncthreads();
    buf[t + 1] = v;
    __syncthreads();
    float nv = 0.25f * (buf[t] + buf[t + 2]) + 0.5f * b[g];
    if (nv - v < eps && v - nv < eps) break;
    v = nv;
  }
  __syncthreads();
  out[g] = buf[t + 1];
}

// A work queue drained until a thread's own item says stop.
__global__ void drainUntilStop(const int *items, int *out, int n) {
  __shared__ int stage[256];
  for (int base = 0; base < n; base += blockDim.x) {
    int item = items[base + threadIdx.x];
    if (item < 0)
      break;
    stage[threadIdx.x] = item;
    __syncthreads();
    out[base + threadIdx.x] = stage[(threadIdx.x + 1) % blockDim.x];
  }
  __syncthreads();
  out[n + threadIdx.x] = stage[threadIdx.x];
}

// Correct: the block agrees on leaving through a flag in shared memory.
__global__ void jacobiTogether(float *out, const float *b, int iters,
                               float eps) {
  __shared__ float buf[258];
  __shared__ int notDone;
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  float v = b[g];
  for (int it = 0; it < iters; ++it) {
    if (t == 0)
      notDone = 0;
    __syncthreads();
    buf[t + 1] = v;
    __syncthreads();
    float nv = 0.25f * (buf[t] + buf[t + 2]) + 0.5f * b[g];
    if (nv - v >= eps || v - nv >= eps)
      notDone = 1;
    v = nv;
    __syncthreads();
    if (!notDone)
      break;
  }
  __syncthreads();
  out[g] = buf[t + 1];
}

// Correct: the vote decides for the whole block.
__global__ void drainTogether(const int *items, int *out, int n) {
  __shared__ int stage[256];
  for (int base = 0; base < n; base += blockDim.x) {
    int item = items[base + threadIdx.x];
    if (__syncthreads_or(item < 0))
      break;
    stage[threadIdx.x] = item;
    __syncthreads();
    out[base + threadIdx.x] = stage[(threadIdx.x + 1) % blockDim.x];
  }
  __syncthreads();
  out[n + threadIdx.x] = 0;
}

// Expectations, by line:
// warning@16:5 {{'__syncthreads' is reached by only some threads of the block}}
// note@20:39 {{threads that leave the loop here no longer reach its barrier; they go on to the next barrier after the loop}}
// note@20:9 {{the condition depends on 'nv', which differs between threads}}
// note@19:5 {{'nv' is set from 't' here}}
// note@13:7 {{'t' is set from 'threadIdx.x' here}}
// note@18:5 {{'__syncthreads' here is under the same condition}}
// warning@23:3 {{'__syncthreads' is reached early by threads that leave the loop before it while the others still wait at the loop's barrier}}
// note@20:39 {{threads leave the loop here under a condition that differs between threads}}
// note@16:5 {{the threads still in the loop wait here; both groups then pass their barriers with different threads, or hang}}
// warning@35:5 {{'__syncthreads' is reached by only some threads of the block}}
// note@33:7 {{threads that leave the loop here no longer reach its barrier}}
// note@32:9 {{the condition depends on 'item', which differs between threads}}
// note@31:5 {{'item' is set from 'threadIdx.x' here}}
// warning@38:3 {{'__syncthreads' is reached early by threads that leave the loop before it}}
// note@33:7 {{threads leave the loop here under a condition that differs between threads}}
// note@35:5 {{the threads still in the loop wait here}}
