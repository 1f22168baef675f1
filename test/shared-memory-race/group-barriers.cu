// Cooperative groups: a thread_group made from the block synchronises the
// block (`g.sync()`, `cg::sync(g)`); a tile or the coalesced threads only
// themselves, which orders nothing between warps.
// REQUIRES: cuda-toolkit
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race,cuda-divergent-barrier \
// RUN:   --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// A generic group made from the block, passed around as thread_group in
// library code: its sync is the block's. Silent.
__global__ void rotateGroup(float *data) {
  __shared__ float s[256];
  cg::thread_group g = cg::this_thread_block();
  s[g.thread_rank()] = data[blockIdx.x * 256 + g.thread_rank()];
  g.sync();
  data[blockIdx.x * 256 + threadIdx.x] = s[(threadIdx.x + 32) % 256];
}

// The same through cg::sync and a named block. Silent.
__global__ void rotateFreeSync(float *data) {
  __shared__ float s[256];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_group g = block;
  s[threadIdx.x] = data[blockIdx.x * 256 + threadIdx.x];
  cg::sync(g);
  data[blockIdx.x * 256 + threadIdx.x] = s[(threadIdx.x + 32) % 256];
}

// cg::sync of the block itself. Silent.
__global__ void rotateBlockSync(float *data) {
  __shared__ float s[256];
  cg::thread_block block = cg::this_thread_block();
  s[threadIdx.x] = data[blockIdx.x * 256 + threadIdx.x];
  cg::sync(block);
  data[blockIdx.x * 256 + threadIdx.x] = s[(threadIdx.x + 32) % 256];
}

// A thread_group made from a 32-thread tile: its sync waits for one warp.
__global__ void rotateTileGroup(float *data) {
  __shared__ float s[256];
  cg::thread_group tile = cg::tiled_partition(cg::this_thread_block(), 32);
  s[threadIdx.x] = data[blockIdx.x * 256 + threadIdx.x];
  tile.sync();
  data[blockIdx.x * 256 + threadIdx.x] = s[(threadIdx.x + 32) % 256];
  // warning@-1:42 {{threads of different warps race on shared memory 's' with no barrier between a write and a read}}
  // note@-4:3 {{thread 32 writes 's[32]' here}}
  // note@-3:42 {{thread 0, in another warp, reads it here in the same barrier interval}}
  // FIXED: {{^}}  tile.sync();{{$}}
  // FIXED-NEXT: {{^}}  __syncthreads();{{$}}
  // FIXED-NEXT: {{^}}  data[blockIdx.x * 256 + threadIdx.x] = s[(threadIdx.x + 32) % 256];{{$}}
}

// A static tile.
__global__ void rotateTile(float *data) {
  __shared__ float s[256];
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  s[threadIdx.x] = data[blockIdx.x * 256 + threadIdx.x];
  cg::sync(tile);
  data[blockIdx.x * 256 + threadIdx.x] = s[(threadIdx.x + 32) % 256];
  // warning@-1:42 {{threads of different warps race on shared memory 's' with no barrier between a write and a read}}
  // note@-4:3 {{thread 32 writes 's[32]' here}}
  // note@-3:42 {{thread 0, in another warp, reads it here in the same barrier interval}}
  // FIXED: {{^}}  cg::sync(tile);{{$}}
  // FIXED-NEXT: {{^}}  __syncthreads();{{$}}
  // FIXED-NEXT: {{^}}  data[blockIdx.x * 256 + threadIdx.x] = s[(threadIdx.x + 32) % 256];{{$}}
}

// The coalesced threads: those of one warp.
__global__ void rotateCoalesced(float *data) {
  __shared__ float s[256];
  cg::coalesced_group active = cg::coalesced_threads();
  s[threadIdx.x] = data[blockIdx.x * 256 + threadIdx.x];
  active.sync();
  data[blockIdx.x * 256 + threadIdx.x] = s[(threadIdx.x + 32) % 256];
  // warning@-1:42 {{threads of different warps race on shared memory 's' with no barrier between a write and a read}}
  // note@-4:3 {{thread 32 writes 's[32]' here}}
  // note@-3:42 {{thread 0, in another warp, reads it here in the same barrier interval}}
  // FIXED: {{^}}  active.sync();{{$}}
  // FIXED-NEXT: {{^}}  __syncthreads();{{$}}
  // FIXED-NEXT: {{^}}  data[blockIdx.x * 256 + threadIdx.x] = s[(threadIdx.x + 32) % 256];{{$}}
}

void launch(float *data) {
  rotateGroup<<<8, 256>>>(data);
  rotateFreeSync<<<8, 256>>>(data);
  rotateBlockSync<<<8, 256>>>(data);
  rotateTileGroup<<<8, 256>>>(data);
  rotateTile<<<8, 256>>>(data);
  rotateCoalesced<<<8, 256>>>(data);
}
