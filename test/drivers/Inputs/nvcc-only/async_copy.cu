// The async-copy barrier and pipeline as CUDA's programming guide declares
// them, and a timestamp read from %globaltimer: nvcc builds this file.
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ unsigned long long stamp() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

__global__ void barrierCopy(const float *in, float *out,
                            unsigned long long *when) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ float tile[256];
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0)
    init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, tile, in + blockIdx.x * 256, sizeof(tile), bar);
  bar.arrive_and_wait();
  if (threadIdx.x < 128)
    block.sync();
  out[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];
  if (threadIdx.x == 0)
    when[blockIdx.x] = stamp();
}

__global__ void pipelineCopy(const float *in, float *out) {
  constexpr int Stages = 2;
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, Stages>
      state;
  __shared__ float tile[Stages][256];
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  for (int s = 0; s < Stages; ++s) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, tile[s], in + s * 256, sizeof(tile[s]), pipe);
    pipe.producer_commit();
  }
  for (int s = 0; s < Stages; ++s) {
    pipe.consumer_wait();
    out[s * 256 + threadIdx.x] = tile[s][threadIdx.x];
    pipe.consumer_release();
  }
}
