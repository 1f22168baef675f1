// cp.async in inline PTX (the CUTLASS sm80 and flash-attention spelling):
// the data read after a block barrier with no cp.async.wait_group, and the
// fixed forms. cp.async needs sm_80, so the fixed file is built for sm_90.
// RUN: %check_cuda_tidy --checks=cuda-async-copy-ordering --fix --recheck \
// RUN:   %if nvcc %{ %nvcc_sm90 %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

constexpr int Tile = 256;

__device__ __forceinline__ void cpAsync16(void *smem, const void *gmem) {
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(addr),
               "l"(gmem));
}

// Issued through the asm directly, no wait at all.
__global__ void noWait(const float4 *in, float4 *out) {
  __shared__ float4 tile[Tile];
  const int t = threadIdx.x;
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&tile[t]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"(addr),
               "l"(&in[blockIdx.x * Tile + t]));
  asm volatile("cp.async.commit_group;\n" ::: "memory");
  __syncthreads();
  out[blockIdx.x * Tile + t] = tile[Tile - 1 - t];
  // warning@-1:32 {{'tile' is read before the asynchronous copy into it completes}}
  // note@-6:3 {{the asynchronous copy into 'tile' is issued here}}
  // note@-4:3 {{'__syncthreads' orders the threads, not the copy}}
}
// FIXED-LABEL: void noWait(
// FIXED: asm volatile("cp.async.wait_all;" ::: "memory");
// FIXED-NEXT: __syncthreads();

// Silent: committed, waited for with wait_group 0, then the barrier.
__global__ void waitGroupZero(const float4 *in, float4 *out) {
  __shared__ float4 tile[Tile];
  const int t = threadIdx.x;
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&tile[t]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"(addr),
               "l"(&in[blockIdx.x * Tile + t]));
  asm volatile("cp.async.commit_group;\n" ::: "memory");
  asm volatile("cp.async.wait_group 0;\n" ::: "memory");
  __syncthreads();
  out[blockIdx.x * Tile + t] = tile[Tile - 1 - t];
}

// Silent: wait_all covers copies not yet committed.
__global__ void waitAll(const float4 *in, float4 *out) {
  __shared__ float4 tile[Tile];
  const int t = threadIdx.x;
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&tile[t]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"(addr),
               "l"(&in[blockIdx.x * Tile + t]));
  asm volatile("cp.async.wait_all;\n" ::: "memory");
  __syncthreads();
  out[blockIdx.x * Tile + t] = tile[Tile - 1 - t];
}
