// Opt-ins made through wrapper functions count at each call of the wrapper,
// with the kernel and the size it is given there.
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in --fix --recheck %s %t.host -- %cuda_args --cuda-gpu-arch=sm_90 --cuda-host-only
#include <cuda_runtime.h>

// One specialisation per case: an opt-in in one function counts for
// launches in every other function.
template <int Case> __global__ void tiled(float *o) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = Case;
  o[threadIdx.x] = buf[threadIdx.x];
}

template <class K> void allowSmem(K k, int bytes) {
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
}

void enough(float *o) {
  // Silent: the wrapper opts the kernel in to the launch's size.
  auto kernel = tiled<1>;
  allowSmem(kernel, 100 * 1024);
  kernel<<<1, 256, 100 * 1024>>>(o);
}

void tooLittle(float *o) {
  allowSmem(tiled<2>, 64 * 1024);
  tiled<2><<<1, 256, 100 * 1024>>>(o);
  // warning@-1:3 {{'tiled<2>' is launched with 102400 bytes of dynamic shared memory but opted in to only 65536}} [cuda-dynamic-shared-memory-opt-in]
  // note@-3:3 {{the opt-in is set here, through 'allowSmem'}}
  // note@-3:3 {{launches over 49152 bytes fail}}
  // FIXED: {{^  }}cudaFuncSetAttribute(tiled<2>, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024);
  // FIXED-NEXT: {{^  }}tiled<2><<<1, 256, 100 * 1024>>>(o);
}

// A wrapper of a wrapper, with the size computed in the outer one.
void allowTiles(void (*k)(float *), int tiles) {
  allowSmem(k, tiles * 4096);
}
void nested(float *o) {
  // Silent: 32 * 4096 = 128 KiB.
  allowTiles(tiled<3>, 32);
  tiled<3><<<1, 256, 128 * 1024>>>(o);
  // 8 * 4096 = 32 KiB, too little for 96 KiB.
  allowTiles(tiled<4>, 8);
  tiled<4><<<1, 256, 96 * 1024>>>(o);
  // warning@-1:3 {{'tiled<4>' is launched with 98304 bytes of dynamic shared memory but opted in to only 32768}}
  // note@-3:3 {{the opt-in is set here, through 'allowTiles'}}
  // note@-3:3 {{launches over 49152 bytes fail}}
  // FIXED: {{^  }}cudaFuncSetAttribute(tiled<4>, cudaFuncAttributeMaxDynamicSharedMemorySize, 96 * 1024);
}

// A wrapper the translation unit never calls: the kernel it is for cannot
// be followed, so launches of kernels of its type stay silent.
void exportedOptIn(void (*k)(double *), int bytes) {
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
}
__global__ void wide(double *o) {
  extern __shared__ double lanes[];
  lanes[threadIdx.x] = 1;
  o[threadIdx.x] = lanes[0];
}
__global__ void counted(int *o) {
  extern __shared__ int cells[];
  cells[threadIdx.x] = 1;
  o[threadIdx.x] = cells[0];
}
void unfollowed(double *o, int *p) {
  // Silent: exportedOptIn may have opted 'wide' in.
  wide<<<1, 256, 80 * 1024>>>(o);
  // 'counted' takes an int *, so exportedOptIn cannot be for it.
  counted<<<1, 256, 80 * 1024>>>(p);
  // warning@-1:3 {{'counted' is launched with 81920 bytes of dynamic shared memory without opting in above 49152 bytes}}
  // note@-2:3 {{launches over 49152 bytes fail}}
  // FIXED: {{^  }}cudaFuncSetAttribute(counted, cudaFuncAttributeMaxDynamicSharedMemorySize, 80 * 1024);
}

// A wrapper that writes its parameter: its value is not the argument.
void doubled(void (*k)(float *), int bytes) {
  bytes *= 2;
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
}
void writtenParameter(float *o) {
  // Silent: the opt-in's size is unknown and trusted.
  doubled(tiled<5>, 60 * 1024);
  tiled<5><<<1, 256, 120 * 1024>>>(o);
}
