// A block-wide sum built from warp shuffles, written for pre-Volta GPUs.
#include "reduce.cuh"

// Sums v over the 32 lanes of a warp; every lane gets lane 0's total.
__device__ float warpSum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  return __shfl(v, 0);
}

__global__ void blockSum(const float *in, float *out, int n) {
  __shared__ float partial[REDUCE_WARPS_PER_BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  v = warpSum(v);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  float total = 0.0f;
  for (unsigned w = 0; w < blockDim.x / 32; ++w)
    total += partial[w];
  if (threadIdx.x == 0)
    atomicAdd(out, total);
}
