// Two values that differ by the same amount in every thread: a local set
// from another plus a uniform amount keeps that relation, even where the
// other varies between threads and was set under a thread-varying branch,
// so their difference is uniform. This is the merge step of a block-wide
// merge sort (each thread finds its key's place in the partner run by a
// binary search whose depth is the run's length). Each silent kernel has a
// counterpart beside it whose difference does vary, and which must still
// warn.
// RUN: %check_cuda_tidy --checks=cuda-divergent-barrier %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// One halving step of the search; every thread of the block takes it.
__device__ void halve(const unsigned *run, unsigned key, unsigned &pos,
                      unsigned step) {
  unsigned probe = run[pos];
  pos = probe < key ? pos + step : pos - step;
  __syncthreads();
}

// 'last - first' is the run's length minus one whichever half the thread
// is in: the switch picks one entry for the whole block.
__global__ void mergeRuns(unsigned *keys) {
  __shared__ unsigned run[1024];
  unsigned tid = threadIdx.x;
  unsigned key = keys[blockIdx.x * 1024 + tid];
  run[tid] = key;
  __syncthreads();
  for (unsigned width = 1; width < 128; width *= 2) {
    unsigned first = (tid / (width * 2)) * 16 * width;
    unsigned right = tid % (width << 1) >= width ? 1 : 0;
    if (right == 0)
      first += 8 * width;
    unsigned last = first + 8 * width - 1;
    unsigned pos = (first + last) / 2;
    unsigned length = last - first;
    __syncthreads();
    switch (length) {
    case 511:
      halve(run, key, pos, 128);
    case 255:
      halve(run, key, pos, 64);
    case 7:
      halve(run, key, pos, 2);
    }
    keys[blockIdx.x * 1024 + pos] = key;
    __syncthreads();
  }
}

// The same with signed indices, a shift for the run and the search bound
// compared in a loop.
__global__ void mergeRunsSigned(int *keys, int count) {
  __shared__ int run[1024];
  int tid = threadIdx.x;
  int key = keys[blockIdx.x * 1024 + tid];
  run[tid] = key;
  __syncthreads();
  for (int width = 1, level = 0; width < 128; width *= 2, ++level) {
    int first = (tid >> (level + 1)) * 16 * width;
    if (threadIdx.x % (width << 1) < width)
      first += 8 * width;
    int last = first + 8 * width - 1;
    for (int span = last - first; span > 0; span /= 2) {
      run[tid] = key + span;
      __syncthreads();
    }
    keys[blockIdx.x * 1024 + first] = run[(tid + 1) % 1024];
    __syncthreads();
  }
}

// 'last' is set before 'first' moves: their difference is 0 in some threads
// and '8 * width' in others.
__global__ void mergeRunsStale(unsigned *keys) {
  __shared__ unsigned run[1024];
  unsigned tid = threadIdx.x;
  unsigned key = keys[blockIdx.x * 1024 + tid];
  run[tid] = key;
  __syncthreads();
  for (unsigned width = 1; width < 128; width *= 2) {
    unsigned first = (tid / (width * 2)) * 16 * width;
    unsigned right = tid % (width << 1) >= width ? 1 : 0;
    unsigned last = first + 8 * width - 1;
    if (right == 0)
      first += 8 * width;
    unsigned pos = (first + last) / 2;
    unsigned length = last - first;
    __syncthreads();
    switch (length) {
    case 511:
      halve(run, key, pos, 128);
      // warning@-1:7 {{'halve' waits at '__syncthreads' and is called by only some threads of the block}}
      // note@-4:13 {{the condition depends on 'length', which differs between threads}}
      // note@-7:5 {{'length' is set from 'last' here}}
      // note@-12:5 {{'last' is set from 'first' here}}
      // note@-15:5 {{'first' is set from 'tid' here}}
      // note@-80:3 {{'__syncthreads' is reached here}}
    case 255:
      halve(run, key, pos, 64);
      // note@-1:7 {{'halve', which waits at '__syncthreads', is called here under the same condition}}
    case 7:
      halve(run, key, pos, 2);
      // note@-1:7 {{'halve', which waits at '__syncthreads', is called here under the same condition}}
    }
    keys[blockIdx.x * 1024 + pos] = key;
    __syncthreads();
  }
}

// 'last' is 'first' plus the thread's own key: the lengths differ.
__global__ void mergeRunsByKey(int *keys) {
  __shared__ int run[1024];
  int tid = threadIdx.x;
  int key = keys[blockIdx.x * 1024 + tid];
  run[tid] = key;
  __syncthreads();
  for (int width = 1, level = 0; width < 128; width *= 2, ++level) {
    int first = (tid >> (level + 1)) * 16 * width;
    if (threadIdx.x % (width << 1) < width)
      first += 8 * width;
    int last = first + key;
    for (int span = last - first; span > 0; span /= 2) {
      run[tid] = key + span;
      __syncthreads();
      // warning@-1:7 {{'__syncthreads' is reached by only some threads of the block}}
      // note@-4:5 {{the loop's trip count depends on 'span', which differs between threads}}
      // note@-5:10 {{'span' is set from 'last' here}}
      // note@-7:5 {{'last' is set from 'first' here}}
      // note@-11:5 {{'first' is set from 'tid' here}}
    }
    keys[blockIdx.x * 1024 + first] = run[(tid + 1) % 1024];
    __syncthreads();
  }
}

// Each round reads 'first' afresh, but 'last' is the previous round's: the
// difference is the previous round's value minus this round's.
__global__ void mergeRunsCarried(const int *starts, int *out, int rounds) {
  __shared__ int buf[256];
  int last = 0;
  for (int r = 0; r < rounds; ++r) {
    int first = starts[r * 256 + threadIdx.x];
    for (int span = last - first; span > 0; span /= 2) {
      buf[threadIdx.x] = span;
      __syncthreads();
      // warning@-1:7 {{'__syncthreads' is reached by only some threads of the block}}
      // note@-4:5 {{the loop's trip count depends on 'span', which differs between threads}}
      // note@-5:10 {{'span' is set from 'last' here}}
      // note@+3:5 {{'last' is set from 'first' here}}
      // note@-8:5 {{'first' is set from 'threadIdx.x' here}}
    }
    last = first + 64;
    out[r * 256 + threadIdx.x] = buf[255 - threadIdx.x];
    __syncthreads();
  }
}
