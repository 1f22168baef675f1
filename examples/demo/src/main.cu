// Runs the demo's kernels and checks their results on the host.
#include "kernels.h"
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

static int check(const char *what, cudaError_t status) {
  if (status == cudaSuccess)
    return 0;
  std::printf("%s: %s\n", what, cudaGetErrorString(status));
  return 1;
}

int main() {
  const int Blocks = 64, Threads = 256, N = Blocks * Threads;
  std::vector<float> host(N, 1.0f);
  float *in, *out, *y;
  cudaMalloc(&in, N * sizeof(float));
  cudaMalloc(&out, N * sizeof(float));
  cudaMalloc(&y, N * sizeof(float));
  cudaMemcpy(in, host.data(), N * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y, host.data(), N * sizeof(float), cudaMemcpyHostToDevice);

  int failures = 0;
  blockSum<<<Blocks, Threads>>>(in, out, N);
  failures += check("blockSum", cudaGetLastError());
  std::vector<float> sums(Blocks);
  cudaMemcpy(sums.data(), out, Blocks * sizeof(float), cudaMemcpyDeviceToHost);
  for (float s : sums)
    failures += s != float(Threads);

  // Half of each block copies, and only that half reaches the barrier.
  doubleRow<<<Blocks, Threads>>>(in, out, Threads / 2);
  failures += check("doubleRow", cudaGetLastError());

  // Twice the threads saxpy's __launch_bounds__ allows.
  saxpy<<<N / 512, 512>>>(2.0f, in, y, N);
  failures += check("saxpy", cudaGetLastError());

  // Removed in CUDA 13.
  cudaThreadSynchronize();
  std::printf(failures ? "demo: %d failures\n" : "demo: all results right\n",
              failures);
  cudaFree(in);
  cudaFree(out);
  cudaFree(y);
  return failures != 0;
}
