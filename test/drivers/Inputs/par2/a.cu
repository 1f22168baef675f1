#include "shared.cuh"
__global__ void sumsA(int *out) {
  int v = out[threadIdx.x];
  v += __shfl_xor(v, 2);
  out[threadIdx.x] = v;
}
