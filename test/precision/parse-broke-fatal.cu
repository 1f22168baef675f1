// After a fatal error (a missing #include) clang instantiates no template,
// so `cg::sync(block)` stays an unresolved call and the barrier is not in
// the AST: the race, barrier and warp checks stay silent in the whole
// translation unit rather than report races and divergence around a barrier
// they cannot see. Only the compiler's error remains.
// RUN: %check_cuda_tidy %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>
#include "no_such_helper.h"
// error@-1 {{'no_such_helper.h' file not found}}
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Correct: every thread writes its element, the block synchronises, then
// each thread reads another warp's element.
__global__ void reverse(float *out, const float *in) {
  __shared__ float tile[256];
  cg::thread_block block = cg::this_thread_block();
  tile[threadIdx.x] = in[threadIdx.x];
  cg::sync(block);
  out[threadIdx.x] = tile[255 - threadIdx.x];
}

// Correct: a tree reduction with a barrier per step, only some threads
// adding (the barrier itself is reached by all).
__global__ void reduce(float *out, const float *in) {
  __shared__ float partial[256];
  cg::thread_block block = cg::this_thread_block();
  partial[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  cg::sync(block);
  for (int s = 128; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      partial[threadIdx.x] += partial[threadIdx.x + s];
    cg::sync(block);
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = partial[0];
}

void run(float *out, const float *in) {
  reverse<<<1, 256>>>(out, in);
  reduce<<<1, 256>>>(out, in);
}
