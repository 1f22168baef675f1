// GPU proof for cuda-async-copy-ordering: each kernel named *Bad is a shape
// the check reports, and its *Good twin the fixed form it must leave alone.
// Every kernel of the Sum kind computes, for each thread t of block b,
//   out[b * T + t] = sum over k < tiles of in[(b * tiles + k) * T + (t + k + 1) % T]
// reading a neighbour's element of tile k after copying it asynchronously;
// the Store kind writes 2 * in through a bulk (TMA) store of a staging tile.
// run.sh checks which kernels the check flags, runs each 5 times against a
// CPU reference and once under compute-sanitizer racecheck.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>
namespace cg = cooperative_groups;

constexpr int T = 256;
constexpr int Tiles = 8;
using Barrier = cuda::barrier<cuda::thread_scope_block>;
using PipeState = cuda::pipeline_shared_state<cuda::thread_scope_block, 1>;

__device__ __forceinline__ const float *tileOf(const float *in, int k) {
  return in + (blockIdx.x * Tiles + k) * T;
}

//===-- __pipeline_* primitives ------------------------------------------===//

__global__ void primBad(const float *in, float *out) {
  __shared__ float tile[T];
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0; k < Tiles; ++k) {
    __pipeline_memcpy_async(&tile[t], tileOf(in, k) + t, sizeof(float));
    __pipeline_commit();
    __syncthreads();
    sum += tile[(t + k + 1) % T];
    __syncthreads();
  }
  out[blockIdx.x * T + t] = sum;
}

__global__ void primGood(const float *in, float *out) {
  __shared__ float tile[T];
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0; k < Tiles; ++k) {
    __pipeline_memcpy_async(&tile[t], tileOf(in, k) + t, sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    sum += tile[(t + k + 1) % T];
    __syncthreads();
  }
  out[blockIdx.x * T + t] = sum;
}

//===-- inline cp.async ----------------------------------------------------===//

__device__ __forceinline__ void cpAsync4(float *smem, const float *gmem) {
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(addr),
               "l"(gmem)
               : "memory");
}

__global__ void asmBad(const float *in, float *out) {
  __shared__ float tile[T];
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0; k < Tiles; ++k) {
    const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&tile[t]));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(addr),
                 "l"(tileOf(in, k) + t)
                 : "memory");
    asm volatile("cp.async.commit_group;\n" ::: "memory");
    __syncthreads();
    sum += tile[(t + k + 1) % T];
    __syncthreads();
  }
  out[blockIdx.x * T + t] = sum;
}

__global__ void asmGood(const float *in, float *out) {
  __shared__ float tile[T];
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0; k < Tiles; ++k) {
    const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&tile[t]));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(addr),
                 "l"(tileOf(in, k) + t)
                 : "memory");
    asm volatile("cp.async.commit_group;\n" ::: "memory");
    asm volatile("cp.async.wait_group 0;\n" ::: "memory");
    __syncthreads();
    sum += tile[(t + k + 1) % T];
    __syncthreads();
  }
  out[blockIdx.x * T + t] = sum;
}

//===-- wait for the wrong group, and a ring too far ---------------------===//

__global__ void groupBad(const float *in, float *out) {
  __shared__ float tile[T];
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0; k < Tiles; ++k) {
    __pipeline_memcpy_async(&tile[t], tileOf(in, k) + t, sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    sum += tile[(t + k + 1) % T];
    __syncthreads();
  }
  out[blockIdx.x * T + t] = sum;
}

// groupBad's fixed form is primGood (wait_prior(0)).

