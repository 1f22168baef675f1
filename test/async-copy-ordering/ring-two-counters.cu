// Rings filled by a producer loop with its own counter (`fetch`, the CUDA
// samples' `iStage`) and read by a consumer loop with another (`k`, `i`):
// the producer loop's condition fixes how many stages it runs ahead, and a
// thread-scope pipeline's consumer_wait() completes only the oldest. Five
// stages in flight in four slots write the slot being read (the shape of
// the CUDA samples' MatrixMulAsyncCopyMultiStage); four do not. How far to
// prefetch is a design choice, so there is no fix-it.
// RUN: %check_cuda_tidy --checks=cuda-async-copy-ordering %s %t -- \
// RUN:   %cuda_args --cuda-gpu-arch=sm_80 -std=c++17
#include <cuda/pipeline>

constexpr int Tile = 256;
constexpr int Tiles = 16;

// `fetch <= k + S`: stage k + S is issued into slot k % S before the wait
// for stage k, and lands while slot k % S is read.
__global__ void fiveStagesInFourSlots(const float *in, float *out) {
  constexpr int S = 4;
  __shared__ float ring[S][Tile];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0, fetch = 0; k < Tiles; ++k) {
    for (; fetch <= k + S; ++fetch) {
      if (fetch < Tiles) {
        pipe.producer_acquire();
        cuda::memcpy_async(&ring[fetch % S][t], in + fetch * Tile + t,
                           sizeof(float), pipe);
        pipe.producer_commit();
      }
    }
    pipe.consumer_wait();
    __syncthreads();
    sum += ring[k % S][(t + 1) % Tile];
    // warning@-1:12 {{'ring' is read while the group of its asynchronous copy may still be in flight}}
    // note@-9:9 {{the asynchronous copy into 'ring' is issued here}}
    // note@-5:5 {{'consumer_wait' completes only the oldest stage not yet consumed; the copy's stage is newer}}
    // note@-5:5 {{'__syncthreads' orders the threads, not the copy}}
    pipe.consumer_release();
    __syncthreads();
  }
  out[blockIdx.x * Tile + t] = sum;
}

// Silent: `fetch < k + S` keeps four stages in flight; the wait completes
// stage k, the others are in slots other than k % S, and the barrier after
// the read keeps the next copy off the slot just read.
__global__ void fourStagesInFourSlots(const float *in, float *out) {
  constexpr int S = 4;
  __shared__ float ring[S][Tile];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0, fetch = 0; k < Tiles; ++k) {
    for (; fetch < k + S; ++fetch) {
      if (fetch < Tiles) {
        pipe.producer_acquire();
        cuda::memcpy_async(&ring[fetch % S][t], in + fetch * Tile + t,
                           sizeof(float), pipe);
        pipe.producer_commit();
      }
    }
    pipe.consumer_wait();
    __syncthreads();
    sum += ring[k % S][(t + 1) % Tile];
    pipe.consumer_release();
    __syncthreads();
  }
  out[blockIdx.x * Tile + t] = sum;
}

// The samples' spelling: the producer's condition compares the element
// offsets `aStage` and `a`, which step by `aStep` together with the stage
// counters `iStage` and `i` that name the slots.
template <int Block>
__global__ void samplesMultiStage(float *c, const float *a_in, int wA) {
  constexpr size_t maxPipelineStages = 4;
  __shared__ float As[maxPipelineStages][Block][Block];
  float Csub = 0.0f;
  const int aBegin = wA * Block * blockIdx.y;
  const int aEnd = aBegin + wA - 1;
  int aStep = Block;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  for (int a = aBegin, i = 0, aStage = aBegin, iStage = 0; a <= aEnd;
       a += aStep, ++i) {
    for (; aStage <= a + aStep * maxPipelineStages; aStage += aStep, ++iStage) {
      if (aStage <= aEnd) {
        const int j = iStage % maxPipelineStages;
        pipe.producer_acquire();
        cuda::memcpy_async(&As[j][threadIdx.y][threadIdx.x],
                           &a_in[aStage + wA * threadIdx.y + threadIdx.x],
                           sizeof(float), pipe);
        pipe.producer_commit();
      }
    }
    pipe.consumer_wait();
    __syncthreads();
    const int j = i % maxPipelineStages;
    for (int k = 0; k < Block; ++k)
      Csub += As[j][threadIdx.y][k];
    // warning@-1:15 {{'As' is read while the group of its asynchronous copy may still be in flight}}
    // note@-12:9 {{the asynchronous copy into 'As' is issued here}}
    // note@-7:5 {{'consumer_wait' completes only the oldest stage not yet consumed; the copy's stage is newer}}
    // note@-7:5 {{'__syncthreads' orders the threads, not the copy}}
    pipe.consumer_release();
    __syncthreads();
  }
  c[blockIdx.x * Block + threadIdx.x] = Csub;
}
template __global__ void samplesMultiStage<16>(float *, const float *, int);

// Silent: the samples' spelling with `<`, four stages in four slots.
template <int Block>
__global__ void samplesFourStages(float *c, const float *a_in, int wA) {
  constexpr size_t maxPipelineStages = 4;
  __shared__ float As[maxPipelineStages][Block][Block];
  float Csub = 0.0f;
  const int aBegin = wA * Block * blockIdx.y;
  const int aEnd = aBegin + wA - 1;
  int aStep = Block;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  for (int a = aBegin, i = 0, aStage = aBegin, iStage = 0; a <= aEnd;
       a += aStep, ++i) {
    for (; aStage < a + aStep * maxPipelineStages; aStage += aStep, ++iStage) {
      if (aStage <= aEnd) {
        const int j = iStage % maxPipelineStages;
        pipe.producer_acquire();
        cuda::memcpy_async(&As[j][threadIdx.y][threadIdx.x],
                           &a_in[aStage + wA * threadIdx.y + threadIdx.x],
                           sizeof(float), pipe);
        pipe.producer_commit();
      }
    }
    pipe.consumer_wait();
    __syncthreads();
    const int j = i % maxPipelineStages;
    for (int k = 0; k < Block; ++k)
      Csub += As[j][threadIdx.y][k];
    pipe.consumer_release();
    __syncthreads();
  }
  c[blockIdx.x * Block + threadIdx.x] = Csub;
}
template __global__ void samplesFourStages<16>(float *, const float *, int);

// Silent: a producer bound the analysis cannot relate to the consumer's
// counter (a runtime depth): how far it runs ahead is unknown, and the
// wait is taken to complete every committed stage.
__global__ void unknownDepth(const float *in, float *out, int depth) {
  constexpr int S = 4;
  __shared__ float ring[S][Tile];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int t = threadIdx.x;
  float sum = 0.f;
  for (int k = 0, fetch = 0; k < Tiles; ++k) {
    for (; fetch <= k + depth; ++fetch) {
      pipe.producer_acquire();
      cuda::memcpy_async(&ring[fetch % S][t], in + fetch * Tile + t,
                         sizeof(float), pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    __syncthreads();
    sum += ring[k % S][(t + 1) % Tile];
    pipe.consumer_release();
    __syncthreads();
  }
  out[blockIdx.x * Tile + t] = sum;
}
