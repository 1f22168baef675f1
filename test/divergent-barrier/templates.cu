// Templates as headers hold them: kernels and device functions templated on
// a type, a block size or a functor, never instantiated in this translation
// unit, are analysed as written. A template parameter is the same in every
// thread; a dependent expression whose meaning is unknown is as uniform as
// what it is made of. A template that is instantiated is analysed through
// its instantiations, and each hazard is reported once per spelling.
// RUN: %check_cuda_tidy --checks=cuda-divergent-barrier %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

template <typename T, typename Pred>
__global__ void blockCounts(const T *in, int n, int *counts, Pred pred) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int c = __syncthreads_count(pred(in[i]));
    // warning@-1:13 {{'__syncthreads_count' is reached by only some threads of the block}}
    // note@-3:7 {{the condition depends on 'i', which differs between threads}}
    // note@-5:3 {{'i' is set from 'threadIdx.x' here}}
    if (threadIdx.x == 0)
      counts[blockIdx.x] = c;
  }
  counts[gridDim.x + blockIdx.x] = 0;
}

// A block-wide primitive in a class template, the way CUB-like headers write
// them: the barrier is in a member function that only the first warp calls.
template <typename T, int BlockThreads> struct BlockSum {
  T *scratch;
  __device__ T reduce(T v) {
    scratch[threadIdx.x] = v;
    __syncthreads();
    // note@-1:5 {{'__syncthreads' is reached here}}
    T total = T();
    for (int i = 0; i < BlockThreads; ++i)
      total += scratch[i];
    return total;
  }
};

template <typename T, int BlockThreads>
__global__ void firstWarpSums(const T *in, T *out) {
  __shared__ T scratch[BlockThreads];
  BlockSum<T, BlockThreads> sum{scratch};
  T v = in[blockIdx.x * BlockThreads + threadIdx.x];
  if (threadIdx.x < 32)
    v = sum.reduce(v);
  // warning@-1:9 {{waits at '__syncthreads' and is called by only some warps of the block}}
  // note@-3:7 {{the condition depends on 'threadIdx.x', which differs between warps}}
  out[blockIdx.x * BlockThreads + threadIdx.x] = v;
}

// A template parameter is the same in every thread: no divergence.
template <int Stages>
__global__ void pipelined(const float *in, float *out) {
  __shared__ float s[Stages][128];
  for (int st = 0; st < Stages; ++st) {
    s[st][threadIdx.x] = in[st * 128 + threadIdx.x];
    if (Stages > 1)
      __syncthreads();
  }
  out[threadIdx.x] = s[0][(threadIdx.x + 1) % 128];
}

// The same with the barrier hoisted out of the bounds check: silent.
template <typename T, typename Pred>
__global__ void blockCountsHoisted(const T *in, int n, int *counts,
                                   Pred pred) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int c = __syncthreads_count(i < n && pred(in[i]));
  if (threadIdx.x == 0)
    counts[blockIdx.x] = c;
}

// Instantiated twice: reported once, at the spelling.
template <int Half> __global__ void halves(float *data) {
  if (threadIdx.x % 2 == Half)
    __syncthreads();
  // warning@-1:5 {{'__syncthreads' is reached by only some threads of the block}}
  // note@-3:7 {{the condition depends on 'threadIdx.x', which differs between threads}}
  data[threadIdx.x] = 0.0f;
}
template __global__ void halves<0>(float *);
template __global__ void halves<1>(float *);
