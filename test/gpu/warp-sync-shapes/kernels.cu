// GPU suite for cuda-implicit-warp-synchronization on the shapes of issue
// 10: a 2-D block of 32 x 8 where each row (one warp) scans itself, a 3-D
// block of (8, 4, 2) where one warp holds four rows, a warp scan whose index
// moves in straight lines (zero pad, then `idx += 32`), and a warp scan in
// place in global memory. run.sh fixes this file with the check and the
// harness runs the original and the fixed form.
#include <cuda_runtime.h>

__global__ void rowScan(float *io) {
  __shared__ float t[8][32];
  int x = threadIdx.x, y = threadIdx.y;
  int g = blockIdx.x * 256 + y * 32 + x;
  t[y][x] = io[g];
  if (x >= 1) t[y][x] += t[y][x - 1];
  if (x >= 2) t[y][x] += t[y][x - 2];
  if (x >= 4) t[y][x] += t[y][x - 4];
  if (x >= 8) t[y][x] += t[y][x - 8];
  if (x >= 16) t[y][x] += t[y][x - 16];
  io[g] = t[y][x];
}

__global__ void cubeScan(float *io) {
  __shared__ float c[2][4][8];
  int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
  int g = blockIdx.x * 64 + (z * 4 + y) * 8 + x;
  c[z][y][x] = io[g];
  if (x >= 1) c[z][y][x] += c[z][y][x - 1];
  if (x >= 2) c[z][y][x] += c[z][y][x - 2];
  if (x >= 4) c[z][y][x] += c[z][y][x - 4];
  io[g] = c[z][y][x];
}

__device__ unsigned scanWarp(unsigned v, volatile unsigned *s) {
  int idx = 2 * threadIdx.x - (threadIdx.x & 31);
  s[idx] = 0;
  idx += 32;
  s[idx] = v;
  s[idx] += s[idx - 1];
  s[idx] += s[idx - 2];
  s[idx] += s[idx - 4];
  s[idx] += s[idx - 8];
  s[idx] += s[idx - 16];
  return s[idx];
}

__global__ void movingIndexScan(unsigned *io) {
  __shared__ unsigned s[2 * 256];
  unsigned g = blockIdx.x * 256 + threadIdx.x;
  io[g] = scanWarp(io[g], s);
}

__global__ void globalWarpScan(int *g) {
  int lane = threadIdx.x & 31;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (lane >= 1) g[i] += g[i - 1];
  if (lane >= 2) g[i] += g[i - 2];
  if (lane >= 4) g[i] += g[i - 4];
  if (lane >= 8) g[i] += g[i - 8];
  if (lane >= 16) g[i] += g[i - 16];
}

void launchRowScan(float *io, int blocks) { rowScan<<<blocks, dim3(32, 8)>>>(io); }
void launchCubeScan(float *io, int blocks) { cubeScan<<<blocks, dim3(8, 4, 2)>>>(io); }
void launchMovingIndexScan(unsigned *io, int blocks) { movingIndexScan<<<blocks, 256>>>(io); }
void launchGlobalWarpScan(int *g, int blocks) { globalWarpScan<<<blocks, 256>>>(g); }
