// Correct code that cuda-memory-ordering must leave alone, each with the
// reason. A file with no expectations: any diagnostic fails it.
// RUN: %check_cuda_tidy --checks=cuda-memory-ordering %s %t -- %cuda_args --cuda-gpu-arch=sm_90 -std=c++17
#include <cuda_runtime.h>
#include <cuda/atomic>

__device__ unsigned retirementCount = 0;

// The CUDA samples' threadFenceReduction order: store, fence, ticket.
__global__ void samplesOrder(float *partial, float *out) {
  __shared__ bool amLast;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = blockIdx.x;
    __threadfence();
    unsigned ticket = atomicInc(&retirementCount, gridDim.x);
    amLast = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (amLast && threadIdx.x == 0) {
    float s = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      s += partial[b];
    *out = s;
  }
}

// The samples' reduceSinglePass: the partial stored by a helper, then the
// fence, then the ticket.
__device__ void reduceBlocks(const float *in, float *partial) {
  if (threadIdx.x == 0)
    partial[blockIdx.x] = in[blockIdx.x];
}
__global__ void samplesHelper(const float *in, float *partial, float *out) {
  __shared__ bool amLast;
  reduceBlocks(in, partial);
  __threadfence();
  if (threadIdx.x == 0)
    amLast = atomicInc(&retirementCount, gridDim.x) == gridDim.x - 1;
  __syncthreads();
  if (amLast && threadIdx.x == 0)
    *out = partial[0] + partial[1];
}

// A ticket with acq_rel order (or the default seq_cst) is its own fence.
__global__ void orderedTicket(float *partial, float *out, unsigned *count) {
  if (threadIdx.x != 0)
    return;
  partial[blockIdx.x] = 1.0f;
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> c(*count);
  if (c.fetch_add(1, cuda::memory_order_acq_rel) == gridDim.x - 1)
    *out = partial[0] + partial[1];
  partial[gridDim.x + blockIdx.x] = 2.0f;
  if (c.fetch_add(1) == 2 * gridDim.x - 1)
    *out += partial[gridDim.x];
}

// A release fence through cuda::atomic_thread_fence, and an asm fence.
__global__ void otherFences(float *partial, float *out, unsigned *count) {
  if (threadIdx.x != 0)
    return;
  partial[blockIdx.x] = 1.0f;
  cuda::atomic_thread_fence(cuda::memory_order_release,
                            cuda::thread_scope_device);
  if (atomicAdd(count, 1u) == gridDim.x - 1)
    *out = partial[0];
  partial[blockIdx.x] = 2.0f;
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
  if (atomicAdd(count + 1, 1u) == gridDim.x - 1)
    *out = partial[1];
}

// Not a ticket: an atomic whose result is discarded, one that hands out
// output slots (never compared), and a counter in shared memory.
__global__ void notTickets(int *out, unsigned *count, const int *in) {
  __shared__ unsigned local;
  out[blockIdx.x] = 1;
  atomicAdd(count, 1u);
  unsigned slot = atomicAdd(count + 1, 1u);
  out[slot] = in[threadIdx.x];
  out[gridDim.x + blockIdx.x] = 2;
  if (atomicAdd(&local, 1u) == blockDim.x - 1)
    out[0] = out[gridDim.x];
}

// The decoupled look-back of a single-pass scan (CUB's shape): each block
// publishes its aggregate with a status word through volatile or atomic
// accesses with fences, and waits on its predecessor's status through a
// volatile load.
struct TileDescriptor {
  int status;
  int value;
};
__device__ void publish(volatile TileDescriptor *tiles, int tile, int value,
                        int status) {
  tiles[tile].value = value;
  __threadfence();
  tiles[tile].status = status;
}
__global__ void singlePassScan(TileDescriptor *tiles, const int *in, int *out) {
  volatile TileDescriptor *vt = tiles;
  int tile = blockIdx.x;
  int aggregate = in[tile];
  if (threadIdx.x == 0) {
    publish(vt, tile, aggregate, 1);
    int exclusive = 0;
    for (int pred = tile - 1; pred >= 0; --pred) {
      while (vt[pred].status == 0) {
      }
      __threadfence();
      exclusive += vt[pred].value;
      if (vt[pred].status == 2)
        break;
    }
    publish(vt, tile, exclusive + aggregate, 2);
    out[tile] = exclusive;
  }
}

// A flag in a cuda::atomic_ref with acquire load, and a release store.
__global__ void producerConsumer(int *flag, int *data) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (blockIdx.x == 0) {
    data[0] = 42;
    f.store(1, cuda::memory_order_release);
  } else {
    while (f.load(cuda::memory_order_acquire) == 0)
      __nanosleep(64);
    data[blockIdx.x] = data[0];
  }
}

// Asm with the clobber; asm that does not wait or order memory.
__global__ void asmForms(int *data) {
  unsigned smid;
  asm("mov.u32 %0, %%smid;" : "=r"(smid));
  data[threadIdx.x] = smid;
  asm volatile("bar.sync 0;" ::: "memory");
  asm volatile("membar.gl;" : : : "memory");
  data[threadIdx.x] += data[threadIdx.x ^ 1];
}