__global__ void ringBad(const float *in, float *out) {
  __shared__ float ring[2][T];
  const int t = threadIdx.x;
  float sum = 0.f;
  __pipeline_memcpy_async(&ring[0][t], tileOf(in, 0) + t, sizeof(float));
  __pipeline_commit();
  __pipeline_memcpy_async(&ring[1][t], tileOf(in, 1) + t, sizeof(float));
  __pipeline_commit();
  for (int k = 0; k < Tiles; ++k) {
    if (k + 2 < Tiles)
      __pipeline_memcpy_async(&ring[(k + 2) % 2][t], tileOf(in, k + 2) + t,
                              sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    sum += ring[k % 2][(t + k + 1) % T];
    __syncthreads();
  }
  out[blockIdx.x * T + t] = sum;
}

__global__ void ringGood(const float *in, float *out) {
  __shared__ float ring[2][T];
  const int t = threadIdx.x;
  float sum = 0.f;
  __pipeline_memcpy_async(&ring[0][t], tileOf(in, 0) + t, sizeof(float));
  __pipeline_commit();
  for (int k = 0; k < Tiles; ++k) {
    if (k + 1 < Tiles)
      __pipeline_memcpy_async(&ring[(k + 1) % 2][t], tileOf(in, k + 1) + t,
                              sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    sum += ring[k % 2][(t + k + 1) % T];
    __syncthreads();
  }
  out[blockIdx.x * T + t] = sum;
}

//===-- Ring indices of their own, oldest-stage waits --------------------===//

// A double buffer in one flat array whose offset flips with ^=: the next
// tile is copied into the other half while this one is read, and the wait
// for it is missing, so the next iteration reads a half still in flight.
__global__ void xorBad(const float *in, float *out) {
  __shared__ float buf[2 * T];
  const int t = threadIdx.x;
  int cur = 0;
  float sum = 0.f;
  __pipeline_memcpy_async(&buf[cur + t], tileOf(in, 0) + t, sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  for (int k = 0; k < Tiles; ++k) {
    if (k + 1 < Tiles)
      __pipeline_memcpy_async(&buf[(cur ^ T) + t], tileOf(in, k + 1) + t,
                              sizeof(float));
    __pipeline_commit();
    sum += buf[cur + (t + k + 1) % T];
    __syncthreads();
    cur ^= T;
  }
  out[blockIdx.x * T + t] = sum;
}

__global__ void xorGood(const float *in, float *out) {
  __shared__ float buf[2 * T];
  const int t = threadIdx.x;
  int cur = 0;
  float sum = 0.f;
  __pipeline_memcpy_async(&buf[cur + t], tileOf(in, 0) + t, sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  for (int k = 0; k < Tiles; ++k) {
    if (k + 1 < Tiles)
      __pipeline_memcpy_async(&buf[(cur ^ T) + t], tileOf(in, k + 1) + t,
                              sizeof(float));
    __pipeline_commit();
    sum += buf[cur + (t + k + 1) % T];
    __pipeline_wait_prior(0);
    __syncthreads();
    cur ^= T;
  }
  out[blockIdx.x * T + t] = sum;
}

// A thread-scope cuda::pipeline with one stage committed before the loop
// (empty): each consumer_wait() completes the stage before the one just
// issued, and the tile read is one stage newer than the one waited for.
__global__ void stageBad(const float *in, float *out) {
  __shared__ float ring[2][T];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int t = threadIdx.x;
  float sum = 0.f;
  pipe.producer_acquire();
  pipe.producer_commit();
  for (int k = 0; k < Tiles; ++k) {
    pipe.producer_acquire();
    cuda::memcpy_async(&ring[k % 2][t], tileOf(in, k) + t, sizeof(float), pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    __syncthreads();
    sum += ring[k % 2][(t + k + 1) % T];
    __syncthreads();
    pipe.consumer_release();
  }
  out[blockIdx.x * T + t] = sum;
}

__global__ void stageGood(const float *in, float *out) {
  __shared__ float ring[2][T];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0; k < Tiles; ++k) {
    pipe.producer_acquire();
    cuda::memcpy_async(&ring[k % 2][t], tileOf(in, k) + t, sizeof(float), pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    __syncthreads();
    sum += ring[k % 2][(t + k + 1) % T];
    __syncthreads();
    pipe.consumer_release();
  }
  out[blockIdx.x * T + t] = sum;
}

// A four-slot ring filled by a fetch loop with a stage index of its own and
// never waited for (the wait deleted from the CUDA samples' multi-stage
// kernels).
__global__ void neverBad(const float *in, float *out) {
  constexpr int S = 4;
  __shared__ float ring[S][T];
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0, fetch = 0; k < Tiles; ++k) {
    for (; fetch < k + S; ++fetch) {
      if (fetch < Tiles)
        __pipeline_memcpy_async(&ring[fetch % S][t], tileOf(in, fetch) + t,
                                sizeof(float));
      __pipeline_commit();
    }
    __syncthreads();
    sum += ring[k % S][(t + k + 1) % T];
    __syncthreads();
  }
  out[blockIdx.x * T + t] = sum;
}

__global__ void neverGood(const float *in, float *out) {
  constexpr int S = 4;
  __shared__ float ring[S][T];
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0, fetch = 0; k < Tiles; ++k) {
    for (; fetch < k + S; ++fetch) {
      if (fetch < Tiles)
        __pipeline_memcpy_async(&ring[fetch % S][t], tileOf(in, fetch) + t,
                                sizeof(float));
      __pipeline_commit();
    }
    __pipeline_wait_prior(S - 1);
    __syncthreads();
    sum += ring[k % S][(t + k + 1) % T];
    __syncthreads();
  }
  out[blockIdx.x * T + t] = sum;
}

// The CUDA samples' multi-stage shape (globalToShmemAsyncCopy's
// MatrixMulAsyncCopyMultiStage): the fetch loop runs while fetch <= k + S,
// so S + 1 stages go into S slots and stage k + S is copied into the slot
// read in iteration k, after a consumer_wait() that completes stage k only.
// sampleRingGood fetches while fetch < k + S and has a barrier after the
// read. sampleRingWarMissed (a known miss, not asserted) fetches while
// fetch < k + S but keeps the samples' missing barrier after the read: the
// next iteration's copy overwrites a slot slower threads still read; its
// reads depend on the thread index, which the overwrite rule leaves out.
// Measured on an H200 (CUDA 13.0, driver 580.159): sampleRingBad wrong in
// 5 of 5 trials, racecheck 20480 errors; sampleRingGood right in 5 of 5,
// 0 hazards; sampleRingWarMissed right in 5 of 5 trials, racecheck 20480
// errors (WAR between the read and the next cp.async); the samples' own
// inputs are constant, which hides the wrong tiles.
__global__ void sampleRingBad(const float *in, float *out) {
  constexpr int S = 4;
  __shared__ float ring[S][T];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0, fetch = 0; k < Tiles; ++k) {
    for (; fetch <= k + S; ++fetch) {
      if (fetch < Tiles) {
        pipe.producer_acquire();
        cuda::memcpy_async(&ring[fetch % S][t], tileOf(in, fetch) + t,
                           sizeof(float), pipe);
        pipe.producer_commit();
      }
    }
    pipe.consumer_wait();
    __syncthreads();
    sum += ring[k % S][(t + k + 1) % T];
    pipe.consumer_release();
  }
  out[blockIdx.x * T + t] = sum;
}

__global__ void sampleRingGood(const float *in, float *out) {
  constexpr int S = 4;
  __shared__ float ring[S][T];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0, fetch = 0; k < Tiles; ++k) {
    for (; fetch < k + S; ++fetch) {
      if (fetch < Tiles) {
        pipe.producer_acquire();
        cuda::memcpy_async(&ring[fetch % S][t], tileOf(in, fetch) + t,
                           sizeof(float), pipe);
        pipe.producer_commit();
      }
    }
    pipe.consumer_wait();
    __syncthreads();
    sum += ring[k % S][(t + k + 1) % T];
    pipe.consumer_release();
    __syncthreads();
  }
  out[blockIdx.x * T + t] = sum;
}

__global__ void sampleRingWarMissed(const float *in, float *out) {
  constexpr int S = 4;
  __shared__ float ring[S][T];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0, fetch = 0; k < Tiles; ++k) {
    for (; fetch < k + S; ++fetch) {
      if (fetch < Tiles) {
        pipe.producer_acquire();
        cuda::memcpy_async(&ring[fetch % S][t], tileOf(in, fetch) + t,
                           sizeof(float), pipe);
        pipe.producer_commit();
      }
    }
    pipe.consumer_wait();
    __syncthreads();
    sum += ring[k % S][(t + k + 1) % T];
    pipe.consumer_release();
  }
  out[blockIdx.x * T + t] = sum;
}

