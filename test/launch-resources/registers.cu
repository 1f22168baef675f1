// Registers: a launch whose block needs more registers than an SM holds
// for one block (64K) fails with cudaErrorLaunchOutOfResources (measured on
// an H100: 72 registers and 1024 threads). The counts come from the build,
// here the 'ptxas -v' output of Inputs/registers.ptxas.log named by the
// module option cuda.ResourceUsage; the log is dated after the copy of this
// file the runner makes (counts older than the code are not used).
// RUN: cp %S/Inputs/registers.ptxas.log %t.log && touch -d '+1 hour' %t.log
// RUN: %check_cuda_tidy --checks=cuda-launch-resources --fix %if nvcc %{ %nvcc_fixed %} \
// RUN:   --config="{CheckOptions: {cuda.ResourceUsage: '%t.log'}}" %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// The host side reads the same counts and says the same.
// RUN: %check_cuda_tidy --checks=cuda-launch-resources --fix \
// RUN:   --config="{CheckOptions: {cuda.ResourceUsage: '%t.log'}}" %s %t.host -- %cuda_args --cuda-gpu-arch=sm_90 --cuda-host-only
// Without counts (an editor with no build), or with counts older than the
// code, the register rule is silent.
// RUN: %check_cuda_tidy --expect-prefix=NONE --checks=cuda-launch-resources %s %t.none -- %cuda_args --cuda-gpu-arch=sm_90
// RUN: cp %S/Inputs/registers.ptxas.log %t.old.log && touch -d '-1 hour' %t.old.log
// RUN: %check_cuda_tidy --expect-prefix=NONE --checks=cuda-launch-resources \
// RUN:   --config="{CheckOptions: {cuda.ResourceUsage: '%t.old.log'}}" %s %t.old -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// 72 registers on sm_90 and 70 on sm_80 (both 2304 per warp): 1024 threads
// need 73728, 256 threads fit.
__global__ void gemm(const float *a, const float *b, float *c, int n) {
  c[threadIdx.x] = a[threadIdx.x] * b[threadIdx.x] + n;
}
// note@-3:17 {{'__launch_bounds__(1024)' makes ptxas fit 'gemm' in 64 registers per thread for blocks of 1024 threads; it may spill registers to local memory}}
// FIXED: __global__ void __launch_bounds__(1024) gemm(const float *a, const float *b, float *c, int n) {

void runGemm(const float *a, const float *b, float *c, int n) {
  gemm<<<n / 1024, 1024>>>(a, b, c, n);
  // warning@-1:3 {{this launch of 'gemm' with 1024 threads fails with cudaErrorLaunchOutOfResources: it uses 72 registers per thread on sm_90 (from Output/registers.cu.tmp.log), 73728 in all, over the 65536 of an SM}} [cuda-launch-resources]
  // note@-2:3 {{it fails on sm_80 too, with 70 registers per thread}}
  // note@-3:3 {{with 72 registers per thread 'gemm' launches with at most 896 threads per block}}
  gemm<<<n / 256, 256>>>(a, b, c, n);
  gemm<<<n / 768, dim3(32, 24)>>>(a, b, c, n);
}

// The allocation granularity: 68 registers x 960 threads is 65280, but
// registers are allocated per warp in units of 256 (2176 take 2304) and to
// warps in groups of 4 (30 warps count as 32): 73728.
__global__ void stencil(const float *in, float *out) {
  out[threadIdx.x] = in[threadIdx.x];
}
// note@-3:17 {{'__launch_bounds__(960)' makes ptxas fit 'stencil' in 64 registers per thread for blocks of 960 threads}}
// FIXED: __global__ void __launch_bounds__(960) stencil(const float *in, float *out) {

void runStencil(const float *in, float *out) {
  stencil<<<64, 960>>>(in, out);
  // warning@-1:3 {{this launch of 'stencil' with 960 threads fails with cudaErrorLaunchOutOfResources: it uses 68 registers per thread on sm_90 (from Output/registers.cu.tmp.log), 73728 in all, over the 65536 of an SM}}
  // note@-2:3 {{registers are allocated per warp in units of 256 (68 x 32 = 2176 take 2304) and to the warps of a block in groups of 4 (30 warps count as 32)}}
  // note@-3:3 {{with 68 registers per thread 'stencil' launches with at most 896 threads per block}}
  stencil<<<64, 896>>>(in, out);
}

