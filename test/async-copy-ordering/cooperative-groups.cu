// cooperative_groups::memcpy_async: the group's copy read after
// block.sync() with no cg::wait, and the fixed forms.
// RUN: %check_cuda_tidy --checks=cuda-async-copy-ordering --fix --recheck \
// RUN:   %if nvcc %{ %nvcc_sm90 %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90 -std=c++17
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

constexpr int Tile = 256;

__global__ void noWait(const float *in, float *out) {
  __shared__ float tile[Tile];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in + blockIdx.x * Tile, sizeof(float) * Tile);
  block.sync();
  out[blockIdx.x * Tile + threadIdx.x] = tile[Tile - 1 - threadIdx.x];
  // warning@-1:42 {{'tile' is read before the asynchronous copy into it completes}}
  // note@-4:3 {{the asynchronous copy into 'tile' is issued here}}
  // note@-4:3 {{'thread_block::sync' orders the threads, not the copy}}
}
// FIXED-LABEL: void noWait(
// FIXED: cg::wait(block);
// FIXED-NEXT: block.sync();

// Silent: cg::wait completes the copy and syncs the group.
__global__ void waited(const float *in, float *out) {
  __shared__ float tile[Tile];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in + blockIdx.x * Tile, sizeof(float) * Tile);
  cg::wait(block);
  out[blockIdx.x * Tile + threadIdx.x] = tile[Tile - 1 - threadIdx.x];
}

// Silent: two tiles, wait_prior<1> waits for the first, which is read.
__global__ void waitPrior(const float *in, float *out) {
  __shared__ float first[Tile];
  __shared__ float second[Tile];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, first, in, sizeof(float) * Tile);
  cg::memcpy_async(block, second, in + Tile, sizeof(float) * Tile);
  cg::wait_prior<1>(block);
  float v = first[Tile - 1 - threadIdx.x];
  cg::wait(block);
  out[threadIdx.x] = v + second[threadIdx.x];
}
