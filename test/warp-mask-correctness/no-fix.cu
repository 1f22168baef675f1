// The issue's two kernels: the mask is wrong, but the lanes each call reads
// from do not all reach it, so no mask makes the call defined: no fix, a
// note says why.
// RUN: %check_cuda_tidy --checks=cuda-warp-mask-correctness %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// Half the warp shuffles with a full mask: lanes 16-31 never arrive (a hang
// or an undefined result, silent even under compute-sanitizer synccheck).
__global__ void fullMaskUnderDivergence(int *o) {
  int v = o[threadIdx.x];
  if (threadIdx.x % 32 < 16)
    v += __shfl_down_sync(0xffffffff, v, 1);
  // warning@-1:27 {{the mask 0xffffffff of '__shfl_down_sync' names lanes 16-31, which never reach the call}} [cuda-warp-mask-correctness]
  // note@-2:27 {{lanes 0-15 of each warp reach this call}}
  // note@-3:27 {{no fix: the call reads lane 16, which does not reach it; a mask of the calling lanes would still leave the result undefined}}
  o[threadIdx.x] = v;
}

// The callers are not in the mask: "an illegal instruction" on an H100.
__global__ void maskMissesCaller(int *o) {
  int v = o[threadIdx.x];
  if (threadIdx.x % 32 >= 16)
    v = __shfl_sync(0x0000ffff, v, 0);
  // warning@-1:21 {{lanes 16-31 call '__shfl_sync' but are not in its mask 0x0000ffff}} [cuda-warp-mask-correctness]
  // note@-2:21 {{lanes 16-31 of each warp reach this call}}
  // note@-3:21 {{no fix: the call reads lane 0, which does not reach it; a mask of the calling lanes would still leave the result undefined}}
  o[threadIdx.x] = v;
}


// The mask matches the callers, but the shuffle reads a lane outside it.
__global__ void sourceOutsideMask(int *o) {
  int lane = threadIdx.x & 31;
  int v = o[threadIdx.x];
  if (lane >= 16)
    v = __shfl_sync(0xffff0000, v, 0);
  // warning@-1:36 {{'__shfl_sync' reads lane 0, which is not in its mask 0xffff0000; the value read is undefined}} [cuda-warp-mask-correctness]
  if (lane < 16)
    v += __shfl_down_sync(0x0000ffff, v, 1);
  // warning@-1:42 {{'__shfl_down_sync' reads lane 16, which is not in its mask 0x0000ffff; the value read is undefined}} [cuda-warp-mask-correctness]
  o[threadIdx.x] = v;
}

// Correct: every lane read is in the mask (a half-warp segment of width 16
// clamps lane 15's read to itself).
__global__ void sourcesInside(int *o) {
  int lane = threadIdx.x & 31;
  int v = o[threadIdx.x];
  if (lane >= 16)
    v = __shfl_sync(0xffff0000, v, 16);
  if (lane < 16)
    v += __shfl_down_sync(0x0000ffff, v, 1, 16);
  o[threadIdx.x] = v;
}
