#include <cuda_runtime.h>
// The kernel exists only for sm_90 and later: only those parses see its
// 64 KiB of static shared memory, so each architecture is parsed.
#if __CUDA_ARCH__ >= 900
__global__ void hopperOnly(float *out) {
  __shared__ float tile[16384];
  tile[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 32];
}
#endif
