// Last-block reductions where no place before the ticket is proven to be
// reached by every thread that stored a partial, and a cuda::atomic_ref
// ticket with relaxed order: the fence goes on a note, so --fix changes
// nothing and --fix-notes inserts it.
// RUN: %check_cuda_tidy --fix-notes --fixed-prefix=FIXED-NOTES \
// RUN:   --checks=cuda-memory-ordering %s %t.notes -- %cuda_args --cuda-gpu-arch=sm_90 -std=c++17
#include <cuda_runtime.h>
#include <cuda/atomic>

// The store is in one branch, the ticket in another: the writing thread
// is not the one that takes the ticket, and no statement is shared.
__global__ void storeInOneBranch(float *partial, float *out, unsigned *count) {
  if (threadIdx.x == 1) {
    partial[blockIdx.x] = 1.0f;
    // note@-1:5 {{partial result stored here}}
  } else if (threadIdx.x == 0) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> ticket(*count);
    if (ticket.fetch_add(1, cuda::memory_order_relaxed) == gridDim.x - 1)
    // warning@-1:9 {{the ticket 'fetch_add' is not ordered after the partial results}}
    // note@-2:5 {{insert '__threadfence();' before the ticket where every thread that stored a partial reaches it (no statement before the ticket is reached by every thread that stored a partial result)}}
    // FIXED-NOTES: {{^}}    __threadfence();
    // FIXED-NOTES-NEXT: {{^}}    if (ticket.fetch_add(1, cuda::memory_order_relaxed) == gridDim.x - 1)
      *out = partial[0] + partial[gridDim.x - 1];
      // note@-1:14 {{read here by the block that draws the last ticket}}
  }
}

// A return between the store and the ticket may skip a fence placed before
// the ticket's statement.
__global__ void returnBetween(float *partial, float *out, unsigned *count,
                              bool skip) {
  partial[blockIdx.x] = 2.0f;
  // note@-1:3 {{partial result stored here}}
  if (skip)
    return;
  unsigned t = atomicAdd(count, 1u);
  // warning@-1:16 {{the ticket 'atomicAdd' is not ordered after the partial results}}
  // note@-2:3 {{insert '__threadfence();' before the ticket where every thread that stored a partial reaches it (a jump between the store and the ticket may skip the fence)}}
  // FIXED-NOTES: {{^}}  __threadfence();
  // FIXED-NOTES-NEXT: {{^}}  unsigned t = atomicAdd(count, 1u);
  if (t == gridDim.x - 1)
    *out = partial[0];
    // note@-1:12 {{read here by the block that draws the last ticket}}
}

// Every lane stores, lane 0 takes the ticket with no barrier in between (the
// CUDA samples' cdpAdvancedQuicksort shape): a fence before the 'if' orders
// each lane's own store, not the other lanes' before lane 0's ticket; the
// note asks for the barrier too.
__global__ void noBarrierBeforeTicket(unsigned *out, unsigned *count,
                                      unsigned len) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
  // note@-1:3 {{partial result stored here}}
  if (threadIdx.x % 32 == 0) {
    // note@-1:3 {{insert '__threadfence();' before the ticket where every thread that stored a partial reaches it (the ticket is taken by some threads only, with no barrier after the partial stores; add '__syncthreads()' before the fence)}}
    // FIXED-NOTES: {{^}}  __threadfence();
    // FIXED-NOTES-NEXT: {{^}}  if (threadIdx.x % 32 == 0) {
    if (atomicAdd(count, 32u) + 32u == len)
    // warning@-1:9 {{the ticket 'atomicAdd' is not ordered after the partial results}}
      out[0] = out[len - 1];
      // note@-1:16 {{read here by the block that draws the last ticket}}
  }
}

// The partials stored by a helper that is passed the global array (the CUDA
// samples' reduceBlocks(g_idata, g_odata, ...)), with the fence left out.
__device__ void storeBlockSum(const float *in, float *partial) {
  if (threadIdx.x == 0)
    partial[blockIdx.x] = in[blockIdx.x];
}
__global__ void helperStores(const float *in, float *partial, float *out,
                             unsigned *count) {
  __shared__ bool amLast;
  storeBlockSum(in, partial);
  // note@-1:3 {{partial results stored by this call with no '__threadfence()' before the ticket}}
  if (threadIdx.x == 0)
  // note@-1:3 {{insert '__threadfence();' before the ticket}}
  // FIXED-NOTES: {{^}}  __threadfence();
  // FIXED-NOTES-NEXT: {{^}}  if (threadIdx.x == 0)
    amLast = atomicInc(count, gridDim.x) == gridDim.x - 1;
    // warning@-1:14 {{the ticket 'atomicInc' is not ordered after the partial results}}
  __syncthreads();
  if (amLast && threadIdx.x == 0)
    *out = partial[0] + partial[1];
    // note@-1:12 {{read here by the block that draws the last ticket}}
}
