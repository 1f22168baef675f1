// Without an architecture (the host side with no cuda.TargetArch, or clang's
// default sm_52, which the limits table does not know) the per-architecture
// maximum is unknown: only the 48 KiB opt-in rule, which holds everywhere,
// is checked.
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in %s %t -- %cuda_args --cuda-host-only
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in %s %t.sm52 -- %cuda_args
#include <cuda_runtime.h>

__global__ void huge(float *out) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = 0.0f;
  __syncthreads();
  out[threadIdx.x] = buf[0];
}

void run(float *out) {
  cudaFuncSetAttribute(huge, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       300 * 1024);
  // Silent: over every known GPU's maximum, but no architecture is known.
  huge<<<1, 128, 300 * 1024>>>(out);
}

__global__ void plain(float *out) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = 0.0f;
  __syncthreads();
  out[threadIdx.x] = buf[0];
}

void notOptedIn(float *out) {
  // The 48 KiB rule needs no architecture.
  plain<<<1, 128, 300 * 1024>>>(out);
  // warning@-1:3 {{'plain' is launched with 307200 bytes of dynamic shared memory without opting in above 49152 bytes}}
  // note@-2:3 {{launches over 49152 bytes fail}}
}