//===-- Slots reached through local pointers -----------------------------===//

// ringBad/ringGood copied and read through pointers to the slots, as the
// CUDA samples' TensorCoreGemm kernels do: the bad form prefetches two
// tiles into two slots, so wait_prior(1) leaves the slot being read in
// flight. Measured on an H200: aliasRingBad wrong in 5 of 5 trials,
// racecheck 43008 errors; aliasRingGood right in 5 of 5, 0 hazards.
__global__ void aliasRingBad(const float *in, float *out) {
  __shared__ float ring[2][T];
  const int t = threadIdx.x;
  float sum = 0.f;
  __pipeline_memcpy_async(&ring[0][t], tileOf(in, 0) + t, sizeof(float));
  __pipeline_commit();
  __pipeline_memcpy_async(&ring[1][t], tileOf(in, 1) + t, sizeof(float));
  __pipeline_commit();
  for (int k = 0; k < Tiles; ++k) {
    float *dst = &ring[(k + 2) % 2][0];
    if (k + 2 < Tiles)
      __pipeline_memcpy_async(dst + t, tileOf(in, k + 2) + t, sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    const float *src = &ring[k % 2][0];
    sum += src[(t + k + 1) % T];
    __syncthreads();
  }
  out[blockIdx.x * T + t] = sum;
}

__global__ void aliasRingGood(const float *in, float *out) {
  __shared__ float ring[2][T];
  const int t = threadIdx.x;
  float sum = 0.f;
  __pipeline_memcpy_async(&ring[0][t], tileOf(in, 0) + t, sizeof(float));
  __pipeline_commit();
  for (int k = 0; k < Tiles; ++k) {
    float *dst = &ring[(k + 1) % 2][0];
    if (k + 1 < Tiles)
      __pipeline_memcpy_async(dst + t, tileOf(in, k + 1) + t, sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    const float *src = &ring[k % 2][0];
    sum += src[(t + k + 1) % T];
    __syncthreads();
  }
  out[blockIdx.x * T + t] = sum;
}

//===-- CUTLASS 2.x copy objects -----------------------------------------===//

// The shape of cutlass/arch/memory_sm80.h (written here, not copied): a
// copy is an object constructed for its effect, committed by
// cp_async_fence() and waited for by cp_async_wait<N>().
namespace cutlass {
namespace arch {
template <int SizeInBytes> struct cp_async_zfill {
  __device__ cp_async_zfill(void *smem_ptr, void const *global_ptr,
                            bool pred_guard) {
    const unsigned smem = unsigned(__cvta_generic_to_shared(smem_ptr));
    const int src_bytes = pred_guard ? SizeInBytes : 0;
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(smem),
                 "l"(global_ptr), "n"(SizeInBytes), "r"(src_bytes)
                 : "memory");
  }
};
__device__ __forceinline__ void cp_async_fence() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
template <int N> __device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}
} // namespace arch
} // namespace cutlass

