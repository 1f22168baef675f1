// Launches through a launcher object, as Thrust and CUB make them:
// `triple_chevron(grid, block, bytes, stream, dependent_launch)
// .doit(kernel, args...)`, the object made by a factory's operator().
// The host path of doit sits in a branch a device compilation leaves out,
// so the call itself is the launch. CUB's radix-sort onesweep shape: a
// counter zeroed four launches earlier, then read-modify-written before
// the wait.
// RUN: %check_cuda_tidy --checks=cuda-programmatic-dependent-launch \
// RUN:   %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

namespace thrust {
namespace cuda_cub {
namespace detail {
struct triple_chevron {
  dim3 grid, block;
  size_t bytes;
  cudaStream_t stream;
  bool dependent;
  triple_chevron(dim3 g, dim3 b, size_t s = 0, cudaStream_t st = nullptr,
                 bool dependent_launch = false)
      : grid(g), block(b), bytes(s), stream(st), dependent(dependent_launch) {}
  template <class K, class... Args>
  cudaError_t doit_host(K k, Args const &...args) const {
    cudaLaunchAttribute attribute[1];
    int num_attrs = 0;
    if (dependent) {
      attribute[num_attrs].id =
          cudaLaunchAttributeProgrammaticStreamSerialization;
      attribute[num_attrs].val.programmaticStreamSerializationAllowed = 1;
      ++num_attrs;
    }
    cudaLaunchConfig_t config{};
    config.gridDim = grid;
    config.blockDim = block;
    config.stream = stream;
    config.attrs = attribute;
    config.numAttrs = num_attrs;
    return cudaLaunchKernelEx(&config, k, args...);
  }
  template <class K, class... Args>
  __host__ __device__ cudaError_t doit(K k, Args const &...args) const {
#ifndef __CUDA_ARCH__
    return doit_host(k, args...);
#else
    return cudaSuccess;
#endif
  }
};
} // namespace detail
} // namespace cuda_cub
} // namespace thrust

struct Factory {
  thrust::cuda_cub::detail::triple_chevron
  operator()(dim3 g, dim3 b, size_t bytes, cudaStream_t s,
             bool dependent_launch = false) const {
    return {g, b, bytes, s, dependent_launch};
  }
};

// Waits first, then lets its successor start.
__global__ void initItems(int *items, int n) {
  cudaGridDependencySynchronize();
  cudaTriggerProgrammaticLaunchCompletion();
  if (threadIdx.x < n)
    items[threadIdx.x] = 0;
}

// Lets its successor start before it waits.
__global__ void initEarly(int *items, int n) {
  cudaTriggerProgrammaticLaunchCompletion();
  cudaGridDependencySynchronize();
  if (threadIdx.x < n)
    items[threadIdx.x] = 0;
}

__global__ void histogram(const int *keys, int *bins) {
  cudaTriggerProgrammaticLaunchCompletion();
  int k = keys[threadIdx.x];
  cudaGridDependencySynchronize();
  atomicAdd(&bins[k & 255], 1);
}

__global__ void onesweep(int *lookback, int *ctrs, int *bins) {
  // Silent in sortPasses: the kernel before it (initItems on the lookback)
  // waits before it lets this one start, so initItems on the counters, four
  // launches back, has finished; without PDL a memset comes between.
  int block = atomicAdd(ctrs, 1);
  cudaGridDependencySynchronize();
  lookback[block] = bins[block];
}

__global__ void onesweepBehindEarly(int *lookback, int *ctrs, int *bins) {
  int block = atomicAdd(ctrs, 1); // warning@95:15 {{'ctrs' is written before this thread waits for the previous kernel}}
  cudaGridDependencySynchronize(); // note@96:3 {{'onesweepBehindEarly' waits for the previous kernel here}}
  lookback[block] = bins[block]; // note@141:3 {{'initItems', launched here earlier in the stream, may still run when 'onesweepBehindEarly' starts, and access what 'onesweepBehindEarly' writes through 'ctrs'}}
} // note@145:5 {{'onesweepBehindEarly' is launched with programmatic stream serialization here}}

struct Kernels {
  static auto Onesweep() { return &onesweep; }
};

void carve(void *temp, void *(&allocations)[3]);

template <class LauncherFactory>
cudaError_t sortPasses(LauncherFactory factory, void *temp,
                       const int *keys, int passes, bool use_pdl,
                       cudaStream_t s) {
  // One allocation carved into the buffers (CUB's alias_temporaries).
  void *allocations[3] = {};
  carve(temp, allocations);
  int *d_ctrs = (int *)allocations[0];
  int *d_lookback = (int *)allocations[1];
  int *d_bins = (int *)allocations[2];
  factory(1, 256, 0, s, use_pdl).doit(initItems, d_ctrs, passes);
  factory(1, 256, 0, s, use_pdl).doit(histogram, keys, d_bins);
  for (int pass = 0; pass < passes; ++pass) {
    if (use_pdl)
      factory(1, 256, 0, s, use_pdl).doit(initItems, d_lookback, 256);
    else
      cudaMemsetAsync(d_lookback, 0, 256 * sizeof(int), s);
    auto onesweep_kernel = Kernels::Onesweep();
    if (cudaError_t e = factory(8, 256, 0, s, use_pdl)
                            .doit(onesweep_kernel, d_lookback, d_ctrs + pass,
                                  d_bins + pass * 256))
      return e;
  }
  return cudaSuccess;
}

template <class LauncherFactory>
cudaError_t sortPassesEarly(LauncherFactory factory, void *temp,
                            const int *keys, int passes, bool use_pdl,
                            cudaStream_t s) {
  void *allocations[3] = {};
  carve(temp, allocations);
  int *d_ctrs = (int *)allocations[0];
  int *d_lookback = (int *)allocations[1];
  int *d_bins = (int *)allocations[2];
  factory(1, 256, 0, s, use_pdl).doit(initItems, d_ctrs, passes);
  factory(1, 256, 0, s, use_pdl).doit(histogram, keys, d_bins);
  for (int pass = 0; pass < passes; ++pass) {
    factory(1, 256, 0, s, use_pdl).doit(initEarly, d_lookback, 256);
    factory(8, 256, 0, s, use_pdl)
        .doit(onesweepBehindEarly, d_lookback, d_ctrs + pass,
              d_bins + pass * 256);
  }
  return cudaSuccess;
}

cudaError_t sort(void *temp, const int *keys, int passes, bool pdl,
                 cudaStream_t s) {
  if (cudaError_t e = sortPasses(Factory{}, temp, keys, passes, pdl, s))
    return e;
  return sortPassesEarly(Factory{}, temp, keys, passes, pdl, s);
}
