// A project that already supplies its own versions of removed functions
// (shims for CUDA 13) is left alone: the check's declarations of the
// removed functions are templates, so the project's functions are neither
// redeclarations of them (no "static declaration follows non-static"
// error) nor beaten by them in overload resolution; calls go to the
// project's functions and are not reported. The file builds with nvcc.
// RUN: %check_cuda_tidy --checks=cuda-removed-toolkit-api %if nvcc %{ %nvcc_sm90 %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

static inline cudaError_t cudaThreadSynchronize() {
  return cudaDeviceSynchronize();
}
inline cudaError_t cudaThreadExit() { return cudaDeviceReset(); }
#define cudaThreadSetLimit cudaDeviceSetLimit

cudaError_t finish() {
  cudaThreadSetLimit(cudaLimitStackSize, 4096);
  cudaThreadSynchronize();
  return cudaThreadExit();
}
