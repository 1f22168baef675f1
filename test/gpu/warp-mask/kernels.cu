// Kernels for the GPU proof of cuda-warp-mask-correctness's fixes: run.sh
// fixes a copy with the check and runs both forms (see run.sh). One block of
// 128 threads; lane = threadIdx.x % 32.
#include <cuda_runtime.h>

// Lanes 0-15 broadcast lane 0's value with a full mask that names lanes
// 16-31, which never arrive. The fix: 0x0000ffff.
__global__ void halfWarpBroadcast(int *o) {
  int lane = threadIdx.x & 31;
  int v = o[threadIdx.x];
  if (lane < 16)
    v = __shfl_sync(0xffffffff, v, 0);
  o[threadIdx.x] = v;
}

// Lanes 16-31 swap pairs with a mask that leaves them out ("an illegal
// instruction" on an H100). The fix: 0xffff0000.
__global__ void upperPairs(int *o) {
  int lane = threadIdx.x & 31;
  int v = o[threadIdx.x];
  if (lane >= 16)
    v += __shfl_xor_sync(0x0000ffff, v, 1);
  o[threadIdx.x] = v;
}
