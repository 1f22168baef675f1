// A grid-stride index (`tid += blockDim.x * gridDim.x` in the loop
// increment) keeps its lane-linear shape: it is a multiple of 32 plus the
// lane in every lane of a warp, so `((tid >> 5) & 1) == 0` is taken by a
// whole warp or by none of it, and the lanes under it are known; the
// uniformity analysis agrees, so cuda-divergent-barrier accepts the
// __syncwarp the fix inserts there.
// RUN: %check_cuda_tidy --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// Pairs of neighbouring lanes in every other warp-sized chunk, written
// warp-synchronously.
__global__ void pairSums(float *o, int iters) {
  __shared__ float s[256];
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int it = 0;
  for (; it < iters; ++it, tid += blockDim.x * gridDim.x)
    if (((tid >> 5) & 1) == 0) {
      s[threadIdx.x] = o[tid];
      s[threadIdx.x] += s[threadIdx.x ^ 1];
      // warning@-1:25 {{lanes of a warp exchange data through shared memory 's' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
      // note@-3:7 {{lane 1 writes the element here}}
      // note@-3:25 {{lane 0 reads it here, and no barrier orders the two}}
      // note@-4:25 {{independent thread scheduling}}
      o[tid] = s[threadIdx.x];
    }
  // FIXED: {{^}}      s[threadIdx.x] = o[tid];{{$}}
  // FIXED-NEXT: {{^}}      __syncwarp(0xffffffff);{{$}}
  // FIXED-NEXT: {{^}}      float v = s[threadIdx.x] + s[threadIdx.x ^ 1];{{$}}
}

// The same with __syncwarp between the steps: silent.
__global__ void pairSumsSynced(float *o, int iters) {
  __shared__ float s[256];
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int it = 0;
  for (; it < iters; ++it, tid += blockDim.x * gridDim.x)
    if (((tid >> 5) & 1) == 0) {
      s[threadIdx.x] = o[tid];
      __syncwarp();
      float v = s[threadIdx.x ^ 1];
      __syncwarp();
      s[threadIdx.x] += v;
      o[tid] = s[threadIdx.x];
    }
}

// A stride of 16 is not a multiple of 32: the condition splits warps in
// ways the model does not follow, and it guards both sides. Silent.
__global__ void oddStride(float *o, int iters) {
  __shared__ float s[256];
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int it = 0; it < iters; ++it, tid += 16)
    if (((tid >> 5) & 1) == 0) {
      s[threadIdx.x] = o[tid];
      s[threadIdx.x] += s[threadIdx.x ^ 1];
      o[tid] = s[threadIdx.x];
    }
}
