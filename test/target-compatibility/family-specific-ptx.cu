// A Blackwell build of the two families (CMake '100f;120f': compute_100f and
// compute_120f, as the cuda-tidy driver names them). tcgen05 exists on
// sm_100f but not on sm_120f, wgmma on neither (ptxas 13.0): a range guard
// on __CUDA_ARCH__ admits a target that rejects them; the family macro fits.
// The device parse is the driver's for sm_100f (clang's sm_100a, less its
// feature macro, with nvcc's __CUDA_ARCH_FAMILY_SPECIFIC__).
// RUN: %check_cuda_tidy --checks=cuda-target-compatibility %s %t -- %cuda_args --cuda-gpu-arch=sm_100a \
// RUN:   -U__CUDA_ARCH_FEAT_SM100_ALL -D__CUDA_ARCH_FAMILY_SPECIFIC__=1000 \
// RUN:   -D__CUDA_TIDY_BUILD_ARCHS__=compute_100f,compute_120f
#include <cuda_runtime.h>

__global__ void allocateTensorMemory(unsigned *slot) {
#if __CUDA_ARCH__ >= 1000
  // note@-1 {{'__CUDA_ARCH__ >= 1000' admits sm_120f}}
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;\n" ::"r"(0u));
  // warning@-1:16 {{inline PTX 'tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32' is compiled for sm_120f, where ptxas rejects it (it accepts it on sm_100a/f, sm_103a/f and sm_110a/f only): the build fails; guard it with '__CUDA_ARCH_FAMILY_SPECIFIC__ == 1000'}}
#endif
  slot[threadIdx.x] = 1;
}

__global__ void hopperMma(float *out) {
#if __CUDA_ARCH__ >= 900
  // note@-1 {{admits sm_100f and sm_120f}}
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  // warning@-1 {{is compiled for sm_100f and sm_120f, where ptxas rejects it (it accepts it on sm_90a only): the build fails; guard it with '__CUDA_ARCH_FEAT_SM90_ALL'}}
#endif
  out[threadIdx.x] = 1.0f;
}

__global__ void reduceMin(float *out, float v) {
#if __CUDA_ARCH__ >= 1000 && defined(__CUDA_ARCH_FAMILY_SPECIFIC__)
  // note@-1 {{admits sm_120f}}
  float r;
  asm volatile("redux.sync.min.f32 %0, %1, 0xffffffff;" : "=f"(r) : "f"(v));
  // warning@-1 {{inline PTX 'redux.sync.min.f32' is compiled for sm_120f, where ptxas rejects it (it accepts it on sm_100a/f and sm_103a/f only): the build fails; guard it with '__CUDA_ARCH_FAMILY_SPECIFIC__ == 1000'}}
  out[threadIdx.x] = r;
#else
  out[threadIdx.x] = v;
#endif
}

// Silent: the family macro; what every 'a' and 'f' target has.
__global__ void familyGuards(unsigned *slot) {
#if defined(__CUDA_ARCH_FAMILY_SPECIFIC__) && __CUDA_ARCH_FAMILY_SPECIFIC__ == 1000
  asm volatile("tcgen05.fence::before_thread_sync;\n" ::: "memory");
#endif
#if defined(__CUDA_ARCH_FAMILY_SPECIFIC__)
  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
#endif
  slot[threadIdx.x] = 2;
}
