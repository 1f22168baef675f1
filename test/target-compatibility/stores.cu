// The part of a kernel its result depends on (its stores to global memory)
// under a condition that later architectures do not meet: the kernel runs
// and writes nothing there.
// RUN: %check_cuda_tidy --checks=cuda-target-compatibility %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__global__ void scale(const float *in, float *out, int n) {
  // warning@-1:17 {{the stores of kernel 'scale' are compiled out for sm_90}} [cuda-target-compatibility]
  // note@-2 {{give sm_90 a path that does the work}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = in[i] * 2.0f;
#if __CUDA_ARCH__ < 900
  // note@-1 {{'__CUDA_ARCH__ < 900' is false for sm_90 (sm_89 compiles the stores)}}
  out[i] = v;
#endif
}

// Stores through a pointer derived from the output, an atomic, and a helper
// that stores.
__device__ void storeTo(float *p, float v) { *p = v; }

__global__ void rows(const float *in, float *out, int *count, int n) {
  // warning@-1 {{the stores of kernel 'rows' are compiled out for sm_90}}
  // note@-2 {{give sm_90 a path}}
  float *row = out + blockIdx.x * n;
  float v = in[blockIdx.x * n + threadIdx.x];
#if __CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 860
  // note@-1 {{'__CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 860' is false for sm_90 (sm_86 compiles the stores)}}
  row[threadIdx.x] = v;
  atomicAdd(count, 1);
  storeTo(row, v);
#endif
}

struct Params {
  const float *in;
  float *out;
  int n;
};

__global__ void withParams(Params p) {
  // warning@-1 {{the stores of kernel 'withParams' are compiled out for sm_90}}
  // note@-2 {{give sm_90 a path}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n)
    return;
#if __CUDA_ARCH__ < 900
  // note@-1 {{is false for sm_90}}
  p.out[i] = p.in[i];
#endif
}

__device__ float twice(float x) {
  // warning@-1 {{the results of device function 'twice' are compiled out for sm_90}}
  // note@-2 {{give sm_90 a path}}
  float y = x + x;
#if __CUDA_ARCH__ < 900
  // note@-1 {{is false for sm_90}}
  return y;
#endif
}

// Silent: the store is outside the condition, which only picks how the
// value is computed.
__global__ void fasterPath(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v;
#if __CUDA_ARCH__ >= 800
  v = in[i] * 1.0f;
#else
  v = in[i];
#endif
  out[i] = v;
}

// Silent: both branches store.
__global__ void bothStore(const float *in, float *out) {
  int i = threadIdx.x;
#if __CUDA_ARCH__ < 900
  out[i] = in[i];
#else
  out[i] = in[i] * 1.0f;
#endif
}

// Silent: a lower bound on the stores.
__global__ void newerOnly(const float *in, float *out) {
  float v = in[threadIdx.x];
#if __CUDA_ARCH__ >= 800
  out[threadIdx.x] = v;
#endif
}

// Silent: what is left calls a helper that may store.
__global__ void viaHelper(const float *in, float *out) {
  float v = in[threadIdx.x];
#if __CUDA_ARCH__ < 900
  out[threadIdx.x] = v;
#else
  storeTo(out + threadIdx.x, v);
#endif
}
