// One report per defect between cuda-shared-memory-race and
// cuda-async-copy-ordering: data an asynchronous copy writes (a bulk copy
// completing on an mbarrier, cp.async) is the async-copy check's; plain
// writes ordered only by an mbarrier are the race check's. A completed
// mbarrier wait orders both for both checks.
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race,cuda-async-copy-ordering \
// RUN:   %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// The race check alone reports the races the missing waits cause:
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race --expect-prefix=RACE \
// RUN:   %s %t.race -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

constexpr int T = 256;

__device__ __forceinline__ void mbarWait(unsigned bar, unsigned parity) {
  asm volatile("{\n .reg .pred p;\n WAIT_%=:\n"
               " mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               " @!p bra WAIT_%=;\n}\n" ::"r"(bar), "r"(parity)
               : "memory");
}

// Silent: thread 0 writes the scale and starts the bulk load; every thread
// waits for the phase (the transaction bytes and thread 0's arrive) and
// then reads both.
__global__ void bulkAndScale(const float *in, float *out, float s) {
  __shared__ alignas(128) float tile[T];
  __shared__ alignas(8) unsigned long long mbar;
  __shared__ float scale;
  const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&mbar));
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  const int t = threadIdx.x;
  if (t == 0)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(bar) : "memory");
  __syncthreads();
  if (t == 0) {
    scale = s;
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
                 ::"r"(bar), "r"(unsigned(sizeof(tile))) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1], %2, [%3];\n"
                 ::"r"(dst), "l"(in + blockIdx.x * T), "r"(unsigned(sizeof(tile))),
                 "r"(bar) : "memory");
  }
  mbarWait(bar, 0);
  out[blockIdx.x * T + t] = scale * tile[T - 1 - t];
}

// The bulk load's data is read before the wait: the async-copy check's
// report, and no race report for the same missing wait (the copy is not a
// plain write).
__global__ void bulkReadEarly(const float *in, float *out) {
  __shared__ alignas(128) float tile[T];
  __shared__ alignas(8) unsigned long long mbar;
  const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&mbar));
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  const int t = threadIdx.x;
  if (t == 0)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(bar) : "memory");
  __syncthreads();
  if (t == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
                 ::"r"(bar), "r"(unsigned(sizeof(tile))) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1], %2, [%3];\n"
                 ::"r"(dst), "l"(in + blockIdx.x * T), "r"(unsigned(sizeof(tile))),
                 "r"(bar) : "memory");
  }
  __syncthreads();
  float v = tile[T - 1 - t];
  // warning@-1:13 {{'tile' is read before the asynchronous copy into it completes}} [cuda-async-copy-ordering]
  // note@-8:5 {{the asynchronous copy into 'tile' is issued here}}
  // note@-4:3 {{'__syncthreads' orders the threads, not the copy}}
  // note@-10:5 {{wait for the copy with the barrier's wait in every issuing thread before the block barrier that precedes the access}}
  mbarWait(bar, 0);
  out[blockIdx.x * T + t] = v;
}

// Thread 0 writes the scale, then starts the bulk load; the scale and the
// tile are read before the wait. One missing wait: the async-copy check's
// report (its wait orders the scale too); the race check alone reports the
// scale.
__global__ void scaleAndBulkEarly(const float *in, float *out, float s) {
  __shared__ alignas(128) float tile[T];
  __shared__ alignas(8) unsigned long long mbar;
  __shared__ float scale;
  const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&mbar));
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  const int t = threadIdx.x;
  if (t == 0)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(bar) : "memory");
  __syncthreads();
  if (t == 0) {
    scale = s;
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
                 ::"r"(bar), "r"(unsigned(sizeof(tile))) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1], %2, [%3];\n"
                 ::"r"(dst), "l"(in + blockIdx.x * T), "r"(unsigned(sizeof(tile))),
                 "r"(bar) : "memory");
  }
  const float v = scale * tile[T - 1 - t];
  // warning@-1:27 {{'tile' is read before the asynchronous copy into it completes}} [cuda-async-copy-ordering]
  // note@96:5 {{the asynchronous copy into 'tile' is issued here}}
  // note@96:5 {{wait for the copy with the barrier's wait before the access}}
  // RACE-warning@-4:19 {{threads of different warps race on shared memory 'scale' with no barrier between a write and a read in blocks of 64 to 1024 threads}}
  // RACE-note@93:5 {{thread 0 writes 'scale' here}}
  // RACE-note@101:19 {{thread 32, in another warp, reads it here in the same barrier interval}}
  mbarWait(bar, 0);
  out[blockIdx.x * T + t] = v;
}

// cp.async, committed, a block barrier and no wait: one report, the
// async-copy check's.
__global__ void cpAsyncNoWait(const float *in, float *out) {
  __shared__ float tile[T];
  const int t = threadIdx.x;
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&tile[t]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(dst),
               "l"(in + blockIdx.x * T + t) : "memory");
  asm volatile("cp.async.commit_group;\n" ::: "memory");
  __syncthreads();
  out[blockIdx.x * T + t] = tile[T - 1 - t];
  // warning@-1:29 {{'tile' is read before the asynchronous copy into it completes}} [cuda-async-copy-ordering]
  // note@-6:3 {{the asynchronous copy into 'tile' is issued here}}
  // note@-4:3 {{'__syncthreads' orders the threads, not the copy}}
}

// A plain write ordered by nothing but an arrive (no wait): the race
// check's report, and none from the async-copy check (no copy).
__global__ void arriveNoWait(float *out, float s) {
  __shared__ alignas(8) unsigned long long mbar;
  __shared__ float scale;
  const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&mbar));
  if (threadIdx.x == 0)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar),
                 "r"(blockDim.x) : "memory");
  __syncthreads();
  if (threadIdx.x == 0)
    scale = s;
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
  out[blockIdx.x * blockDim.x + threadIdx.x] = scale;
  // warning@-1:48 {{threads of different warps race on shared memory 'scale' with no barrier between a write and a read in blocks of 64 to 1024 threads}} [cuda-shared-memory-race]
  // note@-4:5 {{thread 0 writes 'scale' here}}
  // note@-3:48 {{thread 32, in another warp, reads it here in the same barrier interval}}
  // RACE-warning@-4:48 {{threads of different warps race on shared memory 'scale'}}
  // RACE-note@-7:5 {{thread 0 writes 'scale' here}}
  // RACE-note@-6:48 {{thread 32, in another warp, reads it here in the same barrier interval}}
}