// A template: one fix on the pattern, with the largest failing block of
// all its instantiations' launches.
template <int Step> __global__ void tile(float *out) {
  out[threadIdx.x * Step] = 0;
}
// note@-3:37 {{'__launch_bounds__(1024)' makes ptxas fit 'tile' in 64 registers per thread for blocks of 1024 threads}}
// FIXED: template <int Step> __global__ void __launch_bounds__(1024) tile(float *out) {

void runTile(float *out) {
  tile<1><<<1, 1024>>>(out);
  // warning@-1:3 {{this launch of 'tile<1>' with 1024 threads fails with cudaErrorLaunchOutOfResources: it uses 80 registers per thread on sm_90 (from Output/registers.cu.tmp.log), 81920 in all}}
  // note@-2:3 {{with 80 registers per thread 'tile<1>' launches with at most 768 threads per block}}
  tile<2><<<1, 1024>>>(out);
  // warning@-1:3 {{this launch of 'tile<2>' with 1024 threads fails with cudaErrorLaunchOutOfResources: it uses 96 registers per thread on sm_90 (from Output/registers.cu.tmp.log), 98304 in all}}
  // note@-2:3 {{with 96 registers per thread 'tile<2>' launches with at most 640 threads per block}}
  tile<1><<<1, 640>>>(out);
}

// Bounds already there (the count is inconsistent with them, as a stale
// build would be): reported, no fix.
__global__ void __launch_bounds__(1024) bounded(float *out) { out[0] = 0; }
void runBounded(float *out) {
  bounded<<<1, 1024>>>(out);
  // warning@-1:3 {{this launch of 'bounded' with 1024 threads fails with cudaErrorLaunchOutOfResources: it uses 72 registers per thread on sm_90}}
  // note@-2:3 {{with 72 registers per thread 'bounded' launches with at most 896}}
  // note@-3:3 {{no automatic fix: 'bounded' already has '__launch_bounds__'}}
}

// Another launch with a block cuda-tidy cannot prove: a fixed bound could
// fail it, so the fix waits on a note.
__global__ void sometimes(float *out, int n) { out[threadIdx.x] = n; }
// note@-1:17 {{'__launch_bounds__(1024)' makes ptxas fit 'sometimes' in 64 registers per thread for blocks of 1024 threads; it may spill registers to local memory; not applied automatically: a launch of it has a block cuda-tidy cannot prove}}
void runSometimes(float *out, int n) {
  sometimes<<<1, 1024>>>(out, n);
  // warning@-1:3 {{this launch of 'sometimes' with 1024 threads fails with cudaErrorLaunchOutOfResources: it uses 100 registers per thread on sm_90 (from Output/registers.cu.tmp.log), 106496 in all}}
  // note@-2:3 {{registers are allocated per warp in units of 256 (100 x 32 = 3200 take 3328)}}
  // note@-3:3 {{launches with at most 512 threads per block}}
  sometimes<<<1, n>>>(out, n);
}

// nvcc names the anonymous namespace after the file; it is the same kernel.
namespace {
__global__ void local(float *out) { out[threadIdx.x] = 1; }
// note@-1:17 {{'__launch_bounds__(288)' makes ptxas fit 'local' in 168 registers per thread for blocks of 288 threads}}
// FIXED: __global__ void __launch_bounds__(288) local(float *out) { out[threadIdx.x] = 1; }
} // namespace
void runLocal(float *out) {
  local<<<1, 288>>>(out);
  // warning@-1:3 {{this launch of 'local' with 288 threads fails with cudaErrorLaunchOutOfResources: it uses 255 registers per thread on sm_90 (from Output/registers.cu.tmp.log), 98304 in all}}
  // note@-2:3 {{(255 x 32 = 8160 take 8192) and to the warps of a block in groups of 4 (9 warps count as 12)}}
  // note@-3:3 {{with 255 registers per thread 'local' launches with at most 256 threads per block}}
  local<<<1, 256>>>(out);
}

// Fits; and a kernel the build does not name.
__global__ void light(float *out) { out[threadIdx.x] = 2; }
__global__ void unknown(float *out) { out[threadIdx.x] = 3; }
void runOthers(float *out) {
  light<<<1, 1024>>>(out);
  unknown<<<1, 1024>>>(out);
}
