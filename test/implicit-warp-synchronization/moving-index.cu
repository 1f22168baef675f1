// Indices that move in straight lines: a local written only by statements of
// the block that declares it (`idx += 32;`) is evaluated at each access as it
// stands there. The warp scan of the CUDA samples' shape: lanes write a zero
// pad, move their index past it and add the element `lvl` lanes down.
// RUN: %check_cuda_tidy --checks=cuda-implicit-warp-synchronization --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__device__ unsigned scanWarp(unsigned v, volatile unsigned *s, int lvl) {
  int idx = 2 * threadIdx.x - (threadIdx.x & 31);
  s[idx] = 0;
  // FIXED: {{^}}  s[idx] = 0;{{$}}
  // FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
  idx += 32;
  s[idx] = v;
  // FIXED: {{^}}  s[idx] = v;{{$}}
  // FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
  if (lvl >= 1) s[idx] += s[idx - 1];
  // warning@-1:27 {{lanes of a warp exchange data through shared memory 's'}}
  // note@10:3 {{lane 31 writes the element here}}
  // note@-3:27 {{lane 0 reads it here}}
  // note@-4:27 {{independent thread scheduling}}
  // note@37:21 {{shared memory 's' is passed to 'scanWarp' here}}
  // FIXED: {{^}}  if (lvl >= 1) { unsigned int v2 = s[idx] + s[idx - 1]; __syncwarp(0xffffffff); s[idx] = v2; __syncwarp(0xffffffff); }{{$}}
  if (lvl >= 2) s[idx] += s[idx - 2];
  // note@10:3 {{the same exchange again: lane 30 writes the element here}}
  // note@-2:27 {{and lane 0 reads it here with no barrier between}}
  // FIXED: {{^}}  if (lvl >= 2) { unsigned int v2 = s[idx] + s[idx - 2]; __syncwarp(0xffffffff); s[idx] = v2; __syncwarp(0xffffffff); }{{$}}
  if (lvl >= 4) s[idx] += s[idx - 4];
  // note@10:3 {{the same exchange again: lane 28 writes the element here}}
  // note@-2:27 {{and lane 0 reads it here with no barrier between}}
  // FIXED: {{^}}  if (lvl >= 4) { unsigned int v2 = s[idx] + s[idx - 4]; __syncwarp(0xffffffff); s[idx] = v2; __syncwarp(0xffffffff); }{{$}}
  return s[idx] - v;
}

__global__ void scanKernel(unsigned *io, int lvl) {
  __shared__ unsigned s[2 * 256];
  io[threadIdx.x] = scanWarp(io[threadIdx.x], s, lvl);
}

// Correct: the index moves on and back, each lane reads only its own
// elements.
__global__ void ownElements(unsigned *io) {
  __shared__ unsigned s[2 * 256];
  int idx = threadIdx.x;
  s[idx] = io[idx];
  idx += 256;
  s[idx] = 2 * io[threadIdx.x];
  idx -= 256;
  io[threadIdx.x] = s[idx] + s[idx + 256];
}

// Not evaluated: the index changes under a condition that depends on the
// thread, so lanes that reach the read may have taken different writes.
__global__ void branchMoved(unsigned *io) {
  __shared__ unsigned s[512];
  int idx = threadIdx.x;
  s[idx] = io[idx];
  if (threadIdx.x & 1)
    idx += 1;
  io[threadIdx.x] = s[idx];
}
