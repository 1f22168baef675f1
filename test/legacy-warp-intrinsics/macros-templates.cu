// Macros are fixed once at the user's definition; templates get one report and
// one fix per spelling, however many instantiations; system headers are never
// edited; the project's mask spelling is used when configured.
// RUN: %check_cuda_tidy --fix --recheck %if nvcc %{ %nvcc_fixed %} \
// RUN:   --config="{CheckOptions: {cuda-legacy-warp-intrinsics.FullMask: FULL_MASK}}" \
// RUN:   %s %t -- %cuda_args --cuda-gpu-arch=sm_90 -isystem %inputs/legacy
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff
#define WARP_BROADCAST(v) __shfl((v), 0)
// warning@-1:27 {{'__shfl' is not available on sm_70 and later; use '__shfl_sync'}}
// FIXED: #define WARP_BROADCAST(v) __shfl_sync(FULL_MASK, (v), 0)
#define WARP_ID(x) (x)

// A template instantiated for two types: one warning, one fix.
template <typename T> __device__ T warpSum(T v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor(v, o);
  // warning@-1:10 {{'__shfl_xor' is not available on sm_70 and later; use '__shfl_xor_sync'}}
  // FIXED: v += __shfl_xor_sync(FULL_MASK, v, o);
  return v;
}

// A class template's member, instantiated once.
template <int Lanes> struct Segment {
  __device__ static unsigned votes(int p) { return __ballot(p) & ((1u << Lanes) - 1); }
  // warning@-1:52 {{'__ballot' is not available on sm_70 and later; use '__ballot_sync'}}
  // FIXED: __device__ static unsigned votes(int p) { return __ballot_sync(FULL_MASK, p) & ((1u << Lanes) - 1); }
};

__global__ void kernel(float *f, int *i, double *d) {
  f[threadIdx.x] = warpSum(f[threadIdx.x]);
  i[threadIdx.x] = warpSum(i[threadIdx.x]) + Segment<8>::votes(i[0] > 0);
  // Two expansions of the user's macro: reported once, at the definition.
  i[threadIdx.x] += WARP_BROADCAST(i[threadIdx.x]) + WARP_BROADCAST(i[1]);
  // note@-1:21 {{the call comes from this expansion of macro 'WARP_BROADCAST'; the fix edits its definition}}
  // A legacy call written in a macro argument is fixed where it is written.
  d[threadIdx.x] = WARP_ID(__shfl(d[threadIdx.x], 1));
  // warning@-1:28 {{'__shfl' is not available on sm_70 and later; use '__shfl_sync'}}
  // FIXED: d[threadIdx.x] = WARP_ID(__shfl_sync(FULL_MASK, d[threadIdx.x], 1));
}
