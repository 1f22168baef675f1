// A CUDA 10 era program: a texture reference over linear memory, device
// properties and cudaThreadSynchronize. nvcc 13 rejects it.
#include <cuda_runtime.h>
#include <cstdio>

texture<unsigned char, 1, cudaReadModeElementType> texBytes;

__global__ void histogram(unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[tex1Dfetch(texBytes, i)], 1u);
}

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::printf("%s at %d kHz\n", prop.name, prop.clockRate);
  const int n = 1 << 20;
  unsigned char *bytes;
  unsigned *bins;
  cudaMalloc(&bytes, n);
  cudaMalloc(&bins, 256 * sizeof(unsigned));
  cudaMemset(bytes, 7, n);
  cudaMemset(bins, 0, 256 * sizeof(unsigned));
  cudaBindTexture(NULL, texBytes, bytes, n);
  histogram<<<n / 256, 256>>>(bins, n);
  cudaThreadSynchronize();
  cudaUnbindTexture(texBytes);
  unsigned sevens = 0;
  cudaMemcpy(&sevens, bins + 7, sizeof(unsigned), cudaMemcpyDeviceToHost);
  std::printf("%u\n", sevens);
  return sevens == n ? 0 : 1;
}
