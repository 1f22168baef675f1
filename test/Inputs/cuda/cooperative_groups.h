// Hermetic cooperative groups for cuda-tidy's tests: the shape of the
// toolkit's API (namespace cooperative_groups, thread_block, tiles, sync,
// reduce) with small bodies, so that checks see calls, types and templates
// like the real ones. Written for cuda-tidy; not the toolkit's text.
#pragma once
#pragma clang system_header

#include <cuda_runtime.h>

namespace cooperative_groups {

/// The threads of the block.
class thread_block {
public:
  __device__ static void sync() { __syncthreads(); }
  __device__ static unsigned thread_rank() {
    return threadIdx.x + threadIdx.y * blockDim.x +
           threadIdx.z * blockDim.x * blockDim.y;
  }
  __device__ static unsigned num_threads() {
    return blockDim.x * blockDim.y * blockDim.z;
  }
  __device__ static unsigned size() { return num_threads(); }
  __device__ static dim3 group_index() {
    return dim3(blockIdx.x, blockIdx.y, blockIdx.z);
  }
  __device__ static dim3 thread_index() {
    return dim3(threadIdx.x, threadIdx.y, threadIdx.z);
  }
  __device__ static dim3 dim_threads() {
    return dim3(blockDim.x, blockDim.y, blockDim.z);
  }
  __device__ static dim3 group_dim() { return dim_threads(); }
};

__device__ inline thread_block this_thread_block() { return thread_block(); }

/// A group of any kind, its kind known only when the program runs (here
/// only made from a block; the rank is opaque, as the toolkit's dispatch on
/// the kind is to a reader).
class thread_group {
public:
  __device__ thread_group(const thread_block &) {}
  __device__ void sync() const { __syncthreads(); }
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long size() const;
};

/// A static partition of the block into tiles of Size threads (a power of
/// two, at most 32 here).
template <unsigned Size, typename ParentT = void> class thread_block_tile {
public:
  __device__ void sync() const { __syncwarp(mask()); }
  __device__ unsigned thread_rank() const {
    return thread_block::thread_rank() % Size;
  }
  __device__ unsigned meta_group_rank() const {
    return thread_block::thread_rank() / Size;
  }
  __device__ unsigned meta_group_size() const {
    return (thread_block::num_threads() + Size - 1) / Size;
  }
  __device__ static constexpr unsigned num_threads() { return Size; }
  __device__ static constexpr unsigned size() { return Size; }

  template <typename T> __device__ T shfl(T var, int srcRank) const {
    return __shfl_sync(mask(), var, srcRank, Size);
  }
  template <typename T> __device__ T shfl_down(T var, unsigned delta) const {
    return __shfl_down_sync(mask(), var, delta, Size);
  }
  template <typename T> __device__ T shfl_up(T var, unsigned delta) const {
    return __shfl_up_sync(mask(), var, delta, Size);
  }
  template <typename T> __device__ T shfl_xor(T var, int laneMask) const {
    return __shfl_xor_sync(mask(), var, laneMask, Size);
  }
  __device__ int any(int predicate) const {
    return (__ballot_sync(mask(), predicate) & laneBits()) != 0;
  }
  __device__ int all(int predicate) const {
    return (__ballot_sync(mask(), predicate) & laneBits()) == laneBits();
  }
  __device__ unsigned ballot(int predicate) const {
    return (__ballot_sync(mask(), predicate) & laneBits()) >>
           (meta_group_rank() * Size % 32);
  }

private:
  __device__ static unsigned laneBits() {
    return Size == 32 ? 0xffffffffu
                      : ((1u << Size) - 1) << (thread_block::thread_rank() %
                                               32 / Size * Size);
  }
  __device__ static unsigned mask() { return laneBits(); }
};

template <unsigned Size, typename ParentT>
__device__ thread_block_tile<Size, ParentT>
tiled_partition(const ParentT &parent) {
  return thread_block_tile<Size, ParentT>();
}

/// Every thread of a cooperative launch.
class grid_group {
public:
  __device__ void sync() const { __cuda_stub_grid_sync(); }
  __device__ unsigned long long thread_rank() const {
    return block_rank() * (blockDim.x * blockDim.y * blockDim.z) +
           thread_block::thread_rank();
  }
  __device__ unsigned long long block_rank() const {
    return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  }
  __device__ unsigned long long num_blocks() const {
    return gridDim.x * gridDim.y * gridDim.z;
  }
  __device__ dim3 block_index() const {
    return dim3(blockIdx.x, blockIdx.y, blockIdx.z);
  }
};

__device__ inline grid_group this_grid() { return grid_group(); }

/// The blocks of a thread block cluster (sm_90).
class cluster_group {
public:
  __device__ static void sync() {
    __cluster_barrier_arrive();
    __cluster_barrier_wait();
  }
  __device__ static unsigned block_rank() {
    return __clusterRelativeBlockRank();
  }
  __device__ static unsigned num_blocks() { return __clusterSizeInBlocks(); }
  __device__ static unsigned thread_rank() {
    return block_rank() * (blockDim.x * blockDim.y * blockDim.z) +
           thread_block::thread_rank();
  }
  template <typename T>
  __device__ static T *map_shared_rank(T *addr, int rank) {
    return (T *)__cluster_map_shared_rank(addr, rank);
  }
};

__device__ inline cluster_group this_cluster() { return cluster_group(); }

/// Waits for every thread of the group.
template <typename GroupT> __device__ void sync(const GroupT &group) {
  group.sync();
}

template <typename T> struct plus {
  __device__ T operator()(T a, T b) const { return a + b; }
};
template <typename T> struct greater {
  __device__ T operator()(T a, T b) const { return a > b ? a : b; }
};

/// The reduction of Value over the group, in every thread of it.
template <typename GroupT, typename T, typename OpT>
__device__ T reduce(const GroupT &group, T value, OpT op) {
  for (unsigned Offset = group.size() / 2; Offset > 0; Offset /= 2)
    value = op(value, group.shfl_xor(value, Offset));
  return value;
}

} // namespace cooperative_groups
