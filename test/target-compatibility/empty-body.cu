// Kernels and device functions whose statements are all under __CUDA_ARCH__
// conditions: a range or an upper bound leaves later architectures with an
// empty body (on an H100 such a kernel launches, returns cudaSuccess and
// writes nothing); a lower bound, an '#else' and host-only code are silent.
// RUN: %check_cuda_tidy --checks=cuda-target-compatibility %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__global__ void scaleBelowHopper(const float *in, float *out, int n) {
  // warning@-1:17 {{kernel 'scaleBelowHopper' compiles to an empty body for sm_90}} [cuda-target-compatibility]
  // note@-2:17 {{give sm_90 a path that does the work}}
#if __CUDA_ARCH__ < 900
  // note@-1:1 {{'__CUDA_ARCH__ < 900' is false for sm_90 (sm_89 compiles this code)}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 2.0f;
#endif
}

__global__ void ampereOnly(const float *in, float *out, int n) {
  // warning@-1:17 {{kernel 'ampereOnly' compiles to an empty body for sm_90}}
  // note@-2:17 {{give sm_90 a path}}
#if __CUDA_ARCH__ == 800
  // note@-1 {{'__CUDA_ARCH__ == 800' is false for sm_90 (sm_80 compiles this code)}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 2.0f;
#endif
}

__global__ void voltaToAda(const float *in, float *out, int n) {
  // warning@-1 {{kernel 'voltaToAda' compiles to an empty body for sm_90}}
  // note@-2 {{give sm_90 a path}}
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700 && __CUDA_ARCH__ < 900
  // note@-1 {{'defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700 && __CUDA_ARCH__ < 900' is false for sm_90}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 2.0f;
#endif
}

// An '#else' that does nothing but silence unused parameters is no path.
__global__ void unusedElse(const float *in, float *out, int n) {
  // warning@-1 {{kernel 'unusedElse' compiles to an empty body for sm_90}}
  // note@-2 {{give sm_90 a path}}
#if __CUDA_ARCH__ < 900
  // note@-1 {{'__CUDA_ARCH__ < 900' is false for sm_90}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
#else
  // note@-1 {{the '#else' branch taken for sm_90 does no work}}
  (void)in;
  (void)out;
  (void)n;
#endif
}

// A device function too, and a template (read once, from its pattern).
__device__ float fastScale(float x) {
  // warning@-1:18 {{device function 'fastScale' compiles to an empty body for sm_90}}
  // note@-2 {{give sm_90 a path}}
#if __CUDA_ARCH__ >= 800 && __CUDA_ARCH__ < 900
  // note@-1 {{is false for sm_90}}
  return x * 2.0f;
#endif
}

template <int Scale>
__global__ void scaled(float *out) {
  // warning@-1 {{kernel 'scaled' compiles to an empty body for sm_90}}
  // note@-2 {{give sm_90 a path}}
#if __CUDA_ARCH__ <= 890
  // note@-1 {{'__CUDA_ARCH__ <= 890' is false for sm_90}}
  out[threadIdx.x] = Scale * fastScale(out[threadIdx.x]);
#endif
}
template __global__ void scaled<2>(float *);
template __global__ void scaled<4>(float *);

// Code that only the architecture-specific target keeps: built for plain
// sm_90, the kernel is empty on the H100 too.
__global__ void hopperFeatures(float *out) {
  // warning@-1 {{kernel 'hopperFeatures' compiles to an empty body for sm_90}}
  // note@-2 {{give sm_90 a path}}
  // note@-3 {{a GPU that runs the sm_90 code launches it and gets cudaSuccess with no results (or a trap); build sm_90a code for it (nvcc '-gencode arch=compute_90a,code=sm_90a', CMake '90a')}}
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
  // note@-1 {{'__CUDA_ARCH_FEAT_SM90_ALL' is not defined for sm_90 (sm_90a compiles this code)}}
  out[threadIdx.x] = 1.0f;
#endif
}

// Silent: a lower bound. Older GPUs are not supported by this kernel (the
// CUDA samples guard their tensor-core kernels this way); newer ones get it.
__global__ void tensorCores(const float *in, float *out, int n) {
#if __CUDA_ARCH__ >= 800
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 2.0f;
#endif
}

// Silent: the '#else' does the work.
__global__ void withFallback(const float *in, float *out, int n) {
#if __CUDA_ARCH__ < 900
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 2.0f;
#else
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + in[i];
#endif
}

// Silent: a guard that only selects a faster path (the CUDA samples'
// conjugateGradientMultiDeviceCG picks its memory operations this way).
__device__ unsigned char loadArrived(unsigned char *arrived) {
#if __CUDA_ARCH__ < 700
  return *(volatile unsigned char *)arrived;
#else
  unsigned int result;
  asm volatile("ld.acquire.sys.global.u8 %0, [%1];"
               : "=r"(result)
               : "l"(arrived)
               : "memory");
  return result;
#endif
}

__global__ void fastPathOnly(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
#if __CUDA_ARCH__ >= 800 && __CUDA_ARCH__ < 900
  v = __fmul_rn(v, 1.0f);
#endif
  out[i] = v * 2.0f;
}

// Silent: host-only code in a host-device function is empty on every device
// architecture alike.
__host__ __device__ void logValue(float v) {
#ifndef __CUDA_ARCH__
  (void)v;
  static float last;
  last = v;
#endif
}

// Silent: conditions that are not the architecture's are not judged.
__global__ void debugOnly(float *out) {
#ifdef DEBUG_KERNELS
  out[threadIdx.x] = 0.0f;
#endif
#if 0
  out[threadIdx.x] = 1.0f;
#endif
}

// Silent: a condition through another macro cannot be decided.
#define USE_OLD_PATH (__CUDA_ARCH__ < 900)
__global__ void throughMacro(float *out) {
#if USE_OLD_PATH
  out[threadIdx.x] = 1.0f;
#endif
}

void launchAll(const float *in, float *out, int n) {
  scaleBelowHopper<<<1, 32>>>(in, out, n);
  scaled<2><<<1, 32>>>(out);
  scaled<4><<<1, 32>>>(out);
}
