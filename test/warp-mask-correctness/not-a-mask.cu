// Widths the hardware does not support, and hand migrations that pass the
// value as the mask. No fix: the intended width or mask is not known.
// RUN: %check_cuda_tidy --checks=cuda-warp-mask-correctness %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__global__ void badWidth(int *o) {
  o[threadIdx.x] = __shfl_xor_sync(0xffffffff, o[threadIdx.x], 1, 12);
  // warning@-1:67 {{width 12 of '__shfl_xor_sync' is not a power of two; the result is undefined}} [cuda-warp-mask-correctness]
}

constexpr int SegmentWidth = 64;
__global__ void widthOverWarp(float *o) {
  o[threadIdx.x] = __shfl_down_sync(0xffffffff, o[threadIdx.x], 1, SegmentWidth);
  // warning@-1:68 {{width 64 of '__shfl_down_sync' is over the warp size of 32; the result is undefined}} [cuda-warp-mask-correctness]
}

// A hand migration of __shfl(v, 0) that put the value in the mask slot.
__global__ void valueAsMask(unsigned *o) {
  unsigned v = o[threadIdx.x];
  o[threadIdx.x] = __shfl_sync(v, v, 0);
  // warning@-1:32 {{the mask of '__shfl_sync' is the value it operates on, not a set of lanes}} [cuda-warp-mask-correctness]
  // note@-2:35 {{'v' is also the value; the mask names the lanes that take part (a constant such as 0xffffffff, '__activemask()' or a '__ballot_sync' result)}}
}

// Correct: segmented shuffles of width 16 and 8, a mask variable that is not
// the value.
__global__ void segments(int *o) {
  int v = o[threadIdx.x];
  v += __shfl_xor_sync(0xffffffff, v, 1, 16);
  v += __shfl_xor_sync(0xffffffff, v, 2, 8);
  unsigned mask = __ballot_sync(0xffffffff, v > 0);
  v = __shfl_sync(mask, v, 0);
  o[threadIdx.x] = v;
}

// A mask loaded per thread: the lanes need not agree on who takes part.
__global__ void loadedMask(const unsigned *masks, int *o) {
  unsigned m = masks[threadIdx.x];
  o[threadIdx.x] = __shfl_sync(m, o[threadIdx.x], 0);
  // warning@-1:32 {{the mask of '__shfl_sync' may differ between lanes and is not built from '__activemask()', a vote or the lane index}} [cuda-warp-mask-correctness]
}

// Correct run-time masks: a vote, the active lanes, a lane computation, a
// mask shared by the block (block-uniform), a parameter.
__global__ void runtimeMasks(const unsigned *groupMasks, int *o, unsigned given) {
  int lane = threadIdx.x & 31;
  int v = o[threadIdx.x];
  unsigned voted = __ballot_sync(0xffffffff, v > 0);
  unsigned segment = 0xffu << (lane & ~7);
  unsigned shared = groupMasks[blockIdx.x];
  v += __shfl_sync(voted | 1u, v, 0);
  v += __shfl_sync(segment, v, lane & ~7);
  v += __shfl_sync(__activemask(), v, 0);
  v += __shfl_sync(shared, v, 0);
  v += __shfl_sync(given, v, 0);
  o[threadIdx.x] = v;
}
