// The last-block reduction: each block stores a partial result, one thread
// takes a ticket, and the block that draws the last one reads every
// partial. A relaxed ticket does not order the partial store before it (the
// PTX memory model's release pattern needs a fence or a release operation
// between them), so the last block may read a stale partial. The fix inserts
// '__threadfence();' where every thread that stored reaches it, before the
// ticket; the fixed file compiles and is silent.
// RUN: %check_cuda_tidy --fix --recheck %if nvcc %{ %nvcc_fixed %} \
// RUN:   --checks=cuda-memory-ordering %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__device__ unsigned retirementCount = 0;

// The CUDA samples' shape, with the fence missing: thread 0 stores the
// block's sum, then takes the ticket in the same block of code.
__global__ void sumLastBlock(const float *in, float *partial, float *out,
                             unsigned n) {
  __shared__ float sums[256];
  __shared__ bool amLast;
  sums[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0;
    for (int i = 0; i < 256; ++i)
      s += sums[i];
    partial[blockIdx.x] = s;
    // note@-1:5 {{partial result stored here with no '__threadfence()' before the ticket}}
    unsigned ticket = atomicInc(&retirementCount, gridDim.x);
    // warning@-1:23 {{the ticket 'atomicInc' is not ordered after the partial results; the last block may read stale values}} [cuda-memory-ordering]
    // FIXED: {{^}}    __threadfence();
    // FIXED-NEXT: {{^}}    unsigned ticket = atomicInc(&retirementCount, gridDim.x);
    amLast = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (amLast && threadIdx.x == 0) {
    float total = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      total += partial[b];
    // note@-1:16 {{read here by the block that draws the last ticket}}
    *out = total;
    retirementCount = 0;
  }
}

// Every thread stores, a barrier, then thread 0 takes the ticket in an if:
// the fence goes before that if, where every writing thread passes.
__global__ void splitK(const float *a, float *workspace, float *c,
                       int *semaphores, int tiles) {
  float acc = a[blockIdx.x * blockDim.x + threadIdx.x];
  workspace[blockIdx.x * blockDim.x + threadIdx.x] = acc;
  // note@-1:3 {{partial result stored here}}
  __syncthreads();
  __shared__ int last;
  if (threadIdx.x == 0)
    last = atomicAdd(&semaphores[blockIdx.y], 1) == tiles - 1;
    // warning@-1:12 {{the ticket 'atomicAdd' is not ordered after the partial results}}
  // FIXED: {{^}}  __syncthreads();
  // FIXED: {{^}}  __threadfence();
  // FIXED-NEXT: {{^}}  if (threadIdx.x == 0)
  __syncthreads();
  if (last) {
    float sum = 0;
    for (int k = 0; k < tiles; ++k)
      sum += workspace[k * blockDim.x + threadIdx.x];
      // note@-1:14 {{read here by the block that draws the last ticket}}
    c[threadIdx.x] = sum;
  }
}

// The fence is there, but after the ticket: it orders nothing for the
// store before the ticket.
__global__ void lateFence(float *partial, float *out, unsigned *count) {
  if (threadIdx.x != 0)
    return;
  partial[blockIdx.x] = blockIdx.x;
  // note@-1:3 {{partial result stored here}}
  unsigned t = atomicAdd(count, 1u);
  // warning@-1:16 {{the ticket 'atomicAdd' is not ordered after the partial results}}
  // FIXED: {{^}}  __threadfence();
  // FIXED-NEXT: {{^}}  unsigned t = atomicAdd(count, 1u);
  __threadfence();
  // note@-1:3 {{this fence comes after the ticket and orders nothing for the stores before it}}
  if (t == gridDim.x - 1) {
    float s = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      s += partial[b];
      // note@-1:12 {{read here by the block that draws the last ticket}}
    *out = s;
  }
}

// llm.c's layernorm backward shape: partials stored and read through
// helpers, the ticket kept in shared memory through a pointer, every thread
// storing and a barrier before thread 0's ticket: the fence goes before the
// ticket's 'if', after the barrier.
__device__ void store4(float *dst, float v) { dst[0] = v; }
__device__ float load4(const float *src) { return src[0]; }
__global__ void helperPartials(float *scratch, float *out, int c) {
  extern __shared__ float shared[];
  unsigned *flag = (unsigned *)scratch;
  float *partials = scratch + 32;
  for (int i = threadIdx.x; i < c; i += blockDim.x)
    store4(partials + i + c * blockIdx.x, shared[i]);
    // note@-1:5 {{partial results stored by this call}}
  __syncthreads();
  unsigned *ticket = (unsigned *)(shared + c);
  if (threadIdx.x == 0) {
    *ticket = atomicInc(flag, gridDim.x);
    // warning@-1:15 {{the ticket 'atomicInc' is not ordered after the partial results}}
  }
  // FIXED: {{^}}  unsigned *ticket = (unsigned *)(shared + c);
  // FIXED-NEXT: {{^}}  __threadfence();
  // FIXED-NEXT: {{^}}  if (threadIdx.x == 0) {
  __syncthreads();
  if (*ticket == gridDim.x - 1) {
    float sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      sum += load4(partials + threadIdx.x + c * b);
      // note@-1:14 {{read here by the block that draws the last ticket}}
    out[threadIdx.x] = sum;
  }
}
