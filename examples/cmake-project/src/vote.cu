// Counts positive values with warp votes.
#include "reduce.cuh"

__global__ void countPositive(const float *in, unsigned *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned votes = __ballot(i < n && in[i] > 0.0f);
  if (threadIdx.x % 32 == 0)
    atomicAdd(count, __popc(votes));
}
