// Bulk (TMA) loads read before their mbarrier wait, and a staging tile
// refilled while the bulk store reading it may still be running. Which wait
// fits is the pipeline's design, so the advice goes on notes.
// RUN: %check_cuda_tidy --checks=cuda-async-copy-ordering %s %t -- \
// RUN:   %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

constexpr int Tile = 256;

__device__ __forceinline__ void waitParity(unsigned bar, unsigned parity) {
  asm volatile("{\n .reg .pred p;\n WAIT:\n"
               " mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               " @!p bra WAIT;\n}\n" ::"r"(bar), "r"(parity) : "memory");
}

__global__ void bulkLoadNoWait(const float *in, float *out) {
  __shared__ alignas(128) float tile[Tile];
  __shared__ alignas(8) unsigned long long mbar;
  const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&mbar));
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  if (threadIdx.x == 0)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(bar) : "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
                 ::"r"(bar), "r"(unsigned(sizeof(tile))) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1], %2, [%3];\n"
                 ::"r"(dst), "l"(in + blockIdx.x * Tile), "r"(unsigned(sizeof(tile))),
                 "r"(bar) : "memory");
  }
  __syncthreads();
  out[blockIdx.x * Tile + threadIdx.x] = tile[Tile - 1 - threadIdx.x];
  // warning@-1:42 {{'tile' is read before the asynchronous copy into it completes}}
  // note@-8:5 {{the asynchronous copy into 'tile' is issued here}}
  // note@-4:3 {{'__syncthreads' orders the threads, not the copy}}
  // note@-10:5 {{wait for the copy with the barrier's wait in every issuing thread before the block barrier that precedes the access}}
}

// Silent: every thread spins on the mbarrier's phase before reading.
__global__ void bulkLoadWaited(const float *in, float *out) {
  __shared__ alignas(128) float tile[Tile];
  __shared__ alignas(8) unsigned long long mbar;
  const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&mbar));
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  if (threadIdx.x == 0)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(bar) : "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
                 ::"r"(bar), "r"(unsigned(sizeof(tile))) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1], %2, [%3];\n"
                 ::"r"(dst), "l"(in + blockIdx.x * Tile), "r"(unsigned(sizeof(tile))),
                 "r"(bar) : "memory");
  }
  asm volatile("{\n .reg .pred p;\n WAIT:\n"
               " mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               " @!p bra WAIT;\n}\n" ::"r"(bar), "r"(0) : "memory");
  out[blockIdx.x * Tile + threadIdx.x] = tile[Tile - 1 - threadIdx.x];
}

// Silent: the wait in a C++ spin loop whose condition reads the result;
// leaving the loop means the phase completed.
__global__ void bulkLoadSpinLoop(const float *in, float *out) {
  __shared__ alignas(128) float tile[Tile];
  __shared__ alignas(8) unsigned long long mbar;
  const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&mbar));
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  if (threadIdx.x == 0)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(bar) : "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
                 ::"r"(bar), "r"(unsigned(sizeof(tile))) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1], %2, [%3];\n"
                 ::"r"(dst), "l"(in + blockIdx.x * Tile), "r"(unsigned(sizeof(tile))),
                 "r"(bar) : "memory");
  }
  unsigned done = 0;
  while (!done)
    asm volatile("{\n .reg .pred p;\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 " selp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done) : "r"(bar), "r"(0) : "memory");
  out[blockIdx.x * Tile + threadIdx.x] = tile[Tile - 1 - threadIdx.x];
}

// Silent: a flag zero before a `while` loop (not `do`) whose body sets it
// from the mbarrier's try: the loop leaves once the phase completed.
__device__ __forceinline__ bool tryParity(unsigned bar, unsigned parity) {
  unsigned ok;
  asm volatile("{\n .reg .pred p;\n"
               " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
               " selp.u32 %0, 1, 0, p;\n}\n"
               : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
  return ok != 0;
}

__global__ void bulkLoadFlagLoop(const float *in, float *out) {
  __shared__ alignas(128) float tile[Tile];
  __shared__ alignas(8) unsigned long long mbar;
  const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&mbar));
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  if (threadIdx.x == 0)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(bar) : "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
                 ::"r"(bar), "r"(unsigned(sizeof(tile))) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1], %2, [%3];\n"
                 ::"r"(dst), "l"(in + blockIdx.x * Tile), "r"(unsigned(sizeof(tile))),
                 "r"(bar) : "memory");
  }
  bool done = false;
  while (!done) {
    done = tryParity(bar, 0);
  }
  out[blockIdx.x * Tile + threadIdx.x] = tile[Tile - 1 - threadIdx.x];
}

// The staging tile is refilled in the next iteration while thread 0's bulk
// store of the previous one may still be reading it.
__global__ void refillInFlight(const float *in, float *out, int tiles) {
  __shared__ alignas(128) float tile[Tile];
  const int t = threadIdx.x;
  for (int k = 0; k < tiles; ++k) {
    tile[t] = 2.f * in[k * Tile + t];
    // warning@-1:5 {{'tile' is written while a bulk store may still be reading it}}
    // note@+6:7 {{the bulk store reading it is issued here; wait for it with 'cp.async.bulk.wait_group.read' before the refill}}
    // note@+10:5 {{'__syncthreads' orders the threads, not the store}}
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();
    if (t == 0) {
      const unsigned src = static_cast<unsigned>(__cvta_generic_to_shared(tile));
      asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n"
                   ::"l"(out + k * Tile), "r"(src), "r"(unsigned(sizeof(tile)))
                   : "memory");
      asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
    }
    __syncthreads();
  }
  if (t == 0)
    asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
}
