// GPU proof of the build side of cuda-target-compatibility: one kernel,
// built with each set of nvcc flags of run.sh, launched once. It prints
// "launch=<error> sync=<error> out=<written|untouched|partial>"; run.sh
// compares the launch with what cuda-tidy said of the flags.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void mark(int *out) { out[threadIdx.x] = threadIdx.x + 1; }

int main() {
  constexpr int N = 64;
  int *out = nullptr;
  if (cudaMalloc(&out, N * sizeof(int)) != cudaSuccess) {
    std::printf("cudaMalloc failed\n");
    return 2;
  }
  cudaMemset(out, 0xff, N * sizeof(int));
  mark<<<1, N>>>(out);
  cudaError_t Launch = cudaGetLastError();
  cudaError_t Sync = cudaDeviceSynchronize();
  int host[N];
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  int Written = 0, Untouched = 0;
  for (int i = 0; i < N; ++i) {
    Written += host[i] == i + 1;
    Untouched += host[i] == -1;
  }
  std::printf("launch=%s sync=%s out=%s\n", cudaGetErrorName(Launch),
              cudaGetErrorName(Sync),
              Written == N ? "written" : Untouched == N ? "untouched" : "partial");
  return 0;
}
