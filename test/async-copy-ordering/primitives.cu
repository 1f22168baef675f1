// Copies issued with the __pipeline_* primitives (CUDA samples'
// globalToShmemAsyncCopy shape): data read after a block barrier but before
// the copy's wait, the wait for the wrong group, and the fixed forms.
// RUN: %check_cuda_tidy --checks=cuda-async-copy-ordering --fix --recheck \
// RUN:   %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_80
#include <cuda_runtime.h>
#include <cuda_pipeline.h>

constexpr int Tile = 256;

// The barrier orders the threads, not the copy engine: the tile is stale.
__global__ void noWait(const float *in, float *out) {
  __shared__ float tile[Tile];
  const int t = threadIdx.x;
  __pipeline_memcpy_async(&tile[t], &in[blockIdx.x * Tile + t], sizeof(float));
  __pipeline_commit();
  __syncthreads();
  out[blockIdx.x * Tile + t] = tile[(t + 1) % Tile];
  // warning@-1:32 {{'tile' is read before the asynchronous copy into it completes}}
  // note@-5:3 {{the asynchronous copy into 'tile' is issued here}}
  // note@-4:3 {{'__syncthreads' orders the threads, not the copy}}
}
// FIXED-LABEL: void noWait(
// FIXED: __pipeline_commit();
// FIXED-NEXT: __pipeline_wait_prior(0);
// FIXED-NEXT: __syncthreads();

// Never committed: the wait alone would not cover it, so the fix commits.
__global__ void neverCommitted(const float *in, float *out) {
  __shared__ float tile[Tile];
  const int t = threadIdx.x;
  __pipeline_memcpy_async(&tile[t], &in[blockIdx.x * Tile + t], sizeof(float));
  __syncthreads();
  out[blockIdx.x * Tile + t] = tile[Tile - 1 - t];
  // warning@-1:32 {{'tile' is read before the asynchronous copy into it completes}}
  // note@-4:3 {{the asynchronous copy into 'tile' is issued here}}
  // note@-4:3 {{'__syncthreads' orders the threads, not the copy}}
}
// FIXED-LABEL: void neverCommitted(
// FIXED: __pipeline_memcpy_async(&tile[t], &in[blockIdx.x * Tile + t], sizeof(float));
// FIXED-NEXT: __pipeline_commit();
// FIXED-NEXT: __pipeline_wait_prior(0);
// FIXED-NEXT: __syncthreads();

// Silent: the fixed form (wait, then the barrier, then the read).
__global__ void waited(const float *in, float *out) {
  __shared__ float tile[Tile];
  const int t = threadIdx.x;
  __pipeline_memcpy_async(&tile[t], &in[blockIdx.x * Tile + t], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[blockIdx.x * Tile + t] = tile[(t + 1) % Tile];
}

// Silent: a thread reads only the element it copied, after its own wait;
// no barrier is needed.
__global__ void ownElement(const float *in, float *out) {
  __shared__ float tile[Tile];
  const int t = threadIdx.x;
  __pipeline_memcpy_async(&tile[t], &in[blockIdx.x * Tile + t], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[blockIdx.x * Tile + t] = 2.f * tile[t];
}

// Reading its own element without the wait is still too early.
__global__ void ownElementNoWait(const float *in, float *out) {
  __shared__ float tile[Tile];
  const int t = threadIdx.x;
  __pipeline_memcpy_async(&tile[t], &in[blockIdx.x * Tile + t], sizeof(float));
  __pipeline_commit();
  out[blockIdx.x * Tile + t] = 2.f * tile[t];
  // warning@-1:38 {{'tile' is read before the asynchronous copy into it completes}}
  // note@-4:3 {{the asynchronous copy into 'tile' is issued here}}
}
// FIXED-LABEL: void ownElementNoWait(
// FIXED: __pipeline_commit();
// FIXED-NEXT: __pipeline_wait_prior(0);
// FIXED-NEXT: out[blockIdx.x * Tile + t] = 2.f * tile[t];

// A plain write into the destination while the copy is in flight.
__global__ void overwritten(const float *in, float *out) {
  __shared__ float tile[Tile];
  const int t = threadIdx.x;
  __pipeline_memcpy_async(&tile[t], &in[blockIdx.x * Tile + t], sizeof(float));
  __pipeline_commit();
  tile[t] = 0.f;
  // warning@-1:3 {{'tile' is written while an asynchronous copy into it is in flight}}
  // note@-4:3 {{the asynchronous copy into 'tile' is issued here}}
  __pipeline_wait_prior(0);
  out[blockIdx.x * Tile + t] = tile[t];
}
// FIXED-LABEL: void overwritten(
// FIXED: __pipeline_commit();
// FIXED-NEXT: __pipeline_wait_prior(0);
// FIXED-NEXT: tile[t] = 0.f;
