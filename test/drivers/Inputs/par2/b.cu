#include "shared.cuh"
__global__ void votesB(const int *in, unsigned *out) {
  unsigned votes = __ballot(in[threadIdx.x] > 0);
  if (threadIdx.x == 0)
    *out = votes;
}
