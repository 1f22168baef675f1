// Without the assumption that blockDim.x is a multiple of 32, a condition on
// threadIdx.x is never warp-uniform: the warning names threads, and
// __syncwarp under 'threadIdx.x < 32' is flagged too.
// RUN: %check_cuda_tidy --checks=cuda-divergent-barrier \
// RUN:   --config="{CheckOptions: {cuda-divergent-barrier.BlockSizeMultipleOf32: false}}" \
// RUN:   %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__global__ void firstWarp(float *data) {
  if (threadIdx.x < 32) {
    data[threadIdx.x] = 0.0f;
    __syncthreads();
    // warning@-1:5 {{'__syncthreads' is reached by only some threads of the block}}
    // note@-4:7 {{the condition depends on 'threadIdx.x', which differs between threads}}
    __syncwarp();
    // warning@-1:5 {{'__syncwarp' with a full mask is reached by only some lanes of the warp}}
    // note@-7:7 {{the condition depends on 'threadIdx.x', which differs between threads}}
  }
  // The threads that skipped go on working.
  data[blockDim.x + threadIdx.x] = 1.0f;
}
