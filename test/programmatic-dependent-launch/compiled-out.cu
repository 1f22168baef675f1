// A wait that a compilation of the build leaves out: the kernel is still
// launched with the attribute, and on that architecture it reads its input
// before the previous kernel has finished.
// RUN: %check_cuda_tidy --checks=cuda-programmatic-dependent-launch \
// RUN:   %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// Analysed for sm_100 (the wait is there), with the build's architectures
// given through the driver's macro: sm_90 still loses the wait.
// RUN: %check_cuda_tidy --checks=cuda-programmatic-dependent-launch \
// RUN:   --expect-prefix=BUILD %s %t -- %cuda_args --cuda-gpu-arch=sm_100 \
// RUN:   -D__CUDA_TIDY_BUILD_ARCHS__=compute_90,compute_100
// Analysed for sm_100 alone: nothing is compiled out.
// RUN: %check_cuda_tidy --checks=cuda-programmatic-dependent-launch \
// RUN:   --expect-prefix=SM100 %s %t -- %cuda_args --cuda-gpu-arch=sm_100
#include <cuda_runtime.h>

__global__ void waitOnlyOnBlackwell(const float *in, float *out) {
#if __CUDA_ARCH__ >= 1000
  cudaGridDependencySynchronize();
  // warning@-1:3 {{the wait for the previous kernel is compiled out for sm_90, where 'waitOnlyOnBlackwell' may still start early}}
  // note@-3:1 {{this branch is not compiled for sm_90}}
  // note@+42:13 {{'waitOnlyOnBlackwell' is launched with programmatic stream serialization here, so it may start before the previous kernel in the stream finishes}}
  // BUILD-warning@-4:3 {{the wait for the previous kernel is compiled out for sm_90, where 'waitOnlyOnBlackwell' may still start early}}
  // BUILD-note@-6:1 {{this branch is not compiled for sm_90}}
  // BUILD-note@+39:13 {{'waitOnlyOnBlackwell' is launched with programmatic stream serialization here}}
#endif
  out[threadIdx.x] = in[threadIdx.x];
}

// Silent: the wait is compiled for sm_90 and later; older GPUs ignore the
// attribute and run the kernel in stream order.
__global__ void waitFromHopper(const float *in, float *out) {
#if __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
  out[threadIdx.x] = in[threadIdx.x];
}

// No launch visible, but the kernel's text waits: its author expects it to
// start early.
__global__ void unseenWaitOnlyOnBlackwell(const float *in, float *out) {
  float v = in[threadIdx.x];
#if __CUDA_ARCH__ >= 1000
  asm volatile("griddepcontrol.wait;" ::: "memory");
  // warning@-1:17 {{the wait for the previous kernel is compiled out for sm_90, where 'unseenWaitOnlyOnBlackwell' may still start early}}
  // note@-3:1 {{this branch is not compiled for sm_90}}
  // note@-6:17 {{no launch of 'unseenWaitOnlyOnBlackwell' is visible; as it waits for the previous kernel, it is taken to be launched with programmatic stream serialization}}
  // BUILD-warning@-4:17 {{the wait for the previous kernel is compiled out for sm_90, where 'unseenWaitOnlyOnBlackwell' may still start early}}
  // BUILD-note@-6:1 {{this branch is not compiled for sm_90}}
  // BUILD-note@-9:17 {{no launch of 'unseenWaitOnlyOnBlackwell' is visible}}
  // With the wait in the analysed compilation, the read before it:
  // BUILD-warning@-10:13 {{'in' is read before this thread waits for the previous kernel}}
  // BUILD-note@-9:3 {{'unseenWaitOnlyOnBlackwell' waits for the previous kernel here}}
  // BUILD-note@-13:17 {{no launch of 'unseenWaitOnlyOnBlackwell' is visible}}
  // SM100-warning@-13:13 {{'in' is read before this thread waits for the previous kernel}}
  // SM100-note@-12:3 {{'unseenWaitOnlyOnBlackwell' waits for the previous kernel here}}
  // SM100-note@-16:17 {{no launch of 'unseenWaitOnlyOnBlackwell' is visible}}
#endif
  out[threadIdx.x] = v;
}

void run(const float *in, float *out) {
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(1);
  config.blockDim = dim3(128);
  config.attrs = &attr;
  config.numAttrs = 1;
  cudaLaunchKernelEx(&config, waitOnlyOnBlackwell, in, out);
  cudaLaunchKernelEx(&config, waitFromHopper, in, out);
}
