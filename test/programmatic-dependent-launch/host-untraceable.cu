// When the host code cannot show which kernel runs before an early
// kernel, or which buffer an access goes to, every global access before
// the wait counts, and a note says which of the three it was.
// RUN: %check_cuda_tidy --checks=cuda-programmatic-dependent-launch \
// RUN:   %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

static void allowOverlap(cudaLaunchAttribute &attr) {
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
}

__global__ void producer(const float *weights, float *act) {
  cudaTriggerProgrammaticLaunchCompletion();
  act[threadIdx.x] = weights[threadIdx.x] * 2.f;
}

// A global table: no launch argument names it.
__device__ float gTable[128];

__global__ void readsGlobal(float *out) {
  float v = gTable[threadIdx.x]; // warning@22:13 {{'gTable' is read before this thread waits for the previous kernel}}
  cudaGridDependencySynchronize(); // note@23:3 {{'readsGlobal' waits for the previous kernel here}}
  out[threadIdx.x] = v; // note@22:13 {{'gTable' does not come from a parameter of 'readsGlobal', so the host code cannot show which kernel writes it: it is taken to be written by the kernel before 'readsGlobal'}}
} // note@37:3 {{'readsGlobal' is launched with programmatic stream serialization here}}

__global__ void readsOwnBuffer(const float *in, float *out) {
  // Silent: its one launch is read, and no kernel before it writes 'in'.
  float v = in[threadIdx.x];
  cudaGridDependencySynchronize();
  out[threadIdx.x] = v;
}

void globals(const float *w, float *a, const float *in, float *out,
             cudaStream_t stream) {
  cudaLaunchAttribute attrs[1];
  allowOverlap(attrs[0]);
  cudaLaunchConfig_t config = {};
  config.stream = stream;
  config.attrs = attrs;
  config.numAttrs = 1;
  producer<<<1, 128, 0, stream>>>(w, a);
  cudaLaunchKernelEx(&config, readsGlobal, out);
  cudaLaunchKernelEx(&config, readsOwnBuffer, in, out);
}

// Launched twice: once with an array read here, once with a configuration
// built elsewhere, whose launch cannot be read.
__global__ void launchedTwice(const float *in, float *out) {
  float v = in[threadIdx.x]; // warning@50:13 {{'in' is read before this thread waits for the previous kernel}}
  cudaGridDependencySynchronize(); // note@51:3 {{'launchedTwice' waits for the previous kernel here}}
  out[threadIdx.x] = v; // note@50:13 {{not every launch of 'launchedTwice' is visible and read, so the host code cannot show which kernel runs before it: 'in' is taken to be written by that kernel}}
} // note@58:3 {{'launchedTwice' is launched with programmatic stream serialization here}}

void twice(const float *in, float *out, const cudaLaunchConfig_t *shared,
           cudaStream_t stream) {
  cudaLaunchAttribute attrs[1];
  allowOverlap(attrs[0]);
  cudaLaunchConfig_t config = {};
  config.stream = stream;
  config.attrs = attrs;
  config.numAttrs = 1;
  cudaLaunchKernelEx(&config, launchedTwice, in, out);
  cudaLaunchKernelEx(shared, launchedTwice, in, out);
}

// No launch at all: the note on the kernel says what is assumed.
__global__ void unseen(const float *in, float *out) { // note@68:17 {{no launch of 'unseen' is visible; as it waits for the previous kernel, it is taken to be launched with programmatic stream serialization after a kernel that may write what it reads and read what it writes}}
  float v = in[threadIdx.x]; // warning@69:13 {{'in' is read before this thread waits for the previous kernel}}
  cudaGridDependencySynchronize(); // note@70:3 {{'unseen' waits for the previous kernel here}}
  out[threadIdx.x] = v;
}
