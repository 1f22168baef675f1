// Correct kernels that synchronise the block: each must stay silent, and the
// comment above each says why.
// RUN: %check_cuda_tidy --checks=cuda-divergent-barrier %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// The classic tree reduction: the branch is divergent, but the barrier comes
// after the branches have joined; the loop's bounds are block-uniform.
__global__ void reduceSum(const float *in, float *out, int n) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// Tiled matrix multiply: the tile loop's trip count depends only on the
// matrix size, and the early 'return'-free bounds checks do not skip a
// barrier.
#define TILE 16
__global__ void matmul(const float *A, const float *B, float *C, int N) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < (N + TILE - 1) / TILE; ++t) {
    As[threadIdx.y][threadIdx.x] =
        row < N && t * TILE + threadIdx.x < N ? A[row * N + t * TILE + threadIdx.x] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] =
        col < N && t * TILE + threadIdx.y < N ? B[(t * TILE + threadIdx.y) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < N && col < N)
    C[row * N + col] = acc;
}

// The early-exit idiom in a kernel: threads that return have exited, and
// exited threads do not take part in later barriers (Volta and later).
__global__ void stencil1d(const float *in, float *out, int n) {
  __shared__ float tile[256 + 2];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x + 1] = in[i];
  if (threadIdx.x == 0)
    tile[0] = i > 0 ? in[i - 1] : 0.0f;
  __syncthreads();
  out[i] = tile[threadIdx.x] + tile[threadIdx.x + 1] + tile[threadIdx.x + 2];
}

// Histogram: the grid-stride loop diverges, the barrier after it does not.
__global__ void histogram(const unsigned char *in, unsigned *bins, int n) {
  __shared__ unsigned local[256];
  local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&local[in[i]], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

// Hillis-Steele scan: the loop is uniform, and the barriers sit outside the
// divergent branches.
__global__ void scan(float *data, int n) {
  extern __shared__ float temp[];
  int tid = threadIdx.x;
  temp[tid] = tid < n ? data[tid] : 0.0f;
  __syncthreads();
  for (int offset = 1; offset < n; offset *= 2) {
    float t = 0.0f;
    if (tid >= offset)
      t = temp[tid - offset];
    __syncthreads();
    if (tid >= offset)
      temp[tid] += t;
    __syncthreads();
  }
  if (tid < n)
    data[tid] = temp[tid];
}

// Block-uniform conditions: every thread of a block takes the same side.
__global__ void uniformBranches(const int *flags, float *data, int mode) {
  __shared__ int decision;
  if (mode > 1)
    __syncthreads();
  if (flags[blockIdx.x])
    __syncthreads();
  if (threadIdx.x == 0)
    decision = flags[blockIdx.x + 1];
  __syncthreads();
  // A shared variable read after the barrier: the same in every thread.
  if (decision)
    __syncthreads();
  // A __syncthreads_or result is the same in every thread by definition.
  if (__syncthreads_or(data[threadIdx.x] > 0.0f))
    __syncthreads();
}

// Persistent-block loop driven by a value the whole block agrees on.
__global__ void workQueue(int *next, float *data, int total) {
  __shared__ int item;
  while (true) {
    if (threadIdx.x == 0)
      item = atomicAdd(next, 1);
    __syncthreads();
    if (item >= total)
      break;
    data[item * blockDim.x + threadIdx.x] *= 2.0f;
    __syncthreads();
  }
}

// __syncwarp in warp-uniform branches: whole warps take them.
__global__ void warpStages(float *data) {
  int warp = threadIdx.x / 32;
  if (warp == 0) {
    data[threadIdx.x] += data[threadIdx.x + 32];
    __syncwarp();
  }
  if (threadIdx.x < 64)
    __syncwarp();
  // A partial mask is the programmer's statement of who arrives.
  if (threadIdx.x % 32 < 16)
    __syncwarp(0x0000ffff);
}

// A helper with a barrier, called by every thread, and with a block-uniform
// argument deciding the barrier inside it.
__device__ void stage(float *buf, int phase, int phases) {
  if (phase < phases)
    __syncthreads();
  buf[threadIdx.x] += 1.0f;
}

__global__ void stages(float *buf, int phases) {
  for (int p = 0; p < 4; ++p)
    stage(buf, p, phases);
  stage(buf, blockIdx.x, phases);
}

// Cooperative groups' block barrier under uniform control, and a tile
// barrier (a warp-level one) under a warp-uniform condition.
__global__ void groups(float *data) {
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(block);
  data[block.thread_rank()] = 1.0f;
  block.sync();
  if (tile.meta_group_rank() == 0)
    tile.sync();
  cg::sync(block);
}

// A template instantiated for two types; neither instantiation diverges.
template <typename T> __global__ void blockCopy(const T *in, T *out) {
  __shared__ T buf[128];
  buf[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = buf[127 - threadIdx.x];
}
template __global__ void blockCopy<float>(const float *, float *);
template __global__ void blockCopy<int>(const int *, int *);

// A template never instantiated is analysed as written: a template
// parameter is the same in every thread.
template <int N, typename T> __device__ void stage(T *s, T v) {
  if (N > 1) {
    s[threadIdx.x] = v;
    __syncthreads();
  }
}

// A lambda that synchronises, called by every thread.
__global__ void lambdaEveryone(float *data) {
  auto sync = [] { __syncthreads(); };
  data[threadIdx.x] = 0.0f;
  sync();
}

// A named barrier with a thread count is for part of the block by design.
__global__ void producerConsumer(float *data) {
  if (threadIdx.x < 64)
    asm volatile("bar.sync 1, 64;");
}
