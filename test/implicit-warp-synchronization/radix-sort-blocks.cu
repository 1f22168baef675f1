// The radix sort of the CUDA SDK lineage sorts each block's keys one bit at
// a time, in a loop from the kernel's `startbit` to `startbit + nbits`, and
// ranks them with a warp scan three calls down (kernel -> rank -> scan ->
// warp scan), written warp-synchronously through shared memory. The loop's
// start is not known here but is the same in every thread: its body is
// analysed with the loop variable unknown, and the warp scan, which does
// not read it, is still found.
// RUN: %check_cuda_tidy %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

template <class T, int maxlevel>
__device__ T warpScan(T val, volatile T *sData) {
  int idx = 2 * threadIdx.x - (threadIdx.x & 31);
  sData[idx] = 0;
  idx += 32;
  T t = sData[idx] = val;
  if (0 <= maxlevel) { sData[idx] = t = t + sData[idx - 1]; }
  if (1 <= maxlevel) { sData[idx] = t = t + sData[idx - 2]; }
  if (2 <= maxlevel) { sData[idx] = t = t + sData[idx - 4]; }
  return sData[idx] - val;
}

__device__ unsigned blockScan(unsigned v, unsigned *ptr) {
  unsigned r = warpScan<unsigned, 1>(v, ptr);
  __syncthreads();
  return r;
}

__device__ unsigned rankBit(unsigned key, unsigned shift, unsigned *s) {
  unsigned zero = !((key >> shift) & 1u);
  return blockScan(zero, s);
}

__global__ void sortBlocks(unsigned *keys, unsigned nbits, unsigned startbit) {
  __shared__ unsigned sMem[512];
  unsigned key = keys[blockIdx.x * blockDim.x + threadIdx.x];
  for (unsigned shift = startbit; shift < startbit + nbits; ++shift) {
    unsigned rank = rankBit(key, shift, sMem);
    sMem[rank] = key;
    __syncthreads();
    key = sMem[threadIdx.x];
    __syncthreads();
  }
  keys[blockIdx.x * blockDim.x + threadIdx.x] = key;
}

// Levels 0 and 1 run (the template argument is 1); each reads the element
// another lane wrote the step before.

// Correct counterpart: each step reads, synchronises the warp, then writes.
template <class T, int maxlevel>
__device__ T warpScanSynced(T val, volatile T *sData) {
  int idx = 2 * threadIdx.x - (threadIdx.x & 31);
  sData[idx] = 0;
  idx += 32;
  sData[idx] = val;
  __syncwarp();
  T t = val;
  if (0 <= maxlevel) { t += sData[idx - 1]; __syncwarp(); sData[idx] = t; __syncwarp(); }
  if (1 <= maxlevel) { t += sData[idx - 2]; __syncwarp(); sData[idx] = t; __syncwarp(); }
  return t - val;
}

__device__ unsigned rankBitSynced(unsigned key, unsigned shift, unsigned *s) {
  unsigned zero = !((key >> shift) & 1u);
  unsigned r = warpScanSynced<unsigned, 1>(zero, s);
  __syncthreads();
  return r;
}

__global__ void sortBlocksSynced(unsigned *keys, unsigned nbits,
                                 unsigned startbit) {
  __shared__ unsigned sMem[512];
  unsigned key = keys[blockIdx.x * blockDim.x + threadIdx.x];
  for (unsigned shift = startbit; shift < startbit + nbits; ++shift) {
    unsigned rank = rankBitSynced(key, shift, sMem);
    sMem[rank] = key;
    __syncthreads();
    key = sMem[threadIdx.x];
    __syncthreads();
  }
  keys[blockIdx.x * blockDim.x + threadIdx.x] = key;
}

void sort(unsigned *keys, unsigned n) {
  sortBlocks<<<n / 128, 128>>>(keys, 4, 0);
  sortBlocksSynced<<<n / 128, 128>>>(keys, 4, 0);
}

// warning@17:45 {{lanes of a warp exchange data through shared memory 'sMem' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
// note@14:3 {{lane 31 writes the element here}}
// note@17:45 {{lane 0 reads it here, and no barrier orders the two}}
// note@24:16 {{shared memory 'sMem' is passed to 'warpScan' here}}
// note@31:10 {{'blockScan' is called here}}
// note@38:21 {{'rankBit' is called here}}
// note@17:45 {{since Volta (sm_70), independent thread scheduling lets the lanes of a warp run in any order: they are not in lockstep, and 'volatile' does not order them}}
// note@17:45 {{no automatic fix: the statement is not a plain assignment}}
// note@-80:45 {{and lane 0 reads it here with no barrier between}}
// note@14:3 {{the same exchange again: lane 30 writes the element here}}
