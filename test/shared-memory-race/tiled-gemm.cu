// A tiled matrix multiply in the shape of the CUDA samples' matrixMul: each
// iteration loads a tile of A and of B, and every thread reads a row of As
// and a column of Bs. With blocks of 16x16 threads, a column of Bs spans
// all eight warps. The first barrier orders the loads before the reads; the
// second orders the reads before the next iteration's loads.
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race,cuda-divergent-barrier \
// RUN:   --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

#define TILE 16

// The first barrier missing: a warp reads Bs before another warp has
// written it (As is read along the thread's own row: one warp).
__global__ void missingFirst(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0;
  for (int k = 0; k < n / TILE; ++k) {
    As[ty][tx] = A[row * n + k * TILE + tx];
    Bs[ty][tx] = B[(k * TILE + ty) * n + col];
    for (int i = 0; i < TILE; ++i)
      sum += As[ty][i] * Bs[i][tx];
    // warning@-1:26 {{threads of different warps race on shared memory 'Bs' with no barrier between a write and a read}}
    // note@-4:5 {{thread 0 writes 'Bs[0][0]' here}}
    // note@-3:26 {{thread 32, in another warp, reads it here in the same barrier interval}}
    __syncthreads();
  }
  C[row * n + col] = sum;
}
// FIXED: {{^}}    Bs[ty][tx] = B[(k * TILE + ty) * n + col];{{$}}
// FIXED-NEXT: {{^}}    __syncthreads();{{$}}
// FIXED-NEXT: {{^}}    for (int i = 0; i < TILE; ++i){{$}}

// The second barrier missing: the next iteration's loads overwrite Bs
// while another warp still reads it.
__global__ void missingSecond(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0;
  for (int k = 0; k < n / TILE; ++k) {
    As[ty][tx] = A[row * n + k * TILE + tx];
    Bs[ty][tx] = B[(k * TILE + ty) * n + col];
    // warning@-1:5 {{threads of different warps race on shared memory 'Bs' with no barrier between a read and a write}}
    // note@+5:26 {{thread 32 reads 'Bs[0][0]' here}}
    // note@-3:5 {{thread 0, in another warp, writes it here in the same barrier interval}}
    // note@-6:3 {{the next iteration of this loop reaches the second access before any barrier}}
    __syncthreads();
    for (int i = 0; i < TILE; ++i)
      sum += As[ty][i] * Bs[i][tx];
  }
  C[row * n + col] = sum;
}
// FIXED: {{^}}__global__ void missingSecond(
// FIXED: {{^}}      sum += As[ty][i] * Bs[i][tx];{{$}}
// FIXED-NEXT: {{^}}    __syncthreads();{{$}}
// FIXED-NEXT: {{^}}  }{{$}}

// Both barriers: silent.
__global__ void bothBarriers(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0;
  for (int k = 0; k < n / TILE; ++k) {
    As[ty][tx] = A[row * n + k * TILE + tx];
    Bs[ty][tx] = B[(k * TILE + ty) * n + col];
    __syncthreads();
    for (int i = 0; i < TILE; ++i)
      sum += As[ty][i] * Bs[i][tx];
    __syncthreads();
  }
  C[row * n + col] = sum;
}

void gemm(const float *A, const float *B, float *C, int n) {
  dim3 block(TILE, TILE), grid(n / TILE, n / TILE);
  missingFirst<<<grid, block>>>(A, B, C, n);
  missingSecond<<<grid, block>>>(A, B, C, n);
  bothBarriers<<<grid, block>>>(A, B, C, n);
}
