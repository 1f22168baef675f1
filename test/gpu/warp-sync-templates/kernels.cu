// Template warp tails as the CUDA samples and many projects write them, for
// the GPU proof of cuda-implicit-warp-synchronization's fixes in templates:
// a block-size templated reduction instantiated for two block sizes and two
// element types, and a warp scan templated on its element type.
#include <cuda_runtime.h>

template <unsigned BlockSize, typename T>
__device__ void warpTail(volatile T *s, unsigned tid) {
  if (BlockSize >= 64) s[tid] += s[tid + 32];
  if (BlockSize >= 32) s[tid] += s[tid + 16];
  if (BlockSize >= 16) s[tid] += s[tid + 8];
  if (BlockSize >= 8) s[tid] += s[tid + 4];
  if (BlockSize >= 4) s[tid] += s[tid + 2];
  if (BlockSize >= 2) s[tid] += s[tid + 1];
}

template <unsigned BlockSize, typename T>
__global__ void reduceT(const T *in, T *out) {
  __shared__ T s[BlockSize];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * BlockSize + tid];
  __syncthreads();
  for (unsigned k = BlockSize / 2; k > 32; k >>= 1) {
    if (tid < k)
      s[tid] += s[tid + k];
    __syncthreads();
  }
  if (tid < 32)
    warpTail<BlockSize>(s, tid);
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// An inclusive scan of each warp's values, Hillis-Steele through shared
// memory.
template <typename T> __global__ void warpScanT(const T *in, T *out) {
  __shared__ T s[256];
  unsigned t = threadIdx.x, lane = t & 31;
  s[t] = in[blockIdx.x * 256 + t];
  if (lane >= 1) s[t] += s[t - 1];
  if (lane >= 2) s[t] += s[t - 2];
  if (lane >= 4) s[t] += s[t - 4];
  if (lane >= 8) s[t] += s[t - 8];
  if (lane >= 16) s[t] += s[t - 16];
  out[blockIdx.x * 256 + t] = s[t];
}

template __global__ void reduceT<256, int>(const int *, int *);
template __global__ void reduceT<128, int>(const int *, int *);
template __global__ void reduceT<256, long long>(const long long *,
                                                 long long *);
template __global__ void warpScanT<int>(const int *, int *);
template __global__ void warpScanT<long long>(const long long *, long long *);
