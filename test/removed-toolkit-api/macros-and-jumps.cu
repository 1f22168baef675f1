// Old code's error handling: a macro that pastes the function name
// (`cuda(BindTexture(...))`, as in the CUDA Handbook) and jumps to a label
// on failure. The written part of the name is rewritten inside the macro's
// argument; the declarations the fixes insert have no initialiser where a
// goto may jump past them, so the fixed file still compiles.
// RUN: %check_cuda_tidy --checks=cuda-removed-toolkit-api --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

#define cuda(fn)                                                               \
  do {                                                                         \
    status = (cuda##fn);                                                       \
    if (cudaSuccess != status)                                                 \
      goto Error;                                                              \
  } while (0);

texture<float, 1, cudaReadModeElementType> tex1;
// warning@-1 {{texture reference 'tex1' needs the texture reference API, removed in CUDA 12.0; use a texture object}}
// FIXED: static cudaTextureObject_t tex1 = 0;

__global__ void readOut(float *out) { out[threadIdx.x] = tex1Dfetch(tex1, threadIdx.x); }
// warning@-1 {{'tex1Dfetch' of a texture reference was removed in CUDA 12.0}}
// note@16:44 {{the fix of texture reference 'tex1' declared here rewrites it}}
// FIXED: __global__ void readOut(float *out, cudaTextureObject_t tex1) { out[threadIdx.x] = tex1Dfetch<float>(tex1, threadIdx.x); }

int run(float *in, float *out) {
  cudaError_t status;
  cudaDeviceProp prop;
  cuda(Malloc(&in, 32 * sizeof(float)));
  cuda(GetDeviceProperties(&prop, 0));
  // FIXED: cuda(GetDeviceProperties(&prop, 0));
  // FIXED-NEXT: {{^}}  int propClockRate;
  // FIXED-NEXT: {{^}}  propClockRate = 0;
  // FIXED-NEXT: {{^}}  cudaDeviceGetAttribute(&propClockRate, cudaDevAttrClockRate, 0);
  cuda(BindTexture(NULL, tex1, in, 32 * sizeof(float)));
  // warning@-1:3 {{'cudaBindTexture' was removed in CUDA 12.0}}
  // note@16:44 {{the fix of texture reference 'tex1' declared here rewrites it}}
  // FIXED: {{^}}  cudaResourceDesc tex1Res;
  // FIXED-NEXT: {{^}}  tex1Res = {};
  // FIXED: {{^}}  cudaTextureDesc tex1Desc;
  // FIXED-NEXT: {{^}}  tex1Desc = {};
  // FIXED: {{^}}  cuda(CreateTextureObject(&tex1, &tex1Res, &tex1Desc, nullptr));
  readOut<<<1, 32>>>(out);
  cuda(ThreadSynchronize());
  // warning@-1:3 {{'cudaThreadSynchronize' was removed in CUDA 13.0; use 'cudaDeviceSynchronize'}}
  // FIXED: cuda(DeviceSynchronize());
  cuda(UnbindTexture(tex1));
  // warning@-1:3 {{'cudaUnbindTexture' was removed in CUDA 12.0}}
  // note@16:44 {{the fix of texture reference 'tex1' declared here rewrites it}}
  // FIXED: cuda(DestroyTextureObject(tex1));
  return prop.clockRate;
  // warning@-1 {{'cudaDeviceProp::clockRate' was removed in CUDA 13.0}}
  // FIXED: return propClockRate;
Error:
  return -1;
}
