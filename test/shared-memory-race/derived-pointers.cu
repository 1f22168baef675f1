// Elements reached through pointers a helper derives from its argument by
// constant steps (`float *v1 = v0 + step, *v2 = v1 + step, ...`), in the
// shape of the CUDA samples' in-place DCT (dct8x8_kernel2.cuh): a row pass
// and a column pass over a shared tile, each thread transforming one vector
// of eight elements in place. The chain is followed to its first pointer
// however long it is, so each thread's eight elements are known.
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race \
// RUN:   --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

#define TILE 32
#define STRIDE (TILE + 1)

// An in-place 8-point butterfly on v0, v0 + step, ..., v0 + 7 * step.
__device__ void butterfly8(float *v0, int step) {
  float *v1 = v0 + step;
  float *v2 = v1 + step;
  float *v3 = v2 + step;
  float *v4 = v3 + step;
  float *v5 = v4 + step;
  float *v6 = v5 + step;
  float *v7 = v6 + step;
  float s07 = *v0 + *v7, s16 = *v1 + *v6, s25 = *v2 + *v5, s34 = *v3 + *v4;
  float d07 = *v0 - *v7, d16 = *v1 - *v6, d25 = *v2 - *v5, d34 = *v3 - *v4;
  *v0 = s07 + s34;
  *v4 = s07 - s34;
  *v2 = s16 + s25;
  *v6 = s16 - s25;
  *v1 = d07 + d34;
  *v5 = d07 - d34;
  *v3 = d16 + d25;
  *v7 = d16 - d25;
}

// The samples' layout: blocks of 8 x 4 x 2 threads over a 16 x 32 tile;
// thread (x, y, z) transforms row 8z + x, columns 8y to 8y + 7, then column
// 8y + x, rows 8z to 8z + 7. Each warp (one z) keeps to its own eight rows,
// and the barriers order the passes. silent.
__global__ void samplesLayout(float *dst, const float *src, int stride) {
  __shared__ float block[16 * STRIDE];
  const int inRow = threadIdx.y * 8 + threadIdx.x;
  const int inCol = threadIdx.z * 8;
  src += (blockIdx.y * 16 + inCol) * stride + blockIdx.x * TILE + inRow;
  dst += (blockIdx.y * 16 + inCol) * stride + blockIdx.x * TILE + inRow;
  float *mine = block + inCol * STRIDE + inRow;
  for (unsigned i = 0; i < 8; i++)
    mine[i * STRIDE] = src[i * stride];
  __syncthreads();
  butterfly8(block + (inCol + threadIdx.x) * STRIDE + inRow - threadIdx.x, 1);
  __syncthreads();
  butterfly8(mine, STRIDE);
  __syncthreads();
  for (unsigned i = 0; i < 8; i++)
    dst[i * stride] = mine[i * STRIDE];
}

// A 32 x 32 tile by blocks of 32 x 4 threads: the row pass gives thread
// (x, y) row x, columns 8y to 8y + 7; the column pass column x, rows 8y to
// 8y + 7. Element (r, c) is the row pass's in warp c / 8 and the column
// pass's in warp r / 8: a barrier between the passes orders them. silent.
__global__ void rowsThenColumns(float *data, int stride) {
  __shared__ float tile[TILE * STRIDE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  float *src = data + blockIdx.y * TILE * stride + blockIdx.x * TILE;
  for (int i = 0; i < 8; ++i)
    tile[(ty * 8 + i) * STRIDE + tx] = src[(ty * 8 + i) * stride + tx];
  __syncthreads();
  butterfly8(tile + tx * STRIDE + ty * 8, 1);
  __syncthreads();
  butterfly8(tile + ty * 8 * STRIDE + tx, STRIDE);
  __syncthreads();
  for (int i = 0; i < 8; ++i)
    src[(ty * 8 + i) * stride + tx] = tile[(ty * 8 + i) * STRIDE + tx];
}

// The counterpart, as the old SDK's DCT had it: no barrier between the
// passes. The column pass of warp 1 overwrites row 8 while warp 0's row
// pass still reads it.
__global__ void rowsThenColumnsNoBarrier(float *data, int stride) {
  __shared__ float tile[TILE * STRIDE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  float *src = data + blockIdx.y * TILE * stride + blockIdx.x * TILE;
  for (int i = 0; i < 8; ++i)
    tile[(ty * 8 + i) * STRIDE + tx] = src[(ty * 8 + i) * stride + tx];
  __syncthreads();
  butterfly8(tile + tx * STRIDE + ty * 8, 1);
  butterfly8(tile + ty * 8 * STRIDE + tx, STRIDE);
  // One missing barrier, one warning: each element of the column pass that
  // another warp's row pass wrote is a race, the first three as notes.
  // warning@-3:3 {{threads of different warps race on shared memory 'tile' with no barrier between a write and a read}}
  // note@-5:3 {{the first access is made in this call to 'butterfly8'}}
  // note@-5:3 {{the second access is made in this call to 'butterfly8'}}
  // note@-6:3 {{and 316 more races that the same '__syncthreads()' orders}}
  // note@25:3 {{thread 32 writes 'tile[8]' here}}
  // note@23:15 {{thread 8, in another warp, reads it here in the same barrier interval}}
  // note@26:3 {{the same missing barrier: thread 32 writes 'tile[12]' here}}
  // note@23:15 {{and thread 12, in another warp, reads it here; the same '__syncthreads()' orders the two}}
  // note@27:3 {{the same missing barrier: thread 32 writes 'tile[10]' here}}
  // note@23:15 {{and thread 10, in another warp, reads it here; the same '__syncthreads()' orders the two}}
  // note@28:3 {{the same missing barrier: thread 32 writes 'tile[14]' here}}
  // note@23:15 {{and thread 14, in another warp, reads it here; the same '__syncthreads()' orders the two}}
  // FIXED: {{^}}  butterfly8(tile + tx * STRIDE + ty * 8, 1);{{$}}
  // FIXED-NEXT: {{^}}  __syncthreads();{{$}}
  // FIXED-NEXT: {{^}}  butterfly8(tile + ty * 8 * STRIDE + tx, STRIDE);{{$}}
  __syncthreads();
  for (int i = 0; i < 8; ++i)
    src[(ty * 8 + i) * stride + tx] = tile[(ty * 8 + i) * STRIDE + tx];
}

void launch(float *dst, float *src, int w, int h) {
  samplesLayout<<<dim3(w / TILE, h / 16), dim3(8, TILE / 8, 2)>>>(dst, src, w);
  rowsThenColumns<<<dim3(w / TILE, h / TILE), dim3(TILE, 4)>>>(dst, w);
  rowsThenColumnsNoBarrier<<<dim3(w / TILE, h / TILE), dim3(TILE, 4)>>>(dst, w);
}
