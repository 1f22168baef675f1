// Build proof for test/target-compatibility/wrappers.cu: cuda::ptx's
// tcgen05_alloc (CCCL of CUDA 13.0) under a range guard. ptxas fails with
// "Unresolved extern function '__cuda_ptx_tcgen05_alloc_is_not_supported_
// before_SM_100a_SM_101a__'" on every target but sm_100a (and sm_101a);
// under the header's own condition it builds everywhere (-DFITTING).
#include <cstdint>
#include <cuda/ptx>

__global__ void allocate(uint32_t *out) {
  __shared__ uint32_t slot;
#if defined(FITTING)
#if __CUDA_ARCH_FEAT_SM100_ALL || __CUDA_ARCH_FEAT_SM101_ALL
  cuda::ptx::tcgen05_alloc(cuda::ptx::cta_group_1, &slot, 32u);
#endif
#elif __CUDA_ARCH__ >= 1000
  cuda::ptx::tcgen05_alloc(cuda::ptx::cta_group_1, &slot, 32u);
#endif
  out[threadIdx.x] = slot;
}
