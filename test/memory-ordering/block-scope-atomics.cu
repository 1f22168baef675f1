// Block-scope atomics are atomic only with respect to the threads of one
// block (the CUDA programming guide's atomic scopes; the PTX memory model's
// .cta scope): on an address that threads of other blocks also update,
// updates can be lost. The device-scope function is always correct and is
// the fix for the atomicXxx_block functions (cuda::atomic_ref and
// cuda::atomic: block-scope-objects.cu).
// RUN: %check_cuda_tidy --fix --recheck %if nvcc %{ %nvcc_fixed %} \
// RUN:   --checks=cuda-memory-ordering %s %t -- %cuda_args --cuda-gpu-arch=sm_90 -std=c++17
#include <cuda_runtime.h>
#include <cuda/atomic>

__device__ int hits;

__global__ void countAll(int *total, float *sums, const float *in) {
  atomicAdd_block(total, 1);
  // warning@-1:3 {{block-scope atomic on 'total', which threads of every block update; it is atomic only within one block}} [cuda-memory-ordering]
  // FIXED: atomicAdd(total, 1);
  atomicAdd_block(&hits, 1);
  // warning@-1:3 {{block-scope atomic on 'hits'}}
  // FIXED: atomicAdd(&hits, 1);
  atomicAdd_block(&sums[threadIdx.x % 32], in[threadIdx.x]);
  // warning@-1:3 {{block-scope atomic on 'sums'}}
  // FIXED: atomicAdd(&sums[threadIdx.x % 32], in[threadIdx.x]);
  int lane = threadIdx.x & 31;
  atomicMax_block(total + lane, lane);
  // warning@-1:3 {{block-scope atomic on 'total'}}
  // FIXED: atomicMax(total + lane, lane);
}

// Silent: a per-block slot, directly or through a per-block pointer.
__global__ void perBlock(int *out, float *partial, const float *in) {
  atomicAdd_block(&out[blockIdx.x], 1);
  float *mine = partial + blockIdx.x * 32;
  atomicAdd_block(&mine[threadIdx.x % 32], in[threadIdx.x]);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd_block(&out[i], 1);
  cuda::atomic_ref<float, cuda::thread_scope_block> slot(partial[blockIdx.y]);
  slot.fetch_add(1.0f);
}

// Silent: shared memory is private to the block.
__global__ void sharedHistogram(const int *keys, int *hist) {
  __shared__ int local[64];
  atomicAdd_block(&local[keys[threadIdx.x] % 64], 1);
  cuda::atomic_ref<int, cuda::thread_scope_block> first(local[0]);
  first.fetch_add(1);
  __syncthreads();
  atomicAdd(&hist[threadIdx.x % 64], local[threadIdx.x % 64]);
}

// Silent: device and system scope.
__global__ void deviceScope(unsigned *counter) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> c(*counter);
  c.fetch_add(1u);
  atomicAdd(counter, 1u);
}

// Silent: an index loaded from memory may be per block; the check does not
// know, and stays quiet.
__global__ void loadedIndex(const int *slotOfBlock, int *out) {
  atomicAdd_block(&out[slotOfBlock[0]], 1);
}

// Silent: a device function's pointer may point to shared memory.
__device__ void bump(int *p) { atomicAdd_block(p, 1); }
