// Host code that includes its kernels' .cu file.
#include <cuda_runtime.h>
#include "scale_kernel.cu"

void scale(const float *in, float *out, int n) {
  cudaBindTexture(0, texValues, in, n * sizeof(float));
  scaleKernel<<<(n + 255) / 256, 256>>>(out, n, 2.0f);
  cudaThreadSynchronize();
  cudaUnbindTexture(texValues);
}
