// WarnArchSpecificOnly=false: on an architecture-specific target only what
// exceeds the per-block maximum is reported.
// RUN: %check_cuda_tidy --checks=cuda-static-shared-memory-limit --config="{CheckOptions: {cuda-static-shared-memory-limit.WarnArchSpecificOnly: false}}" %s %t -- %cuda_args --cuda-gpu-arch=sm_100a
#include <cuda_runtime.h>

// Silent: 100 KiB builds for sm_100a.
__global__ void fused(const float *in, float *out) {
  __shared__ float stages[100 * 256];
  stages[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = stages[0];
}

__global__ void tooBig(const float *in, float *out) {
  // warning@-1:17 {{kernel 'tooBig' uses 262144 bytes of static shared memory, more than the 232448 bytes 'sm_100a' allows per block}}
  __shared__ float stages[256 * 256];
  // note@-1:20 {{'stages' takes 262144 bytes of shared memory}}
  stages[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = stages[0];
}
