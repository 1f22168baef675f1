// Library wrappers of a/f-only instructions called under a guard that
// admits a target of the build that lacks them. The wrapper's own guard
// then compiles its stand-in for that target:
//  - cuda::ptx (CCCL, CUDA 13.0) calls an extern function nothing defines:
//    ptxas fails ("Unresolved extern function
//    '__cuda_ptx_tcgen05_alloc_is_not_supported_before_SM_100a_SM_101a__'"
//    for sm_100f, sm_103a, sm_103f, sm_110f and sm_120f, measured; the
//    header admits sm_100a and sm_101a only, though ptxas accepts tcgen05
//    on the family targets too);
//  - CuTe's warpgroup helpers compile CUTE_INVALID_CONTROL_PATH: the build
//    succeeds, and the kernel stops on a GPU that runs that code.
// A Blackwell build (compute_100a, compute_100f, compute_120f), parsed as
// the driver parses sm_100a:
// RUN: %check_cuda_tidy --checks=cuda-target-compatibility %s %t -- %cuda_args -I%S/Inputs -std=c++17 \
// RUN:   --cuda-gpu-arch=sm_100a -D__CUDA_ARCH_SPECIFIC__=1000 -D__CUDA_ARCH_FAMILY_SPECIFIC__=1000 \
// RUN:   -D__CUDA_TIDY_BUILD_ARCHS__=compute_100a,compute_100f,compute_120f
// nvcc's -arch=sm_90a (compute_90 and compute_90a), parsed as sm_90a, on
// the CuTe-shaped kernels:
// RUN: %check_cuda_tidy --expect-prefix=HOPPER --checks=cuda-target-compatibility %s %t -- %cuda_args \
// RUN:   -I%S/Inputs -DHOPPER_PART -std=c++17 --cuda-gpu-arch=sm_90a -D__CUDA_ARCH_SPECIFIC__=900 -D__CUDA_ARCH_FAMILY_SPECIFIC__=900 \
// RUN:   -D__CUDA_TIDY_BUILD_ARCHS__=compute_90,compute_90a
// compute_100a alone: every wrapper has its instruction; silent.
// RUN: %check_cuda_tidy --expect-prefix=NONE --checks=cuda-target-compatibility %s %t -- %cuda_args \
// RUN:   -I%S/Inputs -std=c++17 --cuda-gpu-arch=sm_100a -D__CUDA_ARCH_SPECIFIC__=1000 -D__CUDA_ARCH_FAMILY_SPECIFIC__=1000 \
// RUN:   -D__CUDA_TIDY_BUILD_ARCHS__=compute_100a
#include <cuda/ptx>
#include <cuda_runtime.h>
#include "gmma_like.h"

#ifndef HOPPER_PART
__global__ void allocate(unsigned *out) {
  __shared__ uint32_t slot;
#if __CUDA_ARCH__ >= 1000
  // note@-1 {{'__CUDA_ARCH__ >= 1000' admits sm_100f and sm_120f}}
  cuda::ptx::tcgen05_alloc(cuda::ptx::cta_group_1, &slot, 32u);
  // warning@-1:3 {{'cuda::ptx::tcgen05_alloc' is compiled for sm_100f and sm_120f, where its header calls the undefined '__cuda_ptx_tcgen05_alloc_is_not_supported_before_SM_100a_SM_101a__' in place of 'tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32': ptxas fails the build}} [cuda-target-compatibility]
  // note@-2:3 {{__CUDA_ARCH_FEAT_SM100_ALL || __CUDA_ARCH_FEAT_SM101_ALL'; guard the call with '__CUDA_ARCH_FEAT_SM100_ALL || __CUDA_ARCH_FEAT_SM101_ALL'}}
#endif
  out[threadIdx.x] = slot;
}

// Silent: the header's own condition.
__global__ void allocateFitting(unsigned *out) {
  __shared__ uint32_t slot;
#if __CUDA_ARCH_FEAT_SM100_ALL
  cuda::ptx::tcgen05_alloc(cuda::ptx::cta_group_1, &slot, 32u);
#endif
  out[threadIdx.x] = slot;
}

// Silent: a helper with no guard that only the fitting path calls (nvcc
// emits no unreferenced device function).
__device__ void allocateSlot(uint32_t *slot) {
  cuda::ptx::tcgen05_alloc(cuda::ptx::cta_group_1, slot, 32u);
}

__global__ void viaHelper(unsigned *out) {
  __shared__ uint32_t slot;
#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
  allocateSlot(&slot);
#endif
  out[threadIdx.x] = slot;
}

#else
__global__ void hopperMma(float *out) {
#if __CUDA_ARCH__ >= 900
  // HOPPER-note@-1 {{'__CUDA_ARCH__ >= 900' admits sm_90}}
  cute::warpgroup_arrive();
  // HOPPER-warning@-1:3 {{'cute::warpgroup_arrive' is compiled for sm_90, where CuTe puts a trap in place of 'wgmma.fence.sync.aligned': a GPU that runs the sm_90 code stops here}}
  // HOPPER-note@-2:3 {{'warpgroup_arrive' compiles its instruction only under 'defined(CUTE_ARCH_MMA_SM90A_ENABLED)'; guard the call with '__CUDA_ARCH_FEAT_SM90_ALL'}}
  cute::warpgroup_commit_batch();
  // HOPPER-note@-1 {{'cute::warpgroup_commit_batch', under the same condition, is compiled the same way}}
#endif
  out[threadIdx.x] = 1.0f;
}

// No guard at all: nvcc's -arch=sm_90a compiles the kernel for compute_90
// too, whose PTX traps (CUTLASS's cute/tutorial/hopper/wgmma_tma_sm90.cu
// built so). One warning for the function.
__global__ void unguardedMma(float *out) {
  cute::warpgroup_arrive();
  // HOPPER-warning@-1 {{'cute::warpgroup_arrive' is compiled for sm_90, where CuTe puts a trap}}
  // HOPPER-note@-2 {{guard the call with '__CUDA_ARCH_FEAT_SM90_ALL'}}
  cute::warpgroup_commit_batch();
  // HOPPER-note@-1 {{'cute::warpgroup_commit_batch', under the same condition}}
  out[threadIdx.x] = 3.0f;
}

// Silent: the feature macro, and its query.
__global__ void hopperMmaFitting(float *out) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  cute::warpgroup_arrive();
#endif
#if __CUDA_ARCH_HAS_FEATURE__(SM90_ALL)
  cute::warpgroup_commit_batch();
#endif
  out[threadIdx.x] = 2.0f;
}
#endif
