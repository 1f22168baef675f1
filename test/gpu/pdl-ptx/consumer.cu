// GPU proof for cuda-programmatic-dependent-launch on old PTX: the consumer,
// whose wait CCCL's NV_IF_TARGET keeps only where sm_90 is provided. It is
// launched with programmatic stream serialization, with no check of the
// PTX version of its code. Built for sm_80 alone, an H200 runs its
// compute_80 PTX: no wait. Built for sm_80 and sm_90, the H200 runs the
// sm_90 code, which waits.
#include <cuda_runtime.h>
#include <nv/target>

__global__ void consumer(const float *mid, float *out) {
  NV_IF_TARGET(NV_PROVIDES_SM_90, cudaGridDependencySynchronize();)
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  out[I] = mid[I] + 1.f;
}

int launchConsumer(const float *mid, float *out, int Blocks, int Threads) {
  cudaLaunchAttribute Attr;
  Attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  Attr.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t Config = {};
  Config.gridDim = dim3(Blocks);
  Config.blockDim = dim3(Threads);
  Config.attrs = &Attr;
  Config.numAttrs = 1;
  cudaLaunchKernelEx(&Config, consumer, mid, out);
  cudaFuncAttributes FA;
  cudaFuncGetAttributes(&FA, consumer);
  return FA.ptxVersion;
}
