// Comparisons that the kernel's launches decide (issue 37, item 4): with
// every launch's grid a constant, `blockIdx.x` is below it; a counted
// loop's variable is below its bound inside the loop and at its exit value
// after it. An index built from them and `threadIdx` whose largest value is
// below the bound makes the test true in every thread: a barrier under it
// is reached by all. Each silent kernel has a counterpart whose index can
// pass the bound in some threads of a block, where the warning stays.
// RUN: %check_cuda_tidy --checks=cuda-divergent-barrier %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

#define N 1000

// Silent: 3 blocks of 256, so i <= 767 < N in every thread.
__global__ void constantGrid(float *a) {
  __shared__ float s[256];
  int i = blockIdx.x * 256 + threadIdx.x;
  if (i < N) {
    s[threadIdx.x] = a[i];
    __syncthreads();
    a[i] = s[255 - threadIdx.x];
  }
}

// Counterpart: 4 blocks of 256; in the last one threads 232 to 255 skip the
// barrier.
__global__ void constantGridPartial(float *a) {
  __shared__ float s[256];
  int i = blockIdx.x * 256 + threadIdx.x;
  if (i < N) {
    s[threadIdx.x] = a[i];
    __syncthreads();
    // warning@-1:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another}}
    // note@-4:7 {{the condition depends on 'i', which differs between threads}}
    // note@-6:3 {{'i' is set from 'threadIdx.x' here}}
    a[i] = s[255 - threadIdx.x];
  }
}

// Counterpart: a grid the host computes at run time bounds nothing.
__global__ void runtimeGrid(float *a) {
  __shared__ float s[256];
  int i = blockIdx.x * 256 + threadIdx.x;
  if (i < N) {
    s[threadIdx.x] = a[i];
    __syncthreads();
    // warning@-1:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another}}
    // note@-4:7 {{the condition depends on 'i', which differs between threads}}
    // note@-6:3 {{'i' is set from 'threadIdx.x' here}}
    a[i] = s[255 - threadIdx.x];
  }
}

// Silent: inside the loop j <= 2, so idx <= 767 < N.
__global__ void insideCountedLoop(float *a) {
  __shared__ float s[256];
  for (int j = 0; j < 3; j++) {
    int idx = j * 256 + threadIdx.x;
    if (idx < N) {
      s[threadIdx.x] = a[idx];
      __syncthreads();
      a[idx] = s[255 - threadIdx.x];
      __syncthreads();
    }
  }
}

// Counterpart: a fourth pass reaches 1023; threads 232 to 255 skip it.
__global__ void insideLongerLoop(float *a) {
  __shared__ float s[256];
  for (int j = 0; j < 4; j++) {
    int idx = j * 256 + threadIdx.x;
    if (idx < N) {
      s[threadIdx.x] = a[idx];
      __syncthreads();
      // warning@-1:7 {{'__syncthreads' is reached by only some threads of the block}}
      // note@-4:9 {{the condition depends on 'idx', which differs between threads}}
      // note@-6:5 {{'idx' is set from 'threadIdx.x' here}}
      a[idx] = s[255 - threadIdx.x];
      __syncthreads();
      // note@-1:7 {{'__syncthreads' here is under the same condition}}
    }
  }
}

// Silent: the loop leaves j at 3, so the index is at most 1023 < 1100.
__global__ void afterCountedLoop(float *a) {
  __shared__ float s[256];
  int j;
  for (j = 0; j < 3; j++)
    a[j * 256 + threadIdx.x] += 1.0f;
  if (j * 256 + threadIdx.x < 1100) {
    s[threadIdx.x] = a[threadIdx.x];
    __syncthreads();
    a[threadIdx.x] = s[255 - threadIdx.x];
  }
}

// Counterpart: the loop leaves j at 4; threads 76 to 255 skip the barrier.
__global__ void afterLongerLoop(float *a) {
  __shared__ float s[256];
  int j;
  for (j = 0; j < 4; j++)
    a[j * 256 + threadIdx.x] += 1.0f;
  if (j * 256 + threadIdx.x < 1100) {
    s[threadIdx.x] = a[threadIdx.x];
    __syncthreads();
    // warning@-1:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another}}
    // note@-4:7 {{the condition depends on 'threadIdx.x', which differs between threads}}
    a[threadIdx.x] = s[255 - threadIdx.x];
  }
}

// Counterpart: the loop's variable is also written in its body, so its
// range is not the loop's.
__global__ void writtenInBody(float *a, int skip) {
  __shared__ float s[256];
  for (int j = 0; j < 3; j++) {
    if (a[j] > 0.0f)
      j += skip;
    int idx = j * 256 + threadIdx.x;
    if (idx < N) {
      s[threadIdx.x] = a[threadIdx.x];
      __syncthreads();
      // warning@-1:7 {{'__syncthreads' is reached by only some threads of the block}}
      // note@-4:9 {{the condition depends on 'idx', which differs between threads}}
      // note@-6:5 {{'idx' is set from 'threadIdx.x' here}}
      a[threadIdx.x] = s[255 - threadIdx.x];
    }
  }
}

// Counterpart: a lambda may write the loop's variable through its capture.
__global__ void writtenInLambda(float *a) {
  __shared__ float s[256];
  int j;
  for (j = 0; j < 3; j++)
    a[j * 256 + threadIdx.x] += 1.0f;
  auto bump = [&] { j += 10; };
  bump();
  if (j * 256 + threadIdx.x < 1100) {
    s[threadIdx.x] = a[threadIdx.x];
    __syncthreads();
    // warning@-1:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another}}
    // note@-4:7 {{the condition depends on 'threadIdx.x', which differs between threads}}
    a[threadIdx.x] = s[255 - threadIdx.x];
  }
}

void launch(float *a, int blocks) {
  constantGrid<<<3, 256>>>(a);
  constantGridPartial<<<4, 256>>>(a);
  runtimeGrid<<<blocks, 256>>>(a);
  insideCountedLoop<<<1, 256>>>(a);
  insideLongerLoop<<<1, 256>>>(a);
  afterCountedLoop<<<1, 256>>>(a);
  afterLongerLoop<<<1, 256>>>(a);
  writtenInBody<<<1, 256>>>(a, 1);
  writtenInLambda<<<1, 256>>>(a);
}
