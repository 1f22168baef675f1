// Which launches let a kernel start early: the attribute array filled
// inline or by a helper, the C++ template and the C form of
// cudaLaunchKernelEx, and the driver's cuLaunchKernelEx. A kernel launched
// that way that never waits is reported at the kernel; the same kernel
// launched without the attribute, or with the attribute set to 0, is not.
// The wait added at the top of a kernel that never waits is a note's fix
// (a kernel built for sm_75 too would no longer compile); --fix-notes
// takes it.
// RUN: %check_cuda_tidy --checks=cuda-programmatic-dependent-launch \
// RUN:   --fix-notes --fixed-prefix=FIXED-NOTES %if nvcc %{ %nvcc_sm90 %} \
// RUN:   %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda.h>
#include <cuda_runtime.h>

__global__ void producer(const float *in, float *out) {
  // Silent: triggering early orders nothing and is what a producer does.
  cudaTriggerProgrammaticLaunchCompletion();
  out[threadIdx.x] = in[threadIdx.x] * 2.f;
}

__global__ void consumerNoWait(const float *in, float *out) {
// warning@-1:17 {{kernel 'consumerNoWait' is launched with programmatic stream serialization but never waits for the previous kernel}}
// note@+71:17 {{'consumerNoWait' is launched with programmatic stream serialization here, so it may start before the previous kernel in the stream finishes}}
// note@+6:3 {{'out' is written here with no wait before it}}
// note@-4:17 {{a later kernel's wait orders it only after 'consumerNoWait', not after the kernels before 'consumerNoWait'}}
// note@+4:3 {{call 'cudaGridDependencySynchronize()' before the kernel reads what the previous kernel writes (sm_90 and later)}}
// FIXED-NOTES: __global__ void consumerNoWait(const float *in, float *out) {
// FIXED-NOTES: {{^  }}cudaGridDependencySynchronize();
// FIXED-NOTES: {{^  }}out[threadIdx.x] = in[threadIdx.x] + 1.f;
  out[threadIdx.x] = in[threadIdx.x] + 1.f;
}

__global__ void consumerViaHelper(const float *in, float *out) {
// warning@-1:17 {{kernel 'consumerViaHelper' is launched with programmatic stream serialization but never waits for the previous kernel}}
// note@+71:3 {{'consumerViaHelper' is launched with programmatic stream serialization here, so it may start before the previous kernel in the stream finishes}}
// note@+3:3 {{'out' is written here with no wait before it}}
// note@-4:17 {{a later kernel's wait orders it only after 'consumerViaHelper', not after the kernels before 'consumerViaHelper'}}
// note@+1:3 {{call 'cudaGridDependencySynchronize()' before the kernel reads what the previous kernel writes (sm_90 and later)}}
  out[threadIdx.x] = in[threadIdx.x] + 2.f;
}

__global__ void consumerTemplate(const float *in, float *out, int n) {
// warning@-1:17 {{kernel 'consumerTemplate' is launched with programmatic stream serialization but never waits for the previous kernel}}
// note@+68:12 {{'consumerTemplate' is launched with programmatic stream serialization here, so it may start before the previous kernel in the stream finishes}}
// note@+4:5 {{'out' is written here with no wait before it}}
// note@-4:17 {{a later kernel's wait orders it only after 'consumerTemplate', not after the kernels before 'consumerTemplate'}}
// note@+1:3 {{call 'cudaGridDependencySynchronize()' before the kernel reads what the previous kernel writes (sm_90 and later)}}
  if (threadIdx.x < n)
    out[threadIdx.x] = in[threadIdx.x] + 3.f;
}

__global__ void consumerWaits(const float *in, float *out) {
  float v = in[threadIdx.x];
  // warning@-1:13 {{'in' is read before this thread waits for the previous kernel}}
  // note@+2:3 {{'consumerWaits' waits for the previous kernel here}}
  // note@+56:12 {{'consumerWaits' is launched with programmatic stream serialization here, so it may start before the previous kernel in the stream finishes}}
  cudaGridDependencySynchronize();
  out[threadIdx.x] = v; // note@101:3 {{'consumerNoWait', launched here earlier in the stream, may still run when 'consumerWaits' starts, and write what 'consumerWaits' reads through 'in'}}
}

// Silent: launched only with <<<>>> (stream order), so its read before the
// wait cannot see a running predecessor.
__global__ void inOrderOnly(const float *in, float *out) {
  float v = in[threadIdx.x];
  cudaGridDependencySynchronize();
  out[threadIdx.x] = v;
}

// Silent: launched with the attribute explicitly off.
__global__ void attributeOff(const float *in, float *out) {
  out[threadIdx.x] = in[threadIdx.x];
}

// Silent: never launched with the attribute (the same body as
// consumerNoWait).
__global__ void plainLaunch(const float *in, float *out) {
  out[threadIdx.x] = in[threadIdx.x] + 1.f;
}

static void allowOverlap(cudaLaunchAttribute &attr, int enable) {
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = enable;
}

void run(const float *in, float *mid, float *out, cudaStream_t stream,
         bool enablePdl) {
  producer<<<1, 128, 0, stream>>>(in, mid);

  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(1);
  config.blockDim = dim3(128);
  config.stream = stream;
  cudaLaunchAttribute attrs[1];
  attrs[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attrs[0].val.programmaticStreamSerializationAllowed = 1;
  config.attrs = attrs;
  config.numAttrs = 1;
  void *args[] = {&mid, &out};
  cudaLaunchKernelExC(&config, (const void *)consumerNoWait, args);

  // The attribute set by a helper, with a runtime flag (the flag may be on).
  cudaLaunchConfig_t helped = {};
  helped.gridDim = dim3(1);
  helped.blockDim = dim3(128);
  cudaLaunchAttribute helperAttrs[1];
  allowOverlap(helperAttrs[0], enablePdl);
  helped.attrs = helperAttrs;
  helped.numAttrs = 1;
  cudaLaunchKernelEx(&helped, consumerViaHelper, mid, out);

  cudaLaunchAttribute one;
  one.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  one.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t single = {};
  single.attrs = &one;
  single.numAttrs = 1;
  cudaLaunchKernelEx(&single, consumerTemplate, (const float *)mid, out, 64);
  cudaLaunchKernelEx(&single, consumerWaits, (const float *)mid, out);

  inOrderOnly<<<1, 128, 0, stream>>>(mid, out);

  cudaLaunchAttribute off[1];
  off[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  off[0].val.programmaticStreamSerializationAllowed = 0;
  cudaLaunchConfig_t offConfig = {};
  offConfig.attrs = off;
  offConfig.numAttrs = 1;
  cudaLaunchKernelEx(&offConfig, attributeOff, (const float *)mid, out);

  cudaLaunchConfig_t none = {};
  none.gridDim = dim3(1);
  none.blockDim = dim3(128);
  cudaLaunchKernelEx(&none, plainLaunch, (const float *)mid, out);
}

// The driver API: the kernel is a CUfunction, whose body is not visible;
// nothing to report on the device side.
void runDriver(CUfunction f, void **params) {
  CUlaunchAttribute attr;
  attr.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  attr.value.programmaticStreamSerializationAllowed = 1;
  CUlaunchConfig config = {};
  config.gridDimX = config.gridDimY = config.gridDimZ = 1;
  config.blockDimX = 128;
  config.blockDimY = config.blockDimZ = 1;
  config.attrs = &attr;
  config.numAttrs = 1;
  cuLaunchKernelEx(&config, f, params, nullptr);
}
