// Stride loops whose lanes are not known in every iteration: an exchange
// in them is reported, with no fix (a full-warp `__syncwarp` would wait for
// lanes that have left the loop). See stride-loops.cu for the model.
// RUN: %check_cuda_tidy %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// Neighbouring pairs over a buffer of run-time length: the lanes that run
// the last iteration are not known, so the exchange gets no fix.
__device__ void pairTail(volatile int *s, int pos) {
  s[pos] += s[pos ^ 1];
  // warning@-1:13 {{lanes of a warp exchange data through shared memory 't' with no '__syncwarp' between the write and the read; no fix: the lanes that run it are not known}}
  // note@-2:3 {{lane 1 writes the element here}}
  // note@-3:13 {{lane 0 reads it here, and no barrier orders the two}}
  // note@-4:13 {{independent thread scheduling}}
  // note@24:5 {{shared memory 't' is passed to 'pairTail' here}}
}

__global__ void pairsOfUnknownCount(int *data, int n) {
  extern __shared__ int t[];
  for (int pos = threadIdx.x; pos < n; pos += blockDim.x)
    t[pos] = data[pos];
  __syncthreads();
  for (int pos = threadIdx.x; pos < n; pos += blockDim.x)
    pairTail(t, pos);
  __syncthreads();
  for (int pos = threadIdx.x; pos < n; pos += blockDim.x)
    data[pos] = t[pos];
}

// The last iteration runs part of a warp (1000 is not a multiple of 32):
// the lanes differ between iterations, so no mask is right for all of them.
__global__ void partialLast(int *io) {
  __shared__ int r[1000 + 16];
  for (int c = threadIdx.x; c < 1000; c += 256)
    r[c] += r[c + 16];
  // Lanes 16-31 also read the elements the next warp updates: a race
  // between warps, which cuda-shared-memory-race reports (the pair inside
  // the warp, lane 16 writing what lane 0 reads, is then left to it).
  // warning@-4:13 {{threads of different warps race on shared memory 'r' with no barrier between an update and a read}} [cuda-shared-memory-race]
  // note@-5:5 {{thread 32 updates 'r[32]' here}}
  // note@-6:13 {{thread 16, in another warp, reads it here in the same barrier interval}}
  // note@-8:3 {{the next iteration of this loop reaches the second access before any barrier}}
  // note@-8:13 {{no automatic fix: both accesses are in one statement}}
  __syncthreads();
  io[threadIdx.x] = r[threadIdx.x];
}

void launchBoth(int *data, int n) {
  pairsOfUnknownCount<<<1, 256, n * sizeof(int)>>>(data, n);
  partialLast<<<1, 256>>>(data);
}
