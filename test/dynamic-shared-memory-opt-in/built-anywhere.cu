// Launch configurations built by helpers (returned by value or filled
// through an out-parameter) and by aggregate or designated initialisers.
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in --fix --recheck %s %t -- %cuda_args --cuda-gpu-arch=sm_90 -std=c++20
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in --fix --recheck %s %t.host -- %cuda_args --cuda-gpu-arch=sm_90 --cuda-host-only -std=c++20
#include <cuda.h>
#include <cuda_runtime.h>

template <int Case> __global__ void tiles(float *o) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = Case;
  o[threadIdx.x] = buf[threadIdx.x];
}

static cudaLaunchConfig_t configFor(size_t bytes) {
  cudaLaunchConfig_t c = {};
  c.gridDim = dim3(4);
  c.blockDim = dim3(128);
  c.dynamicSmemBytes = bytes;
  return c;
}

static void fillConfig(cudaLaunchConfig_t *c, unsigned grid, size_t bytes) {
  c->gridDim = dim3(grid);
  c->blockDim = dim3(128);
  c->dynamicSmemBytes = bytes;
  c->attrs = nullptr;
  c->numAttrs = 0;
}

cudaError_t returned(float *o) {
  cudaLaunchConfig_t cfg = configFor(72 * 1024);
  return cudaLaunchKernelEx(&cfg, tiles<1>, o);
  // warning@-1:10 {{'tiles<1>' is launched with 73728 bytes of dynamic shared memory without opting in above 49152 bytes}} [cuda-dynamic-shared-memory-opt-in]
  // note@-3:28 {{the dynamic shared memory size is set here}}
  // note@-3:10 {{launches over 49152 bytes fail}}
  // FIXED: {{^  }}cudaFuncSetAttribute(tiles<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, cfg.dynamicSmemBytes);
  // FIXED-NEXT: {{^  }}return cudaLaunchKernelEx(&cfg, tiles<1>, o);
}

cudaError_t outParameter(float *o) {
  cudaLaunchConfig_t cfg;
  fillConfig(&cfg, 4, 80 * 1024);
  return cudaLaunchKernelEx(&cfg, tiles<2>, o);
  // warning@-1:10 {{'tiles<2>' is launched with 81920 bytes of dynamic shared memory without opting in}}
  // note@-3:3 {{the dynamic shared memory size is set here}}
  // note@-3:10 {{launches over 49152 bytes fail}}
  // FIXED: {{^  }}cudaFuncSetAttribute(tiles<2>, cudaFuncAttributeMaxDynamicSharedMemorySize, cfg.dynamicSmemBytes);
}

cudaError_t designated(float *o) {
  dim3 g(4), b(128);
  cudaLaunchConfig_t cfg = {
      .gridDim = g, .blockDim = b, .dynamicSmemBytes = 80 * 1024};
  return cudaLaunchKernelEx(&cfg, tiles<3>, o);
  // warning@-1:10 {{'tiles<3>' is launched with 81920 bytes of dynamic shared memory without opting in}}
  // note@-3:56 {{the dynamic shared memory size is set here}}
  // note@-3:10 {{launches over 49152 bytes fail}}
  // FIXED: {{^  }}cudaFuncSetAttribute(tiles<3>, cudaFuncAttributeMaxDynamicSharedMemorySize, cfg.dynamicSmemBytes);
}

cudaError_t helpersThatFit(float *o, size_t requested) {
  // Silent: 32 KiB needs no opt-in.
  cudaLaunchConfig_t small = configFor(32 * 1024);
  cudaLaunchKernelEx(&small, tiles<4>, o);
  // Silent: the size is not known.
  cudaLaunchConfig_t unknown;
  fillConfig(&unknown, 4, requested);
  cudaLaunchKernelEx(&unknown, tiles<5>, o);
  // Silent: overwritten after the helper with a size that fits.
  cudaLaunchConfig_t later;
  fillConfig(&later, 4, 80 * 1024);
  later.dynamicSmemBytes = 16 * 1024;
  return cudaLaunchKernelEx(&later, tiles<6>, o);
}

cudaError_t optedIn(float *o) {
  // Silent: opted in to what the helper sets.
  cudaLaunchConfig_t cfg = configFor(96 * 1024);
  cudaFuncSetAttribute(tiles<7>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       96 * 1024);
  return cudaLaunchKernelEx(&cfg, tiles<7>, o);
}

// The driver API: a CUlaunchConfig filled through a helper.
static void fillDriver(CUlaunchConfig *c, unsigned bytes) {
  c->gridDimX = 4;
  c->gridDimY = c->gridDimZ = 1;
  c->blockDimX = 128;
  c->blockDimY = c->blockDimZ = 1;
  c->sharedMemBytes = bytes;
  c->hStream = nullptr;
  c->attrs = nullptr;
  c->numAttrs = 0;
}
CUresult driver(CUfunction f, void **params) {
  CUlaunchConfig cfg;
  fillDriver(&cfg, 64 * 1024);
  return cuLaunchKernelEx(&cfg, f, params, nullptr);
  // warning@-1:10 {{'f' is launched with 65536 bytes of dynamic shared memory without opting in}}
  // note@-3:3 {{the dynamic shared memory size is set here}}
  // note@-3:10 {{launches over 49152 bytes fail}}
  // FIXED: {{^  }}cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, cfg.sharedMemBytes);
}
