// Registers, fixes that wait on a note: a kernel declared in a header
// (another file may launch it with larger blocks, which the bound would
// make fail). --fix leaves the file alone; --fix-notes adds the bound.
// RUN: cp %S/Inputs/registers.ptxas.log %t.log && touch -d '+1 hour' %t.log
// RUN: %check_cuda_tidy --checks=cuda-launch-resources --fix-notes --fixed-prefix=FIXED-NOTES \
// RUN:   --config="{CheckOptions: {cuda.ResourceUsage: '%t.log'}}" %s %t.notes -- %cuda_args --cuda-gpu-arch=sm_90 -I%S/Inputs
#include <cuda_runtime.h>
#include "declared.cuh"

__global__ void shared_kernel(float *out) { out[threadIdx.x] = 0; }
// note@-1:17 {{'__launch_bounds__(640)' makes ptxas fit 'shared_kernel' in 96 registers per thread for blocks of 640 threads; it may spill registers to local memory; not applied automatically: it is declared outside this file, so other files may launch it with larger blocks}}
// FIXED-NOTES: __global__ void __launch_bounds__(640) shared_kernel(float *out) { out[threadIdx.x] = 0; }

void runShared(float *out) {
  shared_kernel<<<1, 640>>>(out);
  // warning@-1:3 {{this launch of 'shared_kernel' with 640 threads fails with cudaErrorLaunchOutOfResources: it uses 128 registers per thread on sm_90 (from Output/registers-unproven.cu.tmp.log), 81920 in all}}
  // note@-2:3 {{with 128 registers per thread 'shared_kernel' launches with at most 512 threads per block}}
  shared_kernel<<<1, 512>>>(out);
}

// A kernel whose address is stored: it may be launched where cuda-tidy
// cannot see the block.
__global__ void gemm(const float *a, const float *b, float *c, int n) {
  c[threadIdx.x] = a[threadIdx.x] * b[threadIdx.x] + n;
}
// note@-3:17 {{'__launch_bounds__(1024)' makes ptxas fit 'gemm' in 64 registers per thread for blocks of 1024 threads; it may spill registers to local memory; not applied automatically: it is used where cuda-tidy cannot see its launches}}
// FIXED-NOTES: __global__ void __launch_bounds__(1024) gemm(const float *a, const float *b, float *c, int n) {

using GemmFn = void (*)(const float *, const float *, float *, int);
GemmFn table[] = {gemm};

void runGemm(const float *a, const float *b, float *c, int n) {
  gemm<<<1, 1024>>>(a, b, c, n);
  // warning@-1:3 {{this launch of 'gemm' with 1024 threads fails with cudaErrorLaunchOutOfResources: it uses 72 registers per thread on sm_90}}
  // note@-2:3 {{it fails on sm_80 too}}
  // note@-3:3 {{launches with at most 896 threads per block}}
  // The attribute and occupancy queries only read the kernel.
  cudaFuncSetAttribute(gemm, cudaFuncAttributePreferredSharedMemoryCarveout, 50);
}
