// `__CUDA_HAS_ARCH_FAMILY_SPECIFIC(100)` (crt/host_defines.h) holds on
// sm_100f and sm_103f, not on sm_120f: in a build of the three families
// (compute_100f, compute_103f, compute_120f) it fits tcgen05, which ptxas
// 13.0 accepts on sm_100f and sm_103f only; `defined(__CUDA_ARCH_FAMILY_SPECIFIC__)`
// admits sm_120f, where ptxas fails. The device parse is the driver's for
// sm_100f.
// RUN: %check_cuda_tidy --checks=cuda-target-compatibility %s %t -- %cuda_args --cuda-gpu-arch=sm_100a \
// RUN:   -U__CUDA_ARCH_FEAT_SM100_ALL -D__CUDA_ARCH_FAMILY_SPECIFIC__=1000 \
// RUN:   -D__CUDA_TIDY_BUILD_ARCHS__=compute_100f,compute_103f,compute_120f
#include <cuda_runtime.h>

__global__ void anyFamily(unsigned *slot) {
#if defined(__CUDA_ARCH_FAMILY_SPECIFIC__)
  // note@-1 {{'defined(__CUDA_ARCH_FAMILY_SPECIFIC__)' admits sm_120f}}
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;\n" ::"r"(0u));
  // warning@-1 {{inline PTX 'tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32' is compiled for sm_120f, where ptxas rejects it (it accepts it on sm_100a/f, sm_103a/f and sm_110a/f only): the build fails; guard it with '__CUDA_ARCH_FAMILY_SPECIFIC__ == 1000 || __CUDA_ARCH_FAMILY_SPECIFIC__ == 1030'}}
#endif
  slot[threadIdx.x] = 1;
}

// Silent: the family query of 100 admits sm_100f and sm_103f only.
__global__ void family100(unsigned *slot) {
#if __CUDA_HAS_ARCH_FAMILY_SPECIFIC(100)
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;\n" ::"r"(0u));
#endif
  slot[threadIdx.x] = 2;
}
