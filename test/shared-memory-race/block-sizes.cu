// Which block sizes a kernel admits, and which pairs are between warps.
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race,cuda-implicit-warp-synchronization \
// RUN:   --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// A butterfly over 64 values with no launch in this file: partners 32
// apart are in different warps for every block size the array admits
// (64 to 256 threads; 512 would index past it).
__global__ void butterfly64(float *data) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = data[blockIdx.x * blockDim.x + t];
  float other = s[t ^ 32];
  // warning@-1:17 {{threads of different warps race on shared memory 's' with no barrier between a write and a read in blocks of 64 to 256 threads}}
  // note@-3:3 {{thread 32 writes 's[32]' here}}
  // note@-3:17 {{thread 0, in another warp, reads it here in the same barrier interval}}
  data[blockIdx.x * blockDim.x + t] = s[t] + other;
}
// FIXED: {{^}}  s[t] = data[blockIdx.x * blockDim.x + t];{{$}}
// FIXED-NEXT: {{^}}  __syncthreads();{{$}}
// FIXED-NEXT: {{^}}  float other = s[t ^ 32];{{$}}

// Partners one apart are in one warp: that exchange is
// cuda-implicit-warp-synchronization's, not this check's.
__global__ void butterfly1(float *data) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = data[blockIdx.x * blockDim.x + t];
  float other = s[t ^ 1];
  // warning@-1:17 {{lanes of a warp exchange data through shared memory 's' with no '__syncwarp' between the write and the read}}
  // note@-3:3 {{lane 1 writes the element here}}
  // note@-3:17 {{lane 0 reads it here, and no barrier orders the two}}
  // note@-4:17 {{since Volta (sm_70), independent thread scheduling lets the lanes of a warp run in any order: they are not in lockstep, and 'volatile' does not order them}}
  data[blockIdx.x * blockDim.x + t] = s[t] + other;
}

// A kernel that indexes by the lane only is written for one warp per
// block: silent (larger blocks would race, but it is not launched so).
__global__ void laneOnly(float *data) {
  __shared__ float s[32];
  unsigned lane = threadIdx.x % 32;
  s[lane] = data[blockIdx.x * 32 + lane];
  __syncwarp();
  data[blockIdx.x * 32 + lane] = s[31 - lane];
}

// __launch_bounds__(64): only blocks of 64 threads are evaluated.
__global__ void __launch_bounds__(64) bounded(float *data) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  s[t] = data[blockIdx.x * 64 + t];
  data[blockIdx.x * 64 + t] = s[63 - t];
  // warning@-1:31 {{threads of different warps race on shared memory 's' with no barrier between a write and a read in blocks of 64 threads}}
  // note@-3:3 {{thread 63 writes 's[63]' here}}
  // note@-3:31 {{thread 0, in another warp, reads it here in the same barrier interval}}
}
// FIXED: {{^}}  s[t] = data[blockIdx.x * 64 + t];{{$}}
// FIXED-NEXT: {{^}}  __syncthreads();{{$}}

// Launched with 2-D blocks of 32 x 4: row y reads row y + 1, written by
// the next warp.
__global__ void rows(float *data) {
  __shared__ float s[5][32];
  s[threadIdx.y][threadIdx.x] = data[threadIdx.y * 32 + threadIdx.x];
  if (threadIdx.y == 0)
    s[4][threadIdx.x] = 0.f;
  data[threadIdx.y * 32 + threadIdx.x] = s[threadIdx.y + 1][threadIdx.x];
  // warning@-1:42 {{threads of different warps race on shared memory 's' with no barrier between a write and a read}}
  // note@-5:3 {{thread 32 writes 's[1][0]' here}}
  // note@-3:42 {{thread 0, in another warp, reads it here in the same barrier interval}}
  // One missing barrier, one warning: thread 0's write of the halo row is
  // the same defect's second race.
  // note@-7:5 {{the same missing barrier: thread 0 writes 's[4][0]' here}}
  // note@-7:42 {{and thread 96, in another warp, reads it here; the same '__syncthreads()' orders the two}}
}
// FIXED: {{^}}    s[4][threadIdx.x] = 0.f;{{$}}
// FIXED-NEXT: {{^}}  __syncthreads();{{$}}

// The same with blocks of 32 x 1: one warp, silent here.
__global__ void oneRow(float *data) {
  __shared__ float s[2][32];
  s[threadIdx.y][threadIdx.x] = data[threadIdx.x];
  if (threadIdx.y == 0)
    s[1][threadIdx.x] = 0.f;
  __syncwarp();
  data[threadIdx.x] = s[threadIdx.y + 1][threadIdx.x];
}

void launch(float *data) {
  rows<<<1, dim3(32, 4)>>>(data);
  oneRow<<<1, dim3(32, 1)>>>(data);
}
