// Compile-time cluster sizes from __cluster_dims__. clang 22 rejects more
// than 8 blocks with a hard error although nvcc and the hardware accept up
// to 16 with the opt-in; the check reads the macro's arguments and still
// says what fails at run time. clang-tidy applies no fix to a file with
// compiler errors (without --fix-errors), so this test has no --fix; the
// fix itself is the one launch-attribute.cu checks.
// RUN: %check_cuda_tidy --checks=cuda-cluster-size-portability %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// RUN: %check_cuda_tidy --checks=cuda-cluster-size-portability %s %t.host -- %cuda_args --cuda-gpu-arch=sm_90 --cuda-host-only
#include <cuda_runtime.h>

#define CLUSTER_X 16

__global__ void __cluster_dims__(CLUSTER_X, 1, 1) wide(float *out) {
  // error@-1:34 {{cannot be represented in a 4-bit unsigned integer type}} [clang-diagnostic-error]
  // note@-4:19 {{expanded from macro 'CLUSTER_X'}}
  out[blockIdx.x] = 1.0f;
}

__global__ void __cluster_dims__(2, 1, 1) pair(float *out) {
  out[blockIdx.x] = 3.0f;
}

void launchWide(float *out) {
  wide<<<128, 256>>>(out);
  // warning@-1:3 {{'wide' is launched with a cluster of 16 blocks without allowing non-portable cluster sizes}} [cuda-cluster-size-portability]
  // note@-13:17 {{the cluster shape (16, 1, 1) is set here}}
  // note@-14:17 {{clang rejects '__cluster_dims__' over 8 blocks with an error here; nvcc builds it and the GPU runs it with the opt-in}}
  // note@-4:3 {{clusters over 8 blocks fail with cudaErrorInvalidClusterSize}}
}

void launchPair(float *out) {
  // Silent: a portable cluster.
  pair<<<64, 128>>>(out);
  // The grid is not a multiple of the cluster: the launch fails.
  pair<<<63, 128>>>(out);
  // warning@-1:3 {{the grid (63, 1, 1) of 'pair' is not a multiple of its cluster shape (2, 1, 1)}}
  // note@-18:17 {{the cluster shape (2, 1, 1) is set here}}
}
