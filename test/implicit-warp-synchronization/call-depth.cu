// Shared memory and thread indices followed through calls of any depth,
// through values returned by device functions and conversion operators, and
// through casts and offsets into dynamic shared memory.
// RUN: %check_cuda_tidy --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// A stream-compaction style warp scan, two calls below the kernel that
// declares the array: each warp scans 32 values in a 64-element window whose
// lower half is zero.
__device__ unsigned scanWarp(unsigned v, volatile unsigned *s) {
  int lane = threadIdx.x & 31;
  int idx = 2 * threadIdx.x - lane + 32;
  s[idx - 32] = 0;
  s[idx] = v;
  s[idx] += s[idx - 1];
  // warning@-1:13 {{lanes of a warp exchange data through shared memory 's' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
  // note@-4:3 {{lane 31 writes the element here}}
  // note@-3:13 {{lane 0 reads it here, and no barrier orders the two}}
  // note@+19:16 {{shared memory 's' is passed to 'scanWarp' here}}
  // note@+25:21 {{'scanBlock' is called here}}
  // note@-6:13 {{independent thread scheduling}}
  s[idx] += s[idx - 2];
  // note@-1:13 {{and lane 0 reads it here with no barrier between}}
  // note@-11:3 {{the same exchange again: lane 30 writes the element here}}
  // FIXED: {{^}}  s[idx - 32] = 0;{{$}}
  // FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
  // FIXED-NEXT: {{^}}  s[idx] = v;{{$}}
  // FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
  // FIXED-NEXT: {{^}}  unsigned int v2 = s[idx] + s[idx - 1];{{$}}
  // FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
  // FIXED-NEXT: {{^}}  s[idx] = v2;{{$}}
  // FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
  // FIXED: {{^}}  v2 = s[idx] + s[idx - 2];{{$}}
  return s[idx] - v;
}

__device__ unsigned scanBlock(unsigned v, unsigned *s) {
  unsigned r = scanWarp(v, s);
  __syncthreads();
  return r;
}

__global__ void scan(unsigned *io) {
  __shared__ unsigned s[512];
  io[threadIdx.x] = scanBlock(io[threadIdx.x], s);
}

// The same scan with a __syncwarp after each step: silent.
__device__ unsigned scanWarpSynced(unsigned v, volatile unsigned *s) {
  int lane = threadIdx.x & 31;
  int idx = 2 * threadIdx.x - lane + 32;
  s[idx - 32] = 0;
  s[idx] = v;
  __syncwarp();
  for (int d = 1; d < 32; d *= 2) {
    unsigned t = s[idx - d];
    __syncwarp();
    s[idx] += t;
    __syncwarp();
  }
  return s[idx] - v;
}

__device__ unsigned scanBlockSynced(unsigned v, unsigned *s) {
  unsigned r = scanWarpSynced(v, s);
  __syncthreads();
  return r;
}

__global__ void scanSynced(unsigned *io) {
  __shared__ unsigned s[512];
  io[threadIdx.x] = scanBlockSynced(io[threadIdx.x], s);
}

// Several arrays carved from one dynamic buffer with casts and byte offsets,
// and the lane from a helper.
__device__ int laneOf() { return threadIdx.x % 32; }

__global__ void carved(float *out, int n) {
  extern __shared__ unsigned char smem[];
  float *keys = reinterpret_cast<float *>(smem);
  int *counts = reinterpret_cast<int *>(smem + 256 * sizeof(float));
  int lane = laneOf();
  keys[threadIdx.x] = out[threadIdx.x];
  counts[threadIdx.x] = lane;
  int before = counts[threadIdx.x ^ 1];
  // warning@-1:16 {{lanes of a warp exchange data through shared memory 'smem' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
  // note@-3:3 {{lane 1 writes the element here}}
  // note@-3:16 {{lane 0 reads it here, and no barrier orders the two}}
  // note@-4:16 {{independent thread scheduling}}
  out[threadIdx.x] = keys[threadIdx.x] + before;
  // FIXED: {{^}}  counts[threadIdx.x] = lane;{{$}}
  // FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
  // FIXED-NEXT: {{^}}  int before = counts[threadIdx.x ^ 1];{{$}}
  // FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
}

// The same with a __syncwarp between the write and the read: silent.
__global__ void carvedSynced(float *out, int n) {
  extern __shared__ unsigned char smem[];
  float *keys = reinterpret_cast<float *>(smem);
  int *counts = reinterpret_cast<int *>(smem + 256 * sizeof(float));
  int lane = laneOf();
  keys[threadIdx.x] = out[threadIdx.x];
  counts[threadIdx.x] = lane;
  __syncwarp();
  int before = counts[threadIdx.x ^ 1];
  out[threadIdx.x] = keys[threadIdx.x] + before;
}

// The lane read from the %laneid register by a helper, as many projects do.
__device__ unsigned laneId() {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

__global__ void neighbourByAsmLane(int *io) {
  __shared__ int ring[256];
  unsigned lane = laneId();
  unsigned base = threadIdx.x - lane;
  ring[threadIdx.x] = io[threadIdx.x] + 1;
  io[threadIdx.x] = ring[base + ((lane + 1) & 31)];
  // warning@-1:21 {{lanes of a warp exchange data through shared memory 'ring' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
  // note@-3:3 {{lane 1 writes the element here}}
  // note@-3:21 {{lane 0 reads it here, and no barrier orders the two}}
  // note@-4:21 {{independent thread scheduling}}
  // FIXED: {{^}}  ring[threadIdx.x] = io[threadIdx.x] + 1;{{$}}
  // FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
}

// The same with a __syncwarp between the write and the read: silent.
__global__ void neighbourByAsmLaneSynced(int *io) {
  __shared__ int ring[256];
  unsigned lane = laneId();
  unsigned base = threadIdx.x - lane;
  ring[threadIdx.x] = io[threadIdx.x] + 1;
  __syncwarp();
  io[threadIdx.x] = ring[base + ((lane + 1) & 31)];
}