// The tile is committed but never waited for before the barrier.
// Measured on an H200: cutlassBad wrong in 5 of 5 trials, racecheck 73728
// errors; cutlassGood right in 5 of 5, 0 hazards.
__global__ void cutlassBad(const float *in, float *out) {
  __shared__ float tile[T];
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0; k < Tiles; ++k) {
    cutlass::arch::cp_async_zfill<4>(&tile[t], tileOf(in, k) + t, true);
    cutlass::arch::cp_async_fence();
    __syncthreads();
    sum += tile[(t + k + 1) % T];
    __syncthreads();
  }
  out[blockIdx.x * T + t] = sum;
}

__global__ void cutlassGood(const float *in, float *out) {
  __shared__ float tile[T];
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0; k < Tiles; ++k) {
    cutlass::arch::cp_async_zfill<4>(&tile[t], tileOf(in, k) + t, true);
    cutlass::arch::cp_async_fence();
    cutlass::arch::cp_async_wait<0>();
    __syncthreads();
    sum += tile[(t + k + 1) % T];
    __syncthreads();
  }
  out[blockIdx.x * T + t] = sum;
}

//===-- cuda::pipeline -----------------------------------------------------===//

__global__ void pipeBad(const float *in, float *out) {
  __shared__ float tile[T];
  __shared__ alignas(PipeState) unsigned char state[sizeof(PipeState)];
  cg::thread_block block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, reinterpret_cast<PipeState *>(state));
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0; k < Tiles; ++k) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, tile, tileOf(in, k), sizeof(float) * T, pipe);
    pipe.producer_commit();
    block.sync();
    sum += tile[(t + k + 1) % T];
    pipe.consumer_wait();
    block.sync();
    pipe.consumer_release();
  }
  out[blockIdx.x * T + t] = sum;
}

