// The guards cuda-tidy proposes for ptx.cu: silent, and ptxas builds it for
// every target.
#ifndef NO_WGMMA
__global__ void hopperMma(float *out) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
  out[threadIdx.x] = 1.0f;
}
#endif

__global__ void allocateTensorMemory(unsigned *slot) {
#if __CUDA_ARCH_FAMILY_SPECIFIC__ == 1000
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;\n" ::"r"(0u));
#endif
  slot[threadIdx.x] = 1;
}

__global__ void reduceMin(float *out, float v) {
#if __CUDA_ARCH_FAMILY_SPECIFIC__ == 1000
  float r;
  asm volatile("redux.sync.min.f32 %0, %1, 0xffffffff;" : "=f"(r) : "f"(v));
  out[threadIdx.x] = r;
#else
  out[threadIdx.x] = v;
#endif
}

__device__ void growRegisters() {
#if defined(__CUDA_ARCH_FAMILY_SPECIFIC__)
  asm volatile("setmaxnreg.inc.sync.aligned.u32 240;\n");
#endif
}

__global__ void producer(float *out) {
  growRegisters();
  out[threadIdx.x] = 2.0f;
}
