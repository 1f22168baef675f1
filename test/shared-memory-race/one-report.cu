// With cuda-implicit-warp-synchronization on too, a pair that also races
// between warps is reported once, by this check, and fixed once, with
// __syncthreads() (which orders the lanes of each warp as well); a pair
// that stays inside one warp is the other check's alone.
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race,cuda-implicit-warp-synchronization \
// RUN:   --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// Thread 0 writes, every thread reads: lanes 1..31 of warp 0 and every
// thread of the other warps.
__global__ void broadcastFirst(const float *in, float *out) {
  __shared__ float s[32];
  if (threadIdx.x == 0)
    s[0] = in[blockIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[0];
  // warning@-1:48 {{threads of different warps race on shared memory 's' with no barrier between a write and a read in blocks of 64 to 1024 threads}} [cuda-shared-memory-race]
  // note@-3:5 {{thread 0 writes 's[0]' here}}
  // note@-3:48 {{thread 32, in another warp, reads it here in the same barrier interval}}
}
// FIXED: {{^}}    s[0] = in[blockIdx.x];{{$}}
// FIXED-NEXT: {{^}}  __syncthreads();{{$}}
// FIXED-NEXT: {{^}}  out[blockIdx.x * blockDim.x + threadIdx.x] = s[0];{{$}}

// Neighbours one apart: inside one warp only.
__global__ void neighbour(const float *in, float *out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  out[blockIdx.x * blockDim.x + t] = s[t ^ 1];
  // warning@-1:38 {{lanes of a warp exchange data through shared memory 's' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
  // note@-3:3 {{lane 1 writes the element here}}
  // note@-3:38 {{lane 0 reads it here, and no barrier orders the two}}
  // note@-4:38 {{independent thread scheduling}}
}
// FIXED: {{^}}  s[t] = in[blockIdx.x * blockDim.x + t];{{$}}
// FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
