// Launched by resource-files.test with the counts of Inputs/heavy.cu.
#include <cuda_runtime.h>

__global__ void heavy(const float *in, float *out, int steps) {
  out[threadIdx.x] = in[threadIdx.x] * steps;
}

void run(const float *in, float *out) {
  heavy<<<1, 256>>>(in, out, 8);
  heavy<<<1, 1024>>>(in, out, 8);
}
