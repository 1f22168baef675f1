// One known lane writes a per-warp value and the whole warp reads it (stream
// compaction: lane 0 reserves the warp's output range, every kept element
// is stored at its offset in it). A __syncwarp inside the one-lane branch
// would not order anything: the fix goes where the writer and its readers
// meet, between the two statements, in code that the whole warp runs, with
// the mask of the lanes that run it, whatever guards the read.
// RUN: %check_cuda_tidy --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// The number of set bits (the stub headers have no __popc).
__device__ int bitCount(unsigned m) {
  int n = 0;
  for (; m; m &= m - 1)
    ++n;
  return n;
}

__global__ void compact(const int *in, int *out, int *total) {
  __shared__ int base[8];
  int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  bool keep = in[blockIdx.x * blockDim.x + threadIdx.x] > 0;
  unsigned m = __ballot_sync(0xffffffff, keep);
  int rank = bitCount(m & ((1u << lane) - 1));
  if (lane == 0)
    base[warp] = atomicAdd(total, bitCount(m));
  if (keep)
    out[base[warp] + rank] = threadIdx.x;
    // warning@-1:9 {{lanes of a warp exchange data through shared memory 'base' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
    // note@-4:5 {{lane 0 writes the element here}}
    // note@-3:9 {{lane 1 reads it here, and no barrier orders the two}}
    // note@-4:9 {{independent thread scheduling}}
  // FIXED: {{^}}    base[warp] = atomicAdd(total, bitCount(m));{{$}}
  // FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
  // FIXED-NEXT: {{^}}  if (keep){{$}}
}

// The leader writes inside a block; the meeting point is after the block.
// Only warps 0 to 3 run it (a warp-uniform guard): the mask is still full.
__global__ void leaderBlock(const float *in, float *out) {
  __shared__ float scale[4];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (warp < 4) {
    if (lane == 0) {
      float m = in[warp];
      scale[warp] = m > 0 ? 1.0f / m : 0.0f;
    }
    out[threadIdx.x] = in[threadIdx.x] * scale[warp];
    // warning@-1:42 {{lanes of a warp exchange data through shared memory 'scale' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
    // note@-4:7 {{lane 0 writes the element here}}
    // note@-3:42 {{lane 1 reads it here, and no barrier orders the two}}
    // note@-4:42 {{independent thread scheduling}}
  }
  // FIXED: {{^}}      scale[warp] = m > 0 ? 1.0f / m : 0.0f;{{$}}
  // FIXED-NEXT: {{^}}    }{{$}}
  // FIXED-NEXT: {{^}}    __syncwarp(0xffffffff);{{$}}
}

// The half-warp case: lanes 0-15 run the meeting point, so its mask is
// 0x0000ffff.
__global__ void halfWarp(const int *in, int *out) {
  __shared__ int first[8];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane < 16) {
    if (lane == 0)
      first[warp] = in[warp];
    out[threadIdx.x] = first[warp] + lane;
    // warning@-1:24 {{lanes of a warp exchange data through shared memory 'first' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
    // note@-3:7 {{lane 0 writes the element here}}
    // note@-3:24 {{lane 1 reads it here, and no barrier orders the two}}
    // note@-4:24 {{independent thread scheduling}}
  }
  // FIXED: {{^}}      first[warp] = in[warp];{{$}}
  // FIXED-NEXT: {{^}}    __syncwarp(0x0000ffff);{{$}}
}

// Correct: the warp synchronises between the write and the reads.
__global__ void compactSynced(const int *in, int *out, int *total) {
  __shared__ int base[8];
  int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  bool keep = in[blockIdx.x * blockDim.x + threadIdx.x] > 0;
  unsigned m = __ballot_sync(0xffffffff, keep);
  int rank = bitCount(m & ((1u << lane) - 1));
  if (lane == 0)
    base[warp] = atomicAdd(total, bitCount(m));
  __syncwarp();
  if (keep)
    out[base[warp] + rank] = threadIdx.x;
}

// Correct: the base is broadcast with a shuffle, not through shared memory.
__global__ void compactShuffle(const int *in, int *out, int *total) {
  int lane = threadIdx.x & 31;
  bool keep = in[blockIdx.x * blockDim.x + threadIdx.x] > 0;
  unsigned m = __ballot_sync(0xffffffff, keep);
  int rank = bitCount(m & ((1u << lane) - 1));
  int base = 0;
  if (lane == 0)
    base = atomicAdd(total, bitCount(m));
  base = __shfl_sync(0xffffffff, base, 0);
  if (keep)
    out[base + rank] = threadIdx.x;
}

// A condition loaded from memory guards both the writer and the readers:
// the model cannot tell which lanes run them, and stays silent.
__global__ void unknownMeeting(const int *in, int *out) {
  __shared__ int first[8];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (in[threadIdx.x] > 0) {
    if (lane == 0)
      first[warp] = in[warp];
    out[threadIdx.x] = first[warp];
  }
}
