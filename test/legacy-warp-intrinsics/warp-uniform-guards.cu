// Conditions that are the same for every lane of a warp (uniformity analysis)
// keep the whole warp together: the full mask is proven, and fixed directly.
// RUN: %check_cuda_tidy --checks=cuda-legacy-warp-intrinsics --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__global__ void warpGuards(const int *in, int *out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  // 'threadIdx.x < 32' holds for the whole first warp (blockDim.x is a
  // multiple of 32).
  if (threadIdx.x < 32) {
    for (int o = 16; o > 0; o /= 2)
      v += __shfl_down(v, o);
    // warning@-1:12 {{'__shfl_down' is not available on sm_70 and later; use '__shfl_down_sync'}}
    // FIXED: v += __shfl_down_sync(0xffffffff, v, o);
  }
  // A warp index decides for whole warps.
  int warp = threadIdx.x / 32;
  if (warp == 1)
    v = __shfl(v, 0);
  // warning@-1:9 {{'__shfl' is not available on sm_70 and later; use '__shfl_sync'}}
  // FIXED: v = __shfl_sync(0xffffffff, v, 0);
  // A load from a block-uniform address.
  if (in[blockIdx.x] > 0)
    v += __shfl_xor(v, 1);
  // warning@-1:10 {{'__shfl_xor' is not available on sm_70 and later; use '__shfl_xor_sync'}}
  // FIXED: v += __shfl_xor_sync(0xffffffff, v, 1);
  // A vote result is the same in every lane.
  unsigned any = __ballot_sync(0xffffffff, v > 0);
  if (any)
    v = __shfl(v, 3);
  // warning@-1:9 {{'__shfl' is not available on sm_70 and later; use '__shfl_sync'}}
  // FIXED: v = __shfl_sync(0xffffffff, v, 3);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
