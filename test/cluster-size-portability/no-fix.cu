// A non-portable cluster the check cannot fix in place: the warning stays
// and a note says why.
// RUN: %check_cuda_tidy --checks=cuda-cluster-size-portability %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// RUN: %check_cuda_tidy --checks=cuda-cluster-size-portability %s %t.host -- %cuda_args --cuda-gpu-arch=sm_90 --cuda-host-only
#include <cuda_runtime.h>

__global__ void tile(float *out) { out[blockIdx.x] = 0.0f; }

cudaError_t launch(float *out, bool ready) {
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = 16;
  attr.val.clusterDim.y = 1;
  attr.val.clusterDim.z = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(160);
  config.blockDim = dim3(128);
  config.attrs = &attr;
  config.numAttrs = 1;
  if (ready)
    return cudaLaunchKernelEx(&config, tile, out);
  // warning@-1:12 {{'tile' is launched with a cluster of 16 blocks without allowing non-portable cluster sizes}}
  // note@-11:27 {{the cluster shape (16, 1, 1) is set here}}
  // note@-3:12 {{clusters over 8 blocks fail}}
  // note@-4:12 {{no automatic fix: the launch is not a statement of a block}}
  return cudaGetLastError();
}
