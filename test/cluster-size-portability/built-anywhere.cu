// Launch configurations and cluster attributes built by helpers, by whole
// record assignments and by aggregate initialisers are read like those set
// field by field next to the launch.
// RUN: %check_cuda_tidy --checks=cuda-cluster-size-portability --fix --recheck %s %t -- %cuda_args --cuda-gpu-arch=sm_90 -std=c++20
// RUN: %check_cuda_tidy --checks=cuda-cluster-size-portability --fix --recheck %s %t.host -- %cuda_args --cuda-gpu-arch=sm_90 --cuda-host-only -std=c++20
#include <cuda.h>
#include <cuda_runtime.h>

template <int Case> __global__ void reduce(const float *in, float *out) {
  out[blockIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x] + Case;
}

static void setCluster(cudaLaunchAttribute &a, unsigned x) {
  a.id = cudaLaunchAttributeClusterDimension;
  a.val.clusterDim.x = x;
  a.val.clusterDim.y = 1;
  a.val.clusterDim.z = 1;
}

cudaError_t helperAttribute(const float *in, float *out) {
  cudaLaunchAttribute attr[1];
  setCluster(attr[0], 16);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(96);
  cfg.blockDim = dim3(128);
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  return cudaLaunchKernelEx(&cfg, reduce<1>, in, out);
  // warning@-1:10 {{'reduce<1>' is launched with a cluster of 16 blocks without allowing non-portable cluster sizes}} [cuda-cluster-size-portability]
  // note@-8:3 {{the cluster shape (16, 1, 1) is set here}}
  // note@-3:10 {{clusters over 8 blocks fail}}
  // FIXED: {{^  }}cudaFuncSetAttribute(reduce<1>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  // FIXED-NEXT: {{^  }}return cudaLaunchKernelEx(&cfg, reduce<1>, in, out);
}

cudaError_t helperPortable(const float *in, float *out) {
  // Silent: the helper sets 8 blocks.
  cudaLaunchAttribute attr[1];
  setCluster(attr[0], 8);
  cudaLaunchConfig_t cfg = {dim3(96), dim3(128), 0, nullptr, attr, 1};
  return cudaLaunchKernelEx(&cfg, reduce<2>, in, out);
}

cudaError_t wholeRecord(const float *in, float *out, cudaStream_t stream) {
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim = {12, 1, 1};
  cudaLaunchConfig_t cfg = {dim3(96), dim3(128), 0, stream, &attr, 1};
  return cudaLaunchKernelEx(&cfg, reduce<3>, in, out);
  // warning@-1:10 {{'reduce<3>' is launched with a cluster of 12 blocks without allowing non-portable cluster sizes}}
  // note@-4:26 {{the cluster shape (12, 1, 1) is set here}}
  // note@-3:10 {{clusters over 8 blocks fail}}
  // FIXED: {{^  }}cudaFuncSetAttribute(reduce<3>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
}

cudaError_t dim3Cluster(const float *in, float *out) {
  dim3 cluster{16, 1, 1};
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = cluster.x;
  attr.val.clusterDim.y = cluster.y;
  attr.val.clusterDim.z = cluster.z;
  cudaLaunchConfig_t cfg = {.gridDim = dim3(128), .blockDim = dim3(64),
                            .attrs = &attr, .numAttrs = 1};
  return cudaLaunchKernelEx(&cfg, reduce<4>, in, out);
  // warning@-1:10 {{'reduce<4>' is launched with a cluster of 16 blocks}}
  // note@-7:27 {{the cluster shape (16, 1, 1) is set here}}
  // note@-3:10 {{clusters over 8 blocks fail}}
  // FIXED: {{^  }}cudaFuncSetAttribute(reduce<4>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
}

cudaError_t overwritten(const float *in, float *out) {
  // Silent: the whole-record assignment after the helper sets 4 blocks.
  cudaLaunchAttribute attr;
  setCluster(attr, 16);
  attr.val.clusterDim = {4, 1, 1};
  cudaLaunchConfig_t cfg = {dim3(96), dim3(128), 0, nullptr, &attr, 1};
  return cudaLaunchKernelEx(&cfg, reduce<5>, in, out);
}

// An opaque helper (declared only): its effect on the attribute is unknown.
void tuneAttribute(cudaLaunchAttribute &a);
cudaError_t unknownHelper(const float *in, float *out) {
  // Silent: unproven.
  cudaLaunchAttribute attr;
  setCluster(attr, 16);
  tuneAttribute(attr);
  cudaLaunchConfig_t cfg = {dim3(96), dim3(128), 0, nullptr, &attr, 1};
  return cudaLaunchKernelEx(&cfg, reduce<6>, in, out);
}

// The driver API, through a helper that fills the attribute by pointer.
static void setDriverCluster(CUlaunchAttribute *a, unsigned x) {
  a->id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  a->value.clusterDim.x = x;
  a->value.clusterDim.y = 1;
  a->value.clusterDim.z = 1;
}
CUresult driverHelper(CUfunction f, void **params) {
  CUlaunchAttribute attr;
  setDriverCluster(&attr, 16);
  CUlaunchConfig cfg = {};
  cfg.gridDimX = 64;
  cfg.gridDimY = cfg.gridDimZ = 1;
  cfg.blockDimX = 128;
  cfg.blockDimY = cfg.blockDimZ = 1;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  return cuLaunchKernelEx(&cfg, f, params, nullptr);
  // warning@-1:10 {{'f' is launched with a cluster of 16 blocks without allowing non-portable cluster sizes}}
  // note@-10:3 {{the cluster shape (16, 1, 1) is set here}}
  // note@-3:10 {{clusters over 8 blocks fail}}
  // FIXED: {{^  }}cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
}
