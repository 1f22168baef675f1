#include "kernels.h"

__global__ void blockSum(const float *in, float *out, int n) {
  __shared__ float partial[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  // A warp sum with the pre-Volta shuffle: CUDA 13 does not build it.
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  if (threadIdx.x % 32 == 0)
    partial[threadIdx.x / 32] = v;
  // Thread 0 reads every warp's partial sum, with no barrier after the
  // other warps wrote theirs.
  if (threadIdx.x == 0) {
    float sum = 0.0f;
    for (int w = 0; w < blockDim.x / 32; ++w)
      sum += partial[w];
    out[blockIdx.x] = sum;
  }
}

__global__ void doubleRow(const float *in, float *out, int count) {
  __shared__ float row[256];
  const float *src = in + blockIdx.x * blockDim.x;
  if (threadIdx.x < count) {
    row[threadIdx.x] = src[threadIdx.x];
    // Only the first `count` threads reach this barrier.
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] =
      2.0f * row[(threadIdx.x + 1) % count];
}

__global__ void __launch_bounds__(256) saxpy(float a, const float *x,
                                             float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
