// An '#else' that only stops the kernel is deliberate: a remark that names
// the architectures that trap. The targets are those the cuda-tidy driver
// names for the build (the macro below), architecture-specific ones
// included.
// RUN: %check_cuda_tidy --checks=cuda-target-compatibility %s %t -- %cuda_args --cuda-gpu-arch=sm_90a \
// RUN:   -D__CUDA_TIDY_BUILD_ARCHS__=compute_80,compute_90a,compute_100a,compute_120
#include <cuda_runtime.h>

// A test-local assert: the check reads 'assert(false)' as written.
#define assert(e) ((void)(e))
#define INVALID_CONTROL_PATH(msg)                                              \
  do {                                                                         \
    printf("%s\n", msg);                                                       \
    __trap();                                                                  \
  } while (0)

__global__ void ampereKernel(const float *in, float *out) {
  // remark@-1:17 {{kernel 'ampereKernel' only traps on sm_90a, sm_100a and sm_120}} [cuda-target-compatibility]
#if __CUDA_ARCH__ >= 800 && __CUDA_ARCH__ < 900
  // note@-1 {{'__CUDA_ARCH__ >= 800 && __CUDA_ARCH__ < 900' is false for sm_90a, sm_100a and sm_120 (sm_80 compiles this code)}}
  out[threadIdx.x] = in[threadIdx.x];
#else
  // note@-1 {{the '#else' branch taken for sm_90a, sm_100a and sm_120 only traps}}
  __trap();
#endif
}

__global__ void assertsInElse(const float *in, float *out) {
  // remark@-1 {{kernel 'assertsInElse' only traps on sm_90a, sm_100a and sm_120}}
#if __CUDA_ARCH__ < 900
  // note@-1 {{is false for}}
  out[threadIdx.x] = in[threadIdx.x];
#else
  // note@-1 {{only traps}}
  printf("unsupported architecture\n");
  assert(false);
#endif
}

__global__ void asmTrap(float *out) {
  // remark@-1 {{kernel 'asmTrap' only traps on sm_90a, sm_100a and sm_120}}
#if __CUDA_ARCH__ == 800
  // note@-1 {{'__CUDA_ARCH__ == 800' is false}}
  out[threadIdx.x] = 1.0f;
#else
  // note@-1 {{only traps}}
  asm volatile("trap;");
#endif
}

// A kernel written for Hopper's architecture-specific features, with a
// macro that traps elsewhere (the CUTLASS shape): its work is under a
// feature macro sm_100a and sm_120 lack, so it is a warning (a B200 running
// this binary gets the stub).
__global__ void hopperSpecific(float *out) {
  // warning@-1 {{kernel 'hopperSpecific' is a stub on sm_100a and sm_120: its work is compiled for sm_90a only}}
  // note@-2 {{a GPU that runs the sm_100a and sm_120 code launches it and gets cudaSuccess with no results (or a trap): the work exists for sm_90a only}}
  // note@-3 {{give sm_100a and sm_120 a path that does the work: an '#else' with portable code}}
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  // note@-1 {{'defined(__CUDA_ARCH_FEAT_SM90_ALL)' is false for sm_100a and sm_120 (sm_90a compiles this code)}}
  out[threadIdx.x] = 2.0f;
#else
  // note@-1 {{the '#else' branch taken for sm_100a and sm_120 only traps}}
  INVALID_CONTROL_PATH("this kernel needs sm_90a");
#endif
}

// Silent: a trap for the older architectures of a lower bound.
__global__ void needsAmpere(float *out) {
#if __CUDA_ARCH__ >= 800
  out[threadIdx.x] = 3.0f;
#else
  __trap();
#endif
}

// Silent: the trap guards an impossible case inside working code.
__global__ void checked(const int *in, float *out) {
  if (in[threadIdx.x] < 0) {
#if __CUDA_ARCH__ >= 900
    __trap();
#endif
  }
  out[threadIdx.x] = 4.0f;
}
