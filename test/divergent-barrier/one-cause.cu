// One cause, one warning: the barriers that one divergent condition or one
// divergent loop holds are reported once, at the first, with the others as
// notes. Barriers under two different causes are two warnings.
// RUN: %check_cuda_tidy --checks=cuda-divergent-barrier %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// Three barriers under one condition on the thread index.
__global__ void threeUnderOneCondition(float *data, int n) {
  __shared__ float s[256];
  if (threadIdx.x < n) {
    s[threadIdx.x] = data[threadIdx.x];
    __syncthreads();
    // warning@-1:5 {{'__syncthreads' is reached by only some threads of the block}}
    // note@-4:7 {{the condition depends on 'threadIdx.x', which differs between threads}}
    s[threadIdx.x] += s[(threadIdx.x + 1) % 256];
    __syncthreads();
    // note@-1:5 {{'__syncthreads' here is under the same condition}}
    s[threadIdx.x] += s[(threadIdx.x + 2) % 256];
    __syncthreads();
    // note@-1:5 {{'__syncthreads' here is under the same condition}}
  }
  data[threadIdx.x] = s[threadIdx.x];
}

// Two barriers in one loop whose trip count differs between threads.
__global__ void twoInOneLoop(float *data, const int *counts) {
  __shared__ float s[256];
  for (int i = 0; i < counts[threadIdx.x]; ++i) {
    s[threadIdx.x] = data[i * 256 + threadIdx.x];
    __syncthreads();
    // warning@-1:5 {{'__syncthreads' is reached by only some threads of the block}}
    // note@-4:3 {{the loop's trip count depends on}}
    data[i * 256 + threadIdx.x] = s[255 - threadIdx.x];
    __syncthreads();
    // note@-1:5 {{'__syncthreads' here is in the same loop}}
  }
  data[threadIdx.x] += 1.0f;
}

// Two causes: two warnings.
__global__ void twoConditions(float *data, int n) {
  __shared__ float s[256];
  if (threadIdx.x < n) {
    s[threadIdx.x] = data[threadIdx.x];
    __syncthreads();
    // warning@-1:5 {{'__syncthreads' is reached by only some threads of the block}}
    // note@-4:7 {{the condition depends on 'threadIdx.x', which differs between threads}}
  }
  if (threadIdx.x % 2 == 0) {
    s[threadIdx.x] += 1.0f;
    __syncthreads();
    // warning@-1:5 {{'__syncthreads' is reached by only some threads of the block}}
    // note@-4:7 {{the condition depends on 'threadIdx.x', which differs between threads}}
  }
  data[threadIdx.x] = s[threadIdx.x];
}

// Correct: the same barriers under a condition every thread of the block
// agrees on.
__global__ void threeUnderUniformCondition(float *data, int n) {
  __shared__ float s[256];
  if (blockIdx.x < n) {
    s[threadIdx.x] = data[threadIdx.x];
    __syncthreads();
    s[threadIdx.x] += s[(threadIdx.x + 1) % 256];
    __syncthreads();
    s[threadIdx.x] += s[(threadIdx.x + 2) % 256];
    __syncthreads();
  }
  data[threadIdx.x] = s[threadIdx.x];
}
