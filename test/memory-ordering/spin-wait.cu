// A spin-wait on a flag in global memory read through a plain load: the
// compiler may load the flag once and branch to itself (nvcc -O3 does, on an
// H200 the loop hangs, even with '__nanosleep' back-off). A plain load racing
// with another block's store is a data race in the CUDA memory model. The
// fix (an acquire load of a device-scope atomic, or a volatile load with a
// fence) goes on a note.
// RUN: %check_cuda_tidy --checks=cuda-memory-ordering %s %t -- %cuda_args --cuda-gpu-arch=sm_90 -std=c++17
#include <cuda_runtime.h>
#include <cuda/atomic>

__device__ int ready;

__global__ void waitOnParam(int *flag, int *data, int *out) {
  while (flag[0] == 0) {
  // warning@-1:10 {{loop spins on a plain load of 'flag' in global memory; the compiler may load it once and spin forever}} [cuda-memory-ordering]
  // note@-2:10 {{load the flag with 'cuda::atomic_ref<T, cuda::thread_scope_device>(...).load(cuda::memory_order_acquire)', or through a volatile pointer with '__threadfence()' after the loop}}
  }
  out[blockIdx.x] = data[0];
}

__global__ void waitOnGlobal(int *out) {
  while (!ready)
    // warning@-1:11 {{loop spins on a plain load of 'ready'}}
    // note@-2:11 {{load the flag with}}
    __nanosleep(100);
  out[blockIdx.x] = 1;
}

__global__ void doWait(const unsigned *done, int *out) {
  const unsigned *p = done + 4;
  do {
    __nanosleep(32);
  } while (*p != 1u);
  // warning@-1:12 {{loop spins on a plain load of 'done'}}
  // note@-2:12 {{load the flag with}}
  out[0] = 2;
}

__global__ void forWait(int *flags, int *out) {
  for (; flags[blockIdx.x] == 0;) {
  // warning@-1:10 {{loop spins on a plain load of 'flags'}}
  // note@-2:10 {{load the flag with}}
  }
  out[blockIdx.x] = 3;
}

// Silent: a volatile load is made on every iteration.
__global__ void volatileFlag(volatile int *flag, int *out) {
  while (flag[0] == 0) {
  }
  __threadfence();
  out[0] = 1;
}

__global__ void volatileCast(int *flag, int *out) {
  while (*(volatile int *)flag == 0) {
  }
  __threadfence();
  out[0] = 1;
}

// Silent: an atomic acquire load.
__global__ void atomicFlag(int *flag, int *out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  while (f.load(cuda::memory_order_acquire) == 0) {
  }
  out[0] = 1;
}

// Silent: an atomic read-modify-write in the condition.
__global__ void casLock(int *lock, int *out) {
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  out[0] = 1;
  atomicExch(lock, 0);
}

// Silent: the body writes the flag (a loop over the data, not a wait).
__global__ void bodyWrites(int *flag) {
  while (flag[0] > 0)
    flag[0] -= 1;
}

// Silent: the loop ends by its own counter.
__global__ void bounded(int *flag, int *out) {
  int tries = 0;
  while (flag[0] == 0 && tries < 100)
    ++tries;
  out[0] = tries;
}

// Silent: shared memory, and a local array.
__global__ void sharedFlag(int *out) {
  __shared__ int go;
  int local[4] = {0, 0, 0, 1};
  int i = 0;
  while (local[i] == 0)
    ++i;
  if (threadIdx.x == 0)
    go = 1;
  __syncthreads();
  while (go == 0) {
  }
  out[0] = i;
}

// Silent: a fence in the body makes the compiler reload the flag (the load
// is still a data race by the memory model; this check leaves it alone).
__global__ void fenceInBody(int *flag, int *out) {
  while (flag[0] == 0)
    __threadfence();
  out[0] = 1;
}

// Silent: a device function's pointer parameter may point to shared memory.
__device__ void waitFor(int *flag) {
  while (*flag == 0) {
  }
}

// The wait written as an endless loop with one way out.
__global__ void forEverWait(int *flag, int *out) {
  for (;;) {
    if (flag[blockIdx.x] != 0)
    // warning@-1:9 {{loop spins on a plain load of 'flag'}}
    // note@-2:9 {{load the flag with}}
      break;
    __nanosleep(64);
  }
  out[blockIdx.x] = 1;
}

__global__ void whileTrueWait(const int *done, int *out) {
  while (true) {
    if (*done)
    // warning@-1:9 {{loop spins on a plain load of 'done'}}
    // note@-2:9 {{load the flag with}}
      return;
  }
}

// Silent: the endless loop's exit reads an atomic, has a second way out, or
// the body writes the flag.
__global__ void forEverAtomic(int *flag, int *out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  for (;;) {
    if (f.load(cuda::memory_order_acquire) != 0)
      break;
  }
  out[0] = 1;
}

__global__ void forEverTwoExits(int *flag, int *out, int limit) {
  int spins = 0;
  for (;;) {
    if (flag[0] != 0)
      break;
    if (++spins > limit)
      break;
  }
  out[0] = spins;
}

__global__ void forEverWrites(int *flag) {
  while (true) {
    if (flag[0] == 0)
      break;
    flag[0] = flag[0] - 1;
  }
}
