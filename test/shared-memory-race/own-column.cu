// A two-dimensional index whose row is loaded and whose column is the
// thread's own (`cnt[data[i] & 15][threadIdx.x]`, a per-thread histogram
// column): whatever the row, each thread touches only its column, so the
// threads of other warps never meet it there.
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race \
// RUN:   --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

#define THREADS 128
#define BINS 16

// Each thread zeroes its column, counts into it, and the barrier orders the
// counts before the merge: silent.
__global__ void columnHistogram(const unsigned char *data, int n,
                                unsigned *out) {
  __shared__ unsigned cnt[BINS][THREADS];
  const int t = threadIdx.x;
  for (int b = 0; b < BINS; ++b)
    cnt[b][t] = 0;
  for (int i = blockIdx.x * THREADS + t; i < n; i += gridDim.x * THREADS)
    cnt[data[i] & (BINS - 1)][t] += 1;
  __syncthreads();
  if (t < BINS) {
    unsigned sum = 0;
    for (int c = 0; c < THREADS; ++c)
      sum += cnt[t][c];
    atomicAdd(&out[t], sum);
  }
}

// The counterpart: the first sixteen threads zero a row each, and the
// counts start with no barrier after: thread 32 counts into column 32 of a
// row that thread 0 to 15 (another warp) may not have zeroed yet.
__global__ void rowZeroed(const unsigned char *data, int n, unsigned *out) {
  __shared__ unsigned cnt[BINS][THREADS];
  const int t = threadIdx.x;
  if (t < BINS)
    for (int c = 0; c < THREADS; ++c)
      cnt[t][c] = 0;
  for (int i = blockIdx.x * THREADS + t; i < n; i += gridDim.x * THREADS)
    cnt[data[i] & (BINS - 1)][t] += 1;
  // warning@-1:5 {{threads of different warps race on shared memory 'cnt' with no barrier between a write and an update}}
  // note@-4:7 {{thread 0 writes 'cnt[0][32]' here}}
  // note@-3:5 {{thread 32, in another warp, updates it here in the same barrier interval}}
  // note@-4:5 {{the element thread 32 accesses comes from a loaded value: some input makes it the one thread 0 writes}}
  // FIXED: {{^}}      cnt[t][c] = 0;{{$}}
  // FIXED-NEXT: {{^}}  __syncthreads();{{$}}
  // FIXED-NEXT: {{^}}  for (int i = blockIdx.x * THREADS + t; i < n; i += gridDim.x * THREADS){{$}}
  __syncthreads();
  if (t < BINS) {
    unsigned sum = 0;
    for (int c = 0; c < THREADS; ++c)
      sum += cnt[t][c];
    atomicAdd(&out[t], sum);
  }
}

void launch(const unsigned char *data, int n, unsigned *out) {
  columnHistogram<<<64, THREADS>>>(data, n, out);
  rowZeroed<<<64, THREADS>>>(data, n, out);
}
