// Hermetic CUDA declarations for cuda-tidy's tests: just enough of the CUDA
// runtime's device-side surface for the checks to see the same declarations
// as with the real toolkit. Written for cuda-tidy; not the toolkit's text.
// Use with: -nocudainc -nocudalib -isystem test/Inputs/cuda.
#pragma once
#pragma clang system_header

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __cluster_dims__(...) __attribute__((cluster_dims(__VA_ARGS__)))

#define warpSize 32

typedef unsigned long size_t;
struct uint3 { unsigned x, y, z; };
struct dim3 {
  unsigned x, y, z;
  __host__ __device__ constexpr dim3(unsigned vx = 1, unsigned vy = 1,
                                     unsigned vz = 1)
      : x(vx), y(vy), z(vz) {}
};

// The built-in index variables, with the same property-based shape clang's
// CUDA headers give them, so that the AST matches the real one.
#define CUDA_TIDY_STUB_BUILTIN(Type, Prefix)                                  \
  struct Type {                                                                \
    static __device__ unsigned __fetch_builtin_x() {                           \
      return __nvvm_read_ptx_sreg_##Prefix##_x();                              \
    }                                                                          \
    static __device__ unsigned __fetch_builtin_y() {                           \
      return __nvvm_read_ptx_sreg_##Prefix##_y();                              \
    }                                                                          \
    static __device__ unsigned __fetch_builtin_z() {                           \
      return __nvvm_read_ptx_sreg_##Prefix##_z();                              \
    }                                                                          \
    __declspec(property(get = __fetch_builtin_x)) unsigned x;                  \
    __declspec(property(get = __fetch_builtin_y)) unsigned y;                  \
    __declspec(property(get = __fetch_builtin_z)) unsigned z;                  \
  }
CUDA_TIDY_STUB_BUILTIN(__cuda_tidy_threadIdx_t, tid);
CUDA_TIDY_STUB_BUILTIN(__cuda_tidy_blockIdx_t, ctaid);
CUDA_TIDY_STUB_BUILTIN(__cuda_tidy_blockDim_t, ntid);
CUDA_TIDY_STUB_BUILTIN(__cuda_tidy_gridDim_t, nctaid);
#undef CUDA_TIDY_STUB_BUILTIN
extern const __device__ __cuda_tidy_threadIdx_t threadIdx;
extern const __device__ __cuda_tidy_blockIdx_t blockIdx;
extern const __device__ __cuda_tidy_blockDim_t blockDim;
extern const __device__ __cuda_tidy_gridDim_t gridDim;

// Barriers.
__device__ void __syncthreads();
__device__ int __syncthreads_count(int predicate);
__device__ int __syncthreads_and(int predicate);
__device__ int __syncthreads_or(int predicate);
__device__ void __syncwarp(unsigned mask = 0xffffffff);
__device__ void __threadfence();
__device__ void __threadfence_block();

// Thread block clusters (sm_90) and the grid barrier of a cooperative launch.
__device__ void __cluster_barrier_arrive();
__device__ void __cluster_barrier_wait();
__device__ unsigned __clusterRelativeBlockRank();
__device__ unsigned __clusterSizeInBlocks();
__device__ void *__cluster_map_shared_rank(const void *ptr, unsigned rank);
__device__ void __cuda_stub_grid_sync();

// Warp vote and shuffle with a mask (Volta and later).
__device__ unsigned __activemask();
__device__ int __all_sync(unsigned mask, int predicate);
__device__ int __any_sync(unsigned mask, int predicate);
__device__ unsigned __ballot_sync(unsigned mask, int predicate);
#define CUDA_TIDY_STUB_SHFL_SYNC(T)                                            \
  __device__ T __shfl_sync(unsigned mask, T var, int srcLane,                  \
                           int width = warpSize);                              \
  __device__ T __shfl_up_sync(unsigned mask, T var, unsigned delta,            \
                              int width = warpSize);                           \
  __device__ T __shfl_down_sync(unsigned mask, T var, unsigned delta,          \
                                int width = warpSize);                         \
  __device__ T __shfl_xor_sync(unsigned mask, T var, int laneMask,             \
                               int width = warpSize);
CUDA_TIDY_STUB_SHFL_SYNC(int)
CUDA_TIDY_STUB_SHFL_SYNC(unsigned)
CUDA_TIDY_STUB_SHFL_SYNC(long long)
CUDA_TIDY_STUB_SHFL_SYNC(unsigned long long)
CUDA_TIDY_STUB_SHFL_SYNC(float)
CUDA_TIDY_STUB_SHFL_SYNC(double)
#undef CUDA_TIDY_STUB_SHFL_SYNC

// The pre-Volta forms without a mask, as the headers still declare them.
__device__ int __all(int predicate);
__device__ int __any(int predicate);
__device__ unsigned __ballot(int predicate);
#define CUDA_TIDY_STUB_SHFL(T)                                                 \
  __device__ T __shfl(T var, int srcLane, int width = warpSize);               \
  __device__ T __shfl_up(T var, unsigned delta, int width = warpSize);         \
  __device__ T __shfl_down(T var, unsigned delta, int width = warpSize);       \
  __device__ T __shfl_xor(T var, int laneMask, int width = warpSize);
