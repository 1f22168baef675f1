#include <cstdio>
__global__ void alloc(unsigned *slot) {
#if __CUDA_ARCH__ >= 1000
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;\n" ::"r"(0u));
#endif
  slot[threadIdx.x] = 1;
}
__global__ void familyStub(float *out) {
#if defined(__CUDA_ARCH_FAMILY_SPECIFIC__) && __CUDA_ARCH_FAMILY_SPECIFIC__ == 1200
  out[threadIdx.x] = 1.0f;
#else
  printf("needs the sm_120 family\n");
#endif
}
