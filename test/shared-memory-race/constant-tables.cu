// Indices read from a local array of constants (`int stride[4] = {0, 256,
// ...}; s[stride[k] + tid]`): the array is never written, so its elements
// are the constants, not values loaded from memory that could name any
// element.
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race \
// RUN:   --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

#define THREADS 256

// Each thread writes four elements and reads the same four back through
// the table: its own elements, no barrier needed. silent.
__global__ void ownElements(const float *in, float *out) {
  __shared__ float s[4 * THREADS];
  int stride[4] = {0, THREADS, 2 * THREADS, 3 * THREADS};
  const int t = threadIdx.x;
  for (int k = 0; k < 4; ++k)
    s[k * THREADS + t] = in[blockIdx.x * 4 * THREADS + k * THREADS + t];
  float sum = 0;
  for (int k = 0; k < 4; ++k)
    sum += s[stride[k] + t];
  out[blockIdx.x * THREADS + t] = sum;
}

// A const table of offsets, the rows in reverse, each with the thread's own
// index: its own elements again. silent.
__global__ void constOffsets(const float *in, float *out) {
  __shared__ float s[4 * THREADS];
  const int offset[4] = {3 * THREADS, 2 * THREADS, THREADS, 0};
  const int t = threadIdx.x;
  for (int k = 0; k < 4; ++k)
    s[k * THREADS + t] = in[blockIdx.x * 4 * THREADS + k * THREADS + t];
  float best = s[offset[0] + t];
  for (int k = 1; k < 4; ++k)
    best = best < s[offset[k] + t] ? s[offset[k] + t] : best;
  out[blockIdx.x * THREADS + t] = best;
}

// The counterpart: the reads mirror the writes, thread t reads what
// thread 255 - t (another warp) wrote, with no barrier between.
__global__ void mirrored(const float *in, float *out) {
  __shared__ float s[4 * THREADS];
  int stride[4] = {0, THREADS, 2 * THREADS, 3 * THREADS};
  const int t = threadIdx.x;
  for (int k = 0; k < 4; ++k)
    s[stride[k] + t] = in[blockIdx.x * 4 * THREADS + stride[k] + t];
  float sum = 0;
  for (int k = 0; k < 4; ++k)
    sum += s[stride[k] + THREADS - 1 - t];
  // warning@-1:12 {{threads of different warps race on shared memory 's' with no barrier between a write and a read}}
  // note@-5:5 {{thread 255 writes 's[255]' here}}
  // note@-3:12 {{thread 0, in another warp, reads it here in the same barrier interval}}
  // FIXED: {{^}}    s[stride[k] + t] = in[blockIdx.x * 4 * THREADS + stride[k] + t];{{$}}
  // FIXED-NEXT: {{^}}  float sum = 0;{{$}}
  // FIXED-NEXT: {{^}}  __syncthreads();{{$}}
  // FIXED-NEXT: {{^}}  for (int k = 0; k < 4; ++k){{$}}
  // FIXED-NEXT: {{^}}    sum += s[stride[k] + THREADS - 1 - t];{{$}}
  out[blockIdx.x * THREADS + t] = sum;
}

// A table the kernel writes is not constant: the element it names is a
// loaded value (some input makes it another warp's), so the pair is kept.
__global__ void writtenTable(const float *in, const int *perm, float *out) {
  __shared__ float s[4 * THREADS];
  int stride[4] = {0, THREADS, 2 * THREADS, 3 * THREADS};
  const int t = threadIdx.x;
  stride[1] = perm[blockIdx.x];
  for (int k = 0; k < 4; ++k)
    s[k * THREADS + t] = in[blockIdx.x * 4 * THREADS + k * THREADS + t];
  float sum = 0;
  for (int k = 0; k < 4; ++k)
    sum += s[stride[k] + t];
  // warning@-1:12 {{threads of different warps race on shared memory 's' with no barrier between a write and a read}}
  // note@-5:5 {{thread 32 writes 's[32]' here}}
  // note@-3:12 {{thread 0, in another warp, reads it here in the same barrier interval}}
  // note@-4:12 {{the element thread 0 accesses comes from a loaded value: some input makes it the one thread 32 writes}}
  // FIXED: {{^}}  stride[1] = perm[blockIdx.x];{{$}}
  // FIXED-NEXT: {{^}}  for (int k = 0; k < 4; ++k){{$}}
  // FIXED-NEXT: {{^}}    s[k * THREADS + t] = in[blockIdx.x * 4 * THREADS + k * THREADS + t];{{$}}
  // FIXED-NEXT: {{^}}  float sum = 0;{{$}}
  // FIXED-NEXT: {{^}}  __syncthreads();{{$}}
  out[blockIdx.x * THREADS + t] = sum;
}

void launch(const float *in, const int *perm, float *out, int n) {
  ownElements<<<n, THREADS>>>(in, out);
  constOffsets<<<n, THREADS>>>(in, out);
  mirrored<<<n, THREADS>>>(in, out);
  writtenTable<<<n, THREADS>>>(in, perm, out);
}
