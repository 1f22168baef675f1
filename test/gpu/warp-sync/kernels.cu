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

// An exclusive warp scan two calls below the kernel that declares the
// array (stream-compaction style: each warp scans in a 64-element window
// whose lower half is zero).
__device__ int scanWarp(int v, volatile int *s) {
  int lane = threadIdx.x & 31;
  int idx = 2 * threadIdx.x - lane + 32;
  s[idx - 32] = 0;
  s[idx] = v;
  s[idx] += s[idx - 1];
  s[idx] += s[idx - 2];
  s[idx] += s[idx - 4];
  s[idx] += s[idx - 8];
  s[idx] += s[idx - 16];
  return s[idx] - v;
}

__device__ int scanBlock(int v, int *s) {
  int r = scanWarp(v, s);
  __syncthreads();
  return r;
}

__global__ void scanTwoDeep(const int *in, int *out) {
  __shared__ int s[512];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = scanBlock(in[i], s);
}

// Stream compaction: lane 0 reserves the warp's range in the output, every
// kept element is stored at its rank in it.
__global__ void compact(const int *in, int *out, int *total) {
  __shared__ int base[8];
  int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool keep = in[i] > 0;
  unsigned m = __ballot_sync(0xffffffff, keep);
  int rank = __popc(m & ((1u << lane) - 1));
  if (lane == 0)
    base[warp] = atomicAdd(total, __popc(m));
  if (keep)
    out[base[warp] + rank] = i;
}
