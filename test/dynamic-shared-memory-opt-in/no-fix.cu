// Launches the check flags but cannot fix safely: the warning stays and a
// note says why.
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in --fix %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in --fix %s %t.host -- %cuda_args --cuda-gpu-arch=sm_90 --cuda-host-only
#include <cuda_runtime.h>

__global__ void fill(float *out) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = buf[0];
}

#define LAUNCH_FILL(out, bytes) fill<<<1, 128, bytes>>>(out)

void noFix(float *out, bool ready) {
  // The body of an if without braces: inserting a statement would change
  // what the if controls.
  if (ready)
    fill<<<1, 128, 64 * 1024>>>(out);
  // warning@-1:5 {{'fill' is launched with 65536 bytes}}
  // note@-2:5 {{launches over 49152 bytes fail}}
  // note@-3:5 {{no automatic fix: the launch is not a statement of a block}}

  // The kernel is named inside a macro's body.
  LAUNCH_FILL(out, 50000);
  // warning@-1:3 {{'fill' is launched with 50000 bytes}}
  // note@-2:3 {{launches over 49152 bytes fail}}
  // note@-3:3 {{no automatic fix: the kernel is not named in the source at the launch}}
  // FIXED: LAUNCH_FILL(out, 50000);
}
