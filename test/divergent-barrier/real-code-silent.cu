// Correct kernels in the shapes public CUDA code writes, each of which a
// one-point change would make divergent; all silent, with every cuda-* check.
// RUN: %check_cuda_tidy %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// Warps other than the first spill their accumulators and leave; the first
// warp waits for nobody but itself afterwards (a split-K epilogue).
__global__ void spillAndLeave(float *out, const float *in) {
  __shared__ float s[1024];
  int t = threadIdx.x, warp = t / 32;
  float acc[4];
  for (int j = 0; j < 4; ++j)
    acc[j] = in[t * 4 + j];
  if (warp != 0) {
    for (int j = 0; j < 4; ++j)
      s[t + j * 256] = acc[j];
    return;
  }
  __syncthreads();
  out[t] = s[t + 32] + acc[0];
}

// A grid-stride loop whose index stays a multiple of 32 plus the lane, so
// `(tid >> 5) & 1` picks whole warps, and __syncwarp is reached by all of a
// warp's lanes.
__global__ void gridStridePairs(float *o, int iters) {
  __shared__ float s[256];
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int it = 0; it < iters; ++it, tid += blockDim.x * gridDim.x) {
    if (((tid >> 5) & 1) == 0) {
      s[threadIdx.x] = o[tid];
      __syncwarp();
      float v = s[threadIdx.x ^ 1];
      __syncwarp();
      o[tid] = v;
    }
  }
}

// A loop with a constant trip count runs at least once for every thread.
__global__ void onePass(float *o) {
  __shared__ float s[256];
  s[threadIdx.x] = o[threadIdx.x];
  for (int i = 0; i < 1; i++) {
    __syncthreads();
    o[threadIdx.x] = s[(threadIdx.x + 1) % 256];
  }
}

// A nested loop whose bounds are the same everywhere inside a loop whose
// bounds are too.
__global__ void tiles(const float *a, float *c, int k) {
  __shared__ float t[16][16];
  for (int kk = 0; kk < k; kk += 16) {
    for (int r = 0; r < 16; r += 4)
      t[threadIdx.y + r / 4][threadIdx.x] = a[kk + threadIdx.x];
    __syncthreads();
    c[threadIdx.x] += t[threadIdx.x % 16][threadIdx.y];
    __syncthreads();
  }
}

// The block counts together, and the thread that writes is chosen after.
template <typename T>
__global__ void countPositive(const T *in, int n, int *counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int c = __syncthreads_count(i < n && in[i] > T(0));
  if (threadIdx.x == 0)
    counts[blockIdx.x] = c;
}

// One thread sums after a block-wide cooperative groups barrier.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void cgLeaderSum(float *o) {
  __shared__ float s[256];
  cg::thread_block cta = cg::this_thread_block();
  s[threadIdx.x] = o[threadIdx.x];
  cg::sync(cta);
  if (cta.thread_rank() == 0) {
    float b = 0;
    for (int i = 0; i < 256; i++)
      b += s[i];
    s[0] = b;
  }
  cg::sync(cta);
  o[threadIdx.x] = s[0];
}
