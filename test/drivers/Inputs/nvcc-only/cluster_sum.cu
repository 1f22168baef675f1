#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

// A cluster reduction through distributed shared memory, as Hopper code
// writes it: each block sums its part, then block 0 of the cluster reads
// its partners' partial sums.
__global__ void __cluster_dims__(2, 1, 1) clusterSum(const float *in, float *out) {
  __shared__ float partial;
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0)
    partial = 0.f;
  __syncthreads();
  atomicAdd(&partial, in[blockIdx.x * blockDim.x + threadIdx.x]);
  cluster.sync();
  if (cluster.block_rank() == 0 && threadIdx.x == 0) {
    float total = 0.f;
    for (unsigned r = 0; r < cluster.num_blocks(); ++r)
      total += *cluster.map_shared_rank(&partial, r);
    out[blockIdx.x / 2] = total;
  }
  cluster.sync();
}

// The toolkit version decides the branch, as nvcc would decide it.
__device__ int laneZero(int v) {
#if __CUDACC_VER_MAJOR__ >= 9
  return __shfl_sync(0xffffffffu, v, 0);
#else
  return __shfl(v, 0);
#endif
}
#if defined(__CUDACC_VER_MAJOR__) && __CUDACC_VER_MAJOR__ >= 12
__device__ int modernOnly(int v) { return __shfl(v, 1); }
#endif

__global__ void useLaneZero(int *o) { o[threadIdx.x] = laneZero(o[threadIdx.x]) + modernOnly(1); }
