// sm_120 (RTX 50) allows 101376 bytes of shared memory per block: launches
// that fit an H100 fail there.
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in %s %t -- %cuda_args --cuda-gpu-arch=sm_120
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in --config="{CheckOptions: {cuda.TargetArch: sm_120}}" %s %t.host -- %cuda_args --cuda-host-only
#include <cuda_runtime.h>

__global__ void conv(const float *in, float *out) {
  extern __shared__ float window[];
  window[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = window[0];
}

void setup() {
  cudaFuncSetAttribute(conv, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       160 * 1024);
}

void run(const float *in, float *out) {
  // Silent: 99 KiB is the sm_120 maximum.
  conv<<<64, 256, 99 * 1024>>>(in, out);
  conv<<<64, 256, 160 * 1024>>>(in, out);
  // warning@-1:3 {{'conv' needs 163840 bytes of shared memory per block, more than the 101376 bytes 'sm_120' allows}} [cuda-dynamic-shared-memory-opt-in]
}
