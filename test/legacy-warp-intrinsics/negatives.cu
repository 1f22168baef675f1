// Calls that are not the CUDA headers' legacy intrinsics, and legacy code that
// only pre-Volta compilations see, stay silent.
// RUN: %check_cuda_tidy %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// The pre-Volta branches are live when clang-tidy analyses for sm_52 (its
// default), and must still stay silent:
// RUN: %check_cuda_tidy %s %t -- %cuda_args --cuda-gpu-arch=sm_52
#include <cuda_runtime.h>

// The user's own functions that share a builtin's name: in a namespace, or a
// global overload declared in the user's file.
namespace compat {
__device__ int __shfl(int v, int lane) { return v + lane; }
__device__ unsigned __ballot(int p) { return p; }
} // namespace compat
struct Packet { int a, b; };
__device__ Packet __shfl(Packet p, int lane) { return p; }

__global__ void userFunctions(int *out) {
  out[0] = compat::__shfl(out[1], 2);    // A namespace member, not the builtin.
  out[1] = compat::__ballot(out[2] > 0); // Same.
  Packet p{1, 2};
  p = __shfl(p, 3); // The user's global overload.
  out[2] = p.a;
}

// Already migrated.
__global__ void migrated(int *out) {
  int v = out[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 1);
  v += __ballot_sync(__activemask(), v > 0);
  out[threadIdx.x] = v;
}

// Legacy code kept for old architectures on purpose.
__device__ int broadcast(int v) {
#if __CUDA_ARCH__ < 700
  return __shfl(v, 0);
#else
  return __shfl_sync(0xffffffff, v, 0);
#endif
}

__device__ int reduce(int v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 300)
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down(v, o);
#endif
  return v;
}

__device__ unsigned vote(int p) {
#if 700 > __CUDA_ARCH__
  return __ballot(p);
#endif
  return __ballot_sync(0xffffffff, p);
}

__global__ void useThem(int *out) {
  out[threadIdx.x] = broadcast(out[0]) + reduce(out[1]) + vote(out[2]);
}
