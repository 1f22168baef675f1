// Values that are the same in every thread of the block although a part of
// them comes from the thread index:
//  - `(i / blockDim.x) * blockDim.x` with `i = threadIdx.x + k *
//    blockDim.x`: since `threadIdx.x < blockDim.x`, the quotient is k;
//  - one field of a local struct set from the thread index does not make
//    its other fields vary (`p.x` from `threadIdx.x`, `p.y` from a
//    parameter).
// Each silent kernel has a counterpart beside it that must still warn.
// RUN: %check_cuda_tidy --checks=cuda-divergent-barrier %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// The chunk a thread's element falls in: the block's k-th chunk in every
// thread.
__global__ void chunked(float *out, int n, int k) {
  __shared__ float s[1024];
  int i = threadIdx.x + k * blockDim.x;
  int base = (i / blockDim.x) * blockDim.x;
  if (base < n) {
    s[threadIdx.x] = out[i];
    __syncthreads();
    out[i] = s[blockDim.x - 1 - threadIdx.x];
  }
}

// The same in a block-stride loop.
__global__ void chunkedLoop(float *out, int n) {
  __shared__ float s[1024];
  for (int i = threadIdx.x; i < 4 * blockDim.x; i += blockDim.x) {
    int chunk = i / blockDim.x;
    if (chunk * blockDim.x < n) {
      s[threadIdx.x] = out[i];
      __syncthreads();
      out[i] = s[blockDim.x - 1 - threadIdx.x];
    }
  }
}

// Counterpart: twice the thread index can reach the next chunk.
__global__ void chunkedTwice(float *out, int n, int k) {
  __shared__ float s[1024];
  int i = 2 * threadIdx.x + k * blockDim.x;
  int base = (i / blockDim.x) * blockDim.x;
  if (base < n) {
    s[threadIdx.x] = out[i];
    __syncthreads();
    // warning@-1:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another}}
    // note@-4:7 {{the condition depends on 'base', which differs between threads}}
    // note@-6:3 {{'base' is set from 'i' here}}
    // note@-8:3 {{'i' is set from 'threadIdx.x' here}}
    out[i] = s[blockDim.x - 1 - threadIdx.x];
  }
}

// Counterpart: the offset is not a multiple of the block's size.
__global__ void chunkedOffset(float *out, int n, int k) {
  __shared__ float s[1024];
  int i = threadIdx.x + k;
  int base = (i / blockDim.x) * blockDim.x;
  if (base < n) {
    s[threadIdx.x] = out[i];
    __syncthreads();
    // warning@-1:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another}}
    // note@-4:7 {{the condition depends on 'base', which differs between threads}}
    // note@-6:3 {{'base' is set from 'i' here}}
    // note@-8:3 {{'i' is set from 'threadIdx.x' here}}
    out[i] = s[blockDim.x - 1 - threadIdx.x];
  }
}

struct Pos {
  int x, y;
};

// 'p.y' is the parameter in every thread; only 'p.x' varies.
__global__ void fieldApart(float *out, int rows) {
  __shared__ float s[256];
  Pos p;
  p.x = threadIdx.x;
  p.y = rows;
  if (p.y > 4) {
    s[p.x] = out[p.x];
    __syncthreads();
    out[p.x] = s[255 - p.x];
  }
}

// The same, initialised with braces.
__global__ void fieldApartInit(float *out, int rows) {
  __shared__ float s[256];
  Pos p = {(int)threadIdx.x, rows};
  if (p.y > 4) {
    s[p.x] = out[p.x];
    __syncthreads();
    out[p.x] = s[255 - p.x];
  }
}

// Counterpart: the condition reads the field that varies.
__global__ void fieldVaries(float *out, int rows) {
  __shared__ float s[256];
  Pos p;
  p.x = threadIdx.x;
  p.y = rows;
  if (p.x > 4) {
    s[p.x] = out[p.x];
    __syncthreads();
    // warning@-1:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another}}
    // note@-4:7 {{the condition depends on 'p.x', which differs between threads}}
    // note@-7:3 {{'p.x' is set from 'threadIdx.x' here}}
    out[p.x] = s[255 - p.x];
  }
}

// Counterpart: the whole struct is copied from one whose x varies (the
// copy carries every field), and the copy's x is compared.
__global__ void fieldCopied(float *out, int rows) {
  __shared__ float s[256];
  Pos p, q;
  p.x = threadIdx.x;
  p.y = rows;
  q = p;
  if (q.x > 4) {
    s[q.y] = out[q.y];
    __syncthreads();
    // warning@-1:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another}}
    // note@-4:7 {{the condition depends on 'q', which differs between threads}}
    // note@-6:3 {{'q' is set here by a call or inline assembly whose result differs between threads}}
    out[q.y] = s[255 - q.y];
  }
}
