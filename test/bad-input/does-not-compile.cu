// Code that does not compile gives clang's errors and the checks' findings on
// what did parse, never a crash.
// RUN: %check_cuda_tidy %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__global__ void broken(int *out) {
  int v = out[threadIdx.x] + missing_variable;
  // error@-1:30 {{use of undeclared identifier 'missing_variable'}}
  v += __shfl_down(v, 1);
  // warning@-1:8 {{'__shfl_down' is not available on sm_70 and later}}
  out[threadIdx.x] = v
}
// error@-2:23 {{expected ';' after expression}}
