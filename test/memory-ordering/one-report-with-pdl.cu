// One defect, one report: an asm `griddepcontrol.wait` with no "memory"
// clobber is cuda-programmatic-dependent-launch's to report when that check
// runs; cuda-memory-ordering reports it alone otherwise (asm-clobbers.cu).
// Both fixes add the same clobber.
// RUN: %check_cuda_tidy --fix --recheck \
// RUN:   --checks='cuda-memory-ordering,cuda-programmatic-dependent-launch' \
// RUN:   %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__global__ void consumer(const float *in, float *out) {
  asm volatile("griddepcontrol.wait;");
  // warning@-1 {{'griddepcontrol.wait' has no "memory" clobber}} [cuda-programmatic-dependent-launch]
  // FIXED: asm volatile("griddepcontrol.wait;" ::: "memory");
  out[threadIdx.x] = in[threadIdx.x];
}

// Other ordering asm stays cuda-memory-ordering's.
__global__ void namedBarrier(int *data) {
  data[threadIdx.x] = 1;
  asm volatile("bar.sync 1, 64;");
  // warning@-1 {{inline asm 'bar.sync' has no "memory" clobber}} [cuda-memory-ordering]
  // FIXED: asm volatile("bar.sync 1, 64;" ::: "memory");
  data[threadIdx.x] += data[threadIdx.x ^ 1];
}
