// Each warning below appears only when the arguments after "--" reached the
// compiler: the architecture (-arch, -gencode, -code), a macro (-D), an
// include folder (-I) and the host compiler's options (-Xcompiler).
#include "config.h"

__global__ void reduce(float *out, const float *in) {
  float v = in[threadIdx.x];
#if __CUDA_ARCH__ == 900
  v += __shfl_down(v, 1);
#endif
#if __CUDA_ARCH__ == 1000
  v += __shfl_xor(v, 1);
#endif
#ifdef FROM_DASH_D
  v += __shfl_up(v, 1);
#endif
#if CONFIG_FROM_INCLUDE_DIR && __cplusplus >= 201703L
  v += __shfl(v, 0);
#endif
  out[threadIdx.x] = v;
}
