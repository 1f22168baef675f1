#include "lane.cuh"
__global__ void half(int *o) {
  if (threadIdx.x % 32 < 16)
    o[threadIdx.x] = firstOf(o[threadIdx.x]);
}
