// EarlyReadable names the buffers no earlier kernel in the stream writes
// (weights, metadata copied before both launches): reads through them may
// come before the wait, which is what the overlap is for. Writes are still
// reported.
// RUN: %check_cuda_tidy --checks=cuda-programmatic-dependent-launch \
// RUN:   --config="{CheckOptions: {cuda-programmatic-dependent-launch.EarlyReadable: 'weight|SeqLens'}}" \
// RUN:   %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

struct Params {
  const float *weight;
  const int *cumSeqLens;
  const float *activation;
  float *out;
};

__global__ void gemv(Params p) {
  int row = blockIdx.x;
  // Silent: named by the option.
  float w = p.weight[row * blockDim.x + threadIdx.x];
  int begin = p.cumSeqLens[row];
  // Reported: the activation is the previous kernel's output.
  float x = p.activation[begin + threadIdx.x];
  // warning@-1:13 {{'p.activation' is read before this thread waits for the previous kernel}}
  // note@+2:3 {{'gemv' waits for the previous kernel here}}
  // note@-9:17 {{no launch of 'gemv' is visible}}
  cudaGridDependencySynchronize();
  p.out[begin + threadIdx.x] = w * x;
}

// A write through a matching name is still reported.
__global__ void updateWeights(float *weight, const float *grad) {
  weight[threadIdx.x] = 0.f;
  // warning@-1:3 {{'weight' is written before this thread waits for the previous kernel}}
  // note@+2:3 {{'updateWeights' waits for the previous kernel here}}
  // note@-4:17 {{no launch of 'updateWeights' is visible}}
  cudaGridDependencySynchronize();
  weight[threadIdx.x] -= grad[threadIdx.x];
}
