#include <cstdint>
#include <cuda/ptx>
__global__ void allocate(uint32_t *out) {
  __shared__ uint32_t slot;
#if __CUDA_ARCH__ >= 1000
  cuda::ptx::tcgen05_alloc(cuda::ptx::cta_group_1, &slot, 32u);
#endif
  out[threadIdx.x] = slot;
}
__device__ float scaleOf(float x) {
  float y = 0.0f;
#if __CUDA_ARCH__ < 1200
  y = x * 2.0f;
#endif
  return y;
}
__global__ void scaleAll(const float *in, float *out) {
  out[threadIdx.x] = scaleOf(in[threadIdx.x]);
}
__global__ void familyQuery(float *out) {
#if __CUDA_HAS_ARCH_FAMILY_SPECIFIC(100)
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;\n" ::"r"(0u));
#endif
  out[threadIdx.x] = 1.0f;
}
