// Waits through wrappers (CUTLASS's arch::wait_on_dependent_grids shape),
// and a wrapper whose asm a macro leaves out while the host still sets the
// attribute.
// RUN: %check_cuda_tidy --checks=cuda-programmatic-dependent-launch \
// RUN:   %s %t -- %cuda_args --cuda-gpu-arch=sm_90 -DENABLE_GDC
// With the macro off the wrapper is empty: the kernel launched with the
// attribute never waits.
// RUN: %check_cuda_tidy --checks=cuda-programmatic-dependent-launch \
// RUN:   --expect-prefix=OFF %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

namespace arch {
__device__ __forceinline__ void wait_on_dependent_grids() {
#if defined(ENABLE_GDC)
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
__device__ __forceinline__ void launch_dependent_grids() {
#if defined(ENABLE_GDC)
  asm volatile("griddepcontrol.launch_dependents;" :::);
#endif
}
} // namespace arch

struct Params {
  const float *a;
  const float *b;
  float *c;
  int n;
};

// The wrapper waits: the load of 'a' before it is reported.
__global__ void gemmLike(Params params) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = params.a[i];
  // warning@-1:13 {{'params.a' is read before this thread waits for the previous kernel}}
  // note@+2:3 {{'gemmLike' waits for the previous kernel here}}
  // note@-5:17 {{no launch of 'gemmLike' is visible; as it waits for the previous kernel, it is taken to be launched with programmatic stream serialization}}
  arch::wait_on_dependent_grids();
  params.c[i] = x * params.b[i];
  arch::launch_dependent_grids();
}

// Silent: the wrapper first, and a block barrier after one thread's wait.
__global__ void gemmLikeRight(Params params) {
  __shared__ float bias;
  if (threadIdx.x == 0) {
    arch::wait_on_dependent_grids();
    bias = params.b[0];
  }
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  params.c[i] = params.a[i] + bias;
}

// Silent with the macro on; with it off, the kernel never waits although
// its launch sets the attribute.
__global__ void elementwise(Params params) {
// OFF-warning@-1:17 {{kernel 'elementwise' is launched with programmatic stream serialization but never waits for the previous kernel}}
// OFF-note@+16:21 {{'elementwise' is launched with programmatic stream serialization here}}
// OFF-note@+4:3 {{'wait_on_dependent_grids' does not wait in this compilation: its wait is compiled out}}
// OFF-note@+5:3 {{'params.c' is written here with no wait before it}}
// OFF-note@-5:17 {{a later kernel's wait orders it only after 'elementwise', not after the kernels before 'elementwise'}}
// OFF-note@+1:3 {{call 'cudaGridDependencySynchronize()' before the kernel reads what the previous kernel writes (sm_90 and later)}}
  arch::wait_on_dependent_grids();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  params.c[i] = params.a[i] + params.b[i];
}

void launch(Params params, cudaStream_t stream, bool pdl) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(params.n / 128);
  config.blockDim = dim3(128);
  config.stream = stream;
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute[0].val.programmaticStreamSerializationAllowed = pdl;
  config.attrs = attribute;
  config.numAttrs = 1;
  cudaLaunchKernelEx(&config, elementwise, params);
}
