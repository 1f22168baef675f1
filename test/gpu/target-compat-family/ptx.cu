// Build proof for cuda-target-compatibility's inline-PTX rule: each kernel
// holds one instruction ptxas accepts on some targets only, under a range
// guard that cuda-tidy flags; ptx_fitting.cu has the guards it proposes.
// run.sh compiles both for each target alone: ptxas must fail on exactly
// the targets cuda-tidy names here, and build ptx_fitting.cu everywhere.
#ifndef NO_WGMMA
__global__ void hopperMma(float *out) {
#if __CUDA_ARCH__ >= 900
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
  out[threadIdx.x] = 1.0f;
}
#endif

__global__ void allocateTensorMemory(unsigned *slot) {
#if __CUDA_ARCH__ >= 1000
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;\n" ::"r"(0u));
#endif
  slot[threadIdx.x] = 1;
}

__global__ void reduceMin(float *out, float v) {
#if __CUDA_ARCH__ >= 1000 && defined(__CUDA_ARCH_FAMILY_SPECIFIC__)
  float r;
  asm volatile("redux.sync.min.f32 %0, %1, 0xffffffff;" : "=f"(r) : "f"(v));
  out[threadIdx.x] = r;
#else
  out[threadIdx.x] = v;
#endif
}

__device__ void growRegisters() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 240;\n");
}

__global__ void producer(float *out) {
  growRegisters();
  out[threadIdx.x] = 2.0f;
}
