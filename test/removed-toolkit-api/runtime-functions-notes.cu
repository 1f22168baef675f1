// Removed and deprecated runtime functions the check reports without a fix:
// no replacement exists, the result of a no-op call is used in a way that
// cannot become 'cudaSuccess', or its arguments have side effects. A name
// spelled in the user's macro is renamed at the macro's definition. A
// removed function the parse has no declaration for (cudaProfilerInitialize
// lives in a header of its own) is recognised from clang's "undeclared
// identifier" error, which the check replaces with its warning.
// RUN: %check_cuda_tidy --checks=cuda-removed-toolkit-api %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

double *nextValue(double *p);

cudaError_t noOps(double *values, bool *failed) {
  cudaSetDoubleForDevice(nextValue(values));
  // warning@-1 {{'cudaSetDoubleForDevice' was removed in CUDA 13.0}}
  // note@-2 {{every device CUDA 13 supports has double precision and the call had no effect; remove it}}
  // note@-3 {{no automatic fix: its arguments have side effects}}
  *failed = cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeFourByte) != cudaSuccess;
  // warning@-1 {{'cudaDeviceSetSharedMemConfig' is deprecated since CUDA 12.4}}
  // note@-2 {{remove it}}
  // note@-3 {{no automatic fix: its result is used}}
  cudaSharedMemConfig config;
  return cudaDeviceGetSharedMemConfig(&config);
  // warning@-1 {{'cudaDeviceGetSharedMemConfig' is deprecated since CUDA 12.4}}
  // note@-2 {{shared memory banks are 4 bytes wide on Volta and later ('cudaSharedMemBankSizeFourByte')}}
}

// Multi-device cooperative launch is gone altogether.
cudaError_t launchEverywhere(cudaLaunchParams *params, unsigned devices) {
  // warning@-1:30 {{'cudaLaunchParams' was removed in CUDA 13.0}}
  // note@-2 {{it served 'cudaLaunchCooperativeKernelMultiDevice'; launch on each device with 'cudaLaunchCooperativeKernel'}}
  return cudaLaunchCooperativeKernelMultiDevice(params, devices);
  // warning@-1 {{'cudaLaunchCooperativeKernelMultiDevice' was removed in CUDA 13.0}}
  // note@-2 {{launch with 'cudaLaunchCooperativeKernel' on each device and synchronize the devices from the host}}
}

// A removed name in the body of the project's macro: renamed once, in the
// definition (here without --fix: the fix is only shown).
#define WAIT_FOR_GPU() cudaThreadSynchronize()
// warning@-1:24 {{'cudaThreadSynchronize' was removed in CUDA 13.0; use 'cudaDeviceSynchronize'}}
cudaError_t waitTwice() {
  WAIT_FOR_GPU();
  return WAIT_FOR_GPU();
}

// Not declared by the CUDA 13 headers nor by the check's declarations:
// clang's error becomes the check's warning.
void profile() { cudaProfilerInitialize(nullptr, nullptr, 0); }
// warning@-1:18 {{'cudaProfilerInitialize' was removed in CUDA 12.0}}
// note@-2 {{remove it; Nsight Systems and Nsight Compute take their configuration on their command line}}
