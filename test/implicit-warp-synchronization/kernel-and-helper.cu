// An exchange whose write is in the kernel and whose read is in a helper it
// calls (or the reverse), at any depth: the helper's accesses are placed at
// the call, and the fix goes in the kernel, around the call.
// RUN: %check_cuda_tidy --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// Lane t reads the elements of lane t ^ 1.
__device__ float2 partner(const volatile float *re, const volatile float *im,
                          int t) {
  return make_float2(re[t ^ 1], im[t ^ 1]);
}

__global__ void butterfly(const float2 *in, float2 *out) {
  __shared__ float re[128], im[128];
  int t = threadIdx.x;
  re[t] = in[blockIdx.x * 128 + t].x;
  im[t] = in[blockIdx.x * 128 + t].y;
  float2 p = partner(re, im, t);
  out[blockIdx.x * 128 + t] = make_float2(re[t] + p.x, im[t] - p.y);
}

// Correct counterpart: the warp synchronised before the call.
__global__ void butterflySynced(const float2 *in, float2 *out) {
  __shared__ float re[128], im[128];
  int t = threadIdx.x;
  re[t] = in[blockIdx.x * 128 + t].x;
  im[t] = in[blockIdx.x * 128 + t].y;
  __syncwarp();
  float2 p = partner(re, im, t);
  out[blockIdx.x * 128 + t] = make_float2(re[t] + p.x, im[t] - p.y);
}

// The reverse: the helper writes each lane's slot, the kernel reads the
// slot of the lane at the other end of the warp.
__device__ void publish(volatile int *s, int v) { s[threadIdx.x] = v; }

__global__ void mirror(int *io) {
  __shared__ int s[256];
  publish(s, io[threadIdx.x]);
  io[threadIdx.x] = s[threadIdx.x ^ 31];
}

// Correct counterpart.
__global__ void mirrorSynced(int *io) {
  __shared__ int s[256];
  publish(s, io[threadIdx.x]);
  __syncwarp();
  io[threadIdx.x] = s[threadIdx.x ^ 31];
}

// Two calls down: the kernel writes, 'neighbour' (called by 'viaHelper')
// reads; only the first two warps make the call.
__device__ int neighbour(volatile int *s, int i) { return s[i ^ 2]; }
__device__ int viaHelper(volatile int *s, int i) { return neighbour(s, i) + 1; }

__global__ void depthTwo(int *io) {
  __shared__ int s[256];
  s[threadIdx.x] = io[threadIdx.x];
  if (threadIdx.x < 64)
    io[threadIdx.x] = viaHelper(s, threadIdx.x);
}

// Correct counterpart.
__global__ void depthTwoSynced(int *io) {
  __shared__ int s[256];
  s[threadIdx.x] = io[threadIdx.x];
  __syncwarp();
  if (threadIdx.x < 64)
    io[threadIdx.x] = viaHelper(s, threadIdx.x);
}

// Each lane reads back its own slot through the helpers: silent.
__device__ int own(volatile int *s, int i) { return s[i]; }
__device__ int ownVia(volatile int *s, int i) { return own(s, i); }

__global__ void ownSlot(int *io) {
  __shared__ int s[256];
  s[threadIdx.x] = io[threadIdx.x];
  io[threadIdx.x] = ownVia(s, threadIdx.x) + own(s, threadIdx.x);
}

// The helper synchronises the block itself: a barrier, silent.
__device__ int afterBarrier(volatile int *s, int i) {
  __syncthreads();
  return s[i ^ 1];
}

__global__ void helperBarrier(int *io) {
  __shared__ int s[256];
  s[threadIdx.x] = io[threadIdx.x];
  io[threadIdx.x] = afterBarrier(s, threadIdx.x);
}

void launch(const float2 *a, float2 *b, int *c) {
  butterfly<<<4, 128>>>(a, b);
  butterflySynced<<<4, 128>>>(a, b);
  mirror<<<1, 256>>>(c);
  mirrorSynced<<<1, 256>>>(c);
  depthTwo<<<1, 256>>>(c);
  depthTwoSynced<<<1, 256>>>(c);
  ownSlot<<<1, 256>>>(c);
  helperBarrier<<<1, 256>>>(c);
}

// The butterfly: lane 0 reads what lane 1 wrote in the kernel.
// warning@10:22 {{lanes of a warp exchange data through shared memory 're' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
// note@16:3 {{lane 1 writes the element here}}
// note@10:22 {{lane 0 reads it here, and no barrier orders the two}}
// note@18:14 {{the read is made in this call to 'partner'}}
// note@10:22 {{independent thread scheduling}}
// note@-101:33 {{and lane 0 reads it here with no barrier between}}
// note@17:3 {{the same exchange again: lane 1 writes the element here}}
// FIXED: {{^}}  re[t] = in[blockIdx.x * 128 + t].x;{{$}}
// FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
// FIXED-NEXT: {{^}}  im[t] = in[blockIdx.x * 128 + t].y;{{$}}
// FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
// FIXED-NEXT: {{^}}  float2 p = partner(re, im, t);{{$}}

// The reverse: lane 0 reads the slot lane 31 wrote in the helper.
// warning@40:21 {{lanes of a warp exchange data through shared memory 's' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
// note@35:51 {{lane 31 writes the element here}}
// note@40:21 {{lane 0 reads it here, and no barrier orders the two}}
// note@39:3 {{the write is made in this call to 'publish'}}
// note@40:21 {{independent thread scheduling}}
// FIXED: {{^}}  publish(s, io[threadIdx.x]);{{$}}
// FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
// FIXED-NEXT: {{^}}  io[threadIdx.x] = s[threadIdx.x ^ 31];{{$}}

// Two calls down: lane 0 reads, in 'neighbour', what lane 2 wrote in the
// kernel.
// warning@53:59 {{lanes of a warp exchange data through shared memory 's' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
// note@58:3 {{lane 2 writes the element here}}
// note@53:59 {{lane 0 reads it here, and no barrier orders the two}}
// note@60:23 {{the read is made in this call to 'viaHelper'}}
// note@53:59 {{independent thread scheduling}}
// FIXED: {{^}}  s[threadIdx.x] = io[threadIdx.x];{{$}}
// FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
// FIXED-NEXT: {{^}}  if (threadIdx.x < 64){{$}}
