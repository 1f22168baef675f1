// Waits that CCCL's target-dispatch macros (<nv/target>) leave out of a
// compilation: the macros choose their arm in the preprocessor, so the
// dropped arm is not in the AST and no `#if` is written around it.
//
// An sm_80 build alone: an H100 runs its compute_80 PTX, compiled when the
// program loads, where NV_PROVIDES_SM_90 does not hold.
// RUN: %check_cuda_tidy --checks=cuda-programmatic-dependent-launch \
// RUN:   --expect-prefix=SM80 %s %t -- %cuda_args --cuda-gpu-arch=sm_80
// sm_80 and sm_100: a 9.0 GPU runs the sm_80 code too.
// RUN: %check_cuda_tidy --checks=cuda-programmatic-dependent-launch \
// RUN:   --expect-prefix=GAP %s %t -- %cuda_args --cuda-gpu-arch=sm_100 \
// RUN:   -D__CUDA_TIDY_BUILD_ARCHS__=compute_80,compute_100
// sm_80 and sm_90: every GPU that launches early runs the sm_90 (or later)
// code; the sm_80 code runs only on GPUs that run kernels in stream order.
// RUN: %check_cuda_tidy --checks=cuda-programmatic-dependent-launch \
// RUN:   --expect-prefix=FULL %s %t -- %cuda_args --cuda-gpu-arch=sm_90 \
// RUN:   -D__CUDA_TIDY_BUILD_ARCHS__=compute_80,compute_90
// Every architecture of the build provides sm_90.
// RUN: %check_cuda_tidy --checks=cuda-programmatic-dependent-launch \
// RUN:   --expect-prefix=HOPPER %s %t -- %cuda_args --cuda-gpu-arch=sm_90 \
// RUN:   -D__CUDA_TIDY_BUILD_ARCHS__=compute_90,compute_100
#include <cuda_runtime.h>
#include <nv/target>

// The wait only where sm_90 is provided: the sm_80 code never waits.
__global__ void providesHopper(const float *in, float *out) {
  NV_IF_TARGET(NV_PROVIDES_SM_90, cudaGridDependencySynchronize();)
  // SM80-warning@-1:35 {{the wait for the previous kernel is compiled out for sm_80, where 'providesHopper' may still start early}}
  // SM80-note@-2:3 {{'NV_IF_TARGET' does not compile the wait for sm_80, where 'NV_PROVIDES_SM_90' does not hold}}
  // SM80-note@-3:3 {{a GPU of compute capability 9.0 or later runs the sm_80 code of this build}}
  // SM80-note@137:13 {{'providesHopper' is launched with programmatic stream serialization here}}
  // GAP-warning@-5:35 {{the wait for the previous kernel is compiled out for sm_80, where 'providesHopper' may still start early}}
  // GAP-note@-6:3 {{'NV_IF_TARGET' does not compile the wait for sm_80, where 'NV_PROVIDES_SM_90' does not hold}}
  // GAP-note@-7:3 {{a GPU of compute capability 9.0 or later runs the sm_80 code of this build}}
  // GAP-note@137:13 {{'providesHopper' is launched with programmatic stream serialization here}}
  out[threadIdx.x] = in[threadIdx.x];
}

// The wait only from Blackwell on: the sm_90 code never waits.
__global__ void providesBlackwell(const float *in, float *out) {
  NV_IF_ELSE_TARGET(NV_PROVIDES_SM_100, (cudaGridDependencySynchronize();),
                    (out[threadIdx.x] = 0.0f;))
  // SM80-warning@-2:42 {{compiled out for sm_80, where 'providesBlackwell' may still start early}}
  // SM80-note@-3:3 {{'NV_IF_ELSE_TARGET' does not compile the wait for sm_80, where 'NV_PROVIDES_SM_100' does not hold}}
  // SM80-note@-4:3 {{a GPU of compute capability 9.0 or later runs the sm_80 code}}
  // SM80-note@137:13 {{'providesBlackwell' is launched with programmatic stream serialization here}}
  // GAP-warning@-6:42 {{compiled out for sm_80, where 'providesBlackwell' may still start early}}
  // GAP-note@-7:3 {{'NV_IF_ELSE_TARGET' does not compile the wait for sm_80, where 'NV_PROVIDES_SM_100' does not hold}}
  // GAP-note@-8:3 {{a GPU of compute capability 9.0 or later runs the sm_80 code}}
  // GAP-note@137:13 {{'providesBlackwell' is launched with programmatic stream serialization here}}
  // FULL-warning@-10:42 {{compiled out for sm_90, where 'providesBlackwell' may still start early}}
  // FULL-note@-11:3 {{'NV_IF_ELSE_TARGET' does not compile the wait for sm_90, where 'NV_PROVIDES_SM_100' does not hold}}
  // FULL-note@137:13 {{'providesBlackwell' is launched with programmatic stream serialization here}}
  // HOPPER-warning@-13:42 {{compiled out for sm_90, where 'providesBlackwell' may still start early}}
  // HOPPER-note@-14:3 {{'NV_IF_ELSE_TARGET' does not compile the wait for sm_90, where 'NV_PROVIDES_SM_100' does not hold}}
  // HOPPER-note@137:13 {{'providesBlackwell' is launched with programmatic stream serialization here}}
  out[threadIdx.x] += in[threadIdx.x];
}

