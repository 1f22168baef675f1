// Sums and counts 1 << 20 values on the GPU.
#include "reduce.cuh"
#include <cstdio>
#include <cuda_runtime.h>

int main() {
  const int N = 1 << 20;
  float *In, *Sum;
  unsigned *Count;
  cudaMallocManaged(&In, N * sizeof(float));
  cudaMallocManaged(&Sum, sizeof(float));
  cudaMallocManaged(&Count, sizeof(unsigned));
  for (int I = 0; I < N; ++I)
    In[I] = I % 2 ? 1.0f : -0.5f;
  *Sum = 0.0f;
  *Count = 0;
  int Threads = 32 * 8, Blocks = (N + Threads - 1) / Threads;
  blockSum<<<Blocks, Threads>>>(In, Sum, N);
  countPositive<<<Blocks, Threads>>>(In, Count, N);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("error: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  std::printf("sum %.1f, positive %u\n", *Sum, *Count);
  cudaFree(In);
  cudaFree(Sum);
  cudaFree(Count);
  return 0;
}
