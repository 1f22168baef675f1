// A launcher template given the kernel (`launchPdl(kernel, stream,
// args...)`): its cudaLaunchKernelEx launches, at each call, the kernel
// given there, with the arguments given there.
// RUN: %check_cuda_tidy --checks=cuda-programmatic-dependent-launch \
// RUN:   %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

template <class K, class... Args>
cudaError_t launchPdl(K kernel, cudaStream_t stream, Args... args) {
  cudaLaunchAttribute attrs[1];
  attrs[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attrs[0].val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(1);
  config.blockDim = dim3(128);
  config.stream = stream;
  config.attrs = attrs;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, kernel, args...);
}

__global__ void producer(const float *weights, float *act) {
  cudaTriggerProgrammaticLaunchCompletion();
  act[threadIdx.x] = weights[threadIdx.x] * 2.f;
}

__global__ void readsActivation(const float *act, float *out) {
  float v = act[threadIdx.x]; // warning@28:13 {{'act' is read before this thread waits for the previous kernel}}
  cudaGridDependencySynchronize(); // note@29:3 {{'readsActivation' waits for the previous kernel here}}
  out[threadIdx.x] = v; // note@42:3 {{'producer', launched here earlier in the stream, may still run when 'readsActivation' starts, and write what 'readsActivation' reads through 'act'}}
} // note@43:3 {{'readsActivation' is launched with programmatic stream serialization here}}

__global__ void readsWeights(const float *weights, float *out) {
  // Silent: the kernels that may still run only read the weights.
  float w = weights[threadIdx.x];
  cudaGridDependencySynchronize();
  out[threadIdx.x] = w;
}

void forward(const float *weights, float *act, float *out, float *out2,
             cudaStream_t stream) {
  producer<<<1, 128, 0, stream>>>(weights, act);
  launchPdl(readsActivation, stream, (const float *)act, out);
  launchPdl(readsWeights, stream, weights, out2);
}