CUDA_TIDY_STUB_SHFL(int)
CUDA_TIDY_STUB_SHFL(unsigned)
CUDA_TIDY_STUB_SHFL(long long)
CUDA_TIDY_STUB_SHFL(unsigned long long)
CUDA_TIDY_STUB_SHFL(float)
CUDA_TIDY_STUB_SHFL(double)
#undef CUDA_TIDY_STUB_SHFL

// Atomics and a few helpers kernels use.
__device__ int atomicAdd(int *address, int val);
__device__ unsigned atomicAdd(unsigned *address, unsigned val);
__device__ float atomicAdd(float *address, float val);
__device__ long long clock64();
__device__ int clock();

// Host-side runtime API used around launches.
typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
  cudaFuncAttributeClusterDimMustBeSet = 10,
  cudaFuncAttributeRequiredClusterWidth = 11,
  cudaFuncAttributeRequiredClusterHeight = 12,
  cudaFuncAttributeRequiredClusterDepth = 13,
  cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
};
__host__ cudaError_t cudaFuncSetAttribute(const void *func,
                                          enum cudaFuncAttribute attr,
                                          int value);
template <class T>
__host__ cudaError_t cudaFuncSetAttribute(T *entry,
                                          enum cudaFuncAttribute attr,
                                          int value) {
  return ::cudaFuncSetAttribute((const void *)entry, attr, value);
}
__host__ cudaError_t cudaMalloc(void **ptr, size_t size);
__host__ cudaError_t cudaFree(void *ptr);
__host__ cudaError_t cudaDeviceSynchronize();
__host__ cudaError_t cudaGetLastError();

// The launch syntax kernel<<<...>>> needs this declaration.
extern "C" int __cudaPushCallConfiguration(dim3 gridSize, dim3 blockSize,
                                           size_t sharedMem = 0,
                                           cudaStream_t stream = 0);
// Without a CUDA installation clang's device side takes the pre-9.2 launch
// sequence, which calls this one.
__host__ cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim,
                                       size_t sharedMem = 0,
                                       cudaStream_t stream = 0);

// Launch APIs, with the toolkit's names, fields and signatures.
__host__ cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim,
                                      dim3 blockDim, void **args,
                                      size_t sharedMem, cudaStream_t stream);
template <class T>
__host__ cudaError_t cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim,
                                      void **args, size_t sharedMem = 0,
                                      cudaStream_t stream = 0) {
  return ::cudaLaunchKernel((const void *)func, gridDim, blockDim, args,
                            sharedMem, stream);
}
__host__ cudaError_t cudaLaunchCooperativeKernel(const void *func,
                                                 dim3 gridDim, dim3 blockDim,
                                                 void **args, size_t sharedMem,
                                                 cudaStream_t stream);
template <class T>
__host__ cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 gridDim,
                                                 dim3 blockDim, void **args,
                                                 size_t sharedMem = 0,
                                                 cudaStream_t stream = 0) {
  return ::cudaLaunchCooperativeKernel((const void *)func, gridDim, blockDim,
                                       args, sharedMem, stream);
}
enum cudaLaunchAttributeID {
  cudaLaunchAttributeIgnore = 0,
  cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeClusterDimension = 4,
  cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
};
union cudaLaunchAttributeValue {
  char pad[64];
  int cooperative;
  struct {
    unsigned int x;
    unsigned int y;
    unsigned int z;
  } clusterDim;
};
typedef struct cudaLaunchAttribute_st {
  enum cudaLaunchAttributeID id;
  char pad[8 - sizeof(enum cudaLaunchAttributeID)];
  union cudaLaunchAttributeValue val;
} cudaLaunchAttribute;
typedef struct cudaLaunchConfig_st {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute *attrs;
  unsigned int numAttrs;
} cudaLaunchConfig_t;
__host__ cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config,
                                         const void *func, void **args);
// The toolkit's C++ form is a variadic template as well.
template <typename... ExpTypes, typename... ActTypes>
__host__ cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config,
                                        void (*kernel)(ExpTypes...),
                                        ActTypes &&...args) {
  return [&](ExpTypes... coercedArgs) {
    void *pArgs[] = {&coercedArgs...};
    return ::cudaLaunchKernelExC(config, (const void *)kernel, pArgs);
  }(static_cast<ActTypes &&>(args)...);
}

// Device properties and attributes, for code that picks a kernel by the
// device's compute capability.
struct cudaDeviceProp {
  char name[256];
  int major;
  int minor;
  int multiProcessorCount;
};
__host__ cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device);
enum cudaDeviceAttr {
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76
};
__host__ cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr,
                                            int device);
__host__ cudaError_t cudaGetDevice(int *device);
// Device-side trap and printf.
__device__ void __trap(void);
extern "C" __device__ int printf(const char *format, ...);
