// A header's warp reduction, kept for the files that include it.
#pragma once

__device__ void warpReduce(volatile int *sdata, unsigned int tid) {
  sdata[tid] += sdata[tid + 16];
  sdata[tid] += sdata[tid + 8];
}

// Correct counterpart: shuffles, no shared memory.
__device__ int warpReduceShfl(volatile int *unused, int v) {
  v += __shfl_down_sync(0xffffffffu, v, 16);
  v += __shfl_down_sync(0xffffffffu, v, 8);
  return v;
}
