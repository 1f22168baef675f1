#include <cuda_runtime.h>

__global__ void kernel(int *out) {
  int v = out[threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down(v, o);
  out[threadIdx.x] = v;
}
