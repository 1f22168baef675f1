// Clusters over 16 blocks: no GPU runs them, with or without the opt-in, so
// there is no fix. A kernel's __cluster_dims__ is reported at the kernel,
// launched or not.
// RUN: %check_cuda_tidy --checks=cuda-cluster-size-portability %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// RUN: %check_cuda_tidy --checks=cuda-cluster-size-portability %s %t.host -- %cuda_args --cuda-gpu-arch=sm_90 --cuda-host-only
#include <cuda_runtime.h>

__global__ void __cluster_dims__(32, 1, 1) huge(float *out) {
  // warning@-1:17 {{a cluster of 32 blocks (32, 1, 1) is larger than any GPU runs}} [cuda-cluster-size-portability]
  // note@-2:17 {{the largest cluster is 16 blocks, with the non-portable cluster size opt-in}}
  // error@-3:34 {{cannot be represented in a 4-bit unsigned integer type}} [clang-diagnostic-error]
  out[blockIdx.x] = 1.0f;
}

__global__ void tile(float *out) { out[blockIdx.x] = 0.0f; }

cudaError_t launch32(float *out, bool ready) {
  cudaFuncSetAttribute(tile, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = 8;
  attr.val.clusterDim.y = 4;
  attr.val.clusterDim.z = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(64, 4);
  config.blockDim = dim3(128);
  config.attrs = &attr;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, tile, out);
  // warning@-1:10 {{'tile' is launched with a cluster of 32 blocks, larger than any GPU runs}}
  // note@-10:27 {{the cluster shape (8, 4, 1) is set here}}
  // note@-3:10 {{the largest cluster is 16 blocks}}
}
