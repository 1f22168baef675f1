// The toolkit's feature queries (crt/host_defines.h, CUDA 12.9 and 13):
// `__CUDA_ARCH_HAS_FEATURE__(SM90_ALL)` is `__CUDA_ARCH_FEAT_SM90_ALL`,
// `__CUDA_HAS_ARCH_SPECIFIC(90)` is `__CUDA_ARCH_SPECIFIC__ == 900`,
// `__CUDA_HAS_ARCH_FAMILY_SPECIFIC(100)` holds on sm_100f and sm_103f (and
// their 'a' targets). Each is decided for every target of the build, as
// the macros themselves are.
// A build of nvcc's '-arch=sm_90a' (compute_90 and compute_90a):
// RUN: %check_cuda_tidy --checks=cuda-target-compatibility %s %t -- %cuda_args --cuda-gpu-arch=sm_90a \
// RUN:   -D__CUDA_ARCH_SPECIFIC__=900 -D__CUDA_ARCH_FAMILY_SPECIFIC__=900 \
// RUN:   -D__CUDA_TIDY_BUILD_ARCHS__=compute_90,compute_90a
// compute_90a alone ('-gencode arch=compute_90a,code=sm_90a'): silent.
// RUN: %check_cuda_tidy --expect-prefix=NONE --checks=cuda-target-compatibility %s %t -- %cuda_args \
// RUN:   --cuda-gpu-arch=sm_90a -D__CUDA_ARCH_SPECIFIC__=900 -D__CUDA_ARCH_FAMILY_SPECIFIC__=900 \
// RUN:   -D__CUDA_TIDY_BUILD_ARCHS__=compute_90a
#include <cuda_runtime.h>

// A CUTLASS-shaped stub behind the query: plain sm_90 gets the message.
__global__ void gemm(float *out, const float *a, int n) {
  // warning@-1 {{kernel 'gemm' is a stub on sm_90: its work is compiled for sm_90a only}}
  // note@-2 {{a GPU that runs the sm_90 code launches it and gets cudaSuccess with no results (or a trap); build sm_90a code for it}}
  // note@-3 {{give sm_90 a path that does the work: an '#else' with portable code}}
#if __CUDA_ARCH_HAS_FEATURE__(SM90_ALL)
  // note@-1 {{'__CUDA_ARCH_HAS_FEATURE__(SM90_ALL)' is false for sm_90 (sm_90a compiles this code)}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a[i] * 2.0f;
#else
  // note@-1 {{the '#else' branch taken for sm_90 only traps or prints}}
  if (threadIdx.x == 0 && blockIdx.x == 0)
    printf("ERROR: this kernel only supports sm90a\n");
#endif
}

// wgmma under a range guard: compute_90 compiles it and ptxas fails.
__global__ void mmaRange(float *out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  // note@-1 {{admits sm_90}}
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  // warning@-1 {{inline PTX 'wgmma.fence.sync.aligned' is compiled for sm_90, where ptxas rejects it (it accepts it on sm_90a only): the build fails; guard it with '__CUDA_ARCH_FEAT_SM90_ALL'}}
  // note@-2 {{the build compiles both compute_90 and compute_90a}}
#endif
  out[threadIdx.x] = 1.0f;
}

// Silent: the queries that fit.
__global__ void mmaQueries(float *out) {
#if __CUDA_ARCH_HAS_FEATURE__(SM90_ALL)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
#if __CUDA_HAS_ARCH_SPECIFIC(90)
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
#if __CUDA_HAS_ARCH_FAMILY_SPECIFIC(90)
  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
#endif
  out[threadIdx.x] = 2.0f;
}

// Silent: the query with a portable #else.
__global__ void portable(float *out, const float *in) {
#if __CUDA_HAS_ARCH_SPECIFIC(90)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  out[threadIdx.x] = in[threadIdx.x];
#else
  out[threadIdx.x] = in[threadIdx.x];
#endif
}
