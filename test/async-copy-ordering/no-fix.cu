// Findings whose fix is not a single exact edit: a barrier missing after
// the issuing thread's wait, a wait_prior count that leaves the group read
// in flight. The advice goes on notes; nothing is edited.
// RUN: %check_cuda_tidy --checks=cuda-async-copy-ordering %s %t -- \
// RUN:   %cuda_args --cuda-gpu-arch=sm_90 -std=c++17
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

constexpr int Tile = 256;

// A wait in the issuing thread, but the barrier comes before it: other
// threads' copies may not have landed when every thread reads tile[0].
__global__ void waitAfterBarrier(const float4 *in, float4 *out) {
  __shared__ float4 tile[Tile];
  const int t = threadIdx.x;
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&tile[t]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"(addr),
               "l"(&in[blockIdx.x * Tile + t]));
  asm volatile("cp.async.commit_group;\n" ::: "memory");
  __syncthreads();
  asm volatile("cp.async.wait_group 0;\n" ::: "memory");
  out[blockIdx.x * Tile + t] = tile[0];
  // warning@-1:32 {{'tile' is read after a wait that completes only this thread's copies, with no block barrier between}}
  // note@-7:3 {{the asynchronous copy into 'tile' is issued here}}
  // note@-4:3 {{the wait is here; a block barrier after it lets other threads read the data}}
}

// wait_prior<1> leaves the most recent copy, the one read, in flight.
__global__ void waitPriorWrong(const float *in, float *out) {
  __shared__ float first[Tile];
  __shared__ float second[Tile];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, first, in, sizeof(float) * Tile);
  cg::memcpy_async(block, second, in + Tile, sizeof(float) * Tile);
  cg::wait_prior<1>(block);
  out[threadIdx.x] = second[Tile - 1 - threadIdx.x];
  // warning@-1:22 {{'second' is read while the group of its asynchronous copy may still be in flight}}
  // note@-4:3 {{the asynchronous copy into 'second' is issued here}}
  // note@-4:3 {{this wait leaves the most recent groups in flight, the copy's among them}}
}
