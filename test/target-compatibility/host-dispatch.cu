// Host code that picks a kernel by the device's compute capability with '=='
// and no branch for later versions: on a newer GPU no kernel is launched.
// RUN: %check_cuda_tidy --checks=cuda-target-compatibility %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// The host side sees the same.
// RUN: %check_cuda_tidy --checks=cuda-target-compatibility %s %t.host -- %cuda_args --cuda-host-only
#include <cuda_runtime.h>

__global__ void voltaKernel(float *out) { out[threadIdx.x] = 1.0f; }
__global__ void ampereKernel(float *out) { out[threadIdx.x] = 2.0f; }
__global__ void genericKernel(float *out) { out[threadIdx.x] = 3.0f; }

void byProperties(float *out) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  if (prop.major == 7)
    // remark@-1:3 {{the kernel is chosen by compute capability with no branch for later versions}} [cuda-target-compatibility]
    voltaKernel<<<1, 32>>>(out);
  else if (prop.major == 8)
    // note@-1:8 {{a GPU of compute capability 9.0 or later takes none of these branches and launches no kernel here}}
    // note@-2:8 {{add an 'else' that handles later versions, or compare with '>='}}
    ampereKernel<<<1, 32>>>(out);
}

void byAttribute(float *out) {
  int dev = 0, major = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
  switch (major) {
    // remark@-1 {{the kernel is chosen by compute capability with no branch for later versions}}
    // note@-2 {{a GPU of compute capability 10.0 or later takes none}}
    // note@-3 {{add a 'default' that handles later versions}}
  case 8:
    ampereKernel<<<1, 32>>>(out);
    break;
  case 9:
    genericKernel<<<1, 32>>>(out);
    break;
  }
}

void byPointer(const cudaDeviceProp *prop, float *out) {
  void (*kernel)(float *) = nullptr;
  if (prop->major == 8 && prop->minor == 0)
    // remark@-1 {{no branch for later versions}}
    // note@-2 {{9.0 or later}}
    // note@-3 {{add an 'else'}}
    kernel = ampereKernel;
  if (kernel)
    kernel<<<1, 32>>>(out);
}

// Silent: an 'else' (or 'default') for everything else.
void withElse(const cudaDeviceProp &prop, float *out) {
  if (prop.major == 8)
    ampereKernel<<<1, 32>>>(out);
  else
    genericKernel<<<1, 32>>>(out);
  switch (prop.major) {
  case 7:
    voltaKernel<<<1, 32>>>(out);
    break;
  default:
    genericKernel<<<1, 32>>>(out);
  }
}

// Silent: an ordered comparison covers later versions.
void withLowerBound(const cudaDeviceProp &prop, float *out) {
  if (prop.major == 7)
    voltaKernel<<<1, 32>>>(out);
  else if (prop.major >= 8)
    ampereKernel<<<1, 32>>>(out);
}

// Silent: the branch returns, the code after it serves the rest.
void earlyReturn(const cudaDeviceProp &prop, float *out) {
  if (prop.major == 7) {
    voltaKernel<<<1, 32>>>(out);
    return;
  }
  genericKernel<<<1, 32>>>(out);
}

// Silent: an equality that launches nothing (a message).
void report(const cudaDeviceProp &prop) {
  if (prop.major == 9)
    (void)prop.minor;
}
