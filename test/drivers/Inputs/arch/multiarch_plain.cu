#include <cuda_runtime.h>
// No condition here differs between the architectures built (sm_75, sm_80,
// sm_90, sm_90a): one device parse stands for all of them.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
#define VOLTA_OR_LATER 1
#endif

// 64 KiB of static shared memory: ptxas rejects it for the generic
// targets, and builds it for sm_90a only.
__global__ void bigStatic(float *out) {
  __shared__ float tile[16384];
  tile[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 32];
}

__global__ void dynamicOnly(float *out) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x] = out[threadIdx.x];
  out[threadIdx.x] = dyn[threadIdx.x];
}

__global__ void staticAndDynamic(float *out) {
  __shared__ float fixed[4096];
  extern __shared__ float dyn[];
  fixed[threadIdx.x] = out[threadIdx.x];
  dyn[threadIdx.x] = fixed[threadIdx.x];
  out[threadIdx.x] = dyn[threadIdx.x];
}

void launch(float *out) {
  // 100 KiB: more than sm_75 allows per block (64 KiB); elsewhere it needs
  // the opt-in.
  dynamicOnly<<<1, 32, 100 * 1024>>>(out);
  // 16 KiB static and a 200 KiB opt-in: over sm_75's and sm_80's maximum,
  // within sm_90's.
  cudaFuncSetAttribute(staticAndDynamic,
                       cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
  staticAndDynamic<<<1, 32, 200 * 1024>>>(out);
}
