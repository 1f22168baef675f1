// Rings whose slot lives in a variable of its own, stepped apart from the
// loop counter: `stage = (stage + 1) % S`, `++stage; if (stage == S) stage =
// 0;`, and double buffers whose offset flips with `^=`. The wrong forms
// read a slot a copy is still writing; the right count (or the missing
// wait's place) is a design choice, so there is no fix-it.
// RUN: %check_cuda_tidy --checks=cuda-async-copy-ordering %s %t -- \
// RUN:   %cuda_args --cuda-gpu-arch=sm_80
#include <cuda_runtime.h>
#include <cuda_pipeline.h>

constexpr int Tile = 256;
constexpr int Stages = 3;

// The read stage is computed one slot behind the advanced write stage:
// the slot just issued, whose group wait_prior(1) leaves in flight.
__global__ void stageTooFar(const float *in, float *out, int tiles) {
  __shared__ float ring[Stages][Tile];
  const int t = threadIdx.x;
  int write_stage = 0;
  float sum = 0.f;
  for (int k = 0; k < tiles; ++k) {
    __pipeline_memcpy_async(&ring[write_stage][t], &in[k * Tile + t],
                            sizeof(float));
    __pipeline_commit();
    write_stage = (write_stage + 1) % Stages;
    __pipeline_wait_prior(1);
    __syncthreads();
    const int read_stage = (write_stage + Stages - 1) % Stages;
    sum += ring[read_stage][(t + 1) % Tile];
    // warning@-1:12 {{'ring' is read while the group of its asynchronous copy may still be in flight}}
    // note@-9:5 {{the asynchronous copy into 'ring' is issued here}}
    // note@-6:5 {{this wait leaves the most recent groups in flight, the copy's among them}}
    // note@-6:5 {{'__syncthreads' orders the threads, not the copy}}
    __syncthreads();
  }
  out[blockIdx.x * Tile + t] = sum;
}

// Silent: the same ring reading the slot issued one iteration earlier,
// whose group wait_prior(1) completed (the newest group is in the other
// slot).
__global__ void stageRight(const float *in, float *out, int tiles) {
  __shared__ float ring[Stages][Tile];
  const int t = threadIdx.x;
  int write_stage = 0;
  float sum = 0.f;
  __pipeline_memcpy_async(&ring[write_stage][t], &in[t], sizeof(float));
  __pipeline_commit();
  write_stage = (write_stage + 1) % Stages;
  for (int k = 0; k < tiles; ++k) {
    __pipeline_memcpy_async(&ring[write_stage][t], &in[(k + 1) * Tile + t],
                            sizeof(float));
    __pipeline_commit();
    write_stage = (write_stage + 1) % Stages;
    __pipeline_wait_prior(1);
    __syncthreads();
    const int read_stage = (write_stage + Stages - 2) % Stages;
    sum += ring[read_stage][(t + 1) % Tile];
    __syncthreads();
  }
  out[blockIdx.x * Tile + t] = sum;
}

// A ring index wrapped by hand: `++stage; if (stage == Stages) stage = 0;`.
// The read is of the slot this iteration filled, with no wait at all
// before the barrier (the wait comes after the read). Every thread reaches
// the barrier, so the wait before it is an exact fix.
__global__ void wrappedNoWait(const float *in, float *out, int tiles) {
  __shared__ float ring[Stages][Tile];
  const int t = threadIdx.x;
  int stage = 0;
  float sum = 0.f;
  for (int k = 0; k < tiles; ++k) {
    __pipeline_memcpy_async(&ring[stage][t], &in[k * Tile + t], sizeof(float));
    __pipeline_commit();
    __syncthreads();
    sum += ring[stage][(t + 1) % Tile];
    // warning@-1:12 {{'ring' is read before the asynchronous copy into it completes}}
    // note@-5:5 {{the asynchronous copy into 'ring' is issued here}}
    // note@-4:5 {{'__syncthreads' orders the threads, not the copy}}
    __pipeline_wait_prior(0);
    __syncthreads();
    ++stage;
    if (stage == Stages)
      stage = 0;
  }
  out[blockIdx.x * Tile + t] = sum;
}

// Silent: the wrapped ring with the wait before the barrier.
__global__ void wrappedRight(const float *in, float *out, int tiles) {
  __shared__ float ring[Stages][Tile];
  const int t = threadIdx.x;
  int stage = 0;
  float sum = 0.f;
  for (int k = 0; k < tiles; ++k) {
    __pipeline_memcpy_async(&ring[stage][t], &in[k * Tile + t], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    sum += ring[stage][(t + 1) % Tile];
    __syncthreads();
    ++stage;
    if (stage == Stages)
      stage = 0;
  }
  out[blockIdx.x * Tile + t] = sum;
}

// A double buffer in one flat array whose offset flips with `^=`: the next
// tile is copied into the other half while this one is read, and the wait
// for it was left out, so the next iteration reads a half still in flight.
__global__ void xorNoWait(const float *in, float *out, int tiles) {
  __shared__ float buf[2 * Tile];
  const int t = threadIdx.x;
  int cur = 0;
  float sum = 0.f;
  __pipeline_memcpy_async(&buf[cur + t], &in[t], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  for (int k = 0; k < tiles; ++k) {
    if (k + 1 < tiles)
      __pipeline_memcpy_async(&buf[(cur ^ Tile) + t], &in[(k + 1) * Tile + t],
                              sizeof(float));
    __pipeline_commit();
    sum += buf[cur + (t + 1) % Tile];
    // warning@-1:12 {{'buf' is read before the asynchronous copy into it completes}}
    // note@-5:7 {{the asynchronous copy into 'buf' is issued here}}
    // note@+2:5 {{'__syncthreads' orders the threads, not the copy}}
    // note@-7:7 {{wait for the copy with '__pipeline_wait_prior(0)', 'cp.async.wait_all' or 'cg::wait' in every issuing thread before the block barrier that precedes the access}}
    __syncthreads();
    cur ^= Tile;
  }
  out[blockIdx.x * Tile + t] = sum;
}

// Silent: the same double buffer with the wait before the barrier; the
// copy in flight during the read is into the other half.
__global__ void xorRight(const float *in, float *out, int tiles) {
  __shared__ float buf[2 * Tile];
  const int t = threadIdx.x;
  int cur = 0;
  float sum = 0.f;
  __pipeline_memcpy_async(&buf[cur + t], &in[t], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  for (int k = 0; k < tiles; ++k) {
    if (k + 1 < tiles)
      __pipeline_memcpy_async(&buf[(cur ^ Tile) + t], &in[(k + 1) * Tile + t],
                              sizeof(float));
    __pipeline_commit();
    sum += buf[cur + (t + 1) % Tile];
    __pipeline_wait_prior(0);
    __syncthreads();
    cur ^= Tile;
  }
  out[blockIdx.x * Tile + t] = sum;
}

// Silent: an offset moved with `+=` through a buffer that holds every
// tile: each copy has a region of its own, and the read is of the region
// whose group wait_prior(1) completed.
__global__ void offsetAdvances(const float *in, float *out) {
  __shared__ float all[4 * Tile];
  const int t = threadIdx.x;
  int off = 0;
  float sum = 0.f;
  __pipeline_memcpy_async(&all[off + t], &in[t], sizeof(float));
  __pipeline_commit();
  for (int k = 1; k < 4; ++k) {
    off += Tile;
    __pipeline_memcpy_async(&all[off + t], &in[k * Tile + t], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    sum += all[off - Tile + (t + 1) % Tile];
    __syncthreads();
  }
  out[blockIdx.x * Tile + t] = sum;
}
