// Barriers the check counts, accesses through helpers, and branches.
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race,cuda-divergent-barrier \
// RUN:   --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Two helpers: one stores the block's values, the other reads a
// neighbour's; the kernel calls them with no barrier in between.
__device__ void store(float *s, float v) { s[threadIdx.x] = v; }
__device__ float neighbour(const float *s) {
  return s[(threadIdx.x + 32) % blockDim.x];
}

__global__ void twoHelpers(float *data) {
  __shared__ float s[256];
  store(s, data[threadIdx.x]);
  data[threadIdx.x] = neighbour(s);
  // warning@-1:23 {{threads of different warps race on shared memory 's' with no barrier between a write and a read}}
  // note@-10:44 {{thread 32 writes 's[32]' here}}
  // note@-9:10 {{thread 0, in another warp, reads it here in the same barrier interval}}
  // note@-5:3 {{the first access is made in this call to 'store'}}
  // note@-5:23 {{the second access is made in this call to 'neighbour'}}
}

// A helper that synchronises the block between them: silent.
__device__ void blockSync() { __syncthreads(); }
__global__ void helperBarrier(float *data) {
  __shared__ float s[256];
  store(s, data[threadIdx.x]);
  blockSync();
  data[threadIdx.x] = neighbour(s);
}

// Cooperative groups' block barrier and the PTX barrier: silent.
__global__ void groupBarrier(float *data) {
  __shared__ float s[256];
  cg::thread_block block = cg::this_thread_block();
  store(s, data[threadIdx.x]);
  block.sync();
  data[threadIdx.x] = neighbour(s);
}

__global__ void ptxBarrier(float *data) {
  __shared__ float s[256];
  store(s, data[threadIdx.x]);
  asm volatile("bar.sync 0;" ::: "memory");
  data[threadIdx.x] = neighbour(s);
}

// The usual shape: fill, barrier, read. Silent.
__global__ void armsSync(float *data) {
  __shared__ float total;
  if (threadIdx.x == 0)
    total = data[0];
  __syncthreads();
  if (threadIdx.x != 0)
    data[threadIdx.x] += total;
}

// A template: reported once, in the primary template's terms, for the
// instantiation the file launches.
template <int N> __global__ void shiftBy(float *data) {
  __shared__ float s[N];
  s[threadIdx.x] = data[threadIdx.x];
  data[threadIdx.x] = s[(threadIdx.x + 64) % N];
  // warning@-1:23 {{threads of different warps race on shared memory 's' with no barrier between a write and a read}}
  // note@-3:3 {{thread 64 writes 's[64]' here}}
  // note@-3:23 {{thread 0, in another warp, reads it here in the same barrier interval}}
}

void launch(float *data, int n) {
  twoHelpers<<<1, 256>>>(data);
  helperBarrier<<<1, 256>>>(data);
  groupBarrier<<<1, 256>>>(data);
  ptxBarrier<<<1, 256>>>(data);
  armsSync<<<1, 256>>>(data);
  shiftBy<128><<<1, 128>>>(data);
  shiftBy<256><<<1, 256>>>(data);
}
