// One wait that leaves the copies in flight, one warning (issue 37, the
// CUDA samples' globalToShmemAsyncCopy shape): the reads of two buffers in
// one statement after one consumer_wait() are one cause; the second read
// is a note of the first's warning. Reads in two statements, or after two
// different waits, stay two warnings.
// RUN: %check_cuda_tidy --checks=cuda-async-copy-ordering %s %t -- \
// RUN:   %cuda_args --cuda-gpu-arch=sm_80 -std=c++17
#include <cuda/pipeline>

constexpr int Tile = 256;

// Two stages committed before one consumer_wait(): both buffers of the
// second stage may still be landing when one statement reads them.
__global__ void twoBuffersOneStatement(const float *in, float *out) {
  __shared__ float a[Tile], b[Tile], c[Tile];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int t = threadIdx.x;
  pipe.producer_acquire();
  cuda::memcpy_async(&a[t], &in[t], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.producer_acquire();
  cuda::memcpy_async(&b[t], &in[Tile + t], sizeof(float), pipe);
  cuda::memcpy_async(&c[t], &in[2 * Tile + t], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  __syncthreads();
  out[t] = a[Tile - 1 - t] + b[Tile - 1 - t] * c[Tile - 1 - t];
  // warning@-1:30 {{'b' is read while the group of its asynchronous copy may still be in flight}}
  // note@-7:3 {{the asynchronous copy into 'b' is issued here}}
  // note@-5:3 {{'consumer_wait' completes only the oldest stage not yet consumed; the copy's stage is newer}}
  // note@-5:3 {{'__syncthreads' orders the threads, not the copy}}
  // note@-5:48 {{'c' is read in the same statement, with its asynchronous copy in flight for the same reason}}
  // note@-10:3 {{the asynchronous copy into 'c' is issued here}}
  pipe.consumer_release();
}

// The same wait, reads in two statements: still one cause, one warning.
__global__ void twoBuffersTwoStatements(const float *in, float *out) {
  __shared__ float b[Tile], c[Tile];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int t = threadIdx.x;
  pipe.producer_acquire();
  cuda::memcpy_async(&out[t], &in[t], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.producer_acquire();
  cuda::memcpy_async(&b[t], &in[Tile + t], sizeof(float), pipe);
  cuda::memcpy_async(&c[t], &in[2 * Tile + t], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  __syncthreads();
  float x = b[Tile - 1 - t];
  // warning@-1:13 {{'b' is read while the group of its asynchronous copy may still be in flight}}
  // note@-7:3 {{the asynchronous copy into 'b' is issued here}}
  // note@-5:3 {{'consumer_wait' completes only the oldest stage not yet consumed; the copy's stage is newer}}
  // note@-5:3 {{'__syncthreads' orders the threads, not the copy}}
  float y = c[Tile - 1 - t];
  // note@-1:13 {{'c' is read here too, its copy left in flight by the same wait}}
  // note@-11:3 {{the asynchronous copy into 'c' is issued here}}
  out[Tile + t] = x + y;
  pipe.consumer_release();
}

// Counterpart: two waits, each leaving a newer stage in flight: two
// causes, two warnings.
__global__ void twoWaits(const float *in, float *out) {
  __shared__ float a[Tile], b[Tile], c[Tile];
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
  float x = b[Tile - 1 - t];
  // warning@-1:13 {{'b' is read while the group of its asynchronous copy may still be in flight}}
  // note@-6:3 {{the asynchronous copy into 'b' is issued here}}
  // note@-5:3 {{'consumer_wait' completes only the oldest stage not yet consumed; the copy's stage is newer}}
  // note@-5:3 {{'__syncthreads' orders the threads, not the copy}}
  pipe.consumer_release();
  pipe.producer_acquire();
  cuda::memcpy_async(&c[t], &in[2 * Tile + t], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  __syncthreads();
  float y = c[Tile - 1 - t];
  // warning@-1:13 {{'c' is read while the group of its asynchronous copy may still be in flight}}
  // note@-6:3 {{the asynchronous copy into 'c' is issued here}}
  // note@-5:3 {{'consumer_wait' completes only the oldest stage not yet consumed; the copy's stage is newer}}
  // note@-5:3 {{'__syncthreads' orders the threads, not the copy}}
  out[t] = a[t] + x + y;
  pipe.consumer_release();
}

// Silent: each stage waited for before its buffers are read.
__global__ void eachStageWaited(const float *in, float *out) {
  __shared__ float a[Tile], b[Tile], c[Tile];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int t = threadIdx.x;
  pipe.producer_acquire();
  cuda::memcpy_async(&a[t], &in[t], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.producer_acquire();
  cuda::memcpy_async(&b[t], &in[Tile + t], sizeof(float), pipe);
  cuda::memcpy_async(&c[t], &in[2 * Tile + t], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  pipe.consumer_wait();
  __syncthreads();
  out[t] = a[Tile - 1 - t] + b[Tile - 1 - t] * c[Tile - 1 - t];
  pipe.consumer_release();
}
