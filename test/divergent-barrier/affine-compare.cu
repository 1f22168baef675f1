// A loop test that compares two values with the same thread part is the
// same in every thread of the block (the thread index cancels in the
// difference): each thread walks its own column of one window, as ggml's
// gated-linear-attention and RWKV kernels write it. Each silent kernel has
// a counterpart whose test does vary, and which must still warn.
// RUN: %check_cuda_tidy --checks=cuda-divergent-barrier %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// Both bounds carry the thread index: every thread runs (end - begin) /
// step iterations, and all reach both barriers.
__global__ void windowColumns(const float *in, float *out, int begin,
                              int end, int step) {
  __shared__ float row[256];
  const int tid = threadIdx.x;
  for (int t = begin + tid; t < end + tid; t += step) {
    __syncthreads();
    row[tid] = in[t];
    __syncthreads();
    out[t] = row[(tid + 1) % blockDim.x];
  }
}

// The same with the comparison the other way round and a while loop.
__global__ void windowColumnsWhile(const float *in, float *out, int begin,
                                   int end) {
  __shared__ float row[256];
  int t = begin + threadIdx.x;
  while (end + threadIdx.x > t) {
    row[threadIdx.x] = in[t];
    __syncthreads();
    out[t] = row[0];
    __syncthreads();
    t += 256;
  }
}

// The upper bound has no thread index: threads leave at different times.
__global__ void windowColumnsUneven(const float *in, float *out, int begin,
                                   int end, int step) {
  __shared__ float row[256];
  const int tid = threadIdx.x;
  for (int t = begin + tid; t < end; t += step) {
    __syncthreads();
    // warning@-1:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
    // note@-3:3 {{the loop's trip count depends on 't', which differs between threads}}
    // note@-4:8 {{'t' is set from 'tid' here}}
    // note@-6:3 {{'tid' is set from 'threadIdx.x' here}}
    row[tid] = in[t];
    __syncthreads();
    // note@-1:5 {{'__syncthreads' here is in the same loop}}
    out[t] = row[(tid + 1) % blockDim.x];
  }
}

// Thread parts that differ (twice the index on one side): varies.
__global__ void windowColumnsScaled(const float *in, float *out, int begin,
                                    int end, int step) {
  __shared__ float row[256];
  const int tid = threadIdx.x;
  for (int t = begin + tid; t < end + 2 * tid; t += step) {
    __syncthreads();
    // warning@-1:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
    // note@-3:3 {{the loop's trip count depends on 't', which differs between threads}}
    // note@-4:8 {{'t' is set from 'tid' here}}
    // note@-6:3 {{'tid' is set from 'threadIdx.x' here}}
    row[tid] = in[t];
    __syncthreads();
    // note@-1:5 {{'__syncthreads' here is in the same loop}}
    out[t] = row[(tid + 1) % blockDim.x];
  }
}
