// Launches that are opted in stay silent; an opt-in that is too small is
// raised by a second call before the launch.
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in --fix --recheck %s %t.host -- %cuda_args --cuda-gpu-arch=sm_90 --cuda-host-only
#include <cuda_runtime.h>

__global__ void stencil(const float *in, float *out) {
  extern __shared__ float halo[];
  halo[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = halo[threadIdx.x] + halo[(threadIdx.x + 1) % blockDim.x];
}

__global__ void scan(const int *in, int *out) {
  extern __shared__ int partial[];
  partial[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = partial[0];
}

__global__ void gather(const int *in, int *out) {
  extern __shared__ int slots[];
  slots[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = slots[blockDim.x - 1];
}

__global__ void late(int *out) {
  extern __shared__ int scratch[];
  scratch[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = scratch[0];
}

constexpr size_t kStencilBytes = 96 * 1024;

// A setup routine elsewhere in the file opts the kernel in: launches in
// other functions count it, whatever their order.
void launchStencil(const float *in, float *out) {
  stencil<<<8, 256, kStencilBytes>>>(in, out);
}
void setupKernels() {
  cudaFuncSetAttribute(stencil, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       kStencilBytes);
}

void sameFunction(const int *in, int *out, int requested) {
  // Opted in before the launch in the same function.
  cudaFuncSetAttribute(scan, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       64 * 1024);
  scan<<<1, 256, 64 * 1024>>>(in, out);
  // Silent: exactly 48 KiB needs no opt-in.
  gather<<<1, 256, 48 * 1024>>>(in, out);
  // Silent: the size is not known here.
  gather<<<1, 256, requested>>>(in, out);
  // Silent: an opt-in of unknown size gets the benefit of the doubt.
  cudaFuncSetAttribute(gather, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       requested);
  gather<<<1, 256, 60000>>>(in, out);
}

void tooSmall(const int *in, int *out) {
  cudaFuncSetAttribute(scan, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       64 * 1024);
  // The opt-in above is for 64 KiB; this launch needs more.
  scan<<<1, 256, 80 * 1024>>>(in, out);
  // warning@-1:3 {{'scan' is launched with 81920 bytes of dynamic shared memory but opted in to only 65536}} [cuda-dynamic-shared-memory-opt-in]
  // note@-5:3 {{the opt-in is set here}}
  // note@-3:3 {{launches over 49152 bytes fail}}
  // FIXED: {{^  }}cudaFuncSetAttribute(scan, cudaFuncAttributeMaxDynamicSharedMemorySize, 80 * 1024);
  // FIXED-NEXT: {{^  }}scan<<<1, 256, 80 * 1024>>>(in, out);
}

void afterTheLaunch(int *out) {
  // An opt-in after the launch in the same function comes too late.
  late<<<1, 256, 50 * 1024>>>(out);
  // warning@-1:3 {{'late' is launched with 51200 bytes of dynamic shared memory without opting in above 49152 bytes}}
  // note@-2:3 {{launches over 49152 bytes fail}}
  // FIXED: {{^  }}cudaFuncSetAttribute(late, cudaFuncAttributeMaxDynamicSharedMemorySize, 50 * 1024);
  // FIXED-NEXT: {{^  }}late<<<1, 256, 50 * 1024>>>(out);
  cudaFuncSetAttribute(late, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       50 * 1024);
}
