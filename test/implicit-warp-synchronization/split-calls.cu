// An exchange split over two calls: the accesses of a helper with no
// barrier are placed at each of its calls, so a write made in one call and a
// read made in a later call (of the same helper or of another) with no
// barrier between the two are an exchange. The fix goes between the calls.
// RUN: %check_cuda_tidy --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// One step of a tree: the element at p gains the one d further on.
__device__ void addFrom(volatile float *p, int d) { *p += p[d]; }
// warning@-1:53 {{lanes of a warp exchange data through shared memory 's' with no '__syncwarp' between the write and the read}}
// note@-2:53 {{lane 1 writes the element here}}
// note@-3:53 {{lane 2 reads it here, and no barrier orders the two}}
// note@27:5 {{the write is made in this call to 'addFrom'}}
// note@26:5 {{the read is made in this call to 'addFrom'}}
// note@-6:53 {{independent thread scheduling}}
// note@-7:59 {{and lane 0 reads it here with no barrier between}}
// note@-8:53 {{the same exchange again: lane 16 writes the element here}}

__global__ void pairTree(float *io) {
  __shared__ float s[128];
  unsigned t = threadIdx.x;
  s[t] = io[t];
  s[t + 64] = 0;
  __syncthreads();
  if (t < 32) {
    addFrom(&s[t], 32);
    addFrom(&s[(2 * t) & 63], 1);
    // FIXED: {{^}}    addFrom(&s[t], 32);{{$}}
    // FIXED-NEXT: {{^}}    __syncwarp(0xffffffff);{{$}}
    // FIXED-NEXT: {{^}}    addFrom(&s[(2 * t) & 63], 1);{{$}}
  }
  __syncthreads();
  io[t] = s[t];
}

// Correct counterpart: the warp synchronised between the calls.
__global__ void pairTreeSynced(float *io) {
  __shared__ float s[128];
  unsigned t = threadIdx.x;
  s[t] = io[t];
  s[t + 64] = 0;
  __syncthreads();
  if (t < 32) {
    addFrom(&s[t], 32);
    __syncwarp();
    addFrom(&s[(2 * t) & 63], 1);
  }
  __syncthreads();
  io[t] = s[t];
}

// Two helpers: a lane's slot, then its neighbour's.
__device__ void put(volatile int *s, int i, int v) { s[i] = v; }
__device__ int take(volatile int *s, int i) { return s[i]; }
// warning@-1:54 {{lanes of a warp exchange data through shared memory 's' with no '__syncwarp' between the write and the read}}
// note@-3:54 {{lane 1 writes the element here}}
// note@-3:54 {{lane 0 reads it here, and no barrier orders the two}}
// note@65:3 {{the write is made in this call to 'put'}}
// note@66:21 {{the read is made in this call to 'take'}}
// note@-6:54 {{independent thread scheduling}}

__global__ void handOff(int *io) {
  __shared__ int s[256];
  int lane = threadIdx.x & 31, base = threadIdx.x - lane;
  put(s, threadIdx.x, io[threadIdx.x]);
  io[threadIdx.x] = take(s, base + ((lane + 1) & 31));
  // FIXED: {{^}}  put(s, threadIdx.x, io[threadIdx.x]);{{$}}
  // FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
  // FIXED-NEXT: {{^}}  io[threadIdx.x] = take(s, base + ((lane + 1) & 31));{{$}}
}

// Each lane reads back only its own slot: silent.
__global__ void ownSlot(int *io) {
  __shared__ int s[256];
  put(s, threadIdx.x, io[threadIdx.x]);
  io[threadIdx.x] = take(s, threadIdx.x) + 1;
}

void launch(float *f, int *i) {
  pairTree<<<1, 64>>>(f);
  pairTreeSynced<<<1, 64>>>(f);
  handOff<<<1, 256>>>(i);
  ownSlot<<<1, 256>>>(i);
}
