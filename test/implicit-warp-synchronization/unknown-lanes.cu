// Exchanges whose lanes the model cannot pin down are reported without a
// fix.
// RUN: %check_cuda_tidy %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// The lanes that take part change with the loop: no single mask.
__global__ void scanLoop(int *data) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  int lane = tid & 31;
  s[tid] = data[tid];
  __syncthreads();
  for (int d = 1; d < 32; d *= 2)
    if (lane >= d)
      s[tid] += s[tid - d];
  // warning@-1:17 {{lanes of a warp exchange data through shared memory 's' with no '__syncwarp' between the write and the read; no fix: the lanes that run it are not known}}
  // note@-2:7 {{lane 1 writes the element here}}
  // note@-3:17 {{lane 2 reads it here}}
  // note@-4:17 {{independent thread scheduling}}
  __syncthreads();
  data[tid] = s[tid];
}

// The lanes depend on loaded data.
__global__ void dataDependent(int *data) {
  __shared__ int s[32];
  int lane = threadIdx.x & 31;
  s[lane] = data[lane];
  if (data[lane + 32] > 0)
    s[lane] += s[lane ^ 1];
  // warning@-1:16 {{no fix: the lanes that run it are not known}}
  // note@-4:3 {{lane 1 writes the element here}}
  // note@-3:16 {{lane 0 reads it here}}
  // note@-4:16 {{independent thread scheduling}}
}
