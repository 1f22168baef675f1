// The driver API: cuLaunchKernel and cuLaunchKernelEx, opted in with
// cuFuncSetAttribute on the same CUfunction.
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in --fix --recheck %s %t.host -- %cuda_args --cuda-gpu-arch=sm_90 --cuda-host-only
#include <cuda.h>
#include <cuda_runtime.h>

struct Module {
  CUmodule mod;
  CUfunction reduce;
  CUfunction transpose;
};

CUresult launchReduce(Module &m, void **params, CUstream stream) {
  const unsigned bytes = 72 * 1024;
  CUresult err = cuLaunchKernel(m.reduce, 128, 1, 1, 256, 1, 1, bytes, stream,
                                params, nullptr);
  // warning@-2:18 {{'reduce' is launched with 73728 bytes of dynamic shared memory without opting in above 49152 bytes}} [cuda-dynamic-shared-memory-opt-in]
  // note@-3:18 {{launches over 49152 bytes fail with cudaErrorInvalidValue unless 'cuFuncSetAttribute' raises 'CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES'}}
  // FIXED: {{^  }}cuFuncSetAttribute(m.reduce, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes);
  // FIXED-NEXT: {{^  }}CUresult err = cuLaunchKernel(m.reduce, 128, 1, 1, 256, 1, 1, bytes, stream,
  return err;
}

CUresult launchTranspose(Module &m, void **params) {
  CUlaunchConfig config = {};
  config.gridDimX = 64;
  config.gridDimY = 64;
  config.gridDimZ = 1;
  config.blockDimX = 32;
  config.blockDimY = 8;
  config.blockDimZ = 1;
  config.sharedMemBytes = 33 * 32 * 64;
  return cuLaunchKernelEx(&config, m.transpose, params, nullptr);
  // warning@-1:10 {{'transpose' is launched with 67584 bytes of dynamic shared memory without opting in above 49152 bytes}}
  // note@-3:27 {{the dynamic shared memory size is set here}}
  // note@-3:10 {{launches over 49152 bytes fail}}
  // FIXED: {{^  }}cuFuncSetAttribute(m.transpose, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, config.sharedMemBytes);
  // FIXED-NEXT: {{^  }}return cuLaunchKernelEx(&config, m.transpose, params, nullptr);
}

// Silent: opted in on the same CUfunction variable before the launch.
CUresult optedIn(CUmodule mod, void **params) {
  CUfunction f;
  cuModuleGetFunction(&f, mod, "histogram");
  cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                     96 * 1024);
  return cuLaunchKernel(f, 80, 1, 1, 512, 1, 1, 96 * 1024, nullptr, params,
                        nullptr);
}
