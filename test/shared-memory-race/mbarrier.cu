// An mbarrier orders shared memory like a block barrier once a thread has
// seen its phase complete: thread 0 writes a value, every thread arrives
// and spins on try_wait (or test_wait) until the phase completes, then
// every thread reads the value. Spelled in inline PTX through helpers, in
// one asm statement with its own loop (CUTLASS's ClusterBarrier::wait), and
// through cuda::ptx. A single try that may fail, a read between the arrive
// and the wait, and no wait at all still race.
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race %s %t -- %cuda_args --cuda-gpu-arch=sm_90 -std=c++17
#include <cuda_runtime.h>
#include <cuda/ptx>
#include <stdint.h>

__device__ __forceinline__ unsigned smemAddr(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbarInit(uint64_t *bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smemAddr(bar)),
               "r"(count)
               : "memory");
}
__device__ __forceinline__ uint64_t mbarArrive(uint64_t *bar) {
  uint64_t state;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];"
               : "=l"(state)
               : "r"(smemAddr(bar))
               : "memory");
  return state;
}
// One try: true when the phase of the given parity has completed.
__device__ __forceinline__ bool mbarTryWait(uint64_t *bar, unsigned parity) {
  unsigned ok;
  asm volatile("{\n .reg .pred p;\n"
               " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
               " selp.u32 %0, 1, 0, p;\n}"
               : "=r"(ok)
               : "r"(smemAddr(bar)), "r"(parity)
               : "memory");
  return ok != 0;
}
// The whole wait in one asm statement: PTX loops until the phase completes.
__device__ __forceinline__ void mbarWait(uint64_t *bar, unsigned parity) {
  asm volatile("{\n .reg .pred P1;\n"
               "LAB_WAIT:\n"
               " mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
               " @P1 bra DONE;\n"
               " bra LAB_WAIT;\n"
               "DONE:\n}" ::"r"(smemAddr(bar)),
               "r"(parity)
               : "memory");
}

