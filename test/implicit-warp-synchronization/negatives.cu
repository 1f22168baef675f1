// Correct code the check must leave alone; each kernel says why.
// RUN: %check_cuda_tidy %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// A barrier between the write and the read orders them.
__global__ void barrierBetween(int *out) {
  __shared__ int s[32];
  int lane = threadIdx.x & 31;
  s[lane] = lane * 3;
  __syncwarp();
  out[threadIdx.x] = s[(lane + 1) & 31];
}

// Each thread only touches its own element.
__global__ void ownSlotOnly(int *out) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = out[tid];
  s[tid] += 1.0f;
  s[tid] *= s[tid];
  out[tid] = s[tid];
}

// Shuffles exchange through registers, not shared memory.
__global__ void shuffles(int *out) {
  int v = out[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  out[threadIdx.x] = v;
}

// Already fixed: read, __syncwarp, write, __syncwarp.
__global__ void alreadyFixed(int *out) {
  __shared__ int s[64];
  int tid = threadIdx.x;
  s[tid] = out[tid];
  __syncthreads();
  if (tid < 32) {
    int v = s[tid] + s[tid + 32];
    __syncwarp();
    s[tid] = v;
    __syncwarp();
    for (int offset = 16; offset > 0; offset /= 2) {
      v = s[tid] + s[tid + offset];
      __syncwarp();
      s[tid] = v;
      __syncwarp();
    }
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// A block-level reduction with __syncthreads between steps, down to one
// element: within a step, threads below 's' read only elements at 's' and
// above, which nobody writes in that step.
__global__ void blockReduction(const float *in, float *out) {
  extern __shared__ float smem[];
  unsigned tid = threadIdx.x;
  smem[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      smem[tid] += smem[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = smem[0];
}

// Different warps exchange through a barrier: lane 0 of each warp writes,
// warp 0 reads after __syncthreads.
__global__ void perWarpPartials(const int *in, int *out) {
  __shared__ int partial[32];
  int v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffff, v, offset);
  if ((threadIdx.x & 31) == 0)
    partial[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32)
    out[threadIdx.x] = partial[threadIdx.x];
}

// Writes and reads of different shared arrays never alias.
__global__ void distinctArrays(int *out) {
  __shared__ int a[32], b[32];
  int lane = threadIdx.x & 31;
  a[lane] = lane;
  out[threadIdx.x] = b[lane ^ 1];
}

// The NVVM builtin and the PTX instruction behind __syncthreads() order the
// exchange as well as __syncthreads() itself does.
__global__ void builtinBarrier(int *out) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  s[tid] = out[tid];
  __nvvm_bar_sync(0);
  out[tid] = s[(tid + 1) % 32];
}

__global__ void asmBarrier(int *out) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  s[tid] = out[tid];
  // With the "memory" clobber: without it cuda-memory-ordering says the
  // compiler may move the shared accesses across the barrier.
  asm volatile("bar.sync 0;" ::: "memory");
  out[tid] = s[(tid + 1) % 32];
}
