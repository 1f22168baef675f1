// Bulk (TMA) stores read shared memory through the async proxy: generic
// writes reach it only after fence.proxy.async.shared::cta, which every
// writing thread must execute before the barrier that precedes the store.
// RUN: %check_cuda_tidy --checks=cuda-async-copy-ordering --fix --recheck \
// RUN:   %if nvcc %{ %nvcc_sm90 %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

constexpr int Tile = 256;

__device__ __forceinline__ void bulkStore(float *dst, const float *src,
                                          unsigned bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n"
               ::"l"(dst), "r"(static_cast<unsigned>(__cvta_generic_to_shared(src))),
               "r"(bytes) : "memory");
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
  asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
}

__global__ void noFence(const float *in, float *out) {
  __shared__ alignas(128) float tile[Tile];
  const int t = threadIdx.x;
  tile[t] = 2.f * in[blockIdx.x * Tile + t];
  __syncthreads();
  if (t == 0) {
    const unsigned src = static_cast<unsigned>(__cvta_generic_to_shared(tile));
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n"
                 ::"l"(out + blockIdx.x * Tile), "r"(src), "r"(unsigned(sizeof(tile)))
                 : "memory");
    // warning@-3:5 {{bulk store reads 'tile' through the async proxy after generic writes with no 'fence.proxy.async.shared::cta' between}}
    // note@-8:3 {{'tile' is written here by generic stores}}
    // note@-8:3 {{'__syncthreads' orders the threads, not the async proxy}}
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
  }
}
// FIXED-LABEL: void noFence(
// FIXED: tile[t] = 2.f * in[blockIdx.x * Tile + t];
// FIXED-NEXT: asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
// FIXED-NEXT: __syncthreads();

// Silent: the fence, then the barrier, then the store.
__global__ void fenced(const float *in, float *out) {
  __shared__ alignas(128) float tile[Tile];
  const int t = threadIdx.x;
  tile[t] = 2.f * in[blockIdx.x * Tile + t];
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  if (t == 0) {
    const unsigned src = static_cast<unsigned>(__cvta_generic_to_shared(tile));
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n"
                 ::"l"(out + blockIdx.x * Tile), "r"(src), "r"(unsigned(sizeof(tile)))
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
  }
}

// Silent: an epilogue that refills its staging tile only after the bulk
// store's read finished (wait_group.read in the storing thread, then the
// barrier).
__global__ void refillAfterRead(const float *in, float *out, int tiles) {
  __shared__ alignas(128) float tile[Tile];
  const int t = threadIdx.x;
  for (int k = 0; k < tiles; ++k) {
    tile[t] = 2.f * in[k * Tile + t];
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();
    if (t == 0) {
      const unsigned src = static_cast<unsigned>(__cvta_generic_to_shared(tile));
      asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n"
                   ::"l"(out + k * Tile), "r"(src), "r"(unsigned(sizeof(tile)))
                   : "memory");
      asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
      asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
    }
    __syncthreads();
  }
}
