// Rings reached through local pointers to their slots (`float *dst =
// &ring[stage][0]`), as the CUDA samples' TensorCoreGemm kernels copy and
// read through `shmem_warp_*_ptr`: the pointer names the buffer and the
// slot of its initialiser, so copies through one pointer and reads through
// another (or through the buffer) are compared. The right wait count is a
// design choice, so there is no fix-it where a wait ran.
// RUN: %check_cuda_tidy --checks=cuda-async-copy-ordering %s %t -- \
// RUN:   %cuda_args --cuda-gpu-arch=sm_80
#include <cuda_runtime.h>
#include <cuda_pipeline.h>

constexpr int Tile = 256;
constexpr int Stages = 2;

// The copy goes through `dst`, the read through `src`, both into slot
// k % 2; wait_prior(1) leaves the newest group, this slot's, in flight.
__global__ void readsSlotInFlight(const float *in, float *out, int tiles) {
  __shared__ float ring[Stages][Tile];
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0; k < tiles; ++k) {
    float *dst = &ring[k % Stages][0];
    __pipeline_memcpy_async(dst + t, &in[k * Tile + t], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    const float *src = &ring[k % Stages][0];
    sum += src[(t + 1) % Tile];
    // warning@-1:12 {{'ring' is read while the group of its asynchronous copy may still be in flight}}
    // note@-7:5 {{the asynchronous copy into 'ring' is issued here}}
    // note@-6:5 {{this wait leaves the most recent groups in flight, the copy's among them}}
    // note@-6:5 {{'__syncthreads' orders the threads, not the copy}}
    __syncthreads();
  }
  out[blockIdx.x * Tile + t] = sum;
}

// Silent: the read pointer names the slot issued one iteration earlier,
// whose group wait_prior(1) completed.
__global__ void readsOlderSlot(const float *in, float *out, int tiles) {
  __shared__ float ring[Stages][Tile];
  const int t = threadIdx.x;
  float sum = 0.f;
  __pipeline_memcpy_async(&ring[0][t], &in[t], sizeof(float));
  __pipeline_commit();
  for (int k = 0; k < tiles; ++k) {
    float *dst = &ring[(k + 1) % Stages][0];
    __pipeline_memcpy_async(dst + t, &in[(k + 1) * Tile + t], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    const float *src = &ring[k % Stages][0];
    sum += src[(t + 1) % Tile];
    __syncthreads();
  }
  out[blockIdx.x * Tile + t] = sum;
}

// A warp's window into a flat buffer, copied through one pointer and read
// through another with no wait at all.
__global__ void windowsNoWait(const float *in, float *out) {
  __shared__ float buf[4 * Tile];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  float *stream = buf + warp * Tile;
  const float *tile = buf + warp * Tile;
  for (int i = 0; i < Tile / 32; ++i)
    __pipeline_memcpy_async(&stream[i * 32 + lane], &in[warp * Tile + i * 32 + lane],
                            sizeof(float));
  __pipeline_commit();
  __syncwarp();
  out[threadIdx.x] = tile[(lane + 1) % 32];
  // warning@-1:22 {{'buf' is read before the asynchronous copy into it completes}}
  // note@-6:5 {{the asynchronous copy into 'buf' is issued here}}
  // note@-4:3 {{'__syncwarp' orders the threads, not the copy}}
}

// Silent: the same windows with the wait.
__global__ void windowsWait(const float *in, float *out) {
  __shared__ float buf[4 * Tile];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  float *stream = buf + warp * Tile;
  const float *tile = buf + warp * Tile;
  for (int i = 0; i < Tile / 32; ++i)
    __pipeline_memcpy_async(&stream[i * 32 + lane], &in[warp * Tile + i * 32 + lane],
                            sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncwarp();
  out[threadIdx.x] = tile[(lane + 1) % 32];
}

// Silent: the pointer is set to slot `stage`, then `stage` moves on; the
// pointer still names the old slot, which the analysis leaves uncompared
// (the read is of the completed slot).
__global__ void pointerOutlivesStep(const float *in, float *out, int tiles) {
  __shared__ float ring[Stages][Tile];
  const int t = threadIdx.x;
  float sum = 0.f;
  int stage = 0;
  __pipeline_memcpy_async(&ring[stage][t], &in[t], sizeof(float));
  __pipeline_commit();
  for (int k = 0; k < tiles; ++k) {
    const float *src = &ring[stage][0];
    stage ^= 1;
    __pipeline_memcpy_async(&ring[stage][t], &in[(k + 1) * Tile + t],
                            sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    sum += src[(t + 1) % Tile];
    __syncthreads();
  }
  out[blockIdx.x * Tile + t] = sum;
}

// The CUDA samples' TensorCoreGemm windows: a warp's pointers into a
// two-dimensional buffer (`(float *)&shmem[0][0] + warp * ...`), the copy
// through one, the read through a pointer computed from the other, and the
// wait before the barrier deleted.
__global__ void gemmWindowsNoWait(const float *in, float *out) {
  __shared__ float shmem[64][Tile];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  float *stream = (float *)&shmem[0][0] + warp * 8 * Tile;
  float *window = (float *)&shmem[0][0] + (warp / 2) * 16 * Tile + (warp % 2) * 32;
  for (int i = 0; i < 8; i++)
    __pipeline_memcpy_async(&stream[Tile * i + lane], &in[Tile * i + lane],
                            sizeof(float));
  __pipeline_commit();
  __syncthreads();
  const float *tile_ptr = window + lane * Tile;
  out[threadIdx.x] = tile_ptr[1];
  // warning@-1:22 {{'shmem' is read before the asynchronous copy into it completes}}
  // note@-7:5 {{the asynchronous copy into 'shmem' is issued here}}
  // note@-5:3 {{'__syncthreads' orders the threads, not the copy}}
}

// Silent: the same windows with the samples' wait before the barrier.
__global__ void gemmWindowsWait(const float *in, float *out) {
  __shared__ float shmem[64][Tile];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  float *stream = (float *)&shmem[0][0] + warp * 8 * Tile;
  float *window = (float *)&shmem[0][0] + (warp / 2) * 16 * Tile + (warp % 2) * 32;
  for (int i = 0; i < 8; i++)
    __pipeline_memcpy_async(&stream[Tile * i + lane], &in[Tile * i + lane],
                            sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  const float *tile_ptr = window + lane * Tile;
  out[threadIdx.x] = tile_ptr[1];
}