__global__ void pipeGood(const float *in, float *out) {
  __shared__ float tile[T];
  __shared__ alignas(PipeState) unsigned char state[sizeof(PipeState)];
  cg::thread_block block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, reinterpret_cast<PipeState *>(state));
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0; k < Tiles; ++k) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, tile, tileOf(in, k), sizeof(float) * T, pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    sum += tile[(t + k + 1) % T];
    block.sync();
    pipe.consumer_release();
  }
  out[blockIdx.x * T + t] = sum;
}

//===-- cooperative_groups::memcpy_async -----------------------------------===//

__global__ void cgBad(const float *in, float *out) {
  __shared__ float tile[T];
  cg::thread_block block = cg::this_thread_block();
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0; k < Tiles; ++k) {
    cg::memcpy_async(block, tile, tileOf(in, k), sizeof(float) * T);
    block.sync();
    sum += tile[(t + k + 1) % T];
    cg::wait(block);
  }
  out[blockIdx.x * T + t] = sum;
}

__global__ void cgGood(const float *in, float *out) {
  __shared__ float tile[T];
  cg::thread_block block = cg::this_thread_block();
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0; k < Tiles; ++k) {
    cg::memcpy_async(block, tile, tileOf(in, k), sizeof(float) * T);
    cg::wait(block);
    sum += tile[(t + k + 1) % T];
    block.sync();
  }
  out[blockIdx.x * T + t] = sum;
}

//===-- cuda::barrier ------------------------------------------------------===//

__global__ void barrierBad(const float *in, float *out) {
  __shared__ float tile[T];
  __shared__ alignas(Barrier) unsigned char storage[sizeof(Barrier)];
  Barrier &bar = *reinterpret_cast<Barrier *>(storage);
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0)
    init(&bar, block.size());
  block.sync();
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0; k < Tiles; ++k) {
    cuda::memcpy_async(block, tile, tileOf(in, k), sizeof(float) * T, bar);
    auto token = bar.arrive();
    sum += tile[(t + k + 1) % T];
    bar.wait(std::move(token));
    block.sync();
  }
  out[blockIdx.x * T + t] = sum;
}

__global__ void barrierGood(const float *in, float *out) {
  __shared__ float tile[T];
  __shared__ alignas(Barrier) unsigned char storage[sizeof(Barrier)];
  Barrier &bar = *reinterpret_cast<Barrier *>(storage);
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0)
    init(&bar, block.size());
  block.sync();
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0; k < Tiles; ++k) {
    cuda::memcpy_async(block, tile, tileOf(in, k), sizeof(float) * T, bar);
    auto token = bar.arrive();
    bar.wait(std::move(token));
    sum += tile[(t + k + 1) % T];
    block.sync();
  }
  out[blockIdx.x * T + t] = sum;
}

//===-- bulk (TMA) loads ---------------------------------------------------===//

__device__ __forceinline__ void mbarWait(unsigned bar, unsigned parity) {
  asm volatile("{\n .reg .pred p;\n WAIT_%=:\n"
               " mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               " @!p bra WAIT_%=;\n}\n" ::"r"(bar), "r"(parity)
               : "memory");
}

__global__ void bulkLoadBad(const float *in, float *out) {
  __shared__ alignas(128) float tile[T];
  __shared__ alignas(8) unsigned long long mbar;
  const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&mbar));
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  const int t = threadIdx.x;
  if (t == 0)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(bar) : "memory");
  __syncthreads();
  float sum = 0.f;
  for (int k = 0; k < Tiles; ++k) {
    if (t == 0) {
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
                   ::"r"(bar), "r"(unsigned(sizeof(tile))) : "memory");
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                   " [%0], [%1], %2, [%3];\n"
                   ::"r"(dst), "l"(tileOf(in, k)), "r"(unsigned(sizeof(tile))),
                   "r"(bar) : "memory");
    }
    __syncthreads();
    sum += tile[(t + k + 1) % T];
    mbarWait(bar, k & 1);
    __syncthreads();
  }
  out[blockIdx.x * T + t] = sum;
}

