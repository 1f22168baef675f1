// For an architecture-specific target (sm_90a) ptxas accepts static shared
// memory up to the per-block maximum (232448 bytes on sm_90a): over it is an
// error; between 48 KiB and it, the kernel builds only for such targets.
// RUN: %check_cuda_tidy --checks=cuda-static-shared-memory-limit %s %t -- %cuda_args --cuda-gpu-arch=sm_90a
// RUN: %check_cuda_tidy --checks=cuda-static-shared-memory-limit --config="{CheckOptions: {cuda.TargetArch: sm_90a}}" %s %t.host -- %cuda_args --cuda-host-only
#include <cuda_runtime.h>

__global__ void fused(const float *in, float *out) {
  // warning@-1:17 {{kernel 'fused' uses 232448 bytes of static shared memory and builds only for architecture-specific targets such as 'sm_90a'}} [cuda-static-shared-memory-limit]
  __shared__ float stages[227 * 256];
  // note@-1:20 {{'stages' takes 232448 bytes of shared memory}}
  stages[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = stages[blockDim.x - 1 - threadIdx.x];
}

__global__ void tooBig(const float *in, float *out) {
  // warning@-1:17 {{kernel 'tooBig' uses 233472 bytes of static shared memory, more than the 232448 bytes 'sm_90a' allows per block}}
  __shared__ float stages[228 * 256];
  // note@-1:20 {{'stages' takes 233472 bytes of shared memory}}
  stages[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = stages[0];
}
