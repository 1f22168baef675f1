// With HIPCompatible, the early-exit idiom is flagged too: on AMD GPUs a
// 64-lane wavefront holds the exited and the waiting threads together.
// RUN: %check_cuda_tidy --checks=cuda-divergent-barrier \
// RUN:   --config="{CheckOptions: {cuda-divergent-barrier.HIPCompatible: true}}" \
// RUN:   %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__global__ void stencil1d(const float *in, float *out, int n) {
  __shared__ float tile[258];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x + 1] = in[i];
  __syncthreads();
  // warning@-1:3 {{'__syncthreads' is reached by only some threads of the block}} [cuda-divergent-barrier]
  // note@-4:5 {{threads that return here never reach the barrier; exited threads do not take part on NVIDIA GPUs, but on AMD GPUs}}
  // note@-6:7 {{the condition depends on 'i', which differs between threads}}
  // note@-8:3 {{'i' is set from 'threadIdx.x' here}}
  out[i] = tile[threadIdx.x] + tile[threadIdx.x + 2];
}

// A block-uniform early exit is fine on both vendors.
__global__ void uniformExit(float *data, int blocks) {
  if (blockIdx.x >= blocks)
    return;
  __syncthreads();
  data[threadIdx.x] = 0.0f;
}
