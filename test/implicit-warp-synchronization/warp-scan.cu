// An inclusive warp scan in shared memory, one step per power of two. Lanes
// below the distance do not take part, so each step has its own mask.
// RUN: %check_cuda_tidy --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__global__ void scanWarps(const int *in, int *out) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  int lane = tid & 31;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncwarp();
  if (lane >= 1) s[tid] += s[tid - 1];
  // warning@-1:28 {{lanes of a warp exchange data through shared memory 's'}}
  // note@-2:18 {{lane 1 writes the element here}}
  // note@-3:28 {{lane 2 reads it here}}
  // note@-4:28 {{independent thread scheduling}}
  // FIXED: {{^}}  if (lane >= 1) { int v = s[tid] + s[tid - 1]; __syncwarp(0xfffffffe); s[tid] = v; __syncwarp(0xfffffffe); }{{$}}
  if (lane >= 2) s[tid] += s[tid - 2];
  // note@-7:18 {{the same exchange again: lane 1 writes the element here}}
  // note@-2:28 {{and lane 3 reads it here with no barrier between}}
  // FIXED: {{^}}  if (lane >= 2) { int v = s[tid] + s[tid - 2]; __syncwarp(0xfffffffc); s[tid] = v; __syncwarp(0xfffffffc); }{{$}}
  if (lane >= 4) s[tid] += s[tid - 4];
  // note@-11:18 {{the same exchange again: lane 1 writes the element here}}
  // note@-2:28 {{and lane 5 reads it here with no barrier between}}
  // FIXED: {{^}}  if (lane >= 4) { int v = s[tid] + s[tid - 4]; __syncwarp(0xfffffff0); s[tid] = v; __syncwarp(0xfffffff0); }{{$}}
  if (lane >= 8) s[tid] += s[tid - 8];
  // note@-15:18 {{the same exchange again: lane 1 writes the element here}}
  // note@-2:28 {{and lane 9 reads it here with no barrier between}}
  // FIXED: {{^}}  if (lane >= 8) { int v = s[tid] + s[tid - 8]; __syncwarp(0xffffff00); s[tid] = v; __syncwarp(0xffffff00); }{{$}}
  if (lane >= 16) s[tid] += s[tid - 16];
  // note@-19:18 {{the same exchange again: lane 1 writes the element here}}
  // note@-2:29 {{and lane 17 reads it here with no barrier between}}
  // Lanes 16-31 read lanes 0-15, which do not write in this step: no split,
  // only a barrier after it.
  // FIXED: {{^}}  if (lane >= 16) { s[tid] += s[tid - 16]; __syncwarp(0xffff0000); }{{$}}
  __syncthreads();
  out[blockIdx.x * blockDim.x + tid] = s[tid];
}
