// Precision on the toolkit's own libraries: a translation unit that includes
// thrust, cub and cooperative groups and instantiates their block and warp
// primitives must give no cuda-* diagnostic at all. bench/run_bench.py also
// measures the checks' overhead on this file.
// REQUIRES: cuda-toolkit
// RUN: %check_cuda_tidy %s %t -- %cuda_args --cuda-gpu-arch=sm_90 -std=c++17
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>

namespace cg = cooperative_groups;

// cub's block-wide reduction and scan, with their temporary storage in
// shared memory and a tail block that may be partial.
template <int BlockThreads, int ItemsPerThread>
__global__ void blockSumAndScan(const int *in, int *sums, int *scanned,
                                int n) {
  using BlockLoad = cub::BlockLoad<int, BlockThreads, ItemsPerThread,
                                   cub::BLOCK_LOAD_TRANSPOSE>;
  using BlockReduce = cub::BlockReduce<int, BlockThreads>;
  using BlockScan = cub::BlockScan<int, BlockThreads>;
  __shared__ union {
    typename BlockLoad::TempStorage load;
    typename BlockReduce::TempStorage reduce;
    typename BlockScan::TempStorage scan;
  } temp;

  int items[ItemsPerThread];
  int offset = blockIdx.x * BlockThreads * ItemsPerThread;
  int valid = n - offset;
  BlockLoad(temp.load).Load(in + offset, items, valid, 0);
  __syncthreads();
  int sum = BlockReduce(temp.reduce).Sum(items);
  if (threadIdx.x == 0)
    sums[blockIdx.x] = sum;
  __syncthreads();
  BlockScan(temp.scan).ExclusiveSum(items, items);
  for (int i = 0; i < ItemsPerThread; ++i)
    if (threadIdx.x * ItemsPerThread + i < valid)
      scanned[offset + threadIdx.x * ItemsPerThread + i] = items[i];
}

template __global__ void blockSumAndScan<128, 4>(const int *, int *, int *,
                                                 int);
template __global__ void blockSumAndScan<256, 1>(const int *, int *, int *,
                                                 int);

struct MaxOp {
  __device__ float operator()(float a, float b) const { return a > b ? a : b; }
};

// cub's warp reduction, one per warp, with a partial last warp.
__global__ void warpSums(const float *in, float *out, int n) {
  using WarpReduce = cub::WarpReduce<float>;
  __shared__ typename WarpReduce::TempStorage temp[4];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int warp = threadIdx.x / 32;
  float v = i < n ? in[i] : 0.0f;
  float total = WarpReduce(temp[warp]).Sum(v);
  float maxv = WarpReduce(temp[warp]).Reduce(v, MaxOp());
  if (threadIdx.x % 32 == 0)
    out[blockIdx.x * 4 + warp] = total + maxv;
}

// Cooperative groups: tiles, their shuffles and cg::reduce.
__global__ void groupReduce(const int *in, int *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int i = blockIdx.x * blockDim.x + block.thread_rank();
  int v = i < n ? in[i] : 0;
  int warpSum = cg::reduce(tile, v, cg::plus<int>());
  int neighbour = tile.shfl_down(v, 1);
  __shared__ int partial[32];
  if (tile.thread_rank() == 0)
    partial[tile.meta_group_rank()] = warpSum + neighbour;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    int p = tile.thread_rank() < tile.meta_group_size()
                ? partial[tile.thread_rank()]
                : 0;
    p = cg::reduce(tile, p, cg::plus<int>());
    if (tile.thread_rank() == 0)
      out[blockIdx.x] = p;
  }
  cg::sync(block);
}

// thrust on the host side of the same file: a device_vector reduction.
int sumOnDevice(const int *host, int n) {
  thrust::device_vector<int> values(host, host + n);
  return thrust::reduce(values.begin(), values.end(), 0, thrust::plus<int>());
}
