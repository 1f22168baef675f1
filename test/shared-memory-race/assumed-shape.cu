// Kernels that nothing in the translation unit launches, indexed by
// threadIdx.y as well as threadIdx.x: the block is taken to be the one
// two-dimensional shape their indexing fills (the widest x extent, then the
// tallest y extent, that keep every subscript within its dimension, where
// doubling either overruns one), and the warning says so. In the shapes of
// the CUDA samples' matrixMul (16 x 16) and of the transpose through a
// padded tile (32 x 8).
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race \
// RUN:   --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

#define BLOCK_SIZE 16
#define TILE_DIM 32
#define BLOCK_ROWS 8

// Both barriers: silent.
__global__ void matrixMul(float *C, const float *A, const float *B, int wA,
                          int wB) {
  __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int aBegin = wA * BLOCK_SIZE * by, aEnd = aBegin + wA - 1;
  int bBegin = BLOCK_SIZE * bx;
  float sum = 0;
  for (int a = aBegin, b = bBegin; a <= aEnd;
       a += BLOCK_SIZE, b += BLOCK_SIZE * wB) {
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    __syncthreads();
    for (int k = 0; k < BLOCK_SIZE; ++k)
      sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[wB * BLOCK_SIZE * by + BLOCK_SIZE * bx + wB * ty + tx] = sum;
}

// The first barrier missing: warp 0 (rows 0 and 1) reads Bs[2][0] before
// warp 1 has written it.
__global__ void matrixMulNoFirst(float *C, const float *A, const float *B,
                                 int wA, int wB) {
  __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int aBegin = wA * BLOCK_SIZE * by, aEnd = aBegin + wA - 1;
  int bBegin = BLOCK_SIZE * bx;
  float sum = 0;
  for (int a = aBegin, b = bBegin; a <= aEnd;
       a += BLOCK_SIZE, b += BLOCK_SIZE * wB) {
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    for (int k = 0; k < BLOCK_SIZE; ++k)
      sum += As[ty][k] * Bs[k][tx];
    // warning@-1:26 {{threads of different warps race on shared memory 'Bs' with no barrier between a write and a read}}
    // note@50:5 {{thread 0 writes 'Bs[0][0]' here}}
    // note@-3:26 {{thread 32, in another warp, reads it here in the same barrier interval}}
    // note@39:17 {{nothing in this translation unit launches 'matrixMulNoFirst': blocks of 16 x 16 threads are assumed, the shape its indexing fills}}
    // FIXED: {{^}}    Bs[ty][tx] = B[b + wB * ty + tx];{{$}}
    // FIXED-NEXT: {{^}}    __syncthreads();{{$}}
    // FIXED-NEXT: {{^}}    for (int k = 0; k < BLOCK_SIZE; ++k){{$}}
    __syncthreads();
  }
  C[wB * BLOCK_SIZE * by + BLOCK_SIZE * bx + wB * ty + tx] = sum;
}

// The second barrier missing: the next iteration's loads overwrite Bs
// while another warp still reads it.
__global__ void matrixMulNoSecond(float *C, const float *A, const float *B,
                                  int wA, int wB) {
  __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int aBegin = wA * BLOCK_SIZE * by, aEnd = aBegin + wA - 1;
  int bBegin = BLOCK_SIZE * bx;
  float sum = 0;
  for (int a = aBegin, b = bBegin; a <= aEnd;
       a += BLOCK_SIZE, b += BLOCK_SIZE * wB) {
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    // warning@-1:5 {{threads of different warps race on shared memory 'Bs' with no barrier between a read and a write}}
    // note@86:26 {{thread 32 reads 'Bs[0][0]' here}}
    // note@-3:5 {{thread 0, in another warp, writes it here in the same barrier interval}}
    // note@67:17 {{nothing in this translation unit launches 'matrixMulNoSecond': blocks of 16 x 16 threads are assumed, the shape its indexing fills}}
    // note@75:3 {{the next iteration of this loop reaches the second access before any barrier}}
    __syncthreads();
    for (int k = 0; k < BLOCK_SIZE; ++k)
      sum += As[ty][k] * Bs[k][tx];
    // FIXED: {{^}}      sum += As[ty][k] * Bs[k][tx];{{$}}
    // FIXED-NEXT: {{^}}    __syncthreads();{{$}}
    // FIXED-NEXT: {{^}}  }{{$}}
  }
  C[wB * BLOCK_SIZE * by + BLOCK_SIZE * bx + wB * ty + tx] = sum;
}

// The transpose through a padded tile, 32 x 8 threads each copying four
// rows: silent.
__global__ void transposeCoalesced(float *odata, const float *idata) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int width = gridDim.x * TILE_DIM;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

// The barrier missing: thread 1 reads tile[0][1], which thread 32 (row 1
// of the block, another warp) writes.
__global__ void transposeNoBarrier(float *odata, const float *idata) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int width = gridDim.x * TILE_DIM;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
  // warning@-1:34 {{threads of different warps race on shared memory 'tile' with no barrier between a write and a read}}
  // note@118:5 {{thread 32 writes 'tile[1][0]' here}}
  // note@-3:34 {{thread 1, in another warp, reads it here in the same barrier interval}}
  // note@112:17 {{nothing in this translation unit launches 'transposeNoBarrier': blocks of 32 x 8 threads are assumed, the shape its indexing fills}}
  // FIXED: {{^}}    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];{{$}}
  // FIXED-NEXT: {{^}}  __syncthreads();{{$}}
  // FIXED-NEXT: {{^}}  x = blockIdx.y * TILE_DIM + threadIdx.x;{{$}}
}

// An indexing that bounds no extent (a guard keeps every thread in the
// tile): no shape is assumed, and the pair is left alone. A known miss:
// launched with 16 x 16 threads this is a race (thread 32 reads t[0][2]
// before thread 2 writes it; racecheck on an H200: 100 hazard reports).
__global__ void guardedTile(float *out, const float *in, int w) {
  __shared__ float t[16][16];
  if (threadIdx.x < 16 && threadIdx.y < 16)
    t[threadIdx.y][threadIdx.x] = in[threadIdx.y * w + threadIdx.x];
  if (threadIdx.x < 16 && threadIdx.y < 16)
    out[threadIdx.y * w + threadIdx.x] = t[threadIdx.x][threadIdx.y];
}
