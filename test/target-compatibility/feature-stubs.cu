// Kernels whose work sits under a feature or family macro, with a stub for
// every other target (CUTLASS's "only supports sm90a" message, a trap,
// parameters cast to void, an early return). Built for plain sm_90 (and
// sm_100), the stub is what runs: on an H200 such a kernel returns
// cudaSuccess and writes none of its outputs (test/gpu/target-compat-family).
// A warning, not a remark.
// RUN: %check_cuda_tidy --checks=cuda-target-compatibility %s %t -- %cuda_args --cuda-gpu-arch=sm_90 \
// RUN:   -D__CUDA_TIDY_BUILD_ARCHS__=compute_90,compute_100
// The same file built for the architecture-specific targets: silent.
// RUN: %check_cuda_tidy --expect-prefix=NONE --checks=cuda-target-compatibility %s %t -- %cuda_args \
// RUN:   --cuda-gpu-arch=sm_90a -D__CUDA_TIDY_BUILD_ARCHS__=compute_90a
#include <cuda_runtime.h>

__global__ void messageStub(float *out, const float *in, int n) {
  // warning@-1:17 {{kernel 'messageStub' is a stub on sm_90 and sm_100: its work is compiled for sm_90a only}} [cuda-target-compatibility]
  // note@-2 {{a GPU that runs the sm_90 and sm_100 code launches it and gets cudaSuccess with no results (or a trap): the work exists for sm_90a only}}
  // note@-3 {{give sm_90 and sm_100 a path that does the work: an '#else' with portable code}}
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  // note@-1 {{'defined(__CUDA_ARCH_FEAT_SM90_ALL)' is false for sm_90 and sm_100 (sm_90a compiles this code)}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * in[i];
#else
  // note@-1 {{the '#else' branch taken for sm_90 and sm_100 only traps or prints}}
  if (threadIdx.x == 0 && blockIdx.x == 0)
    printf("ERROR: This kernel only supports sm90a\n");
#endif
}

__global__ void voidStub(float *out, const float *in, int n) {
  // warning@-1 {{kernel 'voidStub' compiles to an empty body for sm_90 and sm_100}}
  // note@-2 {{launches it and gets cudaSuccess with no results}}
  // note@-3 {{give sm_90 and sm_100 a path}}
#if defined(__CUDA_ARCH_SPECIFIC__) && __CUDA_ARCH_SPECIFIC__ == 900
  // note@-1 {{is false for sm_90 and sm_100 (sm_90a compiles this code)}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * in[i];
#else
  // note@-1 {{does no work}}
  (void)out;
  (void)in;
  (void)n;
#endif
}

// An early return for every target but the sm_90a one.
__global__ void returnStub(float *out, const float *in, int n) {
  // warning@-1 {{kernel 'returnStub' is a stub on sm_90 and sm_100: its work is compiled for sm_90a only}}
  // note@-2 {{gets cudaSuccess with no results}}
  // note@-3 {{give sm_90 and sm_100 a path}}
#if !defined(__CUDA_ARCH_FEAT_SM90_ALL)
  // note@-1 {{the '#if' branch taken for sm_90 and sm_100 only traps or prints}}
  if (threadIdx.x == 0)
    printf("needs sm_90a\n");
  return;
#else
  // note@-1 {{the '#else' is not taken for sm_90 and sm_100}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * in[i];
#endif
}

// Silent: a portable #else that does the work.
__global__ void portableElse(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  if (i < n)
    out[i] = 2.0f * in[i]; // (the wgmma path)
#else
  if (i < n)
    out[i] = in[i] + in[i];
#endif
}

// Silent: a message that is the kernel's whole job on every target.
__global__ void hello() {
  if (threadIdx.x == 0)
    printf("hello\n");
}

// Silent: a message under a lower bound, nothing under a feature macro.
__global__ void rangeMessage(float *out) {
#if __CUDA_ARCH__ >= 900
  out[threadIdx.x] = 1.0f;
#else
  printf("old GPU\n");
#endif
}

// The family macro: the sm_100 code is the stub (sm_100f would do the
// work); sm_90 is older than the family, which a Blackwell-only kernel
// leaves out on purpose.
__global__ void familyStub(float *out, const float *in, int n) {
  // warning@-1 {{kernel 'familyStub' is a stub on sm_100: its work is compiled for sm_100f only}}
  // note@-2 {{a GPU that runs the sm_100 code launches it and gets cudaSuccess with no results (or a trap); build sm_100f code for it (nvcc '-gencode arch=compute_100f,code=sm_100f', CMake '100f')}}
  // note@-3 {{give sm_100 a path}}
#if defined(__CUDA_ARCH_FAMILY_SPECIFIC__) && __CUDA_ARCH_FAMILY_SPECIFIC__ == 1000
  // note@-1 {{is false for sm_100 (sm_100f compiles this code)}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * in[i];
#else
  // note@-1 {{only traps or prints}}
  printf("needs the sm_100 family\n");
#endif
}

// Templates: the CUTLASS kernel shape, a class template whose operator() is
// the sm_90a work or a stub. Compiled only as its instantiations: one that
// is instantiated is reported, one that is not (a header's other kernels)
// is compiled for no target and is silent.
template <int N> struct HopperKernel {
  __device__ void operator()(float *out) {
    // warning@-1 {{device function 'operator()' is a stub on sm_90 and sm_100: its work is compiled for sm_90a only}}
    // note@-2 {{gets cudaSuccess with no results}}
    // note@-3 {{give sm_90 and sm_100 a path}}
#if !defined(__CUDA_ARCH_FEAT_SM90_ALL)
    // note@-1 {{only traps or prints}}
    printf("ERROR: Arch conditional MMA instruction used without targeting sm90a\n");
#else
    // note@-1 {{the '#else' is not taken for sm_90 and sm_100}}
    out[threadIdx.x] = float(N);
#endif
  }
};

template <int N> struct UnusedHopperKernel {
  __device__ void operator()(float *out) {
#if !defined(__CUDA_ARCH_FEAT_SM90_ALL)
    printf("ERROR: Arch conditional MMA instruction used without targeting sm90a\n");
#else
    out[threadIdx.x] = float(N);
#endif
  }
};

template <class Kernel> __global__ void launchKernel(float *out) { Kernel()(out); }
template __global__ void launchKernel<HopperKernel<1>>(float *);
