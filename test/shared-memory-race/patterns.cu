// Kernels with no launch in the file: a broadcast from thread 0 (what
// tells the warps apart is which threads run the write), and template
// kernels that are never instantiated here (a header library's), reported
// through the pattern.
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race \
// RUN:   --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// Thread 0 loads a per-block scale that every thread then reads: thread
// 32 may read it before thread 0 has written it.
__global__ void scaleRow(const float *scale, const float *in, float *out) {
  __shared__ float s;
  if (threadIdx.x == 0)
    s = scale[blockIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] =
      in[blockIdx.x * blockDim.x + threadIdx.x] * s;
  // warning@-1:51 {{threads of different warps race on shared memory 's' with no barrier between a write and a read in blocks of 64 to 1024 threads}}
  // note@-4:5 {{thread 0 writes 's' here}}
  // note@-3:51 {{thread 32, in another warp, reads it here in the same barrier interval}}
}
// FIXED: {{^}}    s = scale[blockIdx.x];{{$}}
// FIXED-NEXT: {{^}}  __syncthreads();{{$}}
// FIXED-NEXT: {{^}}  out[blockIdx.x * blockDim.x + threadIdx.x] ={{$}}

__global__ void scaleRowSync(const float *scale, const float *in, float *out) {
  __shared__ float s;
  if (threadIdx.x == 0)
    s = scale[blockIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] =
      in[blockIdx.x * blockDim.x + threadIdx.x] * s;
}

// The first lane of each warp writes its warp's slot: threads T and T + 32
// run alike, so the kernel is read as one written for a single warp (its
// one slot per warp is never read across warps here): silent.
__global__ void perWarpSlot(const float *in, float *out) {
  __shared__ float slot[32];
  unsigned lane = threadIdx.x % 32;
  if (lane == 0)
    slot[0] = in[blockIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = slot[0];
}

// A template kernel, never instantiated in this file: the shared array's
// type does not depend on the template parameter, so the pattern is
// analysed as it stands.
template <typename Op>
__global__ void rotateT(float *data, Op op) {
  __shared__ float buf[256];
  unsigned t = threadIdx.x;
  buf[t] = op(data[blockIdx.x * blockDim.x + t]);
  data[blockIdx.x * blockDim.x + t] = buf[(t + 32) % 256];
  // warning@-1:39 {{threads of different warps race on shared memory 'buf' with no barrier between a write and a read in blocks of 64 to 256 threads}}
  // note@-3:3 {{thread 32 writes 'buf[32]' here}}
  // note@-3:39 {{thread 0, in another warp, reads it here in the same barrier interval}}
}
// FIXED: {{^}}  buf[t] = op(data[blockIdx.x * blockDim.x + t]);{{$}}
// FIXED-NEXT: {{^}}  __syncthreads();{{$}}
// FIXED-NEXT: {{^}}  data[blockIdx.x * blockDim.x + t] = buf[(t + 32) % 256];{{$}}

template <typename Op>
__global__ void rotateSyncT(float *data, Op op) {
  __shared__ float buf[256];
  unsigned t = threadIdx.x;
  buf[t] = op(data[blockIdx.x * blockDim.x + t]);
  __syncthreads();
  data[blockIdx.x * blockDim.x + t] = buf[(t + 32) % 256];
}

// The broadcast in a pattern whose parameter is the flag type.
template <bool Scaled>
__global__ void broadcastT(const float *scale, float *out) {
  __shared__ float s;
  if (threadIdx.x == 0)
    s = Scaled ? scale[blockIdx.x] : 1.0f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
  // warning@-1:48 {{threads of different warps race on shared memory 's' with no barrier between a write and a read in blocks of 64 to 1024 threads}}
  // note@-3:5 {{thread 0 writes 's' here}}
  // note@-3:48 {{thread 32, in another warp, reads it here in the same barrier interval}}
}
// FIXED: {{^}}    s = Scaled ? scale[blockIdx.x] : 1.0f;{{$}}
// FIXED-NEXT: {{^}}  __syncthreads();{{$}}
// FIXED-NEXT: {{^}}  out[blockIdx.x * blockDim.x + threadIdx.x] = s;{{$}}

template <bool Scaled>
__global__ void broadcastSyncT(const float *scale, float *out) {
  __shared__ float s;
  if (threadIdx.x == 0)
    s = Scaled ? scale[blockIdx.x] : 1.0f;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
