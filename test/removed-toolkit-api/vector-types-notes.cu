// A deprecated vector type is renamed in all of the file or nowhere: where
// one spelling cannot change (a macro's body, a function of the CUDA
// headers that takes or returns the old type), every use gets the reason
// instead of a fix, so that the file stays consistent.
// RUN: %check_cuda_tidy --checks=cuda-removed-toolkit-api --config="{HeaderFilterRegex: 'a^'}" %s %t -- %cuda_args --cuda-gpu-arch=sm_90 -isystem %S/Inputs/system -I %S/Inputs
#include <cuda_runtime.h>
#include <vector_library.h>

// Also spelled in a header of the project: renaming it in this file alone
// would break the functions the header declares.
#include "particles.h"
__device__ long sumCell(long4 cell) { return cell.x + cell.y; }
// warning@-1:25 {{'long4' is deprecated since CUDA 13.0; use 'long4_16a'}}
// note@-2:25 {{no automatic fix: 'long4' is also written in a macro or another file, which the fix would have to change as well}}
__device__ long4 nextCell(long4 c) { return shiftCell(c); }
// warning@-1:12 {{'long4' is deprecated since CUDA 13.0}}
// note@-2:12 {{no automatic fix: 'long4'}}
// warning@-3:27 {{'long4' is deprecated since CUDA 13.0}}
// note@-4:27 {{no automatic fix: 'long4'}}

// A library function returns the old type: renaming 'double4' here would
// not compile, so it is left for the library to change first.
__global__ void sample(double *out) {
  double4 r = library_normal4(threadIdx.x);
  // warning@-1:3 {{'double4' is deprecated since CUDA 13.0; use 'double4_16a'}}
  // note@-2:15 {{no automatic fix: 'library_normal4' takes or returns 'double4', which does not convert to 'double4_16a'}}
  out[threadIdx.x] = r.x + r.y + r.z + r.w;
}
