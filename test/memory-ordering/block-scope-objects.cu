// cuda::atomic_ref and cuda::atomic of thread_scope_block on global memory
// that threads of every block update: reported without a fix (the scope is
// a template argument; the fix would change the type).
// RUN: %check_cuda_tidy --checks=cuda-memory-ordering %s %t -- %cuda_args --cuda-gpu-arch=sm_90 -std=c++17
#include <cuda_runtime.h>
#include <cuda/atomic>

__device__ cuda::atomic<int, cuda::thread_scope_block> blockCounter;
__device__ cuda::atomic<int, cuda::thread_scope_block> perBlockCounters[1024];

__global__ void scopedRef(unsigned *counter, int *out) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_block> c(*counter);
  // warning@-1:56 {{block-scope atomic on 'counter'}}
  c.fetch_add(1u);
  blockCounter.fetch_add(1);
  // warning@-1:3 {{block-scope atomic on 'blockCounter'}}
}

// Silent: one atomic per block.
__global__ void perBlockObject() {
  perBlockCounters[blockIdx.x].fetch_add(1);
}
