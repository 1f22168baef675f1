// Tiles reused across iterations: a loop that refills a tile each iteration
// needs a barrier after the reads, or the next iteration's writes overwrite
// what a slower warp still reads. Double buffering halves the barriers but
// keeps one per iteration.
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race,cuda-divergent-barrier \
// RUN:   --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// A 1-D convolution over chunks: each iteration loads 256 inputs and every
// thread reads eight of them; with no barrier after the reads the next
// chunk's loads race with them.
__global__ void chunkedConv(const float *in, const float *w, float *out,
                            int chunks) {
  __shared__ float buf[256 + 8];
  float acc = 0.f;
  for (int c = 0; c < chunks; ++c) {
    buf[threadIdx.x] = in[c * 256 + threadIdx.x];
    // warning@-1:5 {{threads of different warps race on shared memory 'buf' with no barrier between a read and a write}}
    // note@+10:21 {{thread 31 reads 'buf[32]' here}}
    // note@-3:5 {{thread 32, in another warp, writes it here in the same barrier interval}}
    // note@-5:3 {{the next iteration of this loop reaches the second access before any barrier}}
    // The halo's load is the same missing barrier: a note of the warning.
    // note@+6:21 {{the same missing barrier: thread 255 reads 'buf[256]' here}}
    // note@+2:7 {{and thread 0, in another warp, writes it here; the same '__syncthreads()' orders the two}}
    if (threadIdx.x < 8)
      buf[256 + threadIdx.x] = in[c * 256 + 256 + threadIdx.x];
    __syncthreads();
    for (int k = 0; k < 8; ++k)
      acc += w[k] * buf[threadIdx.x + k];
  }
  out[blockIdx.x * 256 + threadIdx.x] = acc;
}
// FIXED: {{^}}      acc += w[k] * buf[threadIdx.x + k];{{$}}
// FIXED-NEXT: {{^}}    __syncthreads();{{$}}
// FIXED-NEXT: {{^}}  }{{$}}

__global__ void chunkedConvSync(const float *in, const float *w, float *out,
                                int chunks) {
  __shared__ float buf[256 + 8];
  float acc = 0.f;
  for (int c = 0; c < chunks; ++c) {
    buf[threadIdx.x] = in[c * 256 + threadIdx.x];
    if (threadIdx.x < 8)
      buf[256 + threadIdx.x] = in[c * 256 + 256 + threadIdx.x];
    __syncthreads();
    for (int k = 0; k < 8; ++k)
      acc += w[k] * buf[threadIdx.x + k];
    __syncthreads();
  }
  out[blockIdx.x * 256 + threadIdx.x] = acc;
}

// Double buffering: iteration c reads buffer c % 2 and fills the other one
// for c + 1; the one barrier per iteration orders both (the buffer read in
// iteration c is refilled in c + 1, after that iteration's barrier). Silent.
__global__ void doubleBuffered(const float *in, float *out, int chunks) {
  __shared__ float buf[2][256];
  buf[0][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  float acc = 0.f;
  for (int c = 0; c < chunks; ++c) {
    int cur = c % 2;
    if (c + 1 < chunks)
      buf[1 - cur][threadIdx.x] = in[(c + 1) * 256 + threadIdx.x];
    acc += buf[cur][255 - threadIdx.x];
    __syncthreads();
  }
  out[blockIdx.x * 256 + threadIdx.x] = acc;
}

// The same with the reads and the refill of one buffer: the barrier in the
// middle does not order the reads before the next iteration's refill.
__global__ void singleBuffered(const float *in, float *out, int chunks) {
  __shared__ float buf[256];
  float acc = 0.f;
  for (int c = 0; c < chunks; ++c) {
    buf[threadIdx.x] = in[c * 256 + threadIdx.x];
    // warning@-1:5 {{threads of different warps race on shared memory 'buf' with no barrier between a read and a write}}
    // note@+4:12 {{thread 0 reads 'buf[255]' here}}
    // note@-3:5 {{thread 255, in another warp, writes it here in the same barrier interval}}
    // note@-5:3 {{the next iteration of this loop reaches the second access before any barrier}}
    __syncthreads();
    acc += buf[255 - threadIdx.x];
  }
  out[blockIdx.x * 256 + threadIdx.x] = acc;
}
// FIXED: {{^}}__global__ void singleBuffered(
// FIXED: {{^}}    acc += buf[255 - threadIdx.x];{{$}}
// FIXED-NEXT: {{^}}    __syncthreads();{{$}}
// FIXED-NEXT: {{^}}  }{{$}}

void launch(const float *in, const float *w, float *out, int chunks) {
  chunkedConv<<<64, 256>>>(in, w, out, chunks);
  chunkedConvSync<<<64, 256>>>(in, w, out, chunks);
  doubleBuffered<<<64, 256>>>(in, out, chunks);
  singleBuffered<<<64, 256>>>(in, out, chunks);
}
