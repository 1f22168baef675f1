// A tree over more accumulators than threads, in the shape of the CUDA
// samples' scalarProd: each step is a stride loop over the accumulators
// below the stride, a barrier at the top of the step. Through the stride
// loop's back edge both sides are in one step (the barrier stops the
// step's loop): writes below the stride, reads above it, never one element.
// The counterpart has no fix (the barrier belongs in the step's loop; the
// check points at the stride loop, whose end some threads do not reach).
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race \
// RUN:   %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

#define ACCUM_N 1024

// silent.
__global__ void accumulate(float *out, const float *a, const float *b, int n) {
  __shared__ float acc[ACCUM_N];
  for (int i = threadIdx.x; i < ACCUM_N; i += blockDim.x) {
    float sum = 0;
    for (int pos = blockIdx.x * n + i; pos < (blockIdx.x + 1) * n; pos += ACCUM_N)
      sum += a[pos] * b[pos];
    acc[i] = sum;
  }
  for (int stride = ACCUM_N / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    for (int i = threadIdx.x; i < stride; i += blockDim.x)
      acc[i] += acc[stride + i];
  }
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = acc[0];
}

// The counterpart: the barrier hoisted out of the steps. A thread reads an
// accumulator of the previous step that a thread of another warp may not
// have updated yet.
__global__ void accumulateNoSync(float *out, const float *a, const float *b,
                                 int n) {
  __shared__ float acc[ACCUM_N];
  for (int i = threadIdx.x; i < ACCUM_N; i += blockDim.x) {
    float sum = 0;
    for (int pos = blockIdx.x * n + i; pos < (blockIdx.x + 1) * n; pos += ACCUM_N)
      sum += a[pos] * b[pos];
    acc[i] = sum;
  }
  __syncthreads();
  for (int stride = ACCUM_N / 2; stride > 0; stride >>= 1) {
    for (int i = threadIdx.x; i < stride; i += blockDim.x)
      acc[i] += acc[stride + i];
    // warning@-1:17 {{threads of different warps race on shared memory 'acc' with no barrier between an update and a read}}
    // note@-2:7 {{thread 128 updates 'acc[128]' here}}
    // note@-3:17 {{thread 0, in another warp, reads it here in the same barrier interval}}
    // note@-5:5 {{the next iteration of this loop reaches the second access before any barrier}}
    // note@-5:17 {{no automatic fix: the end of the loop body is not a point every thread of the block reaches on each iteration}}
  }
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = acc[0];
}

void launch(float *out, const float *a, const float *b, int n) {
  accumulate<<<128, 256>>>(out, a, b, n);
  accumulateNoSync<<<128, 256>>>(out, a, b, n);
}
