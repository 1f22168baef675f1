// Kernels of the cuda-memory-ordering GPU suite, one shape per kernel. The
// suite runs cuda-memory-ordering --fix on this file; the check must warn in
// exactly the kernels whose name ends in "Bad". Written for cuda-tidy.
#include <cuda/atomic>
#include <cuda_runtime.h>

// Rule 3: block 0 publishes, the other blocks spin on a plain load of the
// flag. nvcc -O3 loads the flag once: the spinning blocks never finish. The
// fix is on a note (not applied by --fix): spinAtomicGood and
// spinVolatileGood are its two forms.
__global__ void spinPlainBad(int *flag, int *data, int *out) {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      data[0] = 42;
      __threadfence();
      atomicExch(flag, 1);
    }
    return;
  }
  while (flag[0] == 0) {
  }
  __threadfence();
  out[blockIdx.x] = data[0];
}

__global__ void spinAtomicGood(int *flag, int *data, int *out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      data[0] = 42;
      f.store(1, cuda::memory_order_release);
    }
    return;
  }
  while (f.load(cuda::memory_order_acquire) == 0) {
  }
  out[blockIdx.x] = data[0];
}

__global__ void spinVolatileGood(int *flag, int *data, int *out) {
  volatile int *vflag = flag;
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      data[0] = 42;
      __threadfence();
      *vflag = 1;
    }
    return;
  }
  while (*vflag == 0) {
  }
  __threadfence();
  out[blockIdx.x] = data[0];
}

// Rule 2: the last-block reduction without the fence; --fix inserts it.
// Each block sums blockDim.x ones; the last block sums the partials into
// out[0], which must be gridDim.x * blockDim.x.
__device__ unsigned retirementCount = 0;
__global__ void lastBlockBad(const int *in, int *partial, int *out) {
  __shared__ int sums[256];
  __shared__ bool amLast;
  sums[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (unsigned i = 0; i < blockDim.x; ++i)
      s += sums[i];
    partial[blockIdx.x] = s;
    unsigned ticket = atomicInc(&retirementCount, gridDim.x);
    amLast = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (amLast && threadIdx.x == 0) {
    int total = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      total += partial[b];
    out[0] = total;
    retirementCount = 0;
  }
}

// Rule 1: a named barrier in asm without the clobber between a shared store
// and the neighbour's load; --fix adds "memory". out[i] must be in[i ^ 1].
__global__ void asmBarrierBad(const int *in, int *partial, int *out) {
  __shared__ int tile[256];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = in[i] + (int)i;
  asm volatile("bar.sync 0;");
  out[i] = tile[threadIdx.x ^ 1] - (int)(i ^ 1);
}

// Rule 4: every thread of every block counts into one global counter with
// a block-scope atomic; --fix makes it device scope. out[0] must be
// gridDim.x * blockDim.x.
__global__ void blockScopeBad(const int *in, int *partial, int *out) {
  atomicAdd_block(out, in[blockIdx.x * blockDim.x + threadIdx.x]);
}