// Silent: the loop leaves only once the phase every thread arrived on has
// completed, so thread 0's write is visible to every reader.
__global__ void spinOnHelper(float *out) {
  __shared__ uint64_t bar;
  __shared__ float val;
  if (threadIdx.x == 0)
    mbarInit(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0)
    val = 42.f;
  mbarArrive(&bar);
  while (!mbarTryWait(&bar, 0)) {
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = val;
}

// Silent: the try in the body of a do-while that repeats until it succeeds.
__global__ void spinInDoWhile(float *out) {
  __shared__ uint64_t bar;
  __shared__ float val;
  const unsigned a = smemAddr(&bar);
  if (threadIdx.x == 0)
    mbarInit(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0)
    val = 42.f;
  mbarArrive(&bar);
  unsigned ok;
  do {
    asm volatile("{\n .reg .pred p;\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 " selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(ok)
                 : "r"(a), "r"(0u)
                 : "memory");
  } while (!ok);
  out[blockIdx.x * blockDim.x + threadIdx.x] = val;
}

// Silent: the helper's PTX loops until the phase completes.
__global__ void blockingWait(float *out) {
  __shared__ uint64_t bar;
  __shared__ float val;
  if (threadIdx.x == 0)
    mbarInit(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0)
    val = 42.f;
  mbarArrive(&bar);
  mbarWait(&bar, 0);
  out[blockIdx.x * blockDim.x + threadIdx.x] = val;
}

// Silent: cuda::ptx's try_wait on the arrive's state, in a loop; and
// test_wait in an endless loop left only by its success.
__global__ void cudaPtxSpins(float *out) {
  __shared__ uint64_t bar;
  __shared__ float val, second;
  if (threadIdx.x == 0)
    cuda::ptx::mbarrier_init(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0)
    val = 42.f;
  uint64_t state = cuda::ptx::mbarrier_arrive(&bar);
  while (!cuda::ptx::mbarrier_try_wait(&bar, state)) {
  }
  float v = val;
  if (threadIdx.x == 32)
    second = v;
  state = cuda::ptx::mbarrier_arrive(&bar);
  for (;;) {
    if (cuda::ptx::mbarrier_test_wait(&bar, state))
      break;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = second;
}

// Silent: warp 0 produces, the other warps wait on the mbarrier that only
// warp 0 arrives on (initialised with 32) before they read. The wait orders
// what the producers wrote before their arrive for the waiting threads.
__global__ void producerConsumer(const float *in, float *out) {
  __shared__ uint64_t full;
  __shared__ float tile[32];
  if (threadIdx.x == 0)
    mbarInit(&full, 32);
  __syncthreads();
  if (threadIdx.x < 32) {
    tile[threadIdx.x] = in[blockIdx.x * 32 + threadIdx.x];
    mbarArrive(&full);
  } else {
    while (!mbarTryWait(&full, 0)) {
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = tile[threadIdx.x % 32];
  }
}

// Races: a single try may fail (its result is not even looked at).
__global__ void singleTry(float *out) {
  __shared__ uint64_t bar;
  __shared__ float val;
  if (threadIdx.x == 0)
    mbarInit(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0)
    val = 42.f;
  mbarArrive(&bar);
  mbarTryWait(&bar, 0);
  out[blockIdx.x * blockDim.x + threadIdx.x] = val;
  // warning@-1:48 {{threads of different warps race on shared memory 'val' with no barrier between a write and a read in blocks of 64 to 1024 threads}}
  // note@-5:5 {{thread 0 writes 'val' here}}
  // note@-3:48 {{thread 32, in another warp, reads it here in the same barrier interval}}
}

// Races: the read comes between the arrive and the wait.
__global__ void readBeforeWait(float *out) {
  __shared__ uint64_t bar;
  __shared__ float val;
  if (threadIdx.x == 0)
    mbarInit(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0)
    val = 42.f;
  mbarArrive(&bar);
  out[blockIdx.x * blockDim.x + threadIdx.x] = val;
  // warning@-1:48 {{threads of different warps race on shared memory 'val' with no barrier between a write and a read in blocks of 64 to 1024 threads}}
  // note@-4:5 {{thread 0 writes 'val' here}}
  // note@-3:48 {{thread 32, in another warp, reads it here in the same barrier interval}}
  while (!mbarTryWait(&bar, 0)) {
  }
}

// Races: every thread arrives but none waits.
__global__ void noWait(float *out) {
  __shared__ uint64_t bar;
  __shared__ float val;
  if (threadIdx.x == 0)
    mbarInit(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0)
    val = 42.f;
  mbarArrive(&bar);
  out[blockIdx.x * blockDim.x + threadIdx.x] = val;
  // warning@-1:48 {{threads of different warps race on shared memory 'val' with no barrier between a write and a read in blocks of 64 to 1024 threads}}
  // note@-4:5 {{thread 0 writes 'val' here}}
  // note@-3:48 {{thread 32, in another warp, reads it here in the same barrier interval}}
}

// Races: the loop also leaves when `tries` runs out, before the phase
// completed.
__global__ void boundedSpin(float *out, int tries) {
  __shared__ uint64_t bar;
  __shared__ float val;
  if (threadIdx.x == 0)
    mbarInit(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0)
    val = 42.f;
  mbarArrive(&bar);
  while (!mbarTryWait(&bar, 0) && --tries > 0) {
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = val;
  // warning@-1:48 {{threads of different warps race on shared memory 'val' with no barrier between a write and a read in blocks of 64 to 1024 threads}}
  // note@-6:5 {{thread 0 writes 'val' here}}
  // note@-3:48 {{thread 32, in another warp, reads it here in the same barrier interval}}
}

// Silent: a flag zero before the loop, set by the try in a `while` (not
// `do`) loop: every thread runs the try until it succeeds. Through a
// helper and in inline PTX.
__global__ void spinWhileFlag(float *out) {
  __shared__ uint64_t bar;
  __shared__ float val;
  if (threadIdx.x == 0)
    mbarInit(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0)
    val = 42.f;
  mbarArrive(&bar);
  bool ok = false;
  while (!ok) {
    ok = mbarTryWait(&bar, 0);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = val;
}

__global__ void spinWhileFlagAsm(float *out) {
  __shared__ uint64_t bar;
  __shared__ float val;
  const unsigned a = smemAddr(&bar);
  if (threadIdx.x == 0)
    mbarInit(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0)
    val = 42.f;
  mbarArrive(&bar);
  unsigned ok;
  ok = 0;
  while (ok == 0)
    asm volatile("{\n .reg .pred p;\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 " selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(ok)
                 : "r"(a), "r"(0u)
                 : "memory");
  out[blockIdx.x * blockDim.x + threadIdx.x] = val;
}

// Races: the flag starts true, so the loop never runs the try.
__global__ void spinWhileFlagSet(float *out) {
  __shared__ uint64_t bar;
  __shared__ float val;
  if (threadIdx.x == 0)
    mbarInit(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0)
    val = 42.f;
  mbarArrive(&bar);
  bool ok = true;
  while (!ok) {
    ok = mbarTryWait(&bar, 0);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = val;
  // warning@-1:48 {{threads of different warps race on shared memory 'val' with no barrier between a write and a read in blocks of 64 to 1024 threads}}
  // note@-8:5 {{thread 0 writes 'val' here}}
  // note@-3:48 {{thread 32, in another warp, reads it here in the same barrier interval}}
}
