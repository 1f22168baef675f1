// Constant masks that do not match the lanes that reach the call; the fix
// puts in the lanes that do.
// RUN: %check_cuda_tidy --checks=cuda-warp-mask-correctness --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

#define FULL_WARP 0xffffffffu

// The same two mistakes where every lane read is a caller: fixed.
__global__ void halfWarpBroadcast(int *o) {
  int lane = threadIdx.x & 31;
  int v = o[threadIdx.x];
  if (lane < 16)
    v = __shfl_sync(0xffffffff, v, 0);
  // warning@-1:21 {{the mask 0xffffffff of '__shfl_sync' names lanes 16-31, which never reach the call}} [cuda-warp-mask-correctness]
  // note@-2:21 {{lanes 0-15 of each warp reach this call}}
  // FIXED: v = __shfl_sync(0x0000ffff, v, 0);
  if (lane >= 16)
    v += __shfl_xor_sync(0x0000ffff, v, 1);
  // warning@-1:26 {{lanes 16-31 call '__shfl_xor_sync' but are not in its mask 0x0000ffff}} [cuda-warp-mask-correctness]
  // note@-2:26 {{lanes 16-31 of each warp reach this call}}
  // FIXED: v += __shfl_xor_sync(0xffff0000, v, 1);
  o[threadIdx.x] = v;
}

// The leader lane votes alone with the full mask (a macro's value).
__global__ void leaderVote(const int *flags, unsigned *out) {
  int lane = threadIdx.x & 31;
  if (lane == 0)
    out[threadIdx.x / 32] = __ballot_sync(FULL_WARP, flags[threadIdx.x] != 0);
  // warning@-1:43 {{the mask 0xffffffff of '__ballot_sync' names lanes 1-31, which never reach the call}} [cuda-warp-mask-correctness]
  // note@-2:43 {{lane 0 of each warp reaches this call}}
  // FIXED: out[threadIdx.x / 32] = __ballot_sync(0x00000001, flags[threadIdx.x] != 0);
}

// A __syncwarp that names lanes which returned early.
__global__ void syncAfterReturn(float *s) {
  int lane = threadIdx.x % 32;
  if (lane >= 8)
    return;
  s[threadIdx.x] *= 2.0f;
  __syncwarp(0xffffffff);
  // warning@-1:14 {{the mask 0xffffffff of '__syncwarp' names lanes 8-31, which never reach the call}} [cuda-warp-mask-correctness]
  // note@-2:14 {{lanes 0-7 of each warp reach this call}}
  // FIXED: __syncwarp(0x000000ff);
  s[threadIdx.x] += s[threadIdx.x ^ 1];
}

// Correct counterparts: silent.

// A warp reduction in the first warp only: every lane of that warp calls.
__global__ void firstWarpReduces(const float *in, float *out) {
  float v = in[threadIdx.x];
  if (threadIdx.x / 32 == 0) {
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x == 0)
      *out = v;
  }
}

// Half-warp groups with their own masks.
__global__ void halfWarps(int *o) {
  int lane = threadIdx.x & 31;
  int v = o[threadIdx.x];
  if (lane < 16)
    v = __shfl_sync(0x0000ffff, v, 0);
  else
    v = __shfl_sync(0xffff0000, v, 16);
  o[threadIdx.x] = v;
}

// Masks computed at run time are not judged (no known constant).
__global__ void activeMasks(int *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned active = __activemask();
    int v = __shfl_sync(active, o[i], 0);
    unsigned m = __ballot_sync(active, v > 0);
    o[i] = m != 0;
  }
}

// The lanes are unknown (they depend on loaded data): silent.
__global__ void dataDependent(const int *flags, int *o) {
  if (flags[threadIdx.x])
    o[threadIdx.x] = __shfl_sync(0xffffffff, o[threadIdx.x], 0);
}
