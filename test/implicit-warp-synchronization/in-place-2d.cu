// An in-place pass over a 2-D shared tile by rows and then by columns, one
// thread per row and then per column, with no barrier between the passes
// (an 8x8 DCT on a three-dimensional block, as the SDK's dct8x8 lays it
// out): the thread that transforms a column reads elements that the
// threads of other rows wrote. The element a thread touches goes through
// pointers computed from threadIdx.y and .z, which the launch gives.
// RUN: %check_cuda_tidy --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

#define TILE_W 32
#define TILE_H 16
#define PITCH (TILE_W + 1)

// A four-point butterfly in place on v[0], v[step], v[2 * step], v[3 * step].
__device__ void butterfly4(float *v0, int step) {
  float *v1 = v0 + step;
  float *v2 = v1 + step;
  float *v3 = v2 + step;
  float a = *v0 + *v3, b = *v1 + *v2;
  // note@-1:28 {{and lane 0 reads it here with no barrier between}}
  // note@-2:34 {{and lane 0 reads it here with no barrier between}}
  float c = *v0 - *v3, d = *v1 - *v2;
  // note@-1:19 {{and lane 0 reads it here with no barrier between}}
  // note@-2:28 {{and lane 0 reads it here with no barrier between}}
  // note@-3:34 {{and lane 0 reads it here with no barrier between}}
  *v0 = a + b;
  *v1 = c + d;
  *v2 = a - b;
  *v3 = c - d;
}

// Blocks of (8, 4, 2): threadIdx.x is the row of an 8x8 tile in the row
// pass and the column in the column pass; the warp of threadIdx.z = 0 owns
// rows 0 to 7.
__global__ void rowsThenColumns(float *dst, const float *src, int stride) {
  __shared__ float tile[TILE_H * PITCH];
  int inRow = threadIdx.y * 8 + threadIdx.x;
  int inCol = threadIdx.z * 8;
  float *mine = tile + inCol * PITCH + inRow;
  for (int i = 0; i < 4; i++)
    mine[i * PITCH] = src[(inCol + i) * stride + inRow];
  __syncthreads();
  butterfly4(tile + (inCol + threadIdx.x) * PITCH + inRow - threadIdx.x, 1);
  butterfly4(mine, PITCH);
  __syncthreads();
  for (int i = 0; i < 4; i++)
    dst[(inCol + i) * stride + inRow] = mine[i * PITCH];
}

// Correct counterpart, as the SDK writes it: a barrier between the passes.
__global__ void rowsThenColumnsSynced(float *dst, const float *src,
                                      int stride) {
  __shared__ float tile[TILE_H * PITCH];
  int inRow = threadIdx.y * 8 + threadIdx.x;
  int inCol = threadIdx.z * 8;
  float *mine = tile + inCol * PITCH + inRow;
  for (int i = 0; i < 4; i++)
    mine[i * PITCH] = src[(inCol + i) * stride + inRow];
  __syncthreads();
  butterfly4(tile + (inCol + threadIdx.x) * PITCH + inRow - threadIdx.x, 1);
  __syncthreads();
  butterfly4(mine, PITCH);
  __syncthreads();
  for (int i = 0; i < 4; i++)
    dst[(inCol + i) * stride + inRow] = mine[i * PITCH];
}

// The same passes written in the kernel, through a pointer local.
__global__ void rowsThenColumnsInline(float *dst, const float *src,
                                      int stride) {
  __shared__ float tile[TILE_H * PITCH];
  int inRow = threadIdx.y * 8 + threadIdx.x;
  int inCol = threadIdx.z * 8;
  float *mine = tile + inCol * PITCH + inRow;
  float *row = tile + (inCol + threadIdx.x) * PITCH + inRow - threadIdx.x;
  for (int i = 0; i < 4; i++)
    mine[i * PITCH] = src[(inCol + i) * stride + inRow];
  __syncthreads();
  row[1] += row[0];
  mine[0] -= mine[PITCH];
  __syncthreads();
  for (int i = 0; i < 4; i++)
    dst[(inCol + i) * stride + inRow] = mine[i * PITCH];
}

// Correct counterpart: each thread's passes touch only its own column.
__global__ void columnsOnly(float *dst, const float *src, int stride) {
  __shared__ float tile[TILE_H * PITCH];
  int inRow = threadIdx.y * 8 + threadIdx.x;
  int inCol = threadIdx.z * 8;
  float *mine = tile + inCol * PITCH + inRow;
  for (int i = 0; i < 4; i++)
    mine[i * PITCH] = src[(inCol + i) * stride + inRow];
  butterfly4(mine, PITCH);
  butterfly4(mine, PITCH);
  for (int i = 0; i < 4; i++)
    dst[(inCol + i) * stride + inRow] = mine[i * PITCH];
}

void launch(float *d, const float *s) {
  dim3 threads(8, TILE_W / 8, TILE_H / 8);
  rowsThenColumns<<<16, threads>>>(d, s, 512);
  rowsThenColumnsSynced<<<16, threads>>>(d, s, 512);
  rowsThenColumnsInline<<<16, threads>>>(d, s, 512);
  columnsOnly<<<16, threads>>>(d, s, 512);
}

// Row pass against column pass, in both orders: each read of the helper
// exchanges with a write of the other call.
// warning@19:13 {{lanes of a warp exchange data through shared memory 'tile' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
// note@27:3 {{lane 0 writes the element here}}
// note@19:13 {{lane 1 reads it here, and no barrier orders the two}}
// note@44:3 {{the write is made in this call to 'butterfly4'}}
// note@43:3 {{the read is made in this call to 'butterfly4'}}
// note@19:13 {{independent thread scheduling}}
// note@26:3 {{the same exchange again: lane 3 writes the element here}}
// note@19:19 {{and lane 0 reads it here with no barrier between}}
// note@26:3 {{the same exchange again: lane 1 writes the element here}}
// note@26:3 {{the same exchange again: lane 2 writes the element here}}
// note@27:3 {{the same exchange again: lane 0 writes the element here}}
// note@22:13 {{and lane 1 reads it here with no barrier between}}
// note@26:3 {{the same exchange again: lane 3 writes the element here}}
// note@26:3 {{the same exchange again: lane 1 writes the element here}}
// note@26:3 {{the same exchange again: lane 2 writes the element here}}
// FIXED: {{^}}  butterfly4(tile + (inCol + threadIdx.x) * PITCH + inRow - threadIdx.x, 1);{{$}}
// FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
// FIXED-NEXT: {{^}}  butterfly4(mine, PITCH);{{$}}

// The inline passes: lane 0's row and lane 1's column share an element.
// warning@79:3 {{lanes of a warp exchange data through shared memory 'tile' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
// note@80:3 {{lane 1 writes the element here}}
// note@79:3 {{lane 0 reads it here, and no barrier orders the two}}
// note@79:3 {{independent thread scheduling}}
// note@79:3 {{the same exchange again: lane 0 writes the element here}}
// note@80:3 {{and lane 1 reads it here with no barrier between}}
// FIXED: {{^}}  row[1] += row[0];{{$}}
// FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
// FIXED-NEXT: {{^}}  mine[0] -= mine[PITCH];{{$}}
