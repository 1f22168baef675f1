// Copies into shared memory passed to a helper as a pointer parameter (the
// call is followed with the argument's buffer and ring slot); a kernel
// that never waits for its copies (any read of the buffer is reported,
// whatever the slot); and a copy issued into a tile that other threads may
// still be reading, with no block barrier between the read and the copy.
// RUN: %check_cuda_tidy --checks=cuda-async-copy-ordering %s %t -- \
// RUN:   %cuda_args --cuda-gpu-arch=sm_80
#include <cuda_runtime.h>
#include <cuda_pipeline.h>

constexpr int Tile = 256;
constexpr int Stages = 4;

__device__ void loadTile(float *dst, const float *src) {
  __pipeline_memcpy_async(dst + threadIdx.x, src + threadIdx.x, sizeof(float));
  __pipeline_commit();
}

// The helper's copy lands in the ring slot the call passes; the read is of
// that slot, whose group wait_prior(1) leaves in flight.
__global__ void helperSlotInFlight(const float *in, float *out, int tiles) {
  __shared__ float ring[2][Tile];
  float sum = 0.f;
  loadTile(ring[0], in);
  for (int k = 0; k < tiles; ++k) {
    loadTile(&ring[(k + 1) % 2][0], in + (k + 1) * Tile);
    __pipeline_wait_prior(1);
    __syncthreads();
    sum += ring[(k + 1) % 2][Tile - 1 - threadIdx.x];
    // warning@-1:12 {{'ring' is read while the group of its asynchronous copy may still be in flight}}
    // note@-5:5 {{the asynchronous copy into 'ring' is issued here}}
    // note@-5:5 {{this wait leaves the most recent groups in flight, the copy's among them}}
    // note@-5:5 {{'__syncthreads' orders the threads, not the copy}}
    __syncthreads();
  }
  out[blockIdx.x * Tile + threadIdx.x] = sum;
}

// Silent: the slot read is the one issued an iteration earlier, completed
// by wait_prior(1).
__global__ void helperSlotRight(const float *in, float *out, int tiles) {
  __shared__ float ring[2][Tile];
  float sum = 0.f;
  loadTile(ring[0], in);
  for (int k = 0; k < tiles; ++k) {
    loadTile(&ring[(k + 1) % 2][0], in + (k + 1) * Tile);
    __pipeline_wait_prior(1);
    __syncthreads();
    sum += ring[k % 2][Tile - 1 - threadIdx.x];
    __syncthreads();
  }
  out[blockIdx.x * Tile + threadIdx.x] = sum;
}

// No wait anywhere in the kernel: the stage the copies fill and the stage
// read are counted by different variables, which the analysis does not
// relate, but nothing ever completes the copies.
__global__ void neverWaited(const float *in, float *out, int tiles) {
  __shared__ float ring[Stages][Tile];
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0, fetch = 0; k < tiles; ++k) {
    for (; fetch < tiles && fetch < k + Stages; ++fetch) {
      __pipeline_memcpy_async(&ring[fetch % Stages][t],
                              &in[fetch * Tile + t], sizeof(float));
      __pipeline_commit();
    }
    __syncthreads();
    sum += ring[k % Stages][(t + 1) % Tile];
    // warning@-1:12 {{'ring' is read before the asynchronous copy into it completes}}
    // note@-7:7 {{the asynchronous copy into 'ring' is issued here}}
    // note@-8:7 {{no wait in this kernel completes copies of this kind}}
    // note@-5:5 {{'__syncthreads' orders the threads, not the copy}}
    __syncthreads();
  }
  out[blockIdx.x * Tile + t] = sum;
}

// Silent: the same ring with wait_prior(Stages - 1) before the barrier
// (the slots are not related, and a wait exists: no report).
__global__ void waitedRing(const float *in, float *out, int tiles) {
  __shared__ float ring[Stages][Tile];
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0, fetch = 0; k < tiles; ++k) {
    // One group per stage, empty past the last tile, so that
    // wait_prior(Stages - 1) always completes tile k.
    for (; fetch < k + Stages; ++fetch) {
      if (fetch < tiles)
        __pipeline_memcpy_async(&ring[fetch % Stages][t],
                                &in[fetch * Tile + t], sizeof(float));
      __pipeline_commit();
    }
    __pipeline_wait_prior(Stages - 1);
    __syncthreads();
    sum += ring[k % Stages][(t + 1) % Tile];
    __syncthreads();
  }
  out[blockIdx.x * Tile + t] = sum;
}

// The tile is read along a row (every x reads what other threads copied)
// and the next tile is copied into it with no barrier after the read: a
// fast thread overwrites what a slow one is still reading.
__global__ void copyOverRead(const float *in, float *out, int tiles) {
  __shared__ float tile[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  float sum = 0.f;
  for (int k = 0; k < tiles; ++k) {
    __pipeline_memcpy_async(&tile[ty][tx], &in[k * 256 + ty * 16 + tx],
                            sizeof(float));
    // warning@-2:5 {{asynchronous copy into 'tile' may overwrite data other threads are still reading}}
    // note@+5:14 {{'tile' is read here, by threads other than the copying one, with no block barrier between the read and the copy}}
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    for (int i = 0; i < 16; ++i)
      sum += tile[ty][i];
  }
  out[(blockIdx.x * 16 + ty) * 16 + tx] = sum;
}

// Silent: a barrier after the reads, before the next copy.
__global__ void copyAfterBarrier(const float *in, float *out, int tiles) {
  __shared__ float tile[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  float sum = 0.f;
  for (int k = 0; k < tiles; ++k) {
    __pipeline_memcpy_async(&tile[ty][tx], &in[k * 256 + ty * 16 + tx],
                            sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    for (int i = 0; i < 16; ++i)
      sum += tile[ty][i];
    __syncthreads();
  }
  out[(blockIdx.x * 16 + ty) * 16 + tx] = sum;
}

// Silent: each thread reads only the element it copies itself.
__global__ void copyOverOwnRead(const float *in, float *out, int tiles) {
  __shared__ float tile[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  float sum = 0.f;
  for (int k = 0; k < tiles; ++k) {
    __pipeline_memcpy_async(&tile[ty][tx], &in[k * 256 + ty * 16 + tx],
                            sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    sum += tile[ty][tx];
  }
  out[(blockIdx.x * 16 + ty) * 16 + tx] = sum;
}
