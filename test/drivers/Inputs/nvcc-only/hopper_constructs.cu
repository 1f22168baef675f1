// Code that nvcc builds and clang 22 rejects without cuda-tidy's
// compatibility header: a non-portable cluster of 16 blocks, host min/max
// of an int and an unsigned, and the cluster API of cooperative groups.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(16, 1, 1) wideCluster(float *out) {
  cg::cluster_group cluster = cg::this_cluster();
  out[blockIdx.x] = cluster.block_rank();
  cluster.sync();
}

int launchWide(float *out, int blockSize, unsigned n) {
  int numThreads = min(blockSize, n);
  unsigned biggest = max(n, 32);
  wideCluster<<<16, numThreads>>>(out);
  return numThreads + (int)biggest;
}
