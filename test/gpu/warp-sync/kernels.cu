// Warp-synchronous kernels in their pre-Volta form, as real code has them.
// run.sh makes the fixed form with cuda-implicit-warp-synchronization --fix;
// never edit the fixed copy by hand.
#include <cuda_runtime.h>

// The classic last-warp reduction, inline (CUDA samples' reduce4 style).
__global__ void reduceInline(const int *in, int *out) {
  __shared__ int sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    volatile int *vs = sdata;
    vs[tid] += vs[tid + 32];
    vs[tid] += vs[tid + 16];
    vs[tid] += vs[tid + 8];
    vs[tid] += vs[tid + 4];
    vs[tid] += vs[tid + 2];
    vs[tid] += vs[tid + 1];
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// The same through a __device__ helper taking a volatile pointer.
__device__ void warpReduce(volatile int *sdata, unsigned tid) {
  sdata[tid] += sdata[tid + 32];
  sdata[tid] += sdata[tid + 16];
  sdata[tid] += sdata[tid + 8];
  sdata[tid] += sdata[tid + 4];
  sdata[tid] += sdata[tid + 2];
  sdata[tid] += sdata[tid + 1];
}

__global__ void reduceHelper(const int *in, int *out) {
  __shared__ int sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32)
    warpReduce(sdata, tid);
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// An inclusive scan of each warp in shared memory.
__global__ void warpScan(const int *in, int *out) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  int lane = tid & 31;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncwarp();
  if (lane >= 1) s[tid] += s[tid - 1];
  if (lane >= 2) s[tid] += s[tid - 2];
  if (lane >= 4) s[tid] += s[tid - 4];
  if (lane >= 8) s[tid] += s[tid - 8];
  if (lane >= 16) s[tid] += s[tid - 16];
  out[blockIdx.x * blockDim.x + tid] = s[tid];
}

// Each lane passes its value to the previous lane, 'steps' times.
__global__ void rotate(const int *in, int *out, int steps) {
  __shared__ int ring[256];
  unsigned tid = threadIdx.x;
  unsigned lane = tid % 32;
  unsigned base = tid - lane;
  int v = in[blockIdx.x * blockDim.x + tid];
  for (int i = 0; i < steps; ++i) {
    ring[tid] = v;
    v = ring[base + ((lane + 1) & 31)];
  }
  out[blockIdx.x * blockDim.x + tid] = v;
}
