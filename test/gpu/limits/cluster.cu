// cuda-cluster-size-portability on a GPU: clusters of 16 blocks from a
// launch attribute and from __cluster_dims__, without and with the
// non-portable opt-in, and a cluster of 32 blocks.
#include "common.h"

__global__ void attrNoOptIn(int *out) { out[blockIdx.x] = blockIdx.x; }
__global__ void attrOptedIn(int *out) { out[blockIdx.x] = blockIdx.x; }
__global__ void attr32(int *out) { out[blockIdx.x] = blockIdx.x; }
// nvcc accepts 16 here; clang 22 rejects it (see the check's docs).
__global__ void __cluster_dims__(16, 1, 1) dimsNoOptIn(int *out) {
  out[blockIdx.x] = blockIdx.x;
}
__global__ void __cluster_dims__(16, 1, 1) dimsOptedIn(int *out) {
  out[blockIdx.x] = blockIdx.x;
}

template <typename Kernel>
static cudaError_t launchCluster(Kernel kernel, unsigned clusterX, int *out) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(clusterX * 4);
  config.blockDim = dim3(128);
  cudaLaunchAttribute attrs[1];
  attrs[0].id = cudaLaunchAttributeClusterDimension;
  attrs[0].val.clusterDim.x = clusterX;
  attrs[0].val.clusterDim.y = 1;
  attrs[0].val.clusterDim.z = 1;
  config.attrs = attrs;
  config.numAttrs = 1;
  return launchResult(cudaLaunchKernelEx(&config, kernel, out));
}

int main() {
  int *out = nullptr;
  cudaMalloc(&out, 1024 * sizeof(int));

  report("cluster 16 (launch attribute) without the opt-in",
         cudaErrorInvalidClusterSize, launchCluster(attrNoOptIn, 16, out));
  cudaGetLastError();

  cudaFuncSetAttribute(attrOptedIn,
                       cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  report("cluster 16 (launch attribute) with the opt-in (fixed)", cudaSuccess,
         launchCluster(attrOptedIn, 16, out));

  cudaFuncSetAttribute(attr32, cudaFuncAttributeNonPortableClusterSizeAllowed,
                       1);
  report("cluster 32 (launch attribute) with the opt-in",
         cudaErrorInvalidClusterSize, launchCluster(attr32, 32, out),
         /*AnyError=*/true);
  cudaGetLastError();

  report("cluster 16 (__cluster_dims__) without the opt-in",
         cudaErrorInvalidClusterSize,
         launchResult((dimsNoOptIn<<<64, 128>>>(out), cudaSuccess)));
  cudaGetLastError();

  cudaFuncSetAttribute(dimsOptedIn,
                       cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  report("cluster 16 (__cluster_dims__) with the opt-in (fixed)", cudaSuccess,
         launchResult((dimsOptedIn<<<64, 128>>>(out), cudaSuccess)));

  cudaFree(out);
  std::printf("cluster: %d failure(s)\n", gFailures);
  return gFailures ? 1 : 0;
}
