// Cooperative groups' ranks are thread indices: the block's thread_rank()
// and thread_index(), a tile's thread_rank() and meta_group_rank(). A guard
// the model still cannot evaluate keeps it silent for what it guards.
// (This check alone: with cuda-shared-memory-race too, the thread-0
// broadcasts below race between warps and are that check's.)
// RUN: %check_cuda_tidy --checks=cuda-implicit-warp-synchronization --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// One thread sums the block's values: no other lane takes part.
__global__ void sumByOne(float *o) {
  __shared__ float s[256];
  cg::thread_block cta = cg::this_thread_block();
  s[threadIdx.x] = o[threadIdx.x];
  cg::sync(cta);
  if (cta.thread_rank() == 0) {
    float b = 0;
    for (int i = 0; i < 256; i++)
      b += s[i];
    s[0] = b;
  }
}

// A flag loaded from memory picks the thread: it cannot be evaluated, and
// it guards both the reads and the write. Silent.
__global__ void sumByFlagged(float *o, const int *pick) {
  __shared__ float s[256];
  s[threadIdx.x] = o[threadIdx.x];
  __syncthreads();
  if (pick[threadIdx.x]) {
    float b = 0;
    for (int i = 0; i < 256; i++)
      b += s[i];
    s[0] = b;
  }
}

// A tile-of-32 inclusive scan written warp-synchronously.
__global__ void tileScan(float *o) {
  __shared__ float s[256];
  cg::thread_block cta = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(cta);
  int t = cta.thread_rank();
  int lane = tile.thread_rank();
  s[t] = o[t];
  cg::sync(cta);
  if (lane >= 1)
    s[t] += s[t - 1];
    // warning@-1:13 {{lanes of a warp exchange data through shared memory 's' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
    // note@-2:5 {{lane 1 writes the element here}}
    // note@-3:13 {{lane 2 reads it here, and no barrier orders the two}}
    // note@-4:13 {{independent thread scheduling}}
  if (lane >= 2)
    s[t] += s[t - 2];
    // note@-1:13 {{and lane 3 reads it here with no barrier between}}
    // note@-8:5 {{the same exchange again: lane 1 writes the element here}}
  o[t] = s[t];
  // FIXED: {{^}}    { float v = s[t] + s[t - 1]; __syncwarp(0xfffffffe); s[t] = v; __syncwarp(0xfffffffe); }{{$}}
  // FIXED: {{^}}    { float v = s[t] + s[t - 2]; __syncwarp(0xfffffffc); s[t] = v; __syncwarp(0xfffffffc); }{{$}}
}

// The same scan with cg::sync(tile) after each read and each write: silent.
__global__ void tileScanSynced(float *o) {
  __shared__ float s[256];
  cg::thread_block cta = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(cta);
  int t = cta.thread_rank();
  int lane = tile.thread_rank();
  s[t] = o[t];
  cg::sync(cta);
  for (int d = 1; d < 32; d *= 2) {
    float v = lane >= d ? s[t - d] : 0.0f;
    cg::sync(tile);
    s[t] += v;
    cg::sync(tile);
  }
  o[t] = s[t];
}

// Per-warp slots indexed by meta_group_rank(): lane 0 writes its warp's
// slot and the other lanes read it.
__global__ void warpLeader(int *o) {
  __shared__ int slot[8];
  cg::thread_block cta = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(cta);
  if (tile.thread_rank() == 0)
    slot[tile.meta_group_rank()] = o[cta.thread_index().x];
  o[cta.thread_index().x] += slot[tile.meta_group_rank()];
  // warning@-1:30 {{lanes of a warp exchange data through shared memory 'slot' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
  // note@-3:5 {{lane 0 writes the element here}}
  // note@-3:30 {{lane 1 reads it here, and no barrier orders the two}}
  // note@-4:30 {{independent thread scheduling}}
  // FIXED: {{^}}    slot[tile.meta_group_rank()] = o[cta.thread_index().x];{{$}}
  // FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
}

// The same with the tile synchronised between the write and the reads.
__global__ void warpLeaderSynced(int *o) {
  __shared__ int slot[8];
  cg::thread_block cta = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(cta);
  if (tile.thread_rank() == 0)
    slot[tile.meta_group_rank()] = o[cta.thread_index().x];
  tile.sync();
  o[cta.thread_index().x] += slot[tile.meta_group_rank()];
}

// A type-erased group made from the block, and the grid: their ranks are
// thread indices too. Lane 0 of the block (of the grid's first block)
// writes the element the other lanes read; the model took every lane as a
// writer here ("lane 1 writes").
__global__ void groupLeader(float *o) {
  __shared__ float s[32];
  cg::thread_group g = cg::this_thread_block();
  if (g.thread_rank() == 0)
    s[0] = o[0];
  o[threadIdx.x] = s[0];
  // warning@-1:20 {{lanes of a warp exchange data through shared memory 's' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
  // note@-3:5 {{lane 0 writes the element here}}
  // note@-3:20 {{lane 1 reads it here, and no barrier orders the two}}
  // note@-4:20 {{independent thread scheduling}}
  // FIXED: {{^}}    s[0] = o[0];{{$}}
  // FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
}
__global__ void gridLeader(float *o) {
  __shared__ float s[32];
  cg::grid_group grid = cg::this_grid();
  if (grid.thread_rank() == 0)
    s[0] = o[0];
  o[threadIdx.x] = s[0];
  // warning@-1:20 {{lanes of a warp exchange data through shared memory 's' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
  // note@-3:5 {{lane 0 writes the element here}}
  // note@-3:20 {{lane 1 reads it here, and no barrier orders the two}}
  // note@-4:20 {{independent thread scheduling}}
  // FIXED: {{^}}    s[0] = o[0];{{$}}
  // FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
}

// Counterparts: the group's thread 0 works alone (silent), and the block
// synchronised between the write and the reads (silent).
__global__ void groupLeaderAlone(float *o) {
  __shared__ float s[256];
  cg::thread_group g = cg::this_thread_block();
  s[threadIdx.x] = o[threadIdx.x];
  __syncthreads();
  if (g.thread_rank() == 0) {
    float b = 0;
    for (int i = 0; i < 256; i++)
      b += s[i];
    s[0] = b;
  }
}
__global__ void groupLeaderSynced(float *o) {
  __shared__ float s[32];
  cg::thread_group g = cg::this_thread_block();
  if (g.thread_rank() == 0)
    s[0] = o[0];
  __syncthreads();
  o[threadIdx.x] = s[0];
}
