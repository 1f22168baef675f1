// Lanes exchanging data through global memory: the Volta tuning guide asks
// for __syncwarp between steps where lanes exchange data "via global or
// shared memory". Both accesses go through the same pointer parameter of the
// kernel and are indexed by the thread's position; distinct pointers are not
// assumed to alias, and an element every lane reads is a block-wide race,
// not a warp exchange.
// RUN: %check_cuda_tidy --checks=cuda-implicit-warp-synchronization --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__global__ void globalWarpScan(int *g) {
  int lane = threadIdx.x & 31;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (lane >= 1) g[i] += g[i - 1];
  // warning@-1:26 {{lanes of a warp exchange data through global memory 'g' with no '__syncwarp' between the write and the read}}
  // note@-2:18 {{lane 1 writes the element here}}
  // note@-3:26 {{lane 2 reads it here}}
  // note@-4:26 {{independent thread scheduling}}
  // FIXED: {{^}}  if (lane >= 1) { int v = g[i] + g[i - 1]; __syncwarp(0xfffffffe); g[i] = v; __syncwarp(0xfffffffe); }{{$}}
  if (lane >= 2) g[i] += g[i - 2];
  // note@-7:18 {{the same exchange again: lane 1 writes the element here}}
  // note@-2:26 {{and lane 3 reads it here with no barrier between}}
  // FIXED: {{^}}  if (lane >= 2) { int v = g[i] + g[i - 2]; __syncwarp(0xfffffffc); g[i] = v; __syncwarp(0xfffffffc); }{{$}}
}

// A helper that works on a row passed down from the kernel: the pointer is
// followed to the kernel's parameter.
__device__ void shiftLeft(float *row, int lane) {
  float right = lane < 31 ? row[lane + 1] : 0.f;
  // warning@-1:29 {{lanes of a warp exchange data through global memory 'data'}}
  // note@+6:3 {{lane 1 writes the element here}}
  // note@-3:29 {{lane 0 reads it here}}
  // note@+11:3 {{global memory 'data' is passed to 'shiftLeft' here}}
  // note@-5:29 {{independent thread scheduling}}
  // FIXED: {{^}}  float right = lane < 31 ? row[lane + 1] : 0.f;{{$}}
  // FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
  row[lane] = right;
  // FIXED: {{^}}  row[lane] = right;{{$}}
  // FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
}
__global__ void shiftRows(float *data) {
  int lane = threadIdx.x % 32;
  float *row = data + (blockIdx.x * blockDim.x + threadIdx.x - lane);
  shiftLeft(row, lane);
}

// Correct: ordered by __syncwarp.
__global__ void globalWarpScanSynced(int *g) {
  int lane = threadIdx.x & 31;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int d = 1; d < 32; d *= 2) {
    int v = lane >= d ? g[i - d] : 0;
    __syncwarp();
    g[i] += v;
    __syncwarp();
  }
}

// Correct: read from one buffer, write another.
__global__ void stencil(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i - 1] + in[i] + in[i + 1];
}

// Correct: each lane reads and writes only its own element.
__global__ void scaleInPlace(float *x, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] = a * x[i];
}

// Not a warp exchange: every lane reads the element lane 0 writes (a race
// across the whole block that __syncwarp would not fix).
__global__ void broadcastRace(int *out) {
  out[threadIdx.x] = out[0] + 1;
}
