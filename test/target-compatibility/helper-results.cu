// A device helper whose value is computed only under a range guard, and a
// global atomic made only under one: for sm_90 the helper returns a constant
// (or does nothing) and the kernel that calls it stores that constant, so
// its results are wrong on every GPU that runs the sm_90 code, with no error
// (test/gpu/target-compat-family: on an H200 the sm_90 build writes 0 where
// the compute_80 PTX build writes the scaled values).
// RUN: %check_cuda_tidy --checks=cuda-target-compatibility %s %t -- %cuda_args --cuda-gpu-arch=sm_90 \
// RUN:   -D__CUDA_TIDY_BUILD_ARCHS__=compute_80,compute_90
#include <cuda_runtime.h>

__device__ float scaleOf(float x) {
  // warning@-1 {{the results of device function 'scaleOf' are compiled out for sm_90}} [cuda-target-compatibility]
  // note@-2 {{give sm_90 a path that does the work}}
  float y = 0.0f;
#if __CUDA_ARCH__ < 900
  // note@-1 {{'__CUDA_ARCH__ < 900' is false for sm_90 (sm_80 compiles}}
  y = x * 2.0f;
#endif
  return y;
  // note@-1 {{for sm_90 it returns a constant, computed from none of its inputs}}
}

__global__ void scaleAll(const float *in, float *out) {
  out[threadIdx.x] = scaleOf(in[threadIdx.x]);
  // note@-1:22 {{kernel 'scaleAll' calls it here and gets that constant}}
}

// The value returned under the guard, a literal after it.
__device__ float weightOf(float x) {
  // warning@-1 {{the results of device function 'weightOf' are compiled out for sm_90}}
  // note@-2 {{give sm_90 a path}}
#if __CUDA_ARCH__ >= 700 && __CUDA_ARCH__ < 900
  // note@-1 {{is false for sm_90}}
  return x * 0.5f;
#endif
  return 0.0f;
  // note@-1 {{for sm_90 it returns a constant}}
}

__global__ void weighAll(const float *in, float *out) {
  out[threadIdx.x] = weightOf(in[threadIdx.x]);
  // note@-1 {{kernel 'weighAll' calls it here}}
}

// A global atomic under the range, its old value returned: sm_90 adds
// nothing and returns 0.
__device__ float addTo(float *sum, float v) {
  // warning@-1 {{the results of device function 'addTo' are compiled out for sm_90}}
  // note@-2 {{give sm_90 a path}}
#if __CUDA_ARCH__ < 900
  // note@-1 {{is false for sm_90}}
  return atomicAdd(sum, v);
#else
  // note@-1 {{the '#else' branch taken for sm_90 does not store}}
  return 0.0f;
  // note@-1 {{for sm_90 it returns a constant}}
#endif
}

__global__ void total(const float *in, float *sums) {
  addTo(&sums[blockIdx.x], in[threadIdx.x]);
  // note@-1 {{kernel 'total' calls it here}}
}

// The atomic made by the kernel itself.
__global__ void histogram(const int *keys, unsigned *bins) {
  // warning@-1 {{the stores of kernel 'histogram' are compiled out for sm_90}}
  // note@-2 {{give sm_90 a path}}
  int k = keys[blockIdx.x * blockDim.x + threadIdx.x];
#if __CUDA_ARCH__ < 900
  // note@-1 {{is false for sm_90}}
  atomicAdd(&bins[k], 1u);
#endif
}

// Silent: the guard only picks a faster way to the same value; the other
// compilations start from the argument.
__device__ int laneSum(int x) {
  int r = x;
#if __CUDA_ARCH__ >= 800 && __CUDA_ARCH__ < 900
  r = __reduce_add_sync(0xffffffffu, x);
#endif
  return r;
}

__global__ void sums(const int *in, int *out) {
  out[threadIdx.x] = laneSum(in[threadIdx.x]);
}

// Silent: a query whose every compilation returns a constant.
__device__ bool hasFastPath() {
#if __CUDA_ARCH__ >= 800 && __CUDA_ARCH__ < 900
  return true;
#else
  return false;
#endif
}

__global__ void pick(float *out) { out[threadIdx.x] = hasFastPath() ? 1.0f : 0.0f; }

// Silent: a portable #else computes the value.
__device__ float halfOf(float x) {
#if __CUDA_ARCH__ < 900
  return x * 0.5f;
#else
  return x / 2.0f;
#endif
}

__global__ void halves(const float *in, float *out) {
  out[threadIdx.x] = halfOf(in[threadIdx.x]);
}

// Silent: a lower bound; older GPUs are not supported.
__device__ float newer(float x) {
  float y = 0.0f;
#if __CUDA_ARCH__ >= 800
  y = x * 3.0f;
#endif
  return y;
}

__global__ void newerAll(const float *in, float *out) {
  out[threadIdx.x] = newer(in[threadIdx.x]);
}

// Silent: the atomic has a portable #else (a compare-and-swap loop).
__device__ void countPortable(int *count) {
#if __CUDA_ARCH__ < 900
  atomicAdd(count, 1);
#else
  int old = *count, seen;
  do {
    seen = old;
    old = atomicCAS(count, seen, seen + 1);
  } while (seen != old);
#endif
}
