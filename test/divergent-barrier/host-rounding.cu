// A block-stride loop whose bound the host rounds up to a multiple of the
// block's size at every launch (`(n + 255) / 256 * 256`): in blocks of 256
// threads, every thread runs it as many times, so its barrier is reached by
// all. The launch's argument is a multiple of 256 by its form: a product
// with 256, through a local that holds one value.
// RUN: %check_cuda_tidy --checks=cuda-divergent-barrier %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__global__ void stagePadded(float *data, int padded) {
  __shared__ float s[256];
  for (int i = threadIdx.x; i < padded; i += 256) {
    s[threadIdx.x] = data[i];
    __syncthreads();
    data[i] = s[255 - threadIdx.x];
    __syncthreads();
  }
}

// Counterpart: launched with the unrounded count, the last block's threads
// run the loop a different number of times.
__global__ void stageUnpadded(float *data, int n) {
  __shared__ float s[256];
  for (int i = threadIdx.x; i < n; i += 256) {
    s[threadIdx.x] = data[i];
    __syncthreads();
    // warning@-1:5 {{threads that skip this '__syncthreads'}}
    // note@-4:3 {{the loop's trip count depends on 'i', which differs between threads}}
    // note@-5:8 {{'i' is set from 'threadIdx.x' here}}
    data[i] = s[255 - threadIdx.x];
    __syncthreads();
    // note@-1:5 {{'__syncthreads' here is in the same loop}}
  }
}

void run(float *data, int n) {
  int padded = (n + 255) / 256 * 256;
  stagePadded<<<1, 256>>>(data, padded);
  stageUnpadded<<<1, 256>>>(data, n);
}
