// In a template pattern (a header's kernel the file never instantiates)
// the group size CG is unknown, and '(base + t) / CG - t / CG' is the same
// in every thread only when CG divides the base. A 'static_assert(CG == 1)'
// in the kernel holds in every instantiation, as cooperative-groups hash
// map kernels that only support groups of one thread write it: the loop
// test is then judged with CG = 1. Each silent kernel has a counterpart
// beside it that must still warn.
// RUN: %check_cuda_tidy --checks=cuda-divergent-barrier %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// A block-wide staging loop rebased to the block's first thread, stopped
// early by a counter in shared memory.
template <int CG, int BlockSize>
__global__ __launch_bounds__(BlockSize) void stageSingle(const int *in,
                                                         int *out, long n) {
  static_assert(CG == 1, "stageSingle supports groups of one thread");
  __shared__ int filled;
  __shared__ int buf[BlockSize];
  auto block = cg::this_thread_block();
  auto t = block.thread_rank();
  long stride = gridDim.x * (long)blockDim.x / CG;
  long idx = (blockIdx.x * (long)blockDim.x + threadIdx.x) / CG;
  if (t == 0)
    filled = 0;
  block.sync();
  while (idx - t / CG < n) {
    buf[t] = idx < n ? in[idx] : 0;
    if (idx < n && in[idx] != 0)
      atomicAdd(&filled, 1);
    block.sync();
    if (idx < n)
      out[idx] = buf[BlockSize - 1 - t];
    if (filled > BlockSize)
      break;
    idx += stride;
  }
}

// The assertion as one part of a conjunction, after other statements.
template <int CG, int BlockSize>
__global__ void stageSingleChecked(const int *in, int *out, long n) {
  __shared__ int buf[BlockSize];
  auto block = cg::this_thread_block();
  auto t = block.thread_rank();
  static_assert(BlockSize % 32 == 0 && CG == 1, "whole warps, one thread");
  for (long idx = (blockIdx.x * (long)blockDim.x + threadIdx.x) / CG;
       idx - t / CG < n; idx += gridDim.x * (long)blockDim.x / CG) {
    buf[t] = idx < n ? in[idx] : 0;
    block.sync();
    if (idx < n)
      out[idx] = buf[(t + 1) % BlockSize];
    block.sync();
  }
}

// Counterpart: groups of three threads, where the test does differ.
template <int CG, int BlockSize>
__global__ void stageTriple(const int *in, int *out, long n) {
  static_assert(CG == 3, "stageTriple supports groups of three threads");
  __shared__ int buf[BlockSize];
  auto block = cg::this_thread_block();
  auto t = block.thread_rank();
  long idx = (blockIdx.x * (long)blockDim.x + threadIdx.x) / CG;
  while (idx - t / CG < n) {
    buf[t] = idx < n ? in[idx] : 0;
    block.sync();
    // warning@-1:5 {{threads that skip this 'thread_block::sync' leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
    // note@-4:3 {{the loop's trip count depends on 'idx', which differs between threads}}
    // note@-6:3 {{'idx' is set from 'threadIdx.x' here}}
    if (idx < n)
      out[idx] = buf[BlockSize - 1 - t];
    idx += gridDim.x * (long)blockDim.x / CG;
  }
}

// Counterpart: the assertion is in an 'if constexpr' branch that does not
// hold the barrier; instantiations with Staged false keep the barrier and
// any CG.
template <int CG, int BlockSize, bool Staged>
__global__ void stageMaybe(const int *in, int *out, long n) {
  __shared__ int buf[BlockSize];
  auto block = cg::this_thread_block();
  auto t = block.thread_rank();
  if constexpr (Staged) {
    static_assert(CG == 1, "staged copies use groups of one thread");
    out[0] = 0;
  }
  long idx = (blockIdx.x * (long)blockDim.x + threadIdx.x) / CG;
  while (idx - t / CG < n) {
    buf[t] = idx < n ? in[idx] : 0;
    block.sync();
    // warning@-1:5 {{threads that skip this 'thread_block::sync' leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
    // note@-4:3 {{the loop's trip count depends on 'idx', which differs between threads}}
    // note@-6:3 {{'idx' is set from 'threadIdx.x' here}}
    if (idx < n)
      out[idx] = buf[BlockSize - 1 - t];
    idx += gridDim.x * (long)blockDim.x / CG;
  }
}

// Counterpart: an assertion that bounds CG without fixing it.
template <int CG, int BlockSize>
__global__ void stageBounded(const int *in, int *out, long n) {
  static_assert(CG >= 1 && CG <= 32, "a group fits in a warp");
  __shared__ int buf[BlockSize];
  auto block = cg::this_thread_block();
  auto t = block.thread_rank();
  long idx = (blockIdx.x * (long)blockDim.x + threadIdx.x) / CG;
  while (idx - t / CG < n) {
    buf[t] = idx < n ? in[idx] : 0;
    block.sync();
    // warning@-1:5 {{threads that skip this 'thread_block::sync' leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
    // note@-4:3 {{the loop's trip count depends on 'idx', which differs between threads}}
    // note@-6:3 {{'idx' is set from 'threadIdx.x' here}}
    if (idx < n)
      out[idx] = buf[BlockSize - 1 - t];
    idx += gridDim.x * (long)blockDim.x / CG;
  }
}
