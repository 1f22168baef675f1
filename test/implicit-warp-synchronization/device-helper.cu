// The last-warp reduction as a __device__ helper taking a volatile pointer:
// the caller passes shared memory, and only warp 0 calls it.
// RUN: %check_cuda_tidy --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__device__ void warpReduce(volatile int *sdata, int tid) {
  sdata[tid] += sdata[tid + 32];
  sdata[tid] += sdata[tid + 16];
  // warning@-1:17 {{lanes of a warp exchange data through shared memory 'sdata'}} [cuda-implicit-warp-synchronization]
  // note@-3:3 {{lane 16 writes the element here}}
  // note@-3:17 {{lane 0 reads it here}}
  // note@-4:17 {{independent thread scheduling}}
  // note@+22:5 {{shared memory 'sdata' is passed to 'warpReduce' here}}
  sdata[tid] += sdata[tid + 8];
  // note@-8:3 {{the same exchange again: lane 8 writes the element here}}
  // note@-2:17 {{and lane 0 reads it here with no barrier between}}
  // FIXED: {{^}}  sdata[tid] += sdata[tid + 32];{{$}}
  // FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
  // FIXED-NEXT: {{^}}  int v = sdata[tid] + sdata[tid + 16];{{$}}
  // FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
  // FIXED-NEXT: {{^}}  sdata[tid] = v;{{$}}
  // FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
  // FIXED: {{^}}  v = sdata[tid] + sdata[tid + 8];{{$}}
}

__global__ void reduce(const int *in, int *out) {
  __shared__ int sdata[128];
  int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  if (tid < 64)
    sdata[tid] += sdata[tid + 64];
  __syncthreads();
  if (tid < 32)
    warpReduce(sdata, tid);
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
