// The fix moves the kernel's one wait to the top of its body when the wait
// is a statement of the body: every thread then waits before anything else
// runs, which orders every access the check reports in that kernel.
// RUN: %check_cuda_tidy --checks=cuda-programmatic-dependent-launch --fix \
// RUN:   --recheck %if nvcc %{ %nvcc_sm90 %} %s %t -- %cuda_args \
// RUN:   --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

struct Params {
  const float *src;
  float *dst;
};

__device__ float first(const float *p) { return p[0]; }

__global__ void readThenWait(const float *in, float *out) {
  __shared__ float tile[128];
  float v = in[threadIdx.x];
  // warning@-1:13 {{'in' is read before this thread waits for the previous kernel}}
  // note@+3:3 {{'readThenWait' waits for the previous kernel here}}
  // note@-5:17 {{no launch of 'readThenWait' is visible; as it waits for the previous kernel, it is taken to be launched with programmatic stream serialization}}
  tile[threadIdx.x] = v;
  cudaGridDependencySynchronize();
  out[threadIdx.x] = tile[threadIdx.x];
}
// FIXED: __global__ void readThenWait(const float *in, float *out) {
// FIXED-NEXT: {{^  }}cudaGridDependencySynchronize();
// FIXED-NEXT: {{^  }}__shared__ float tile[128];
// FIXED: {{^  }}float v = in[threadIdx.x];
// FIXED: {{^  }}tile[threadIdx.x] = v;
// FIXED: {{^  }}out[threadIdx.x] = tile[threadIdx.x];

// A write before the wait to a buffer the previous kernel may still read,
// and a helper's read: one fix for both.
__global__ void writeAndHelper(Params p, float *scratch) {
  scratch[threadIdx.x] = 0.f;
  // warning@-1:3 {{'scratch' is written before this thread waits for the previous kernel}}
  // note@+6:3 {{'writeAndHelper' waits for the previous kernel here}}
  // note@-4:17 {{no launch of 'writeAndHelper' is visible; as it waits for the previous kernel, it is taken to be launched with programmatic stream serialization}}
  float v = first(p.src);
  // warning@-1:13 {{this call to 'first' reads global memory before this thread waits for the previous kernel}}
  // note@-28:49 {{'p' is read here}}
  // note@+1:3 {{'writeAndHelper' waits for the previous kernel here}}
  asm volatile("griddepcontrol.wait;" ::: "memory");
  p.dst[threadIdx.x] = v + scratch[threadIdx.x];
}
// FIXED: __global__ void writeAndHelper(Params p, float *scratch) {
// FIXED-NEXT: {{^  }}asm volatile("griddepcontrol.wait;" ::: "memory");
// FIXED-NEXT: {{^  }}scratch[threadIdx.x] = 0.f;
// FIXED: {{^  }}float v = first(p.src);
// FIXED-NOT: griddepcontrol
// FIXED: {{^  }}p.dst[threadIdx.x] = v + scratch[threadIdx.x];

// The wait in a loop body: a copy goes to the top; the one in the loop then
// returns at once.
__global__ void loopWait(const float *in, float *out, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    float v = in[i];
    // warning@-1:15 {{'in' is read before this thread waits for the previous kernel}}
    // note@+2:5 {{'loopWait' waits for the previous kernel here; some paths through it never wait}}
    // note@-5:17 {{no launch of 'loopWait' is visible; as it waits for the previous kernel, it is taken to be launched with programmatic stream serialization}}
    cudaGridDependencySynchronize();
    out[i] = v;
  }
}
// FIXED: __global__ void loopWait(const float *in, float *out, int n) {
// FIXED-NEXT: {{^  }}cudaGridDependencySynchronize();
// FIXED-NEXT: {{^  }}for (int i = threadIdx.x; i < n; i += blockDim.x) {
// FIXED: {{^    }}cudaGridDependencySynchronize();

// One warp role waits, the other does not: every thread waits at the top.
__global__ void warpRoles(const float *in, float *out) {
  if (threadIdx.x < 32) {
    cudaGridDependencySynchronize();
    out[threadIdx.x] = in[threadIdx.x];
  } else {
    out[threadIdx.x] = 2.f * in[threadIdx.x];
    // warning@-1:5 {{'out' is written before this thread waits for the previous kernel}}
    // note@-5:5 {{'warpRoles' waits for the previous kernel here; some paths through it never wait}}
    // note@-8:17 {{no launch of 'warpRoles' is visible; as it waits for the previous kernel, it is taken to be launched with programmatic stream serialization}}
    // warning@-4:30 {{'in' is read before this thread waits for the previous kernel}}
    // note@-8:5 {{'warpRoles' waits for the previous kernel here; some paths through it never wait}}
  }
}
// FIXED: __global__ void warpRoles(const float *in, float *out) {
// FIXED-NEXT: {{^  }}cudaGridDependencySynchronize();
// FIXED-NEXT: {{^  }}if (threadIdx.x < 32) {
