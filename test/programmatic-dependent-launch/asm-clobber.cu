// An inline-asm wait with no "memory" clobber does not stop the compiler
// from moving loads and stores above it; the fix adds the clobber.
// RUN: %check_cuda_tidy --checks=cuda-programmatic-dependent-launch --fix \
// RUN:   --recheck %if nvcc %{ %nvcc_sm90 %} %s %t -- %cuda_args \
// RUN:   --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__device__ __forceinline__ void waitBare() {
  asm volatile("griddepcontrol.wait;");
  // warning@-1:3 {{'griddepcontrol.wait' has no "memory" clobber; the compiler may move memory accesses above the wait}}
}
// FIXED: asm volatile("griddepcontrol.wait;" ::: "memory");

__device__ __forceinline__ void waitEmptyClobbers() {
  asm volatile("griddepcontrol.wait;" :::);
  // warning@-1:3 {{'griddepcontrol.wait' has no "memory" clobber; the compiler may move memory accesses above the wait}}
}
// FIXED: asm volatile("griddepcontrol.wait;" ::: "memory");

// A wait written as two string pieces.
__device__ __forceinline__ void waitPieces() {
  asm volatile("griddepcontrol"
               ".wait;");
  // warning@-2:3 {{'griddepcontrol.wait' has no "memory" clobber; the compiler may move memory accesses above the wait}}
}
// FIXED: {{^               }}".wait;" ::: "memory");

// Silent: the clobber is there (as in the toolkit's
// cudaGridDependencySynchronize), and the trigger needs none.
__device__ __forceinline__ void waitRight() {
  asm volatile("griddepcontrol.wait;" ::: "memory");
}
__device__ __forceinline__ void trigger() {
  asm volatile("griddepcontrol.launch_dependents;");
}

__global__ void consumer(const float *in, float *out) {
  waitBare();
  waitEmptyClobbers();
  waitPieces();
  waitRight();
  trigger();
  out[threadIdx.x] = in[threadIdx.x];
}
