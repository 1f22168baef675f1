// Warpgroup MMA helpers in the shape of CuTe's cute/arch/mma_sm90_gmma.hpp
// (CUTLASS 4): the instruction under a macro that cute/arch/config.hpp
// derives from __CUDA_ARCH_FEAT_SM90_ALL, and CUTE_INVALID_CONTROL_PATH
// (assert, printf, a breakpoint) for every other target. nvcc 13.0 builds
// a kernel calling them under '__CUDA_ARCH__ >= 900' with -arch=sm_90a, and
// its compute_90 PTX holds the breakpoints. Written for cuda-tidy's tests.
#pragma once
#include <cuda_runtime.h>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define CUTE_ARCH_MMA_SM90A_ENABLED
#endif

#define CUTE_INVALID_CONTROL_PATH(x)                                           \
  printf(x);                                                                   \
  __trap()

namespace cute {
__device__ inline void warpgroup_arrive() {
#if defined(CUTE_ARCH_MMA_SM90A_ENABLED)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#else
  CUTE_INVALID_CONTROL_PATH("wgmma.fence without CUTE_ARCH_MMA_SM90A_ENABLED");
#endif
}

__device__ inline void warpgroup_commit_batch() {
#if defined(CUTE_ARCH_MMA_SM90A_ENABLED)
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#else
  CUTE_INVALID_CONTROL_PATH("wgmma.commit_group without CUTE_ARCH_MMA_SM90A_ENABLED");
#endif
}
} // namespace cute
