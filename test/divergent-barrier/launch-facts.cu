// A kernel is analysed for its launches in the translation unit (when every
// launch's block is known) and its __launch_bounds__: a loop that strides
// by the block's size over a tile whose size the block's size divides runs
// as many times in every thread; an index divided by the block's size has
// no thread part left; 'threadIdx.y' is 0 in blocks of one row. Each
// silent kernel has a counterpart beside it, launched otherwise, that must
// still warn.
// RUN: %check_cuda_tidy --checks=cuda-divergent-barrier %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

#define TILE 1024
#define DEPTH 8

// Write a sorted tile back: each of the 128 threads copies every 128th
// element, and the tile's size comes in as an argument.
template <class T, int depth>
__global__ void storeTile(T *keys, const T *tile, int tileSize, int total) {
  __shared__ T staged[TILE];
  int tid = threadIdx.x;
  for (int i = tid; i < tileSize; i += TILE / depth) {
    if (blockIdx.x * tileSize + i < total)
      keys[blockIdx.x * tileSize + i] = staged[i];
    __syncthreads();
    staged[i] = tile[i];
  }
}

// Counterpart: the same loop, launched with a tile of 1000 elements (the
// last 24 threads run one time fewer).
template <class T, int depth>
__global__ void storeShortTile(T *keys, const T *tile, int tileSize,
                               int total) {
  __shared__ T staged[TILE];
  int tid = threadIdx.x;
  for (int i = tid; i < tileSize; i += TILE / depth) {
    if (blockIdx.x * tileSize + i < total)
      keys[blockIdx.x * tileSize + i] = staged[i];
    __syncthreads();
    // warning@-1:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
    // note@-5:3 {{the loop's trip count depends on 'i', which differs between threads}}
    // note@-6:8 {{'i' is set from 'tid' here}}
    // note@-8:3 {{'tid' is set from 'threadIdx.x' here}}
    staged[i] = tile[i];
  }
}

// Counterpart: launched with blocks of 256 threads, twice the stride.
template <class T, int depth>
__global__ void storeWideTile(T *keys, const T *tile, int tileSize,
                              int total) {
  __shared__ T staged[TILE];
  int tid = threadIdx.x;
  for (int i = tid; i < tileSize; i += TILE / depth) {
    if (blockIdx.x * tileSize + i < total)
      keys[blockIdx.x * tileSize + i] = staged[i];
    __syncthreads();
    // warning@-1:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
    // note@-5:3 {{the loop's trip count depends on 'i', which differs between threads}}
    // note@-6:8 {{'i' is set from 'tid' here}}
    // note@-8:3 {{'tid' is set from 'threadIdx.x' here}}
    staged[i] = tile[i];
  }
}

// No launch here: __launch_bounds__(128) bounds the block.
__global__ __launch_bounds__(128) void clearTile(float *out) {
  __shared__ float staged[TILE];
  for (int i = threadIdx.x; i < TILE; i += 128) {
    staged[i] = 0.0f;
    __syncthreads();
    out[blockIdx.x * TILE + i] = staged[TILE - 1 - i];
  }
}

// Counterpart: no bound and no launch; blocks of 256 threads would split.
__global__ void clearTileAnyBlock(float *out) {
  __shared__ float staged[TILE];
  for (int i = threadIdx.x; i < TILE; i += 128) {
    staged[i] = 0.0f;
    __syncthreads();
    // warning@-1:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
    // note@-4:3 {{the loop's trip count depends on 'i', which differs between warps}}
    // note@-5:8 {{'i' is set from 'threadIdx.x' here}}
    out[blockIdx.x * TILE + i] = staged[TILE - 1 - i];
  }
}

// A block's tile index from the global thread index: in blocks of 128
// threads 'gid / 128' is 'blockIdx.x'.
__global__ void tilesByIndex(float *out, int tiles) {
  __shared__ float staged[128];
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int t = gid / 128; t < tiles; t += gridDim.x) {
    staged[threadIdx.x] = out[t * 128 + threadIdx.x];
    __syncthreads();
    out[t * 128 + threadIdx.x] = staged[127 - threadIdx.x];
    __syncthreads();
  }
}

// Counterpart: launched with blocks of 256, two tiles per block.
__global__ void tilesByIndexWide(float *out, int tiles) {
  __shared__ float staged[256];
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int t = gid / 128; t < tiles; t += gridDim.x) {
    staged[threadIdx.x] = out[t * 128 + threadIdx.x % 128];
    __syncthreads();
    // warning@-1:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
    // note@-4:3 {{the loop's trip count depends on 't', which differs between warps}}
    // note@-5:8 {{'t' is set from 'gid' here}}
    // note@-7:3 {{'gid' is set from 'threadIdx.x' here}}
    out[t * 128 + threadIdx.x % 128] = staged[255 - threadIdx.x];
    __syncthreads();
    // note@-1:5 {{'__syncthreads' here is in the same loop}}
  }
}

// Blocks of one row: every thread has 'threadIdx.y == 0'.
__global__ void firstRow(float *out) {
  __shared__ float staged[128];
  if (threadIdx.y == 0) {
    staged[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = staged[127 - threadIdx.x];
  }
}

// Counterpart: blocks of four rows.
__global__ void firstRowOfFour(float *out) {
  __shared__ float staged[32];
  if (threadIdx.y == 0) {
    staged[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    // warning@-1:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
    // note@-4:7 {{the condition depends on 'threadIdx.y', which differs between warps}}
    out[threadIdx.x] = staged[31 - threadIdx.x];
  }
}

void launchAll(unsigned *keys, const unsigned *tile, float *out, int n,
               int total) {
  storeTile<unsigned, DEPTH><<<n, TILE / DEPTH>>>(keys, tile, TILE, total);
  storeShortTile<unsigned, DEPTH><<<n, TILE / DEPTH>>>(keys, tile, 1000,
                                                      total);
  storeWideTile<unsigned, DEPTH><<<n, 256>>>(keys, tile, TILE, total);
  tilesByIndex<<<n, 128>>>(out, n);
  tilesByIndexWide<<<n, 256>>>(out, n);
  firstRow<<<n, 128>>>(out);
  firstRowOfFour<<<n, dim3(32, 4)>>>(out);
}
