// The classic last-warp reduction, written inline: the whole of warp 0 runs
// it (tid < 32), so the fix uses the full mask.
// RUN: %check_cuda_tidy --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__global__ void reduceSum(const int *in, int *out) {
  __shared__ int sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  // Block-level steps are separated by __syncthreads: no warning.
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    volatile int *vs = sdata;
    vs[tid] += vs[tid + 32];
    // FIXED: {{^}}    vs[tid] += vs[tid + 32];{{$}}
    // FIXED-NEXT: {{^}}    __syncwarp(0xffffffff);{{$}}
    vs[tid] += vs[tid + 16];
    // warning@-1:16 {{lanes of a warp exchange data through shared memory 'sdata' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
    // note@-5:5 {{lane 16 writes the element here}}
    // note@-3:16 {{lane 0 reads it here, and no barrier orders the two}}
    // note@-4:16 {{since Volta (sm_70), independent thread scheduling lets the lanes of a warp run in any order}}
    // FIXED: {{^}}    int v = vs[tid] + vs[tid + 16];{{$}}
    // FIXED-NEXT: {{^}}    __syncwarp(0xffffffff);{{$}}
    // FIXED-NEXT: {{^}}    vs[tid] = v;{{$}}
    // FIXED-NEXT: {{^}}    __syncwarp(0xffffffff);{{$}}
    vs[tid] += vs[tid + 8];
    // note@-13:5 {{the same exchange again: lane 8 writes the element here}}
    // note@-2:16 {{and lane 0 reads it here with no barrier between}}
    // FIXED: {{^}}    v = vs[tid] + vs[tid + 8];{{$}}
    // FIXED-NEXT: {{^}}    __syncwarp(0xffffffff);{{$}}
    // FIXED-NEXT: {{^}}    vs[tid] = v;{{$}}
    // FIXED-NEXT: {{^}}    __syncwarp(0xffffffff);{{$}}
    vs[tid] += vs[tid + 4];
    // note@-20:5 {{the same exchange again: lane 4 writes the element here}}
    // note@-2:16 {{and lane 0 reads it here with no barrier between}}
    // FIXED: {{^}}    v = vs[tid] + vs[tid + 4];{{$}}
    vs[tid] += vs[tid + 2];
    // note@-24:5 {{the same exchange again: lane 2 writes the element here}}
    // note@-2:16 {{and lane 0 reads it here with no barrier between}}
    // FIXED: {{^}}    v = vs[tid] + vs[tid + 2];{{$}}
    vs[tid] += vs[tid + 1];
    // note@-28:5 {{the same exchange again: lane 1 writes the element here}}
    // note@-2:16 {{and lane 0 reads it here with no barrier between}}
    // FIXED: {{^}}    v = vs[tid] + vs[tid + 1];{{$}}
    // FIXED-NEXT: {{^}}    __syncwarp(0xffffffff);{{$}}
    // FIXED-NEXT: {{^}}    vs[tid] = v;{{$}}
    // FIXED-NEXT: {{^}}    __syncwarp(0xffffffff);{{$}}
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// Half a warp: 'tid < 16' runs lanes 0-15 of warp 0, so the mask is
// 0x0000ffff. The element type, float, is kept and 'volatile' dropped.
__global__ void halfWarp(float *out) {
  __shared__ float s[64];
  int tid = threadIdx.x;
  s[tid] = out[tid];
  __syncthreads();
  if (tid < 16) {
    volatile float *v = s;
    v[tid] = v[tid] + v[tid + 16];
    v[tid] += v[tid + 8] * 0.5f;
    // warning@-1:15 {{lanes of a warp exchange data through shared memory 's'}}
    // note@-3:5 {{lane 8 writes the element here}}
    // note@-3:15 {{lane 0 reads it here}}
    // note@-4:15 {{independent thread scheduling}}
    // FIXED: {{^}}    v[tid] = v[tid] + v[tid + 16];{{$}}
    // FIXED-NEXT: {{^}}    __syncwarp(0x0000ffff);{{$}}
    // FIXED-NEXT: {{^}}    float v2 = v[tid] + (v[tid + 8] * 0.5f);{{$}}
    // FIXED-NEXT: {{^}}    __syncwarp(0x0000ffff);{{$}}
    // FIXED-NEXT: {{^}}    v[tid] = v2;{{$}}
    // FIXED-NEXT: {{^}}    __syncwarp(0x0000ffff);{{$}}
  }
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
