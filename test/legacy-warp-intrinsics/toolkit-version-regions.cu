// Legacy code that only a pre-CUDA-9 toolkit compiles stays silent, although
// clang (which defines no __CUDACC_VER_MAJOR__) takes those branches; the same
// intrinsics in branches that a modern toolkit compiles are reported.
// RUN: %check_cuda_tidy %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// RUN: %check_cuda_tidy %s %t -- %cuda_args --cuda-gpu-arch=sm_52
#include <cuda_runtime.h>

// The compatibility macro of many pre-Volta libraries.
#if defined(__CUDACC_VER_MAJOR__) && __CUDACC_VER_MAJOR__ >= 9
#define SHFL_DOWN(v, o) __shfl_down_sync(0xffffffffu, v, o)
#define BALLOT(p) __ballot_sync(0xffffffffu, p)
#else
#define SHFL_DOWN(v, o) __shfl_down(v, o)
#define BALLOT(p) __ballot(p)
#endif

__device__ int warpSum(int v) {
  for (int o = 16; o > 0; o /= 2)
    v += SHFL_DOWN(v, o);
  return v;
}

__device__ int broadcastLane0(int v) {
#if CUDART_VERSION >= 9000
  return __shfl_sync(0xffffffffu, v, 0);
#else
  return __shfl(v, 0);
#endif
}

__device__ unsigned voteCount(int p) {
#if CUDA_VERSION < 9000 || __CUDA_ARCH__ < 300
  return __ballot(p);
#elif __CUDACC_VER_MAJOR__ == 9 && __CUDACC_VER_MINOR__ < 2
  return BALLOT(p);
#else
  return __ballot_sync(0xffffffffu, p);
#endif
}

// A branch that CUDA 9 and later do compile: the legacy call there is a real
// hazard and is reported.
__device__ int broadcastNew(int v) {
#if __CUDACC_VER_MAJOR__ >= 9 || !defined(__CUDACC_VER_MAJOR__)
  return __shfl(v, 1);
  // warning@-1:10 {{'__shfl' is not available on sm_70 and later; use '__shfl_sync'}} [cuda-legacy-warp-intrinsics]
#else
  return v;
#endif
}

// CUDA 9.0 compiles this branch, so it is live.
__device__ int broadcastMinor(int v) {
#if __CUDACC_VER_MAJOR__ < 9 || (__CUDACC_VER_MAJOR__ == 9 && __CUDACC_VER_MINOR__ < 1)
  return __shfl(v, 2);
  // warning@-1:10 {{'__shfl' is not available on sm_70 and later; use '__shfl_sync'}} [cuda-legacy-warp-intrinsics]
#else
  return __shfl_sync(0xffffffffu, v, 2);
#endif
}

__global__ void useThem(int *out) {
  int v = out[threadIdx.x];
  out[threadIdx.x] = warpSum(v) + broadcastLane0(v) + voteCount(v > 0) +
                     broadcastNew(v) + broadcastMinor(v);
}
