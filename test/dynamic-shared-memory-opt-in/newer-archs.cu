// Compute capabilities 8.7 (Jetson Orin), 10.3 (B300), 11.0 (Jetson Thor) and
// 12.1 (DGX Spark) have their own per-block maximum: a 200 KiB launch fits
// none of 8.7 and 12.1, and fits 10.3 and 11.0 (227 KiB).
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in %s %t.87 -- %cuda_args --cuda-gpu-arch=sm_87
// The same file for sm_121, on the device side and through cuda.TargetArch:
// RUN: sed -e 's/sm_87/sm_121/g' -e 's/166912/101376/g' %s > %t.sm121.cu
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in %t.sm121.cu %t.121 -- %cuda_args --cuda-gpu-arch=sm_121
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in --config="{CheckOptions: {cuda.TargetArch: sm_121}}" %t.sm121.cu %t.121host -- %cuda_args --cuda-host-only
// The same launches are silent for 10.3 and 11.0 (their maximum is 232448):
// RUN: grep -v 'warning@' %s > %t.fits.cu
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in %t.fits.cu %t.103 -- %cuda_args --cuda-gpu-arch=sm_103
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in %t.fits.cu %t.110 -- %cuda_args --cuda-gpu-arch=sm_110
#include <cuda_runtime.h>

__global__ void stencil(const float *in, float *out) {
  extern __shared__ float tile[];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[0];
}

void setup() {
  cudaFuncSetAttribute(stencil, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       200 * 1024);
}

void run(const float *in, float *out) {
  // Silent: 96 KiB fits every architecture after the opt-in.
  stencil<<<64, 256, 96 * 1024>>>(in, out);
  stencil<<<64, 256, 200 * 1024>>>(in, out);
  // warning@-1:3 {{'stencil' needs 204800 bytes of shared memory per block, more than the 166912 bytes 'sm_87' allows}} [cuda-dynamic-shared-memory-opt-in]
}
