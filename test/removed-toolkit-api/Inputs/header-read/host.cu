#include <cuda_runtime.h>
texture<float, 1, cudaReadModeElementType> texValues;
#include "kernels.cuh"
void run(const float *in, float *out, int n) {
  cudaBindTexture(0, texValues, in, n * sizeof(float));
  scaleKernel<<<(n + 255) / 256, 256>>>(out, n);
  cudaUnbindTexture(texValues);
}