// A dispatch whose earlier arm wins on Hopper and does not wait.
__global__ void dispatchSkipsHopper(const float *in, float *out) {
  NV_DISPATCH_TARGET(NV_IS_EXACTLY_SM_90, (out[threadIdx.x] = 1.0f;),
                     NV_PROVIDES_SM_80, (cudaGridDependencySynchronize();))
  // FULL-warning@-1:42 {{compiled out for sm_90, where 'dispatchSkipsHopper' may still start early}}
  // FULL-note@-3:3 {{'NV_DISPATCH_TARGET' does not compile the wait for sm_90, where 'NV_IS_EXACTLY_SM_90' holds}}
  // FULL-note@137:13 {{'dispatchSkipsHopper' is launched with programmatic stream serialization here}}
  // HOPPER-warning@-4:42 {{compiled out for sm_90, where 'dispatchSkipsHopper' may still start early}}
  // HOPPER-note@-6:3 {{'NV_DISPATCH_TARGET' does not compile the wait for sm_90, where 'NV_IS_EXACTLY_SM_90' holds}}
  // HOPPER-note@137:13 {{'dispatchSkipsHopper' is launched with programmatic stream serialization here}}
  out[threadIdx.x] += in[threadIdx.x];
}

// Silent: every arm waits (the asm form before Blackwell).
__global__ void everyArmWaits(const float *in, float *out) {
  NV_IF_ELSE_TARGET(NV_PROVIDES_SM_100, (cudaGridDependencySynchronize();),
                    (asm volatile("griddepcontrol.wait;" ::: "memory");))
  out[threadIdx.x] = in[threadIdx.x];
}

// Silent: NV_IS_DEVICE holds in every device compilation.
__global__ void deviceOnly(const float *in, float *out) {
  NV_IF_TARGET(NV_IS_DEVICE, (cudaGridDependencySynchronize();))
  out[threadIdx.x] = in[threadIdx.x];
}

// A project's own wait macro over NV_IF_TARGET, as CCCL's
// _CCCL_PDL_GRID_DEPENDENCY_SYNC(): reported where the kernel uses it.
#define PROJECT_PDL_SYNC() \
  NV_IF_TARGET(NV_PROVIDES_SM_90, cudaGridDependencySynchronize();)

__global__ void throughMacro(const float *in, float *out) {
  PROJECT_PDL_SYNC();
  // SM80-warning@-1:3 {{the wait for the previous kernel is compiled out for sm_80, where 'throughMacro' may still start early}}
  // SM80-note@-2:3 {{'NV_IF_TARGET' does not compile the wait for sm_80, where 'NV_PROVIDES_SM_90' does not hold}}
  // SM80-note@-3:3 {{a GPU of compute capability 9.0 or later runs the sm_80 code}}
  // SM80-note@137:13 {{'throughMacro' is launched with programmatic stream serialization here}}
  // GAP-warning@-5:3 {{the wait for the previous kernel is compiled out for sm_80, where 'throughMacro' may still start early}}
  // GAP-note@-6:3 {{'NV_IF_TARGET' does not compile the wait for sm_80, where 'NV_PROVIDES_SM_90' does not hold}}
  // GAP-note@-7:3 {{a GPU of compute capability 9.0 or later runs the sm_80 code}}
  // GAP-note@137:13 {{'throughMacro' is launched with programmatic stream serialization here}}
  out[threadIdx.x] = in[threadIdx.x];
}

// Silent: no launch is visible. The kernel waits, so it is taken to be
// launched early, but whether the host launches its sm_80 code early is
// not known: CUB and ggml check the PTX version of the kernel's code
// (ptxVersion >= 90) before they set the attribute.
__global__ void unseenThroughMacro(const float *in, float *out) {
  PROJECT_PDL_SYNC();
  out[threadIdx.x] = in[threadIdx.x];
}

// Silent: the host sets the attribute only where the kernel's code is
// sm_90 or later.
__global__ void launchedAfterPtxCheck(const float *in, float *out) {
  PROJECT_PDL_SYNC();
  out[threadIdx.x] = in[threadIdx.x];
}

void runChecked(const float *in, float *out) {
  cudaFuncAttributes fa;
  cudaFuncGetAttributes(&fa, launchedAfterPtxCheck);
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(1);
  config.blockDim = dim3(128);
  config.attrs = &attr;
  config.numAttrs = fa.ptxVersion >= 90 ? 1 : 0;
  if (fa.ptxVersion >= 90)
    cudaLaunchKernelEx(&config, launchedAfterPtxCheck, in, out);
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
  cudaLaunchKernelEx(&config, providesHopper, in, out);
  cudaLaunchKernelEx(&config, providesBlackwell, in, out);
  cudaLaunchKernelEx(&config, dispatchSkipsHopper, in, out);
  cudaLaunchKernelEx(&config, everyArmWaits, in, out);
  cudaLaunchKernelEx(&config, deviceOnly, in, out);
  cudaLaunchKernelEx(&config, throughMacro, in, out);
}