__global__ void bulkLoadGood(const float *in, float *out) {
  __shared__ alignas(128) float tile[T];
  __shared__ alignas(8) unsigned long long mbar;
  const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&mbar));
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  const int t = threadIdx.x;
  if (t == 0)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(bar) : "memory");
  __syncthreads();
  float sum = 0.f;
  for (int k = 0; k < Tiles; ++k) {
    if (t == 0) {
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
                   ::"r"(bar), "r"(unsigned(sizeof(tile))) : "memory");
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                   " [%0], [%1], %2, [%3];\n"
                   ::"r"(dst), "l"(tileOf(in, k)), "r"(unsigned(sizeof(tile))),
                   "r"(bar) : "memory");
    }
    mbarWait(bar, k & 1);
    sum += tile[(t + k + 1) % T];
    __syncthreads();
  }
  out[blockIdx.x * T + t] = sum;
}

//===-- bulk (TMA) stores: refill and proxy fence --------------------------===//

__device__ __forceinline__ void bulkStore(float *dst, unsigned src, unsigned bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n"
               ::"l"(dst), "r"(src), "r"(bytes) : "memory");
}

__global__ void storeRefillBad(const float *in, float *out) {
  __shared__ alignas(128) float tile[T];
  const int t = threadIdx.x;
  float v[Tiles];
#pragma unroll
  for (int k = 0; k < Tiles; ++k)
    v[k] = 2.f * tileOf(in, k)[t];
#pragma unroll
  for (int k = 0; k < Tiles; ++k) {
    tile[t] = v[k];
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();
    if (t == 0) {
      const unsigned src = static_cast<unsigned>(__cvta_generic_to_shared(tile));
      asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n"
                   ::"l"(out + (blockIdx.x * Tiles + k) * T), "r"(src),
                   "r"(unsigned(sizeof(tile))) : "memory");
      asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
    }
    __syncthreads();
  }
  if (t == 0)
    asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
}

__global__ void storeRefillGood(const float *in, float *out) {
  __shared__ alignas(128) float tile[T];
  const int t = threadIdx.x;
  float v[Tiles];
#pragma unroll
  for (int k = 0; k < Tiles; ++k)
    v[k] = 2.f * tileOf(in, k)[t];
#pragma unroll
  for (int k = 0; k < Tiles; ++k) {
    tile[t] = v[k];
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();
    if (t == 0) {
      const unsigned src = static_cast<unsigned>(__cvta_generic_to_shared(tile));
      asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n"
                   ::"l"(out + (blockIdx.x * Tiles + k) * T), "r"(src),
                   "r"(unsigned(sizeof(tile))) : "memory");
      asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
      asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
    }
    __syncthreads();
  }
  if (t == 0)
    asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
}

// Wrong by the PTX proxy rules; no wrong output is expected on an H200.
__global__ void storeFenceBad(const float *in, float *out) {
  __shared__ alignas(128) float tile[T];
  const int t = threadIdx.x;
  for (int k = 0; k < Tiles; ++k) {
    tile[t] = 2.f * tileOf(in, k)[t];
    __syncthreads();
    if (t == 0) {
      const unsigned src = static_cast<unsigned>(__cvta_generic_to_shared(tile));
      asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n"
                   ::"l"(out + (blockIdx.x * Tiles + k) * T), "r"(src),
                   "r"(unsigned(sizeof(tile))) : "memory");
      asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
      asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
    }
    __syncthreads();
  }
  if (t == 0)
    asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
}

// storeFenceBad's fixed form is storeRefillGood.

//===-- host -----------------------------------------------------------===//

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t Err = (call);                                                  \
    if (Err != cudaSuccess) {                                                  \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(Err));                                   \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

