// A counted loop whose first test always holds runs its body, so a barrier
// in it orders what comes before the loop with what comes after it; a loop
// that may be skipped does not.
// RUN: %check_cuda_tidy --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// One stage, written as a loop (a pipeline with a stage count of one):
// the __syncthreads inside always runs. Silent.
__global__ void oneStage(float *o) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = o[t];
  for (int i = 0; i < 1; i++) {
    o[t] += 1.0f;
    __syncthreads();
  }
  o[t] = s[t ^ 1];
}

// A constant stage count of two: the first test holds too. Silent.
constexpr int Stages = 2;
__global__ void twoStages(float *o) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = o[t];
  for (int stage = 0; stage < Stages; ++stage) {
    __syncthreads();
    o[t] += stage;
  }
  o[t] = s[(t + 1) % 32 + t / 32 * 32];
}

// The stage count is a parameter: zero stages skip the barrier, and the
// lanes of a warp exchange s with nothing between.
__global__ void someStages(float *o, int stages) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = 2.0f * o[t];
  for (int i = 0; i < stages; i++) {
    o[t] += 1.0f;
    __syncthreads();
  }
  o[t] = s[t ^ 1];
  // warning@-1:10 {{lanes of a warp exchange data through shared memory 's' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
  // note@-7:3 {{lane 1 writes the element here}}
  // note@-3:10 {{lane 0 reads it here, and no barrier orders the two}}
  // note@-4:10 {{independent thread scheduling}}
  // FIXED: {{^}}  s[t] = 2.0f * o[t];{{$}}
  // FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
}
