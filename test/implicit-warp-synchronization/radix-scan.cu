// The warp scan of the radix sort of the CUDA SDK lineage: each warp scans
// 32 values in a 64-element window whose lower half is zero (`idx = 2 * t -
// (t & 31)`), one step per level, on a volatile pointer, with the levels a
// call runs bound at the call (a template argument or a function
// parameter): a level the call leaves out is not run. Each step reads the
// element another lane wrote in the step before.
// RUN: %check_cuda_tidy --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// Levels bound by a function parameter: two levels at the call.
__device__ unsigned scanTo(unsigned v, volatile unsigned *s, int maxlevel) {
  unsigned idx = 2 * threadIdx.x - (threadIdx.x & 31);
  s[idx] = 0;
  idx += 32;
  s[idx] = v;
  if (maxlevel >= 0) s[idx] += s[idx - 1];
  if (maxlevel >= 1) s[idx] += s[idx - 2];
  if (maxlevel >= 2) s[idx] += s[idx - 4];
  return s[idx];
}

__global__ void twoLevels(unsigned *io) {
  __shared__ unsigned s[512];
  io[threadIdx.x] = scanTo(io[threadIdx.x], s, 1);
}

// Correct counterpart: each step reads, synchronises, then writes.
__device__ unsigned scanToSynced(unsigned v, volatile unsigned *s,
                                 int maxlevel) {
  unsigned idx = 2 * threadIdx.x - (threadIdx.x & 31);
  s[idx] = 0;
  idx += 32;
  s[idx] = v;
  __syncwarp();
  unsigned t = v;
  if (maxlevel >= 0) { t += s[idx - 1]; __syncwarp(); s[idx] = t; __syncwarp(); }
  if (maxlevel >= 1) { t += s[idx - 2]; __syncwarp(); s[idx] = t; __syncwarp(); }
  if (maxlevel >= 2) { t += s[idx - 4]; __syncwarp(); s[idx] = t; __syncwarp(); }
  return s[idx];
}

__global__ void twoLevelsSynced(unsigned *io) {
  __shared__ unsigned s[512];
  io[threadIdx.x] = scanToSynced(io[threadIdx.x], s, 1);
}

void launch(unsigned *p) {
  twoLevels<<<4, 256>>>(p);
  twoLevelsSynced<<<4, 256>>>(p);
}

// Levels 0 and 1 run: each reads what another lane wrote; level 2 is left
// out by the call.
// warning@16:32 {{lanes of a warp exchange data through shared memory 's' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
// note@13:3 {{lane 31 writes the element here}}
// note@16:32 {{lane 0 reads it here, and no barrier orders the two}}
// note@24:21 {{shared memory 's' is passed to 'scanTo' here}}
// note@16:32 {{independent thread scheduling}}
// note@-42:32 {{and lane 0 reads it here with no barrier between}}
// note@13:3 {{the same exchange again: lane 30 writes the element here}}
// FIXED: {{^}}  unsigned idx = 2 * threadIdx.x - (threadIdx.x & 31);{{$}}
// FIXED-NEXT: {{^}}  s[idx] = 0;{{$}}
// FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
// FIXED-NEXT: {{^}}  idx += 32;{{$}}
// FIXED-NEXT: {{^}}  s[idx] = v;{{$}}
// FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
// FIXED-NEXT: {{^}}  if (maxlevel >= 0) { unsigned int v2 = s[idx] + s[idx - 1]; __syncwarp(0xffffffff); s[idx] = v2; __syncwarp(0xffffffff); }{{$}}
// FIXED-NEXT: {{^}}  if (maxlevel >= 1) { unsigned int v2 = s[idx] + s[idx - 2]; __syncwarp(0xffffffff); s[idx] = v2; __syncwarp(0xffffffff); }{{$}}
// FIXED-NEXT: {{^}}  if (maxlevel >= 2) s[idx] += s[idx - 4];{{$}}
