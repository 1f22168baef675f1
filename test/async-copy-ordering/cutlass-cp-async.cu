// CUTLASS 2.x issues cp.async by constructing `cutlass::arch::cp_async<N,
// Op>` / `cp_async_zfill<N, Op>` objects, commits with
// `cutlass::arch::cp_async_fence()` and waits with
// `cutlass::arch::cp_async_wait<N>()`. The declarations below have the
// shape of cutlass/arch/memory_sm80.h. CUTLASS's own mainloops copy through
// shared-memory iterators the analysis does not locate; a kernel copying
// into a `__shared__` array with these wrappers is followed.
// RUN: %check_cuda_tidy --checks=cuda-async-copy-ordering %s %t -- \
// RUN:   %cuda_args --cuda-gpu-arch=sm_80 -std=c++17
#include <cuda_runtime.h>

namespace cutlass {
namespace arch {
enum class CacheOperation { Always, Global };
template <int SizeInBytes, CacheOperation Op = CacheOperation::Always>
struct cp_async {
  __device__ cp_async(void *smem_ptr, void const *global_ptr,
                      bool pred_guard = true) {
    unsigned smem = unsigned(__cvta_generic_to_shared(smem_ptr));
    asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %0, 0;\n"
                 " @p cp.async.ca.shared.global [%1], [%2], %3;\n}\n" ::"r"(
                     int(pred_guard)),
                 "r"(smem), "l"(global_ptr), "n"(SizeInBytes));
  }
};
template <int SizeInBytes, CacheOperation Op = CacheOperation::Always>
struct cp_async_zfill {
  __device__ cp_async_zfill(void *smem_ptr, void const *global_ptr,
                            bool pred_guard) {
    unsigned smem = unsigned(__cvta_generic_to_shared(smem_ptr));
    int src_in_bytes = pred_guard ? SizeInBytes : 0;
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(smem),
                 "l"(global_ptr), "n"(SizeInBytes), "r"(src_in_bytes));
  }
};
__device__ __forceinline__ void cp_async_fence() {
  asm volatile("cp.async.commit_group;\n" ::);
}
template <int N> __device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}
} // namespace arch
} // namespace cutlass

constexpr int Tile = 256;

// The fence commits the group; no wait follows before the read.
__global__ void zfillNoWait(const float4 *in, float *out, int n) {
  __shared__ float4 tile[Tile];
  const int t = threadIdx.x;
  cutlass::arch::cp_async_zfill<16>(&tile[t], &in[t], t < n);
  cutlass::arch::cp_async_fence();
  __syncthreads();
  out[t] = tile[(t + 1) % Tile].x;
  // warning@-1:12 {{'tile' is read before the asynchronous copy into it completes}}
  // note@-5:3 {{the asynchronous copy into 'tile' is issued here}}
  // note@-4:3 {{'__syncthreads' orders the threads, not the copy}}
  // note@-7:3 {{wait for the copy with 'cutlass::arch::cp_async_fence()' and 'cutlass::arch::cp_async_wait<0>()' in every issuing thread before the block barrier that precedes the access}}
}

// Silent: cp_async_wait<0>() before the barrier.
__global__ void zfillWaited(const float4 *in, float *out, int n) {
  __shared__ float4 tile[Tile];
  const int t = threadIdx.x;
  cutlass::arch::cp_async_zfill<16>(&tile[t], &in[t], t < n);
  cutlass::arch::cp_async_fence();
  cutlass::arch::cp_async_wait<0>();
  __syncthreads();
  out[t] = tile[(t + 1) % Tile].x;
}

// A two-stage ring: cp_async_wait<1>() leaves the group just issued, the
// one of the slot being read, in flight.
__global__ void ringWaitsWrongGroup(const float4 *in, float *out, int tiles) {
  __shared__ float4 ring[2][Tile];
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0; k < tiles; ++k) {
    cutlass::arch::cp_async<16>(&ring[k % 2][t], &in[k * Tile + t]);
    cutlass::arch::cp_async_fence();
    cutlass::arch::cp_async_wait<1>();
    __syncthreads();
    sum += ring[k % 2][(t + 1) % Tile].x;
    // warning@-1:12 {{'ring' is read while the group of its asynchronous copy may still be in flight}}
    // note@-6:5 {{the asynchronous copy into 'ring' is issued here}}
    // note@-5:5 {{this wait leaves the most recent groups in flight, the copy's among them}}
    // note@-5:5 {{'__syncthreads' orders the threads, not the copy}}
    __syncthreads();
  }
  out[blockIdx.x * Tile + t] = sum;
}

// Silent: the ring prefetches one tile ahead and waits for all but the
// newest group, which is in the other slot.
__global__ void ringPrefetched(const float4 *in, float *out, int tiles) {
  __shared__ float4 ring[2][Tile];
  const int t = threadIdx.x;
  float sum = 0.f;
  cutlass::arch::cp_async<16>(&ring[0][t], &in[t]);
  cutlass::arch::cp_async_fence();
  for (int k = 0; k < tiles; ++k) {
    cutlass::arch::cp_async<16>(&ring[(k + 1) % 2][t],
                                &in[(k + 1) * Tile + t]);
    cutlass::arch::cp_async_fence();
    cutlass::arch::cp_async_wait<1>();
    __syncthreads();
    sum += ring[k % 2][(t + 1) % Tile].x;
    __syncthreads();
  }
  out[blockIdx.x * Tile + t] = sum;
}
