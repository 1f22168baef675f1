// Where the whole warp is not proven to reach the call, the warning carries no
// fix; a note offers '__activemask()', applied only by --fix-notes.
// RUN: %check_cuda_tidy --fix-notes --fixed-prefix=FIXED-NOTES --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__global__ void halfWarp(int *out) {
  int v = out[threadIdx.x];
  if (threadIdx.x < 16)
    // note@-1:7 {{the whole warp is not proven to reach the call, so a full mask could hang or read lanes that are absent: the condition depends on 'threadIdx.x'}}
    v += __shfl_xor(v, 1, 16);
  // warning@-1:10 {{'__shfl_xor' is not available on sm_70 and later; use '__shfl_xor_sync'}}
  // note@-2:10 {{use '__activemask()' to keep the lanes that are active here, as '__shfl_xor' did}}
  // FIXED-NOTES: v += __shfl_xor_sync(__activemask(), v, 1, 16);
  out[threadIdx.x] = v;
}

// An early return: the lanes that returned do not take part.
__global__ void earlyExit(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // note@-1:5 {{a 'return' before the call may leave some lanes behind}}
  float v = in[i];
  v += __shfl_down(v, 1);
  // warning@-1:8 {{'__shfl_down' is not available on sm_70 and later; use '__shfl_down_sync'}}
  // note@-2:8 {{use '__activemask()'}}
  // FIXED-NOTES: v += __shfl_down_sync(__activemask(), v, 1);
  out[i] = v;
}

// A loop whose trip count depends on the lane.
__global__ void perLaneLoop(int *data, int n) {
  int acc = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    // note@-1:3 {{the loop's start varies: the condition depends on 'threadIdx.x'}}
    acc += __ballot(data[i] > 0);
    // warning@-1:12 {{'__ballot' is not available on sm_70 and later; use '__ballot_sync'}}
    // note@-2:12 {{use '__activemask()'}}
    // FIXED-NOTES: acc += __ballot_sync(__activemask(), data[i] > 0);
  }
  data[threadIdx.x] = acc;
}

// A value loaded per lane decides the branch.
__global__ void dataDependent(const int *flags, int *out) {
  int f = flags[threadIdx.x];
  if (f)
    // note@-1:7 {{the condition depends on 'f', and the condition reads memory that may differ between lanes}}
    out[threadIdx.x] = __any(f > 1);
  // warning@-1:24 {{'__any' is not available on sm_70 and later; use '__any_sync'}}
  // note@-2:24 {{use '__activemask()'}}
  // FIXED-NOTES: out[threadIdx.x] = __any_sync(__activemask(), f > 1);
}

// A device function with no caller in this file may be called by part of a
// warp.
__device__ int uncalledHelper(int v) {
  // note@-1:16 {{'uncalledHelper' is not a kernel and has no caller in this translation unit}}
  return __all(v);
  // warning@-1:10 {{'__all' is not available on sm_70 and later; use '__all_sync'}}
  // note@-2:10 {{use '__activemask()'}}
  // FIXED-NOTES: return __all_sync(__activemask(), v);
}

// A device function called under a lane-dependent condition.
__device__ int laneHelper(int v) { return __shfl(v, 0); }
// warning@-1:43 {{'__shfl' is not available on sm_70 and later; use '__shfl_sync'}}
// note@-2:43 {{use '__activemask()'}}
// FIXED-NOTES: __device__ int laneHelper(int v) { return __shfl_sync(__activemask(), v, 0); }
__global__ void callsUnderCondition(int *out) {
  if (threadIdx.x % 2 == 0)
    out[threadIdx.x] = laneHelper(out[threadIdx.x]);
  // note@-1:24 {{'laneHelper' is called here, where the condition depends on 'threadIdx.x'}}
}
