// Shared helpers of the GPU limit tests: run one case, compare the CUDA
// error with the expected one, print a line and count failures.
#pragma once
#include <cstdio>
#include <cuda_runtime.h>

static int gFailures = 0;

/// Records one case. Expected is cudaSuccess or the error the runtime must
/// give; AnyError accepts any error (the exact code is not documented).
static void report(const char *Name, cudaError_t Expected, cudaError_t Got,
                   bool AnyError = false) {
  bool Ok = AnyError ? Got != cudaSuccess : Got == Expected;
  std::printf("%-58s expected %-28s got %-28s %s\n", Name,
              AnyError ? "(an error)" : cudaGetErrorName(Expected),
              cudaGetErrorName(Got), Ok ? "PASS" : "FAIL");
  if (Got != cudaSuccess)
    std::printf("    %s\n", cudaGetErrorString(Got));
  if (!Ok)
    ++gFailures;
}

/// The error of a launch: the launch's own, else the kernel's.
static cudaError_t launchResult(cudaError_t Launch) {
  if (Launch != cudaSuccess)
    return Launch;
  cudaError_t Err = cudaGetLastError();
  if (Err != cudaSuccess)
    return Err;
  return cudaDeviceSynchronize();
}
