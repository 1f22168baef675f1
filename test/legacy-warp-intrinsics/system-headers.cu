// A system header's macro that expands to a legacy call in the user's code is
// reported at the use, with no fix: the header is not ours to edit. The
// header's own functions are not reported.
// RUN: %check_cuda_tidy --fix %s %t -- %cuda_args --cuda-gpu-arch=sm_90 -isystem %inputs/legacy
#include <cuda_runtime.h>
#include <sys_macros.h>

__global__ void usesLibrary(int *out) {
  out[threadIdx.x] = SYS_BROADCAST(out[threadIdx.x]) + sys_reduce(out[0]);
  // warning@-1:22 {{'__shfl' is not available on sm_70 and later; use '__shfl_sync'}}
  // note@-2:22 {{no automatic fix: the call is spelled in a system header}}
  // FIXED: out[threadIdx.x] = SYS_BROADCAST(out[threadIdx.x]) + sys_reduce(out[0]);
}
