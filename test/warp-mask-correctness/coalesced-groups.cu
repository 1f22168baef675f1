// Cooperative groups' coalesced groups carry their mask with them: CUDA 13's
// coalesced_group is built only by coalesced_threads() (the active mask, the
// lanes that call) and by tiled_partition of one (a part of that mask); its
// constructor from a mask is protected. Their collectives therefore always
// name the calling lanes, under any divergence: silent. The raw intrinsics
// beside them are checked as usual.
// REQUIRES: cuda-toolkit
// RUN: %check_cuda_tidy --checks=cuda-warp-mask-correctness %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

// Stream compaction of the lanes that pass a filter (the CUDA samples'
// warp-aggregated atomics).
__global__ void aggregatedAppend(const int *in, int *out, int *count) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (v > 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    int base = 0;
    if (active.thread_rank() == 0)
      base = atomicAdd(count, active.num_threads());
    base = active.shfl(base, 0);
    out[base + active.thread_rank()] = v;
  }
}

// Tiles of a coalesced group under a branch half the warp takes.
__global__ void halfWarpTiles(int *o) {
  int v = o[threadIdx.x];
  if (threadIdx.x % 32 < 16) {
    cg::coalesced_group half = cg::coalesced_threads();
    cg::coalesced_group quad = cg::tiled_partition(half, 4);
    v += quad.shfl_down(v, 1);
    v = quad.any(v > 3) ? v : 0;
    half.sync();
  }
  o[threadIdx.x] = v;
}

// The same branch with the raw intrinsic and a full mask: reported.
__global__ void halfWarpRaw(int *o) {
  int v = o[threadIdx.x];
  if (threadIdx.x % 32 < 16)
    v += __shfl_down_sync(0xffffffff, v, 1);
  // warning@-1:27 {{the mask 0xffffffff of '__shfl_down_sync' names lanes 16-31, which never reach the call}}
  // note@-2:27 {{lanes 0-15 of each warp reach this call}}
  // note@-3:27 {{no fix: the call reads lane 16, which does not reach it}}
  o[threadIdx.x] = v;
}
