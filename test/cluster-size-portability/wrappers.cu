// Cluster attributes set through wrappers count at each wrapper call.
// RUN: %check_cuda_tidy --checks=cuda-cluster-size-portability --fix --recheck %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// RUN: %check_cuda_tidy --checks=cuda-cluster-size-portability --fix --recheck %s %t.host -- %cuda_args --cuda-gpu-arch=sm_90 --cuda-host-only
#include <cuda_runtime.h>

template <int Case> __global__ void reduce(const float *in, float *out) {
  out[blockIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x] + Case;
}

template <class K> void allowLargeClusters(K k) {
  cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
}
template <class K> void requireWidth(K k, int width) {
  cudaFuncSetAttribute(k, cudaFuncAttributeRequiredClusterWidth, width);
}

void throughWrappers(const float *in, float *out) {
  // Silent: the wrapper allows the 16-block cluster set by the other one.
  requireWidth(reduce<1>, 16);
  allowLargeClusters(reduce<1>);
  reduce<1><<<128, 128>>>(in, out);
  // The required width comes through a wrapper; nothing allows it.
  requireWidth(reduce<2>, 12);
  reduce<2><<<96, 128>>>(in, out);
  // warning@-1:3 {{'reduce<2>' is launched with a cluster of 12 blocks without allowing non-portable cluster sizes}} [cuda-cluster-size-portability]
  // note@-3:3 {{the cluster shape (12, 1, 1) is set here}}
  // note@-3:3 {{clusters over 8 blocks fail}}
  // FIXED: {{^  }}cudaFuncSetAttribute(reduce<2>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  // FIXED-NEXT: {{^  }}reduce<2><<<96, 128>>>(in, out);
}
