// Waits that leave the group being read in flight: wait_prior(1) right
// after issuing the tile that is read, and a two-slot ring whose prefetch
// distance is two. The right count (or distance) is a design choice, so
// there is no fix-it; the silent counterparts are the correct rings.
// RUN: %check_cuda_tidy --checks=cuda-async-copy-ordering %s %t -- \
// RUN:   %cuda_args --cuda-gpu-arch=sm_80
#include <cuda_runtime.h>
#include <cuda_pipeline.h>

constexpr int Tile = 256;

// wait_prior(1) right after issuing the tile that is then read leaves
// exactly that group in flight.
__global__ void wrongGroup(const float *in, float *out, int tiles) {
  __shared__ float tile[Tile];
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0; k < tiles; ++k) {
    __pipeline_memcpy_async(&tile[t], &in[k * Tile + t], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    sum += tile[(t + k) % Tile];
    // warning@-1:12 {{'tile' is read while the group of its asynchronous copy may still be in flight}}
    // note@-6:5 {{the asynchronous copy into 'tile' is issued here}}
    // note@-5:5 {{this wait leaves the most recent groups in flight, the copy's among them}}
    // note@-5:5 {{'__syncthreads' orders the threads, not the copy}}
    __syncthreads();
  }
  out[blockIdx.x * Tile + t] = sum;
}

// Silent: a two-stage ring, the next tile prefetched into the other slot
// while the current one is read; wait_prior(1) leaves only the prefetch in
// flight.
__global__ void doubleBuffered(const float *in, float *out, int tiles) {
  __shared__ float ring[2][Tile];
  const int t = threadIdx.x;
  float sum = 0.f;
  __pipeline_memcpy_async(&ring[0][t], &in[t], sizeof(float));
  __pipeline_commit();
  for (int k = 0; k < tiles; ++k) {
    if (k + 1 < tiles)
      __pipeline_memcpy_async(&ring[(k + 1) % 2][t], &in[(k + 1) * Tile + t],
                              sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    sum += ring[k % 2][(t + k) % Tile];
    __syncthreads();
  }
  out[blockIdx.x * Tile + t] = sum;
}

// A two-slot ring whose prefetch distance is two: the copy issued in this
// iteration lands in the slot being read.
__global__ void ringTooFar(const float *in, float *out, int tiles) {
  __shared__ float ring[2][Tile];
  const int t = threadIdx.x;
  float sum = 0.f;
  __pipeline_memcpy_async(&ring[0][t], &in[t], sizeof(float));
  __pipeline_commit();
  __pipeline_memcpy_async(&ring[1][t], &in[Tile + t], sizeof(float));
  __pipeline_commit();
  for (int k = 0; k < tiles; ++k) {
    if (k + 2 < tiles)
      __pipeline_memcpy_async(&ring[(k + 2) % 2][t], &in[(k + 2) * Tile + t],
                              sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    sum += ring[k % 2][(t + k) % Tile];
    // warning@-1:12 {{'ring' is read while the group of its asynchronous copy may still be in flight}}
    // note@-7:7 {{the asynchronous copy into 'ring' is issued here}}
    // note@-5:5 {{this wait leaves the most recent groups in flight, the copy's among them}}
    // note@-5:5 {{'__syncthreads' orders the threads, not the copy}}
    __syncthreads();
  }
  out[blockIdx.x * Tile + t] = sum;
}
