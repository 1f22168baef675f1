// Runtime functions CUDA 13 removed: the cudaThread* calls become their
// cudaDevice* replacements (same parameters, same behaviour), wherever the
// name is written (a call, a macro argument, a function pointer); calls
// that had no effect on any device CUDA 13 supports are removed, or replaced
// by 'cudaSuccess' where their result is used. Under the CUDA 13 headers the
// file does not compile as written; the check parses it with declarations of
// the removed functions. The fixed file builds with nvcc and is clean.
// RUN: %check_cuda_tidy --checks=cuda-removed-toolkit-api --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err = (call);                                                  \
    if (err != cudaSuccess)                                                    \
      return err;                                                              \
  } while (0)

cudaError_t synchronize() {
  cudaThreadSynchronize();
  // warning@-1:3 {{'cudaThreadSynchronize' was removed in CUDA 13.0; use 'cudaDeviceSynchronize'}} [cuda-removed-toolkit-api]
  // FIXED: {{^}}  cudaDeviceSynchronize();
  CHECK(cudaThreadSynchronize());
  // warning@-1:9 {{'cudaThreadSynchronize' was removed in CUDA 13.0}}
  // FIXED: CHECK(cudaDeviceSynchronize());
  return cudaThreadSynchronize();
  // warning@-1:10 {{'cudaThreadSynchronize' was removed in CUDA 13.0}}
  // FIXED: return cudaDeviceSynchronize();
}

cudaError_t limits() {
  size_t stack = 0;
  CHECK(cudaThreadGetLimit(&stack, cudaLimitStackSize));
  // warning@-1 {{'cudaThreadGetLimit' was removed in CUDA 13.0; use 'cudaDeviceGetLimit'}}
  // FIXED: CHECK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
  CHECK(cudaThreadSetLimit(cudaLimitStackSize, stack * 2));
  // warning@-1 {{'cudaThreadSetLimit' was removed in CUDA 13.0; use 'cudaDeviceSetLimit'}}
  // FIXED: CHECK(cudaDeviceSetLimit(cudaLimitStackSize, stack * 2));
  cudaFuncCache cache;
  CHECK(cudaThreadGetCacheConfig(&cache));
  // warning@-1 {{'cudaThreadGetCacheConfig' was removed in CUDA 13.0; use 'cudaDeviceGetCacheConfig'}}
  // FIXED: CHECK(cudaDeviceGetCacheConfig(&cache));
  return cudaThreadSetCacheConfig(cudaFuncCachePreferL1);
  // warning@-1 {{'cudaThreadSetCacheConfig' was removed in CUDA 13.0; use 'cudaDeviceSetCacheConfig'}}
  // FIXED: return cudaDeviceSetCacheConfig(cudaFuncCachePreferL1);
}

// A function pointer to a removed function: the name is replaced.
cudaError_t (*const Teardown)() = cudaThreadExit;
// warning@-1:35 {{'cudaThreadExit' was removed in CUDA 13.0; use 'cudaDeviceReset'}}
// FIXED: cudaError_t (*const Teardown)() = cudaDeviceReset;

void finish() {
  cudaThreadExit();
  // warning@-1 {{'cudaThreadExit' was removed in CUDA 13.0; use 'cudaDeviceReset'}}
  // FIXED: {{^}}  cudaDeviceReset();
}

// cudaSetDoubleForDevice and cudaSetDoubleForHost did nothing on devices
// with double precision (all that CUDA 13 supports): a statement of its own
// is removed with its line, a used result becomes cudaSuccess.
cudaError_t doubles(double *d) {
  cudaSetDoubleForDevice(d);
  // warning@-1 {{'cudaSetDoubleForDevice' was removed in CUDA 13.0}}
  // note@-2 {{every device CUDA 13 supports has double precision and the call had no effect; remove it}}
  // FIXED: cudaError_t doubles(double *d) {
  // FIXED-NOT: cudaSetDoubleForDevice
  // FIXED: {{^}}  CHECK(cudaSuccess);
  CHECK(cudaSetDoubleForHost(d));
  // warning@-1 {{'cudaSetDoubleForHost' was removed in CUDA 13.0}}
  // note@-2 {{the call had no effect}}
  return cudaSuccess;
}

// The shared memory bank size is fixed on Volta and later: setting it is
// deprecated (CUDA 12.4) and does nothing.
__global__ void kernel(float *out) { out[threadIdx.x] = 0; }
void banks() {
  cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte);
  // warning@-1 {{'cudaDeviceSetSharedMemConfig' is deprecated since CUDA 12.4}}
  // note@-2 {{shared memory banks are 4 bytes wide on Volta and later and the call has no effect; remove it}}
  cudaFuncSetSharedMemConfig((const void *)kernel, cudaSharedMemBankSizeFourByte);
  // warning@-1 {{'cudaFuncSetSharedMemConfig' is deprecated since CUDA 12.4}}
  // note@-2 {{the call has no effect}}
  // FIXED: void banks() {
  // FIXED-NOT: SharedMemConfig
  // FIXED: {{^}}}
}

// The project's own function of the same name is not the toolkit's.
namespace legacy {
cudaError_t cudaThreadSynchronize() { return cudaSuccess; }
cudaError_t use() { return legacy::cudaThreadSynchronize(); }
} // namespace legacy

// The replacements themselves are fine.
cudaError_t current() {
  CHECK(cudaDeviceSynchronize());
  return cudaDeviceReset();
}
