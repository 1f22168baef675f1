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

// A helper that waits, then a barrier whose skippers only exit, under one
// condition (HeCBench adamw): one warning, at the helper's call (threads
// that skip it go on to other work); the barrier is a note.
__device__ void blockMax(float &v) {
  __shared__ float s[256];
  s[threadIdx.x] = v;
  __syncthreads();
  v = s[0];
}

__global__ void reduceThenScale(float *p, long n) {
  __shared__ float absmax;
  long id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id < n) {
    float v = p[id];
    blockMax(v);
    // warning@-1:5 {{'blockMax' waits at '__syncthreads' and is called by only some threads of the block}}
    // note@-4:7 {{the condition depends on 'id', which differs between threads}}
    // note@-6:3 {{'id' is set from 'threadIdx.x' here}}
    // note@-13:3 {{'__syncthreads' is reached here}}
    if (threadIdx.x == 0)
      absmax = v;
    __syncthreads();
    // note@-1:5 {{'__syncthreads' here is under the same condition}}
    p[id] = v / absmax;
  }
}

// A condition whose variable varies only because the divergent loop around
// it sums a value a different number of times in each thread (HeCBench
// aop): the loop is the cause, and the barrier under the condition one
// more site of it.
__global__ void firstPaths(const double *paths, double *out, int numPaths) {
  __shared__ int scan[257];
  __shared__ double svds[3];
  int found = 0;
  for (int path = threadIdx.x; path < numPaths; path += 256) {
    double S = paths[path];
    int in = S > 0;
    scan[threadIdx.x] = in;
    __syncthreads();
    // warning@-1:5 {{'__syncthreads' is reached by only some threads of the block}}
    // note@-6:3 {{the loop's trip count depends on 'path', which differs between threads}}
    // note@-7:8 {{'path' is set from 'threadIdx.x' here}}
    if (threadIdx.x == 0)
      for (int i = 1; i <= 256; ++i)
        scan[i] += scan[i - 1];
    __syncthreads();
    // note@-1:5 {{'__syncthreads' here is in the same loop}}
    const int total = scan[256];
    if (found < 3) {
      if (in)
        svds[found] = S;
      __syncthreads();
      // note@-1:7 {{'__syncthreads' here is in the same loop}}
      found += total;
    }
  }
  out[blockIdx.x] = svds[0];
}

// Correct counterpart: the loop runs as many times in every thread (a
// block-uniform bound), so the sum and the condition on it are uniform.
__global__ void firstPathsUniform(const double *paths, double *out,
                                  int rounds) {
  __shared__ int scan[257];
  __shared__ double svds[3];
  int found = 0;
  for (int r = 0; r < rounds; ++r) {
    double S = paths[r * 256 + threadIdx.x];
    int in = S > 0;
    scan[threadIdx.x] = in;
    __syncthreads();
    if (threadIdx.x == 0)
      for (int i = 1; i <= 256; ++i)
        scan[i] += scan[i - 1];
    __syncthreads();
    const int total = scan[256];
    if (found < 3) {
      if (in)
        svds[found] = S;
      __syncthreads();
      found += total;
    }
  }
  out[blockIdx.x] = svds[0];
}