struct Entry {
  const char *Name;
  void (*Kernel)(const float *, float *);
  bool Store;
};

static const Entry Kernels[] = {
    {"primBad", primBad, false},         {"primGood", primGood, false},
    {"asmBad", asmBad, false},           {"asmGood", asmGood, false},
    {"groupBad", groupBad, false},       {"ringBad", ringBad, false},
    {"ringGood", ringGood, false},       {"pipeBad", pipeBad, false},
    {"pipeGood", pipeGood, false},       {"cgBad", cgBad, false},
    {"cgGood", cgGood, false},           {"barrierBad", barrierBad, false},
    {"barrierGood", barrierGood, false}, {"bulkLoadBad", bulkLoadBad, false},
    {"bulkLoadGood", bulkLoadGood, false},
    {"storeRefillBad", storeRefillBad, true},
    {"storeRefillGood", storeRefillGood, true},
    {"storeFenceBad", storeFenceBad, true},
    {"xorBad", xorBad, false},           {"xorGood", xorGood, false},
    {"stageBad", stageBad, false},       {"stageGood", stageGood, false},
    {"neverBad", neverBad, false},       {"neverGood", neverGood, false},
    {"sampleRingBad", sampleRingBad, false},
    {"sampleRingGood", sampleRingGood, false},
    {"sampleRingWarMissed", sampleRingWarMissed, false},
    {"aliasRingBad", aliasRingBad, false},
    {"aliasRingGood", aliasRingGood, false},
    {"cutlassBad", cutlassBad, false},
    {"cutlassGood", cutlassGood, false},
};

/// Runs kernel Name on Blocks blocks Trials times with fresh inputs; prints
/// how many trials gave a wrong output. Exit status 1 when any did.
int main(int argc, char **argv) {
  if (argc < 2) {
    for (const Entry &E : Kernels)
      std::printf("%s\n", E.Name);
    return 0;
  }
  const Entry *E = nullptr;
  for (const Entry &C : Kernels)
    if (!std::strcmp(C.Name, argv[1]))
      E = &C;
  if (!E) {
    std::fprintf(stderr, "no kernel %s\n", argv[1]);
    return 2;
  }
  const int Blocks = argc > 2 ? std::atoi(argv[2]) : 2048;
  const int Trials = argc > 3 ? std::atoi(argv[3]) : 5;
  const size_t NIn = size_t(Blocks) * Tiles * T;
  const size_t NOut = E->Store ? NIn : size_t(Blocks) * T;
  float *In, *Out;
  CHECK(cudaMalloc(&In, NIn * sizeof(float)));
  CHECK(cudaMalloc(&Out, NOut * sizeof(float)));
  std::vector<float> H(NIn), Got(NOut), Want(NOut);
  int Wrong = 0;
  for (int Trial = 0; Trial < Trials; ++Trial) {
    for (size_t I = 0; I < NIn; ++I)
      H[I] = float(int((I * 7919 + Trial * 104729 + 13) % 201) - 100);
    for (int B = 0; B < Blocks; ++B)
      for (int K = 0; K < Tiles; ++K)
        for (int Th = 0; Th < T; ++Th) {
          const size_t Base = (size_t(B) * Tiles + K) * T;
          if (E->Store)
            Want[Base + Th] = 2.f * H[Base + Th];
          else
            Want[size_t(B) * T + Th] =
                (K ? Want[size_t(B) * T + Th] : 0.f) + H[Base + (Th + K + 1) % T];
        }
    CHECK(cudaMemcpy(In, H.data(), NIn * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(Out, 0, NOut * sizeof(float)));
    E->Kernel<<<Blocks, T>>>(In, Out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(Got.data(), Out, NOut * sizeof(float), cudaMemcpyDeviceToHost));
    size_t Bad = 0;
    for (size_t I = 0; I < NOut; ++I)
      Bad += Got[I] != Want[I];
    if (Bad)
      ++Wrong;
    std::printf("%s trial %d: %zu of %zu values wrong\n", E->Name, Trial, Bad, NOut);
  }
  std::printf("%s: wrong in %d of %d trials\n", E->Name, Wrong, Trials);
  return Wrong ? 1 : 0;
}
