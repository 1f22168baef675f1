// cuda::pipeline's consumer_wait() completes the oldest committed stage
// that is not yet consumed, not every committed stage: a ring that reads a
// stage newer than the one waited for reads data still in flight. A
// thread-scope pipeline consumes the stage at the wait; a block-scope one
// at consumer_release(). How far ahead to read is a design choice, so
// there is no fix-it.
// RUN: %check_cuda_tidy --checks=cuda-async-copy-ordering %s %t -- \
// RUN:   %cuda_args --cuda-gpu-arch=sm_80 -std=c++17
#include <cuda/pipeline>

constexpr int Tile = 256;
constexpr int Stages = 2;

// Two stages committed, one consumer_wait(): the first stage has landed,
// the second may not have.
__global__ void readsNewerStage(const float *in, float *out) {
  __shared__ float a[Tile], b[Tile];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int t = threadIdx.x;
  pipe.producer_acquire();
  cuda::memcpy_async(&a[t], &in[t], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.producer_acquire();
  cuda::memcpy_async(&b[t], &in[Tile + t], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  __syncthreads();
  out[t] = a[Tile - 1 - t] + b[Tile - 1 - t];
  // warning@-1:30 {{'b' is read while the group of its asynchronous copy may still be in flight}}
  // note@-6:3 {{the asynchronous copy into 'b' is issued here}}
  // note@-5:3 {{'consumer_wait' completes only the oldest stage not yet consumed; the copy's stage is newer}}
  // note@-5:3 {{'__syncthreads' orders the threads, not the copy}}
  pipe.consumer_release();
}

// Silent: a second consumer_wait() completes the second stage.
__global__ void waitsForEachStage(const float *in, float *out) {
  __shared__ float a[Tile], b[Tile];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int t = threadIdx.x;
  pipe.producer_acquire();
  cuda::memcpy_async(&a[t], &in[t], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.producer_acquire();
  cuda::memcpy_async(&b[t], &in[Tile + t], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  pipe.consumer_wait();
  __syncthreads();
  out[t] = a[Tile - 1 - t] + b[Tile - 1 - t];
  pipe.consumer_release();
}

// A two-stage ring, one tile prefetched: each iteration issues the next
// tile, waits for the oldest stage (this iteration's tile) and reads the
// slot of the next one.
__global__ void ringReadsAhead(const float *in, float *out, int tiles) {
  __shared__ float ring[Stages][Tile];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int t = threadIdx.x;
  float sum = 0.f;
  pipe.producer_acquire();
  cuda::memcpy_async(&ring[0][t], &in[t], sizeof(float), pipe);
  pipe.producer_commit();
  for (int k = 0; k < tiles; ++k) {
    pipe.producer_acquire();
    if (k + 1 < tiles)
      cuda::memcpy_async(&ring[(k + 1) % Stages][t], &in[(k + 1) * Tile + t],
                         sizeof(float), pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    __syncthreads();
    sum += ring[(k + 1) % Stages][(t + 1) % Tile];
    // warning@-1:12 {{'ring' is read while the group of its asynchronous copy may still be in flight}}
    // note@-7:7 {{the asynchronous copy into 'ring' is issued here}}
    // note@-5:5 {{'consumer_wait' completes only the oldest stage not yet consumed; the copy's stage is newer}}
    // note@-5:5 {{'__syncthreads' orders the threads, not the copy}}
    __syncthreads();
    pipe.consumer_release();
  }
  out[blockIdx.x * Tile + t] = sum;
}

// Silent: the same ring reading this iteration's slot, the stage the wait
// completed; the prefetch in flight is in the other slot.
__global__ void ringRight(const float *in, float *out, int tiles) {
  __shared__ float ring[Stages][Tile];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int t = threadIdx.x;
  float sum = 0.f;
  pipe.producer_acquire();
  cuda::memcpy_async(&ring[0][t], &in[t], sizeof(float), pipe);
  pipe.producer_commit();
  for (int k = 0; k < tiles; ++k) {
    pipe.producer_acquire();
    if (k + 1 < tiles)
      cuda::memcpy_async(&ring[(k + 1) % Stages][t], &in[(k + 1) * Tile + t],
                         sizeof(float), pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    __syncthreads();
    sum += ring[k % Stages][(t + 1) % Tile];
    __syncthreads();
    pipe.consumer_release();
  }
  out[blockIdx.x * Tile + t] = sum;
}

// Silent: pipeline_consumer_wait_prior<0> completes every stage, the
// newer one too.
__global__ void waitPriorZero(const float *in, float *out) {
  __shared__ float a[Tile], b[Tile];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int t = threadIdx.x;
  pipe.producer_acquire();
  cuda::memcpy_async(&a[t], &in[t], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.producer_acquire();
  cuda::memcpy_async(&b[t], &in[Tile + t], sizeof(float), pipe);
  pipe.producer_commit();
  cuda::pipeline_consumer_wait_prior<0>(pipe);
  __syncthreads();
  out[t] = a[Tile - 1 - t] + b[Tile - 1 - t];
}

// Silent: a prologue loop commits a number of stages the analysis does not
// count; its waits then complete every committed stage (no report rather
// than a guess).
__global__ void prologueLoop(const float *in, float *out, int tiles) {
  __shared__ float ring[Stages][Tile];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int s = 0; s < Stages; ++s) {
    pipe.producer_acquire();
    cuda::memcpy_async(&ring[s][t], &in[s * Tile + t], sizeof(float), pipe);
    pipe.producer_commit();
  }
  pipe.consumer_wait();
  __syncthreads();
  sum += ring[0][(t + 1) % Tile];
  out[blockIdx.x * Tile + t] = sum;
}
