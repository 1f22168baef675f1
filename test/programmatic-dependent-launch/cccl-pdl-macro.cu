// CCCL's own wait macro, _CCCL_PDL_GRID_DEPENDENCY_SYNC(): NV_IF_TARGET
// with NV_PROVIDES_SM_90, defined in a system header and used in the
// kernel (CUB's kernels do this).
// REQUIRES: cuda-toolkit
// An sm_80 build alone: an H100 runs its compute_80 PTX, which never waits.
// RUN: %check_cuda_tidy --checks=cuda-programmatic-dependent-launch \
// RUN:   --expect-prefix=SM80 %s %t -- %cuda_args --cuda-gpu-arch=sm_80
// sm_80 and sm_90: GPUs that launch early run the sm_90 code, which waits;
// analysed for either architecture, silent.
// RUN: %check_cuda_tidy --checks=cuda-programmatic-dependent-launch \
// RUN:   %s %t -- %cuda_args --cuda-gpu-arch=sm_80 \
// RUN:   -D__CUDA_TIDY_BUILD_ARCHS__=compute_80,compute_90
// RUN: %check_cuda_tidy --checks=cuda-programmatic-dependent-launch \
// RUN:   %s %t -- %cuda_args --cuda-gpu-arch=sm_90 \
// RUN:   -D__CUDA_TIDY_BUILD_ARCHS__=compute_80,compute_90
#include <cuda_runtime.h>
#include <cuda/std/__cccl/cuda_capabilities.h>

__global__ void scanLike(const float *in, float *out) {
  _CCCL_PDL_GRID_DEPENDENCY_SYNC();
  // SM80-warning@-1:3 {{the wait for the previous kernel is compiled out for sm_80, where 'scanLike' may still start early}}
  // SM80-note@-2:3 {{'NV_IF_TARGET' does not compile the wait for sm_80, where 'NV_PROVIDES_SM_90' does not hold}}
  // SM80-note@-3:3 {{a GPU of compute capability 9.0 or later runs the sm_80 code of this build}}
  // SM80-note@43:13 {{'scanLike' is launched with programmatic stream serialization here}}
  out[threadIdx.x] = in[threadIdx.x];
}

// Silent: launched early only when its code is sm_90 or later, as CUB's
// dispatch does (ptx_version >= 900).
__global__ void guardedScanLike(const float *in, float *out) {
  _CCCL_PDL_GRID_DEPENDENCY_SYNC();
  out[threadIdx.x] = in[threadIdx.x];
}

// Silent: no launch visible; the host may check the PTX version.
__global__ void unseenScanLike(const float *in, float *out) {
  _CCCL_PDL_GRID_DEPENDENCY_SYNC();
  out[threadIdx.x] = in[threadIdx.x];
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
  cudaLaunchKernelEx(&config, scanLike, in, out);
}

void runGuarded(const float *in, float *out, int ptxVersion) {
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(1);
  config.blockDim = dim3(128);
  config.attrs = &attr;
  config.numAttrs = 1;
  if (ptxVersion >= 900)
    cudaLaunchKernelEx(&config, guardedScanLike, in, out);
  else
    guardedScanLike<<<1, 128>>>(in, out);
}
