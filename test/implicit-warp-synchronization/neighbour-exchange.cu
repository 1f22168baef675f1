// A neighbour exchange around the warp: each lane publishes a value and
// reads the next lane's. The fix adds a barrier after the write and after
// the read (the next iteration's write must not overtake it).
// RUN: %check_cuda_tidy --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__global__ void rotate(const float *in, float *out, int steps) {
  __shared__ float ring[256];
  unsigned tid = threadIdx.x;
  unsigned lane = tid % 32;
  unsigned base = tid - lane;
  float v = in[blockIdx.x * blockDim.x + tid];
  for (int i = 0; i < steps; ++i) {
    ring[tid] = v;
    // FIXED: {{^}}    ring[tid] = v;{{$}}
    // FIXED-NEXT: {{^}}    __syncwarp(0xffffffff);{{$}}
    v = ring[base + ((lane + 1) & 31)];
    // warning@-1:9 {{lanes of a warp exchange data through shared memory 'ring'}}
    // note@-5:5 {{lane 1 writes the element here}}
    // note@-3:9 {{lane 0 reads it here}}
    // note@-4:9 {{independent thread scheduling}}
    // FIXED: {{^}}    v = ring[base + ((lane + 1) & 31)];{{$}}
    // FIXED-NEXT: {{^}}    __syncwarp(0xffffffff);{{$}}
  }
  out[blockIdx.x * blockDim.x + tid] = v;
}
