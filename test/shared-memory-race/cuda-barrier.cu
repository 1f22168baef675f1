// libcu++'s block barrier orders shared memory like __syncthreads(): with
// arrive_and_wait() and with the split form (wait() on arrive()'s token),
// in the shape of the CUDA samples' simpleAWBarrier.
// REQUIRES: cuda-toolkit
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race %s %t -- %cuda_args --cuda-gpu-arch=sm_90 -std=c++17
#include <cooperative_groups.h>
#include <cuda/barrier>
namespace cg = cooperative_groups;

using BlockBarrier = cuda::barrier<cuda::thread_scope_block>;

// Each warp's first lane publishes a partial sum; warp 0 reads them all.
__device__ float sumOfWarps(BlockBarrier &bar, float v) {
  __shared__ float partial[32];
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  if (tile.thread_rank() == 0)
    partial[tile.meta_group_rank()] = v;
  auto token = bar.arrive();
  bar.wait(std::move(token));
  return tile.thread_rank() < tile.meta_group_size() ? partial[tile.thread_rank()] : 0.f;
}

__device__ float sumOfWarpsJoined(BlockBarrier &bar, float v) {
  __shared__ float partial[32];
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  if (tile.thread_rank() == 0)
    partial[tile.meta_group_rank()] = v;
  bar.arrive_and_wait();
  return tile.thread_rank() < tile.meta_group_size() ? partial[tile.thread_rank()] : 0.f;
}

// No barrier at all: warp 0 reads what other warps' first lanes write.
__device__ float sumOfWarpsRacy(float v) {
  __shared__ float partial[32];
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  if (tile.thread_rank() == 0)
    partial[tile.meta_group_rank()] = v;
  return tile.thread_rank() < tile.meta_group_size() ? partial[tile.thread_rank()] : 0.f;
  // warning@-1:56 {{threads of different warps race on shared memory 'partial' with no barrier between a write and a read in blocks of 64 to 1024 threads}}
  // note@-3:5 {{thread 32 writes 'partial[1]' here}}
  // note@-3:56 {{thread 1, in another warp, reads it here in the same barrier interval}}
  // note@+13:21 {{'sumOfWarpsRacy' is called here}}
}

__global__ void kernel(const float *in, float *out) {
  // Shared storage for the barrier (a __shared__ variable cannot have a
  // constructor), initialised by one thread.
  __shared__ alignas(BlockBarrier) unsigned char storage[sizeof(BlockBarrier)];
  BlockBarrier &bar = *reinterpret_cast<BlockBarrier *>(storage);
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  out[blockIdx.x] = sumOfWarps(bar, v) + sumOfWarpsJoined(bar, v) +
                    sumOfWarpsRacy(v);
}
