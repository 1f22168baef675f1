// Removed cudaDeviceProp fields the check cannot follow back to one
// cudaGetDeviceProperties call of a known device: each read is reported
// with the reason, and, where the read is host code that only reads the
// field, a note offers the attribute of the current device (applied by
// --fix-notes only: it assumes the properties were read for that device).
// RUN: %check_cuda_tidy --checks=cuda-removed-toolkit-api %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

int nextDevice();

// Read through a pointer.
int throughPointer(const cudaDeviceProp *p) {
  return p->clockRate;
  // warning@-1:13 {{'cudaDeviceProp::clockRate' was removed in CUDA 13.0; use 'cudaDeviceGetAttribute' with 'cudaDevAttrClockRate'}}
  // note@-2 {{no automatic fix: the field is not read from a local 'cudaDeviceProp' variable}}
  // note@-3 {{if the properties are those of the current device, read its attribute}}
}

// Filled elsewhere (a file-scope copy).
cudaDeviceProp Cached;
int fromCache() {
  return Cached.memoryClockRate;
  // warning@-1 {{'cudaDeviceProp::memoryClockRate' was removed in CUDA 13.0}}
  // note@-2 {{no automatic fix: the field is not read from a local 'cudaDeviceProp' variable}}
  // note@-3 {{if the properties are those of the current device}}
}

// The device argument has a side effect: it cannot be evaluated again.
int sideEffect() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, nextDevice());
  return prop.computeMode;
  // warning@-1 {{'cudaDeviceProp::computeMode' was removed in CUDA 13.0}}
  // note@-2 {{no automatic fix: the device argument of 'cudaGetDeviceProperties' cannot be repeated after the call}}
  // note@-3 {{if the properties are those of the current device}}
}

// Read before the call, and in a block the call does not reach.
int order(bool early) {
  cudaDeviceProp prop;
  if (early)
    return prop.clockRate;
  // warning@-1 {{'cudaDeviceProp::clockRate' was removed in CUDA 13.0}}
  // note@-2 {{no automatic fix: the field is read where no properties call reaches}}
  // note@-3 {{if the properties are those of the current device}}
  {
    cudaGetDeviceProperties(&prop, 0);
  }
  return prop.clockRate;
  // warning@-1 {{'cudaDeviceProp::clockRate' was removed in CUDA 13.0}}
  // note@-2 {{no automatic fix: the field is read where no properties call reaches}}
  // note@-3 {{if the properties are those of the current device}}
}

// Passed on by address after the call: the fix cannot tell what happens.
void refresh(cudaDeviceProp *p);
int changed() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  refresh(&prop);
  return prop.kernelExecTimeoutEnabled;
  // warning@-1 {{'cudaDeviceProp::kernelExecTimeoutEnabled' was removed in CUDA 13.0}}
  // note@-2 {{no automatic fix: 'prop' is also changed or passed on after the properties call, where the fix cannot follow it}}
  // note@-3 {{if the properties are those of the current device}}
}

// No attribute reports it any more.
bool multiDevice() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  return prop.cooperativeMultiDeviceLaunch != 0;
  // warning@-1 {{'cudaDeviceProp::cooperativeMultiDeviceLaunch' was removed in CUDA 13.0}}
  // note@-2 {{no automatic fix: multi-device cooperative launch was removed with 'cudaLaunchCooperativeKernelMultiDevice' and no attribute reports it; test 'cooperativeLaunch' on each device}}
}

// Read in a kernel that got the properties by value: device code has no
// attribute query to offer.
__global__ void useProps(cudaDeviceProp prop, int *out) {
  out[0] = prop.clockRate;
  // warning@-1 {{'cudaDeviceProp::clockRate' was removed in CUDA 13.0}}
  // note@-2 {{no automatic fix: the field is not read from a local 'cudaDeviceProp' variable}}
}
