// cuda.SupportedArchitectures adds the GPUs a team supports to the
// architectures judged: the job here is sm_80 alone, the list names Hopper
// and Blackwell.
// RUN: %check_cuda_tidy --checks=cuda-target-compatibility \
// RUN:   --config="{CheckOptions: {cuda.SupportedArchitectures: '75;80;90;100;120'}}" \
// RUN:   %s %t -- %cuda_args --cuda-gpu-arch=sm_80
// Without the list, the sm_80 job alone keeps the code: silent.
// RUN: %check_cuda_tidy --checks=cuda-target-compatibility --expect-prefix=NONE \
// RUN:   %s %t.none -- %cuda_args --cuda-gpu-arch=sm_80
// cuda.TargetArch names the architecture of a job that has none (the host).
// RUN: %check_cuda_tidy --checks=cuda-target-compatibility --expect-prefix=HOST \
// RUN:   --config="{CheckOptions: {cuda.TargetArch: sm_100}}" \
// RUN:   %s %t.host -- %cuda_args --cuda-host-only
#include <cuda_runtime.h>

__global__ void ampereTuned(const float *in, float *out) {
  // warning@-1 {{kernel 'ampereTuned' compiles to an empty body for sm_90, sm_100 and sm_120}}
  // note@-2 {{give sm_90, sm_100 and sm_120 a path}}
  // HOST-warning@-3 {{kernel 'ampereTuned' compiles to an empty body for sm_100}}
  // HOST-note@-4 {{give sm_100 a path}}
#if __CUDA_ARCH__ >= 750 && __CUDA_ARCH__ < 900
  // note@-1 {{'__CUDA_ARCH__ >= 750 && __CUDA_ARCH__ < 900' is false for sm_90, sm_100 and sm_120 (sm_80 compiles this code)}}
  // HOST-note@-2 {{is false for sm_100 (sm_89 compiles this code)}}
  out[threadIdx.x] = in[threadIdx.x];
#endif
}
