// An explicit initialiser of a __shared__ variable is rejected by nvcc as
// well: cuda-nvcc-only-construct leaves clang's error as it is.
// RUN: %check_cuda_tidy --checks=cuda-nvcc-only-construct %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__global__ void initialised(int *out) {
  __shared__ int count = 0;
  // error@-1 {{initialization is not supported for __shared__ variables}}
  out[threadIdx.x] = count;
}
