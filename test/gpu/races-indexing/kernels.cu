// Kernels of the GPU proof of cuda-shared-memory-race's indexing (issue 37
// items 6 and 7), copied from the lit tests named below: pointers derived by
// steps, tables of constants, a loaded row with the thread's own column, and
// kernels nothing in this file launches whose block shape the check assumes
// from their indexing (the harness launches those). Each racy kernel has a
// correct twin.
#include <cuda_runtime.h>

// ---- from test/shared-memory-race/derived-pointers.cu
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
  __syncthreads();
  for (int i = 0; i < 8; ++i)
    src[(ty * 8 + i) * stride + tx] = tile[(ty * 8 + i) * STRIDE + tx];
}


// ---- from test/shared-memory-race/constant-tables.cu
#define THREADS 256

// Each thread writes four elements and reads the same four back through
// the table: its own elements, no barrier needed. silent.
__global__ void ownElements(const float *in, float *out) {
  __shared__ float s[4 * THREADS];
  int stride[4] = {0, THREADS, 2 * THREADS, 3 * THREADS};
  const int t = threadIdx.x;
  for (int k = 0; k < 4; ++k)
    s[k * THREADS + t] = in[blockIdx.x * 4 * THREADS + k * THREADS + t];
  float sum = 0;
  for (int k = 0; k < 4; ++k)
    sum += s[stride[k] + t];
  out[blockIdx.x * THREADS + t] = sum;
}

// A const table of offsets, the rows in reverse, each with the thread's own
// index: its own elements again. silent.
__global__ void constOffsets(const float *in, float *out) {
  __shared__ float s[4 * THREADS];
  const int offset[4] = {3 * THREADS, 2 * THREADS, THREADS, 0};
  const int t = threadIdx.x;
  for (int k = 0; k < 4; ++k)
    s[k * THREADS + t] = in[blockIdx.x * 4 * THREADS + k * THREADS + t];
  float best = s[offset[0] + t];
  for (int k = 1; k < 4; ++k)
    best = best < s[offset[k] + t] ? s[offset[k] + t] : best;
  out[blockIdx.x * THREADS + t] = best;
}

// The counterpart: the reads mirror the writes, thread t reads what
// thread 255 - t (another warp) wrote, with no barrier between.
__global__ void mirrored(const float *in, float *out) {
  __shared__ float s[4 * THREADS];
  int stride[4] = {0, THREADS, 2 * THREADS, 3 * THREADS};
  const int t = threadIdx.x;
  for (int k = 0; k < 4; ++k)
    s[stride[k] + t] = in[blockIdx.x * 4 * THREADS + stride[k] + t];
  float sum = 0;
  for (int k = 0; k < 4; ++k)
    sum += s[stride[k] + THREADS - 1 - t];
  out[blockIdx.x * THREADS + t] = sum;
}

// A table the kernel writes is not constant: the element it names is a
// loaded value (some input makes it another warp's), so the pair is kept.
__global__ void writtenTable(const float *in, const int *perm, float *out) {
  __shared__ float s[4 * THREADS];
  int stride[4] = {0, THREADS, 2 * THREADS, 3 * THREADS};
  const int t = threadIdx.x;
  stride[1] = perm[blockIdx.x];
  for (int k = 0; k < 4; ++k)
    s[k * THREADS + t] = in[blockIdx.x * 4 * THREADS + k * THREADS + t];
  float sum = 0;
  for (int k = 0; k < 4; ++k)
    sum += s[stride[k] + t];
  out[blockIdx.x * THREADS + t] = sum;
}


// ---- from test/shared-memory-race/own-column.cu
#undef THREADS
#define THREADS 128
#define BINS 16

// Each thread zeroes its column, counts into it, and the barrier orders the
// counts before the merge: silent.
__global__ void columnHistogram(const unsigned char *data, int n,
                                unsigned *out) {
  __shared__ unsigned cnt[BINS][THREADS];
  const int t = threadIdx.x;
  for (int b = 0; b < BINS; ++b)
    cnt[b][t] = 0;
  for (int i = blockIdx.x * THREADS + t; i < n; i += gridDim.x * THREADS)
    cnt[data[i] & (BINS - 1)][t] += 1;
  __syncthreads();
  if (t < BINS) {
    unsigned sum = 0;
    for (int c = 0; c < THREADS; ++c)
      sum += cnt[t][c];
    atomicAdd(&out[t], sum);
  }
}

// The counterpart: the first sixteen threads zero a row each, and the
// counts start with no barrier after: thread 32 counts into column 32 of a
// row that thread 0 to 15 (another warp) may not have zeroed yet.
__global__ void rowZeroed(const unsigned char *data, int n, unsigned *out) {
  __shared__ unsigned cnt[BINS][THREADS];
  const int t = threadIdx.x;
  if (t < BINS)
    for (int c = 0; c < THREADS; ++c)
      cnt[t][c] = 0;
  for (int i = blockIdx.x * THREADS + t; i < n; i += gridDim.x * THREADS)
    cnt[data[i] & (BINS - 1)][t] += 1;
  __syncthreads();
  if (t < BINS) {
    unsigned sum = 0;
    for (int c = 0; c < THREADS; ++c)
      sum += cnt[t][c];
    atomicAdd(&out[t], sum);
  }
}


// ---- from test/shared-memory-race/assumed-shape.cu
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
    __syncthreads();
    for (int k = 0; k < BLOCK_SIZE; ++k)
      sum += As[ty][k] * Bs[k][tx];
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
}

// An indexing that bounds no extent (a guard keeps every thread in the
// tile): no shape is assumed, and the pair is left alone.
__global__ void guardedTile(float *out, const float *in, int w) {
  __shared__ float t[16][16];
  if (threadIdx.x < 16 && threadIdx.y < 16)
    t[threadIdx.y][threadIdx.x] = in[threadIdx.y * w + threadIdx.x];
  if (threadIdx.x < 16 && threadIdx.y < 16)
    out[threadIdx.y * w + threadIdx.x] = t[threadIdx.x][threadIdx.y];
}

// The launches this file shows the check (the shapes of the derived-pointer,
// table and column kernels); the assumed-shape kernels are launched only by
// the harness.
void launchDerived(int Which, float *Data, float *Dst, int W, int H) {
  if (Which == 0)
    samplesLayout<<<dim3(W / TILE, H / 16), dim3(8, TILE / 8, 2)>>>(Dst, Data, W);
  else if (Which == 1)
    rowsThenColumns<<<dim3(W / TILE, H / TILE), dim3(TILE, 4)>>>(Data, W);
  else
    rowsThenColumnsNoBarrier<<<dim3(W / TILE, H / TILE), dim3(TILE, 4)>>>(Data, W);
}

void launchTables(int Which, const float *In, const int *Perm, float *Out,
                  int Blocks) {
  if (Which == 0)
    ownElements<<<Blocks, 256>>>(In, Out);
  else if (Which == 1)
    constOffsets<<<Blocks, 256>>>(In, Out);
  else if (Which == 2)
    mirrored<<<Blocks, 256>>>(In, Out);
  else
    writtenTable<<<Blocks, 256>>>(In, Perm, Out);
}

void launchColumns(int Which, const unsigned char *Data, int N,
                   unsigned *Out) {
  if (Which == 0)
    columnHistogram<<<4, THREADS>>>(Data, N, Out);
  else
    rowZeroed<<<4, THREADS>>>(Data, N, Out);
}
