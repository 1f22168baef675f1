// Inline PTX that ptxas accepts on sm_90a only (wgmma) or on the 'a'/'f'
// targets only (setmaxnreg), reached under a guard that admits a target of
// the build that lacks it: ptxas fails the build ("Instruction 'wgmma.fence'
// not supported on .target 'sm_90'", nvcc 13.0). The build is nvcc's
// '-arch=sm_90a', which compiles compute_90 as well as compute_90a (nvcc
// --dryrun), as the cuda-tidy driver names it.
// RUN: %check_cuda_tidy --checks=cuda-target-compatibility %s %t -- %cuda_args --cuda-gpu-arch=sm_90a \
// RUN:   -D__CUDA_TIDY_BUILD_ARCHS__=compute_90,compute_90a
// A build of compute_90a alone ('-gencode arch=compute_90a,code=sm_90a')
// compiles all of it.
// RUN: %check_cuda_tidy --expect-prefix=NONE --checks=cuda-target-compatibility %s %t -- %cuda_args \
// RUN:   --cuda-gpu-arch=sm_90a -D__CUDA_TIDY_BUILD_ARCHS__=compute_90a
#include <cuda_runtime.h>

__global__ void rangeGuard(float *out) {
#if __CUDA_ARCH__ >= 900
  // note@-1 {{'__CUDA_ARCH__ >= 900' admits sm_90}}
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  // warning@-1:16 {{inline PTX 'wgmma.fence.sync.aligned' is compiled for sm_90, where ptxas rejects it (it accepts it on sm_90a only): the build fails; guard it with '__CUDA_ARCH_FEAT_SM90_ALL'}} [cuda-target-compatibility]
  // note@-2 {{the build compiles both compute_90 and compute_90a, as nvcc's '-arch=sm_90a' does; '-gencode arch=compute_90a,code=sm_90a' compiles compute_90a alone}}
#endif
  out[threadIdx.x] = 1.0f;
}

// A helper with no guard, called by a kernel with none: compiled for
// compute_90, where setmaxnreg does not exist.
__device__ void growRegisters() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 240;\n");
  // warning@-1 {{inline PTX 'setmaxnreg.inc.sync.aligned.u32' is compiled for sm_90, where ptxas rejects it (it accepts it on the 'a' and 'f' targets only (sm_90a, sm_100a/f ...)): the build fails; guard it with 'defined(__CUDA_ARCH_FAMILY_SPECIFIC__)'}}
  // note@-2 {{compiles both compute_90 and compute_90a}}
}

__global__ void producer(float *out) {
  growRegisters();
  out[threadIdx.x] = 2.0f;
}

// Silent: the feature macro, the specific-architecture macro.
__global__ void featureGuard(float *out) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
  out[threadIdx.x] = 3.0f;
}

__global__ void specificGuard(float *out) {
#if defined(__CUDA_ARCH_SPECIFIC__) && __CUDA_ARCH_SPECIFIC__ == 900
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
#else
  out[threadIdx.x] = 0.0f; // A portable #else.
#endif
  out[threadIdx.x] += 3.0f;
}

// Silent: a register-reallocation hint under the feature macro, no #else
// (other targets simply do not reallocate).
__device__ void releaseRegisters() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
#endif
}

__global__ void consumer(float *out) {
  releaseRegisters();
  out[threadIdx.x] = 4.0f;
}

// Silent: a helper with no guard that only the sm_90a path calls; nvcc emits
// no unreferenced device function for compute_90 (measured: it builds).
__device__ void fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }

__global__ void callerGuard(float *out) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  fence();
#endif
  out[threadIdx.x] = 5.0f;
}

// Silent: a guard through another macro cannot be decided.
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define MY_SM90A_ENABLED 1
#endif
__global__ void otherMacro(float *out) {
#if defined(MY_SM90A_ENABLED)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
  out[threadIdx.x] = 6.0f;
}

// Silent: instructions every target from sm_90 has.
__global__ void portable(float *out) {
#if __CUDA_ARCH__ >= 900
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  asm volatile("griddepcontrol.wait;\n" ::: "memory");
#endif
  out[threadIdx.x] = 7.0f;
}

// Silent: never called, so never emitted.
__device__ void unused() { asm volatile("wgmma.fence.sync.aligned;"); }
