// Calls the whole warp reaches get the full mask on the warning itself.
// RUN: %check_cuda_tidy --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// A warp reduction with a counted loop: every lane runs every iteration.
__device__ int warpReduceSum(int v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  // warning@-1:10 {{'__shfl_down' is not available on sm_70 and later; use '__shfl_down_sync'}} [cuda-legacy-warp-intrinsics]
  // FIXED: v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__device__ float broadcast(float v) {
  return __shfl(v, 0);
  // warning@-1:10 {{'__shfl' is not available on sm_70 and later; use '__shfl_sync'}}
  // FIXED: return __shfl_sync(0xffffffff, v, 0);
}

__global__ void reduceKernel(const int *in, int *out, int n) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  v = warpReduceSum(v);
  // Block-uniform condition: blockIdx and kernel parameters are the same for
  // every lane.
  if (blockIdx.x < n) {
    unsigned votes = __ballot(v > 0);
    // warning@-1:22 {{'__ballot' is not available on sm_70 and later; use '__ballot_sync'}}
    // FIXED: unsigned votes = __ballot_sync(0xffffffff, v > 0);
    v += (int)votes;
  }
  // The width argument is kept.
  int up = __shfl_up(v, 1, 16);
  // warning@-1:12 {{'__shfl_up' is not available on sm_70 and later; use '__shfl_up_sync'}}
  // FIXED: int up = __shfl_up_sync(0xffffffff, v, 1, 16);
  int x = __shfl_xor(up, 8, 16);
  // warning@-1:11 {{'__shfl_xor' is not available on sm_70 and later; use '__shfl_xor_sync'}}
  // FIXED: int x = __shfl_xor_sync(0xffffffff, up, 8, 16);
  int any = __any(x > 3) + __all(x < 9);
  // warning@-1:13 {{'__any' is not available on sm_70 and later; use '__any_sync'}}
  // warning@-2:28 {{'__all' is not available on sm_70 and later; use '__all_sync'}}
  // FIXED: int any = __any_sync(0xffffffff, x > 3) + __all_sync(0xffffffff, x < 9);
  out[blockIdx.x] = broadcast(float(v)) + any;
}
