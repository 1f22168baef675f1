// The notes lead to the cause: the loop whose trip count differs between
// warps, not a nested loop whose bounds are the same everywhere; the
// `return` that sent threads back to the caller, not a loop variable that is
// the same in every thread.
// RUN: %check_cuda_tidy --checks=cuda-divergent-barrier %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// One warp per row (a row-wise softmax or layer norm), with a block-wide
// barrier inside: warps of a block get different numbers of rows.
__global__ void rowsPerWarp(const float *in, float *out, int rows, int cols) {
  __shared__ float partial[8];
  const int warpsPerBlock = 8;
  int stride = gridDim.x * warpsPerBlock;
  for (int row = blockIdx.x * warpsPerBlock + threadIdx.x / 32; row < rows;
       row += stride) {
    float sum = 0.0f;
    for (int c = threadIdx.x % 32; c < cols; c += 32)
      sum += in[row * cols + c];
    for (int k = 0; k < 4; ++k) {
      if (threadIdx.x % 32 == 0)
        partial[threadIdx.x / 32] = sum;
      __syncthreads();
      sum += partial[(threadIdx.x / 32 + k) % 8];
    }
    out[row] = sum;
  }
  out[rows + blockIdx.x] = 0.0f;
}

// A helper that sends some threads back before its tiled loop.
__device__ float tiledDot(const float *a, const float *b, float *tile, int n,
                          int active) {
  if (threadIdx.x >= active)
    return 0.0f;
  float acc = 0.0f;
  for (int t = 0; t < n; t += 128) {
    tile[threadIdx.x] = a[t + threadIdx.x];
    __syncthreads();
    acc += tile[(threadIdx.x + 1) % 128] * b[t];
    __syncthreads();
  }
  return acc;
}
__global__ void dots(const float *a, const float *b, float *out, int n,
                     int active) {
  __shared__ float tile[128];
  out[threadIdx.x] = tiledDot(a, b, tile, n, active);
}

// Expectations, by line:
// warning@22:7 {{'__syncthreads' is reached by only some warps of the block}}
// note@14:3 {{the loop's trip count depends on 'row', which differs between warps}}
// note@14:8 {{'row' is set from 'threadIdx.x' here}}
// warning@38:5 {{'__syncthreads' is reached by only some threads of the block}}
// note@34:5 {{threads that return here leave 'tiledDot' without reaching the barrier, and are still alive in the caller}}
// note@33:7 {{the condition depends on 'threadIdx.x', which differs between threads}}
// note@40:5 {{'__syncthreads' here is under the same condition}}
