// cuda::memcpy_async on a cuda::pipeline and on a cuda::barrier (the CUDA
// programming guide's shapes): the data read without consumer_wait(), and
// between arrive() and wait(). The wait that fits depends on the stage
// structure, so the advice goes on a note.
// RUN: %check_cuda_tidy --checks=cuda-async-copy-ordering %s %t -- \
// RUN:   %cuda_args --cuda-gpu-arch=sm_90 -std=c++17
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <utility>
namespace cg = cooperative_groups;

constexpr int Tile = 256;
using Barrier = cuda::barrier<cuda::thread_scope_block>;
using State = cuda::pipeline_shared_state<cuda::thread_scope_block, 1>;

__global__ void pipelineNoWait(const float *in, float *out) {
  __shared__ float tile[Tile];
  // Storage for the state (clang rejects a __shared__ variable with a
  // constructor).
  __shared__ alignas(State) unsigned char storage[sizeof(State)];
  cg::thread_block block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, reinterpret_cast<State *>(storage));
  pipe.producer_acquire();
  cuda::memcpy_async(block, tile, in + blockIdx.x * Tile, sizeof(float) * Tile, pipe);
  pipe.producer_commit();
  block.sync();
  out[blockIdx.x * Tile + threadIdx.x] = tile[Tile - 1 - threadIdx.x];
  // warning@-1:42 {{'tile' is read before the asynchronous copy into it completes}}
  // note@-5:3 {{the asynchronous copy into 'tile' is issued here}}
  // note@-4:3 {{'thread_block::sync' orders the threads, not the copy}}
  // note@-7:3 {{wait for the copy with the pipeline's 'consumer_wait()' in every issuing thread before the block barrier that precedes the access}}
  pipe.consumer_release();
}

// Silent: consumer_wait() before the read.
__global__ void pipelineWaited(const float *in, float *out) {
  __shared__ float tile[Tile];
  // Storage for the state (clang rejects a __shared__ variable with a
  // constructor).
  __shared__ alignas(State) unsigned char storage[sizeof(State)];
  cg::thread_block block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, reinterpret_cast<State *>(storage));
  pipe.producer_acquire();
  cuda::memcpy_async(block, tile, in + blockIdx.x * Tile, sizeof(float) * Tile, pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  out[blockIdx.x * Tile + threadIdx.x] = tile[Tile - 1 - threadIdx.x];
  pipe.consumer_release();
}

// Read between arrive() and wait(): the copy completes with the phase.
__global__ void barrierEarlyRead(const float *in, float *out) {
  __shared__ float tile[Tile];
  __shared__ alignas(Barrier) unsigned char storage[sizeof(Barrier)];
  Barrier &bar = *reinterpret_cast<Barrier *>(storage);
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0)
    init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, tile, in + blockIdx.x * Tile, sizeof(float) * Tile, bar);
  auto token = bar.arrive();
  float v = tile[Tile - 1 - threadIdx.x];
  // warning@-1:13 {{'tile' is read before the asynchronous copy into it completes}}
  // note@-4:3 {{the asynchronous copy into 'tile' is issued here}}
  // note@-5:3 {{wait for the copy with the barrier's wait before the access}}
  bar.wait(std::move(token));
  out[blockIdx.x * Tile + threadIdx.x] = v;
}

// Silent: arrive_and_wait() completes the phase the copy belongs to.
__global__ void barrierWaited(const float *in, float *out) {
  __shared__ float tile[Tile];
  __shared__ alignas(Barrier) unsigned char storage[sizeof(Barrier)];
  Barrier &bar = *reinterpret_cast<Barrier *>(storage);
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0)
    init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, tile, in + blockIdx.x * Tile, sizeof(float) * Tile, bar);
  bar.arrive_and_wait();
  out[blockIdx.x * Tile + threadIdx.x] = tile[Tile - 1 - threadIdx.x];
}
