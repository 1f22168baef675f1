// Stride loops: a loop whose variable starts at the thread's index and moves
// by the same step in every thread (`for (int pos = threadIdx.x; pos < n;
// pos += blockDim.x)`, the block-stride loop) is enumerated iteration by
// iteration, each thread's variable its start plus that many steps; the
// loop's test decides which lanes run each iteration. A position such a loop
// hands to a helper binds the helper's parameter per iteration.
// RUN: %check_cuda_tidy --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// Sums of 32-element segments, one lockstep tree per segment, each warp
// taking one segment per iteration of the block's stride loop.
__device__ void segmentTail(volatile float *s, int pos) {
  if ((pos & 31) < 16) s[pos] += s[pos + 16];
  if ((pos & 31) < 8) s[pos] += s[pos + 8];
  // warning@-1:33 {{lanes of a warp exchange data through shared memory 's' with no '__syncwarp' between the write and the read}}
  // note@-3:24 {{lane 8 writes the element here}}
  // note@-3:33 {{lane 0 reads it here, and no barrier orders the two}}
  // note@-4:33 {{independent thread scheduling}}
  // note@30:5 {{shared memory 's' is passed to 'segmentTail' here}}
  // FIXED: {{^}}  if ((pos & 31) < 16) { s[pos] += s[pos + 16]; __syncwarp(0x0000ffff); }{{$}}
  // FIXED-NEXT: {{^}}  if ((pos & 31) < 8) { s[pos] += s[pos + 8]; __syncwarp(0x000000ff); }{{$}}
}

__global__ void segmentSums(const float *in, float *out) {
  __shared__ float s[2048 + 32];
  for (int pos = threadIdx.x; pos < 2048; pos += 256)
    s[pos] = in[blockIdx.x * 2048 + pos];
  __syncthreads();
  for (int pos = threadIdx.x; pos < 2048; pos += 256)
    segmentTail(s, pos);
  __syncthreads();
  if (threadIdx.x < 64)
    out[blockIdx.x * 64 + threadIdx.x] = s[threadIdx.x * 32];
}

// Each 32-element group rotated left by one, in place: each lane reads its
// right neighbour's element before that lane overwrites it.
__global__ void groupRotate(int *io) {
  __shared__ int r[1024];
  for (int c = threadIdx.x; c < 1024; c += blockDim.x)
    r[c] = io[c];
  __syncthreads();
  for (int c = threadIdx.x; c < 1024; c += blockDim.x) {
    int v = r[(c & ~31) | ((c + 1) & 31)];
    r[c] = v;
    // warning@-2:13 {{lanes of a warp exchange data through shared memory 'r' with no '__syncwarp' between the write and the read}}
    // note@-2:5 {{lane 1 writes the element here}}
    // note@-4:13 {{lane 0 reads it here, and no barrier orders the two}}
    // note@-5:13 {{independent thread scheduling}}
    // FIXED: {{^}}    int v = r[(c & ~31) | ((c + 1) & 31)];{{$}}
    // FIXED-NEXT: {{^}}    __syncwarp(0xffffffff);{{$}}
    // FIXED-NEXT: {{^}}    r[c] = v;{{$}}
    // FIXED-NEXT: {{^}}    __syncwarp(0xffffffff);{{$}}
  }
  __syncthreads();
  for (int c = threadIdx.x; c < 1024; c += blockDim.x)
    io[c] = r[c];
}

// Correct counterparts, silent.

// The rotation with the warp synchronised between the read and the write;
// the next iteration's elements are a whole step away.
__global__ void groupRotateSynced(int *io) {
  __shared__ int r[1024];
  for (int c = threadIdx.x; c < 1024; c += blockDim.x)
    r[c] = io[c];
  __syncthreads();
  for (int c = threadIdx.x; c < 1024; c += blockDim.x) {
    int v = r[(c & ~31) | ((c + 1) & 31)];
    __syncwarp();
    r[c] = v;
  }
  __syncthreads();
  for (int c = threadIdx.x; c < 1024; c += blockDim.x)
    io[c] = r[c];
}

// Every lane updates only its own elements.
__global__ void scaleInPlace(int *io) {
  __shared__ int r[1024];
  for (int c = threadIdx.x; c < 1024; c += blockDim.x)
    r[c] = r[c] * 2 + io[c];
  __syncthreads();
  io[threadIdx.x] = r[threadIdx.x];
}

// A step that differs between threads is not a stride loop: not analysed.
__global__ void stepPerThread(int *io) {
  __shared__ int r[4096 + 1];
  for (int c = threadIdx.x; c < 4096; c += threadIdx.x + 1)
    r[c] += r[c + 1];
  __syncthreads();
  io[threadIdx.x] = r[threadIdx.x];
}

void launchAll(const float *in, float *out, int *data) {
  segmentSums<<<8, 256>>>(in, out);
  groupRotate<<<1, 256>>>(data);
  groupRotateSynced<<<1, 256>>>(data);
  scaleInPlace<<<1, 256>>>(data);
  stepPerThread<<<1, 256>>>(data);
}
