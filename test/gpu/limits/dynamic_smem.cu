// cuda-dynamic-shared-memory-opt-in on a GPU: a launch with 48 KiB + 4 bytes
// of dynamic shared memory without and with the opt-in, and one over the
// per-block maximum with the opt-in.
#include "common.h"

__global__ void noOptIn(float *out) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

__global__ void optedIn(float *out) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = 2.0f;
  __syncthreads();
  out[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

__global__ void overMax(float *out) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = 3.0f;
  __syncthreads();
  out[threadIdx.x] = buf[0];
}

int main() {
  float *out = nullptr;
  cudaMalloc(&out, 1024 * sizeof(float));
  int maxOptIn = 0;
  cudaDeviceGetAttribute(&maxOptIn, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  std::printf("per-block opt-in maximum: %d bytes\n", maxOptIn);
  const size_t bytes = 48 * 1024 + 4;

  // Flagged by the check: no opt-in.
  report("dynamic 48 KiB + 4 without the opt-in", cudaErrorInvalidValue,
         launchResult((noOptIn<<<1, 128, bytes>>>(out), cudaSuccess)));
  cudaGetLastError();

  // The check's fix.
  cudaFuncSetAttribute(optedIn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       bytes);
  report("dynamic 48 KiB + 4 with the opt-in (fixed)", cudaSuccess,
         launchResult((optedIn<<<1, 128, bytes>>>(out), cudaSuccess)));

  // Over the maximum: fails even with the opt-in (at the attribute call or
  // at the launch).
  const size_t tooMuch = size_t(maxOptIn) + 1024;
  cudaError_t attr = cudaFuncSetAttribute(
      overMax, cudaFuncAttributeMaxDynamicSharedMemorySize, int(tooMuch));
  cudaGetLastError();
  cudaError_t launch =
      launchResult((overMax<<<1, 128, tooMuch>>>(out), cudaSuccess));
  cudaGetLastError();
  report("dynamic maximum + 1 KiB, opt-in attempted: attribute call",
         cudaErrorInvalidValue, attr, /*AnyError=*/true);
  report("dynamic maximum + 1 KiB, opt-in attempted: launch",
         cudaErrorInvalidValue, launch, /*AnyError=*/true);

  cudaFree(out);
  std::printf("dynamic_smem: %d failure(s)\n", gFailures);
  return gFailures ? 1 : 0;
}
