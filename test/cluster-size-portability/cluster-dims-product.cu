// The cluster size is the product of the dimensions: __cluster_dims__(4, 4)
// is 16 blocks. clang accepts two arguments without its 8-block error, so
// the fix is checked here, with nvcc for the cluster-capable targets.
// RUN: %check_cuda_tidy --checks=cuda-cluster-size-portability --fix --recheck %if nvcc %{ --nvcc=%nvcc --nvcc-arch=sm_90 --nvcc-arch=sm_100 --nvcc-arch=sm_120 %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// RUN: %check_cuda_tidy --checks=cuda-cluster-size-portability --fix --recheck %s %t.host -- %cuda_args --cuda-gpu-arch=sm_90 --cuda-host-only
#include <cuda_runtime.h>

__global__ void __cluster_dims__(4, 4) square(float *out) {
  out[blockIdx.x * gridDim.y + blockIdx.y] = 2.0f;
}

template <int Tile> __global__ void __cluster_dims__(Tile, 1, 1) strip(float *out) {
  out[blockIdx.x] = float(Tile);
}

void launchSquare(float *out) {
  square<<<dim3(8, 8), 64>>>(out);
  // warning@-1:3 {{'square' is launched with a cluster of 16 blocks without allowing non-portable cluster sizes}} [cuda-cluster-size-portability]
  // note@-11:17 {{the cluster shape (4, 4, 1) is set here}}
  // note@-3:3 {{clusters over 8 blocks fail}}
  // FIXED: {{^  }}cudaFuncSetAttribute(square, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  // FIXED-NEXT: {{^  }}square<<<dim3(8, 8), 64>>>(out);
}

void launchStrips(float *out) {
  // Silent: template arguments give portable clusters here.
  strip<8><<<64, 32>>>(out);
  strip<4><<<64, 32>>>(out);
}
