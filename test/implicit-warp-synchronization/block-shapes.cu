// Two- and three-dimensional blocks. The block shape comes from the launches
// in the translation unit (`dim3(32, 8)`, a cudaLaunchKernelEx
// configuration), else from the module-wide option cuda.BlockDim; with it,
// threadIdx.y and .z are evaluated and the linear thread index decides the
// warp. A kernel whose shape is unknown keeps the one-dimensional model:
// silent where its indices read threadIdx.y.
// RUN: %check_cuda_tidy --checks=cuda-implicit-warp-synchronization --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// RUN: %check_cuda_tidy --checks=cuda-implicit-warp-synchronization --expect-prefix=OPT \
// RUN:   --config="{CheckOptions: {cuda.BlockDim: '16,16'}}" %s %t.opt -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// Each row of 32 threads is one warp; the rows scan independently.
__global__ void __launch_bounds__(256) rowScan(float *io) {
  __shared__ float t[8][32];
  int x = threadIdx.x, y = threadIdx.y;
  t[y][x] = io[y * 32 + x];
  if (x >= 1) t[y][x] += t[y][x - 1];
  // warning@-1:26 {{lanes of a warp exchange data through shared memory 't'}}
  // note@-3:3 {{lane 0 writes the element here}}
  // note@-3:26 {{lane 1 reads it here}}
  // note@-4:26 {{independent thread scheduling}}
  // OPT-warning@-5:26 {{lanes of a warp exchange data through shared memory 't'}}
  // OPT-note@-7:3 {{lane 0 writes the element here}}
  // OPT-note@-7:26 {{lane 1 reads it here}}
  // OPT-note@-8:26 {{independent thread scheduling}}
  // FIXED: {{^}}  __syncwarp(0xffffffff);{{$}}
  // FIXED-NEXT: {{^}}  if (x >= 1) { float v = t[y][x] + t[y][x - 1]; __syncwarp(0xfffffffe); t[y][x] = v; __syncwarp(0xfffffffe); }{{$}}
  if (x >= 2) t[y][x] += t[y][x - 2];
  // note@-13:3 {{the same exchange again: lane 0 writes the element here}}
  // note@-2:26 {{and lane 2 reads it here with no barrier between}}
  // OPT-note@-15:3 {{the same exchange again: lane 0 writes the element here}}
  // OPT-note@-4:26 {{and lane 2 reads it here with no barrier between}}
  // FIXED: {{^}}  if (x >= 2) { float v = t[y][x] + t[y][x - 2]; __syncwarp(0xfffffffc); t[y][x] = v; __syncwarp(0xfffffffc); }{{$}}
  io[y * 32 + x] = t[y][x];
}
void launchRowScan(float *io) { rowScan<<<1, dim3(32, 8)>>>(io); }

// An exact shape (8, 4, 2): one warp holds four rows of eight; the lanes
// with x > 0 read their left neighbour.
__global__ void cubeShift(const float *in, float *out) {
  __shared__ float c[2][4][8];
  int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
  c[z][y][x] = in[(z * 4 + y) * 8 + x];
  if (x > 0) c[z][y][x] += c[z][y][x - 1];
  // warning@-1:28 {{lanes of a warp exchange data through shared memory 'c'}}
  // note@-3:3 {{lane 0 writes the element here}}
  // note@-3:28 {{lane 1 reads it here}}
  // note@-4:28 {{independent thread scheduling}}
  // OPT-warning@-5:28 {{lanes of a warp exchange data through shared memory 'c'}}
  // OPT-note@-7:3 {{lane 0 writes the element here}}
  // OPT-note@-7:28 {{lane 1 reads it here}}
  // OPT-note@-8:28 {{independent thread scheduling}}
  // FIXED: {{^}}  __syncwarp(0xffffffff);{{$}}
  // FIXED-NEXT: {{^}}  if (x > 0) { float v = c[z][y][x] + c[z][y][x - 1]; __syncwarp(0xfefefefe); c[z][y][x] = v; __syncwarp(0xfefefefe); }{{$}}
  out[(z * 4 + y) * 8 + x] = c[z][y][x];
}
void launchCube(const float *in, float *out) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(1);
  config.blockDim = dim3(8, 4, 2);
  cudaLaunchKernelEx(&config, cubeShift, in, out);
}

// Correct: the exchange is ordered by __syncwarp (a transpose within a warp
// of a 32 x 8 block).
__global__ void rowShiftSynced(float *io) {
  __shared__ float t[8][32];
  int x = threadIdx.x, y = threadIdx.y;
  t[y][x] = io[y * 32 + x];
  __syncwarp();
  float left = x > 0 ? t[y][x - 1] : 0.f;
  io[y * 32 + x] = left;
}
void launchSynced(float *io) { rowShiftSynced<<<4, dim3(32, 8)>>>(io); }

// Correct: rows of 32 exchange only within a row, but each warp reads the
// row it wrote after a block barrier.
__global__ void columnsAfterBarrier(float *io) {
  __shared__ float t[8][33];
  int x = threadIdx.x, y = threadIdx.y;
  t[y][x] = io[y * 32 + x];
  __syncthreads();
  io[y * 32 + x] = t[x % 8][y];
}
void launchColumns(float *io) { columnsAfterBarrier<<<1, dim3(32, 8)>>>(io); }

// No launch in this file: the shape is unknown, the one-dimensional model
// cannot evaluate threadIdx.y and stays silent; with cuda.BlockDim '16,16'
// (two rows of 16 per warp) the exchange between rows is found.
__global__ void columnExchange(float *io) {
  __shared__ float t[16][16];
  int x = threadIdx.x, y = threadIdx.y;
  t[y][x] = io[y * 16 + x];
  if (y % 2 == 1) io[y * 16 + x] = t[y - 1][x];
  // OPT-warning@-1:36 {{lanes of a warp exchange data through shared memory 't'}}
  // OPT-note@-3:3 {{lane 0 writes the element here}}
  // OPT-note@-3:36 {{lane 16 reads it here}}
  // OPT-note@-4:36 {{independent thread scheduling}}
}
