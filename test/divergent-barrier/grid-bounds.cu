// A loop from each thread's start to `min(n, start + C)`, where the host
// launches `n / G` blocks with `n` itself passed (HeCBench hexciton's final
// kernel): `blockIdx.x * G + G <= n` in every block, so with the block's
// rows known from the launch `start + C` never exceeds `n`, the minimum is
// `start + C`, and every thread runs the loop C / 2 times: its barriers are
// reached by all. Launched with the grid rounded up instead, the last
// block's second row may stop early.
// RUN: %check_cuda_tidy --checks=cuda-divergent-barrier %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

#define MIN(X, Y) ((X) < (Y) ? (X) : (Y))
#define ROWS 2
#define CHUNK 16

// Silent: launched with num / (ROWS * CHUNK) blocks of ROWS rows (of a
// width the host computes at run time).
__global__ void chunksFull(float *data, const int num) {
  __shared__ float s[ROWS][64];
  int ij = threadIdx.x;
  int row = threadIdx.y;
  int start = blockIdx.x * ROWS * CHUNK + row * CHUNK;
  int stop = MIN(num, start + CHUNK);
  for (int m = start; m < stop; m += 2) {
    __syncthreads();
    if (ij < 49)
      s[row][ij] = data[m * 49 + ij];
    __syncthreads();
    if (ij < 49)
      data[m * 49 + ij] = s[row][48 - ij];
  }
}

// Counterpart: the same kernel launched with the grid rounded up; in the
// last block `start + CHUNK` may pass `num`.
__global__ void chunksRounded(float *data, const int num) {
  __shared__ float s[ROWS][64];
  int ij = threadIdx.x;
  int row = threadIdx.y;
  int start = blockIdx.x * ROWS * CHUNK + row * CHUNK;
  int stop = MIN(num, start + CHUNK);
  for (int m = start; m < stop; m += 2) {
    __syncthreads();
    // warning@-1:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another}}
    // note@-3:3 {{the loop's trip count depends on 'm', which differs between threads}}
    // note@-4:8 {{'m' is set from 'start' here}}
    // note@-7:3 {{'start' is set from 'row' here}}
    // note@-9:3 {{'row' is set from 'threadIdx.y' here}}
    if (ij < 49)
      s[row][ij] = data[m * 49 + ij];
    __syncthreads();
    // note@-1:5 {{'__syncthreads' here is in the same loop}}
    if (ij < 49)
      data[m * 49 + ij] = s[row][48 - ij];
  }
}

// Counterpart: the chunk's end passes the block's share (three chunks of
// 16 in a share of 32), so the minimum cuts the last row short.
__global__ void chunksOverlap(float *data, const int num) {
  __shared__ float s[ROWS][64];
  int ij = threadIdx.x;
  int row = threadIdx.y;
  int start = blockIdx.x * ROWS * CHUNK + row * CHUNK;
  int stop = MIN(num, start + 2 * CHUNK);
  for (int m = start; m < stop; m += 2) {
    __syncthreads();
    // warning@-1:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another}}
    // note@-3:3 {{the loop's trip count depends on 'm', which differs between threads}}
    // note@-4:8 {{'m' is set from 'start' here}}
    // note@-7:3 {{'start' is set from 'row' here}}
    // note@-9:3 {{'row' is set from 'threadIdx.y' here}}
    if (ij < 49)
      s[row][ij] = data[m * 49 + ij];
  }
}

// The block's x extent is a runtime value (rounded up to warps, as
// hexciton's host code does); its rows are known.
void run(float *d, int num, int dim) {
  size_t rows = ROWS;
  size_t width = (dim * dim + 31) / 32 * 32;
  dim3 grid(num / (rows * CHUNK), 1);
  dim3 block(width, rows);
  chunksFull<<<grid, block>>>(d, num);
  chunksRounded<<<(num + ROWS * CHUNK - 1) / (ROWS * CHUNK), block>>>(d, num);
  chunksOverlap<<<grid, block>>>(d, num);
}
