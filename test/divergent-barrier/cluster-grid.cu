// Barriers at the scope of a cluster and of a grid: every thread of every
// block of the group must arrive. A condition or trip count that differs
// between blocks (blockIdx, a cluster's block_rank(), per-block data, a
// __shared__ value) diverges at that scope although it is uniform in each
// block. A grid barrier that some blocks skip hangs a cooperative launch; a
// cluster barrier that some blocks skip does not hang, the hardware lets the
// others through, so it is flagged where something after it relies on it
// (distributed shared memory, another cluster barrier). A block that may
// exit while other blocks can still read its shared memory is flagged too.
// RUN: %check_cuda_tidy --checks=cuda-divergent-barrier %s %t -- %cuda_args --cuda-gpu-arch=sm_90 -D_CG_CLUSTER_INTRINSICS_AVAILABLE
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

// Segments of different lengths per block row, with a grid barrier in each
// iteration (measured on an H100: trip counts 1 and 2 alternating between 8
// blocks hang).
__global__ void gridSyncPerBlockLoop(const int *segEnd, float *o) {
  cg::grid_group grid = cg::this_grid();
  for (int i = 0; i < segEnd[blockIdx.y]; ++i) {
    o[i] += 1.f;
    grid.sync();
  }
}

// A cooperative reduction whose first block skips the barrier.
__global__ void gridReduceSkip(const float *in, float *partial, float *out) {
  cg::grid_group grid = cg::this_grid();
  partial[blockIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (blockIdx.x != 0)
    cg::sync(grid);
  if (grid.thread_rank() == 0)
    *out = partial[0] + partial[1];
}

// Correct: the trip count is the same in every block.
__global__ void gridSyncUniform(const int *segEnd, float *o, int iters) {
  cg::grid_group grid = cg::this_grid();
  for (int i = 0; i < iters; ++i) {
    if (i < segEnd[blockIdx.y])
      o[i] += 1.f;
    grid.sync();
  }
}

// A cluster reduction through distributed shared memory, where only the
// leader block waits before reading its partners' partial sums.
__global__ void __cluster_dims__(2, 1, 1) clusterSumLeaderOnly(const float *in,
                                                               float *out) {
  __shared__ float partial;
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0)
    partial = in[blockIdx.x];
  if (cluster.block_rank() == 0) {
    cluster.sync();
    float *peer = cluster.map_shared_rank(&partial, 1);
    if (threadIdx.x == 0)
      out[blockIdx.x / 2] = partial + *peer;
  }
  cluster.sync();
}

// Correct: every block arrives, reads after the barrier, and waits again
// before any block can exit.
__global__ void __cluster_dims__(2, 1, 1) clusterSum(const float *in,
                                                     float *out) {
  __shared__ float partial;
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0)
    partial = in[blockIdx.x];
  cluster.sync();
  if (cluster.block_rank() == 0 && threadIdx.x == 0) {
    float *peer = cluster.map_shared_rank(&partial, 1);
    out[blockIdx.x / 2] = partial + *peer;
  }
  cluster.sync();
}

// The partner may exit before the leader reads its shared memory.
__global__ void __cluster_dims__(2, 1, 1) clusterSumNoFinalSync(const float *in,
                                                                float *out) {
  __shared__ float partial;
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0)
    partial = in[blockIdx.x];
  cluster.sync();
  if (cluster.block_rank() == 0 && threadIdx.x == 0) {
    float *peer = cluster.map_shared_rank(&partial, 1);
    out[blockIdx.x / 2] = partial + *peer;
  }
}

// A cluster barrier that some blocks skip, with nothing after it that relies
// on it: no hang, no wrong data. Silent.
__global__ void __cluster_dims__(2, 1, 1) clusterSkipHarmless(float *out) {
  cg::cluster_group cluster = cg::this_cluster();
  if (cluster.block_rank() == 0)
    cluster.sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

// Expectations, by line:
// warning@22:5 {{'grid_group::sync' is reached by only some blocks of the grid; every thread of every block of the grid must arrive}}
// note@20:3 {{the loop's trip count depends on 'blockIdx.y', which differs between blocks of the grid}}
// note@22:5 {{in a cooperative launch the blocks that arrive wait for the others forever}}
// warning@31:5 {{'cooperative_groups::sync' is reached by only some blocks of the grid}}
// note@30:7 {{the condition depends on 'blockIdx.x', which differs between blocks of the grid}}
// note@31:5 {{in a cooperative launch the blocks that arrive wait for the others forever}}
// warning@55:5 {{'cluster_group::sync' is reached by only some blocks of the cluster; every thread of every block of the cluster must arrive}}
// note@54:7 {{the condition depends on the result of 'block_rank', which differs between blocks of the cluster}}
// note@56:19 {{the hardware does not wait for the skipping blocks: this access to another block's shared memory can run before that block has written it, or after it has exited}}
// warning@89:38 {{this block accesses another block's shared memory here and can reach the end of the kernel with no cluster barrier after it; the block that owns the memory may already have exited}}
// note@89:38 {{add 'cluster.sync()' after the last access to distributed shared memory}}
