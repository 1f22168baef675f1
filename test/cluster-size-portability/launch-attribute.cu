// Cluster sizes set at launch time: a cudaLaunchAttributeClusterDimension
// attribute filled field by field, the driver API's equivalent, and the
// required cluster size function attributes.
// RUN: %check_cuda_tidy --checks=cuda-cluster-size-portability --fix --recheck %if nvcc %{ --nvcc=%nvcc --nvcc-arch=sm_90 --nvcc-arch=sm_100 --nvcc-arch=sm_120 %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// RUN: %check_cuda_tidy --checks=cuda-cluster-size-portability --fix --recheck %s %t.host -- %cuda_args --cuda-gpu-arch=sm_90 --cuda-host-only
#include <cuda.h>
#include <cuda_runtime.h>

__global__ void reduceCluster(const float *in, float *out) {
  out[blockIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
}

__global__ void portable(const float *in, float *out) {
  out[blockIdx.x] = in[blockIdx.x];
}

cudaError_t launchSixteen(const float *in, float *out, cudaStream_t stream) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(128);
  config.blockDim = dim3(256);
  config.stream = stream;
  cudaLaunchAttribute attrs[1];
  attrs[0].id = cudaLaunchAttributeClusterDimension;
  attrs[0].val.clusterDim.x = 16;
  attrs[0].val.clusterDim.y = 1;
  attrs[0].val.clusterDim.z = 1;
  config.attrs = attrs;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, reduceCluster, in, out);
  // warning@-1:10 {{'reduceCluster' is launched with a cluster of 16 blocks without allowing non-portable cluster sizes}} [cuda-cluster-size-portability]
  // note@-7:31 {{the cluster shape (16, 1, 1) is set here}}
  // note@-3:10 {{clusters over 8 blocks fail with cudaErrorInvalidClusterSize unless 'cudaFuncSetAttribute' sets 'cudaFuncAttributeNonPortableClusterSizeAllowed' to 1 first}}
  // FIXED: {{^  }}cudaFuncSetAttribute(reduceCluster, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  // FIXED-NEXT: {{^  }}return cudaLaunchKernelEx(&config, reduceCluster, in, out);
}

cudaError_t launchOptedIn(const float *in, float *out) {
  // Silent: the opt-in comes first.
  cudaFuncSetAttribute(portable, cudaFuncAttributeNonPortableClusterSizeAllowed,
                       1);
  cudaLaunchAttribute cluster;
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = 4;
  cluster.val.clusterDim.y = 4;
  cluster.val.clusterDim.z = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(64, 4);
  config.blockDim = dim3(128);
  config.attrs = &cluster;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, portable, in, out);
}

cudaError_t launchPortable(const float *in, float *out) {
  // Silent: 8 blocks are portable.
  cudaLaunchAttribute attrs[2];
  attrs[0].id = cudaLaunchAttributeClusterDimension;
  attrs[0].val.clusterDim.x = 2;
  attrs[0].val.clusterDim.y = 2;
  attrs[0].val.clusterDim.z = 2;
  attrs[1].id = cudaLaunchAttributeCooperative;
  attrs[1].val.cooperative = 0;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(16, 2, 2);
  config.blockDim = dim3(64);
  config.attrs = attrs;
  config.numAttrs = 2;
  return cudaLaunchKernelEx(&config, portable, in, out);
}

// A required cluster width set at run time, then a plain launch.
void requiredWidth(const float *in, float *out) {
  cudaFuncSetAttribute(reduceCluster, cudaFuncAttributeRequiredClusterWidth,
                       12);
  reduceCluster<<<96, 128>>>(in, out);
  // warning@-1:3 {{'reduceCluster' is launched with a cluster of 12 blocks without allowing non-portable cluster sizes}}
  // note@-4:3 {{the cluster shape (12, 1, 1) is set here}}
  // note@-3:3 {{clusters over 8 blocks fail}}
  // FIXED: {{^  }}cudaFuncSetAttribute(reduceCluster, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  // FIXED-NEXT: {{^  }}reduceCluster<<<96, 128>>>(in, out);
}

// The driver API.
CUresult driverLaunch(CUfunction f, void **params) {
  CUlaunchAttribute attr;
  attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attr.value.clusterDim.x = 16;
  attr.value.clusterDim.y = 1;
  attr.value.clusterDim.z = 1;
  CUlaunchConfig config = {};
  config.gridDimX = 256;
  config.gridDimY = 1;
  config.gridDimZ = 1;
  config.blockDimX = 128;
  config.blockDimY = 1;
  config.blockDimZ = 1;
  config.attrs = &attr;
  config.numAttrs = 1;
  return cuLaunchKernelEx(&config, f, params, nullptr);
  // warning@-1:10 {{'f' is launched with a cluster of 16 blocks without allowing non-portable cluster sizes}}
  // note@-14:29 {{the cluster shape (16, 1, 1) is set here}}
  // note@-3:10 {{unless 'cuFuncSetAttribute' sets 'CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED' to 1 first}}
  // FIXED: {{^  }}cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
  // FIXED-NEXT: {{^  }}return cuLaunchKernelEx(&config, f, params, nullptr);
}
