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

// The shared-window address of a generic pointer (for inline PTX).
__device__ size_t __cvta_generic_to_shared(const void *ptr);

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
// Atomics of every scope and the fences around them (cuda-memory-ordering).
__device__ unsigned atomicInc(unsigned *address, unsigned val);
__device__ unsigned atomicDec(unsigned *address, unsigned val);
__device__ int atomicSub(int *address, int val);
__device__ unsigned atomicSub(unsigned *address, unsigned val);
__device__ int atomicExch(int *address, int val);
__device__ int atomicCAS(int *address, int compare, int val);
__device__ int atomicMax(int *address, int val);
__device__ int atomicMin(int *address, int val);
__device__ int atomicOr(int *address, int val);
__device__ int atomicAdd_block(int *address, int val);
__device__ unsigned atomicAdd_block(unsigned *address, unsigned val);
__device__ float atomicAdd_block(float *address, float val);
__device__ int atomicSub_block(int *address, int val);
__device__ int atomicExch_block(int *address, int val);
__device__ int atomicMax_block(int *address, int val);
__device__ int atomicMin_block(int *address, int val);
__device__ unsigned atomicInc_block(unsigned *address, unsigned val);
__device__ int atomicCAS_block(int *address, int compare, int val);
__device__ int atomicOr_block(int *address, int val);
__device__ int atomicAdd_system(int *address, int val);
__device__ unsigned atomicAdd_system(unsigned *address, unsigned val);
__device__ void __threadfence_system();
__device__ void __nanosleep(unsigned ns);
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
  cudaLaunchAttributeProgrammaticStreamSerialization = 6,
};
union cudaLaunchAttributeValue {
  char pad[64];
  int cooperative;
  struct {
    unsigned int x;
    unsigned int y;
    unsigned int z;
  } clusterDim;
  int programmaticStreamSerializationAllowed;
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

// Device-side trap and printf.
__device__ void __trap(void);
extern "C" __device__ int printf(const char *format, ...);
// ---------------------------------------------------------------------------
// The CUDA 13.0 forms of what cuda-removed-toolkit-api's tests and their
// fixed files use: the runtime version, vector types (the 4-wide 64-bit
// ones deprecated), device properties and attributes, texture objects,
// arrays, managed memory and graphs. The removed APIs are not declared here,
// as in the 13.0 headers.
#define CUDART_VERSION 13000
#ifndef NULL
#define NULL __null
#endif
#define cudaCpuDeviceId ((int)-1)
enum cudaErrorValues { cudaSuccess = 0, cudaErrorInvalidValue = 1 };
__host__ const char *cudaGetErrorString(cudaError_t error);

#define CUDA_TIDY_STUB_VEC1(T, E) struct T { E x; };
#define CUDA_TIDY_STUB_VEC2(T, E) struct T { E x, y; };
#define CUDA_TIDY_STUB_VEC4(T, E, A) struct __attribute__((aligned(A))) T { E x, y, z, w; };
CUDA_TIDY_STUB_VEC1(char1, signed char)
CUDA_TIDY_STUB_VEC2(char2, signed char)
CUDA_TIDY_STUB_VEC4(char4, signed char, 4)
CUDA_TIDY_STUB_VEC1(uchar1, unsigned char)
CUDA_TIDY_STUB_VEC2(uchar2, unsigned char)
CUDA_TIDY_STUB_VEC4(uchar4, unsigned char, 4)
CUDA_TIDY_STUB_VEC1(short1, short)
CUDA_TIDY_STUB_VEC2(short2, short)
CUDA_TIDY_STUB_VEC4(short4, short, 8)
CUDA_TIDY_STUB_VEC1(ushort1, unsigned short)
CUDA_TIDY_STUB_VEC2(ushort2, unsigned short)
CUDA_TIDY_STUB_VEC4(ushort4, unsigned short, 8)
CUDA_TIDY_STUB_VEC1(int1, int)
CUDA_TIDY_STUB_VEC2(int2, int)
CUDA_TIDY_STUB_VEC4(int4, int, 16)
CUDA_TIDY_STUB_VEC1(float1, float)
CUDA_TIDY_STUB_VEC2(float2, float)
CUDA_TIDY_STUB_VEC4(float4, float, 16)
CUDA_TIDY_STUB_VEC2(double2, double)
CUDA_TIDY_STUB_VEC4(__attribute__((deprecated("use double4_16a or double4_32a"))) double4, double, 16)
CUDA_TIDY_STUB_VEC4(double4_16a, double, 16)
CUDA_TIDY_STUB_VEC4(double4_32a, double, 32)
CUDA_TIDY_STUB_VEC4(__attribute__((deprecated("use long4_16a or long4_32a"))) long4, long, 16)
CUDA_TIDY_STUB_VEC4(long4_16a, long, 16)
CUDA_TIDY_STUB_VEC4(long4_32a, long, 32)
CUDA_TIDY_STUB_VEC4(__attribute__((deprecated("use ulong4_16a or ulong4_32a"))) ulong4, unsigned long, 16)
CUDA_TIDY_STUB_VEC4(ulong4_16a, unsigned long, 16)
CUDA_TIDY_STUB_VEC4(ulong4_32a, unsigned long, 32)
CUDA_TIDY_STUB_VEC4(__attribute__((deprecated("use longlong4_16a or longlong4_32a"))) longlong4, long long, 16)
CUDA_TIDY_STUB_VEC4(longlong4_16a, long long, 16)
CUDA_TIDY_STUB_VEC4(longlong4_32a, long long, 32)
CUDA_TIDY_STUB_VEC4(__attribute__((deprecated("use ulonglong4_16a or ulonglong4_32a"))) ulonglong4, unsigned long long, 16)
CUDA_TIDY_STUB_VEC4(ulonglong4_16a, unsigned long long, 16)
CUDA_TIDY_STUB_VEC4(ulonglong4_32a, unsigned long long, 32)
#undef CUDA_TIDY_STUB_VEC1
#undef CUDA_TIDY_STUB_VEC2
#undef CUDA_TIDY_STUB_VEC4
// As in the toolkit, the deprecated types are typedefs of their structs.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
typedef struct double4 __attribute__((deprecated("use double4_16a or double4_32a"))) double4;
typedef struct long4 __attribute__((deprecated("use long4_16a or long4_32a"))) long4;
typedef struct ulong4 __attribute__((deprecated("use ulong4_16a or ulong4_32a"))) ulong4;
typedef struct longlong4 __attribute__((deprecated("use longlong4_16a or longlong4_32a"))) longlong4;
typedef struct ulonglong4 __attribute__((deprecated("use ulonglong4_16a or ulonglong4_32a"))) ulonglong4;
__host__ __device__ double4 make_double4(double x, double y, double z, double w);
__host__ __device__ long4 make_long4(long x, long y, long z, long w);
__host__ __device__ longlong4 make_longlong4(long long x, long long y, long long z, long long w);
#pragma clang diagnostic pop
typedef struct double4_16a double4_16a;
typedef struct double4_32a double4_32a;
typedef struct long4_16a long4_16a;
typedef struct longlong4_16a longlong4_16a;
typedef struct ulonglong4_16a ulonglong4_16a;
__host__ __device__ double4_16a make_double4_16a(double x, double y, double z, double w);
__host__ __device__ double4_32a make_double4_32a(double x, double y, double z, double w);
__host__ __device__ long4_16a make_long4_16a(long x, long y, long z, long w);
__host__ __device__ longlong4_16a make_longlong4_16a(long long x, long long y, long long z, long long w);
__host__ __device__ float4 make_float4(float x, float y, float z, float w);
__host__ __device__ float2 make_float2(float x, float y);
__host__ __device__ int2 make_int2(int x, int y);
__host__ __device__ double __hiloint2double(int hi, int lo);

// Device properties (13.0: no clockRate, memoryClockRate, deviceOverlap,
// computeMode, kernelExecTimeoutEnabled, maxTexture1DLinear,
// cooperativeMultiDeviceLaunch, singleToDoublePrecisionPerfRatio).
struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  int multiProcessorCount;
  int integrated;
  int canMapHostMemory;
  int maxTexture1D;
  int concurrentKernels;
  int ECCEnabled;
  int asyncEngineCount;
  int memoryBusWidth;
  int l2CacheSize;
  int maxThreadsPerMultiProcessor;
  size_t sharedMemPerMultiprocessor;
  int cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
};
enum cudaComputeMode { cudaComputeModeDefault = 0, cudaComputeModeExclusive = 1, cudaComputeModeProhibited = 2, cudaComputeModeExclusiveProcess = 3 };
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrClockRate = 13,
  cudaDevAttrGpuOverlap = 15,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrKernelExecTimeout = 17,
  cudaDevAttrComputeMode = 20,
  cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxTexture1DLinearWidth = 69,
  cudaDevAttrSingleToDoublePrecisionPerfRatio = 87,
  cudaDevAttrCooperativeLaunch = 95,
};
__host__ cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
__host__ __device__ cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
__host__ cudaError_t cudaGetDevice(int *device);
__host__ cudaError_t cudaSetDevice(int device);
__host__ cudaError_t cudaGetDeviceCount(int *count);
__host__ cudaError_t cudaDeviceReset();
enum cudaLimit { cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2 };
enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2 };
__host__ cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
__host__ cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit);
__host__ cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config);
__host__ cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *config);
enum cudaSharedMemConfig { cudaSharedMemBankSizeDefault = 0, cudaSharedMemBankSizeFourByte = 1, cudaSharedMemBankSizeEightByte = 2 };
__attribute__((deprecated)) __host__ cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
__attribute__((deprecated)) __host__ cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *config);
__attribute__((deprecated)) __host__ cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config);

// Memory, arrays and copies.
enum cudaMemcpyKind { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4 };
__host__ cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
__host__ cudaError_t cudaMemset(void *dst, int value, size_t count);
__host__ cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream = 0);
__host__ cudaError_t cudaMemsetAsync(void *dst, int value, size_t count, cudaStream_t stream = 0);
__host__ cudaError_t cudaMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height);
__host__ cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
template <class T> __host__ cudaError_t cudaMalloc(T **ptr, size_t size) { return ::cudaMalloc((void **)ptr, size); }
template <class T> __host__ cudaError_t cudaMallocPitch(T **ptr, size_t *pitch, size_t width, size_t height) { return ::cudaMallocPitch((void **)ptr, pitch, width, height); }
enum cudaChannelFormatKind { cudaChannelFormatKindSigned = 0, cudaChannelFormatKindUnsigned = 1, cudaChannelFormatKindFloat = 2, cudaChannelFormatKindNone = 3 };
struct cudaChannelFormatDesc { int x, y, z, w; enum cudaChannelFormatKind f; };
__host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f);
template <class T> __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc();
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;
typedef struct cudaMipmappedArray *cudaMipmappedArray_t;
typedef const struct cudaMipmappedArray *cudaMipmappedArray_const_t;
__host__ cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width, size_t height = 0, unsigned int flags = 0);
__host__ cudaError_t cudaFreeArray(cudaArray_t array);
__host__ cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
__host__ cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind);
__host__ cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc, size_t width, size_t height, enum cudaMemcpyKind kind = cudaMemcpyDeviceToDevice);
__attribute__((deprecated)) __host__ cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc, size_t count, enum cudaMemcpyKind kind = cudaMemcpyDeviceToDevice);
__attribute__((deprecated)) __host__ cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count, enum cudaMemcpyKind kind);
__attribute__((deprecated)) __host__ cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count, enum cudaMemcpyKind kind);

// Texture and surface objects.
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
enum cudaTextureAddressMode { cudaAddressModeWrap = 0, cudaAddressModeClamp = 1, cudaAddressModeMirror = 2, cudaAddressModeBorder = 3 };
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero = 0, cudaBoundaryModeClamp = 1, cudaBoundaryModeTrap = 2 };
#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
enum cudaResourceType { cudaResourceTypeArray = 0, cudaResourceTypeMipmappedArray = 1, cudaResourceTypeLinear = 2, cudaResourceTypePitch2D = 3 };
struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct { cudaArray_t array; } array;
    struct { cudaMipmappedArray_t mipmap; } mipmap;
    struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
    struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t width; size_t height; size_t pitchInBytes; } pitch2D;
  } res;
};
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};
struct cudaResourceViewDesc;
__host__ cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc, const struct cudaTextureDesc *pTexDesc, const struct cudaResourceViewDesc *pResViewDesc);
__host__ cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject);
__host__ cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const struct cudaResourceDesc *pResDesc);
template <class T> __device__ T tex1Dfetch(cudaTextureObject_t texObject, int x);
template <class T> __device__ T tex1D(cudaTextureObject_t texObject, float x);
template <class T> __device__ T tex2D(cudaTextureObject_t texObject, float x, float y);
template <class T> __device__ T tex3D(cudaTextureObject_t texObject, float x, float y, float z);
template <class T> __device__ T tex2DLod(cudaTextureObject_t texObject, float x, float y, float level);
template <class T> __device__ T tex2DLayered(cudaTextureObject_t texObject, float x, float y, int layer);

// Managed memory and graphs (the 13.0 parameter lists).
enum cudaMemLocationType { cudaMemLocationTypeInvalid = 0, cudaMemLocationTypeDevice = 1, cudaMemLocationTypeHost = 2 };
struct cudaMemLocation { enum cudaMemLocationType type; int id; };
enum cudaMemoryAdvise { cudaMemAdviseSetReadMostly = 1, cudaMemAdviseUnsetReadMostly = 2, cudaMemAdviseSetPreferredLocation = 3, cudaMemAdviseUnsetPreferredLocation = 4, cudaMemAdviseSetAccessedBy = 5, cudaMemAdviseUnsetAccessedBy = 6 };
__host__ cudaError_t cudaMallocManaged(void **ptr, size_t size, unsigned int flags = 1);
template <class T> __host__ cudaError_t cudaMallocManaged(T **ptr, size_t size, unsigned int flags = 1) { return ::cudaMallocManaged((void **)ptr, size, flags); }
__host__ cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location, unsigned int flags, cudaStream_t stream = 0);
__host__ cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice, struct cudaMemLocation location);
__host__ cudaError_t cudaStreamCreate(cudaStream_t *stream);
__host__ cudaError_t cudaStreamSynchronize(cudaStream_t stream);
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef struct cudaGraphEdgeData_st { unsigned char from_port, to_port, type, reserved[5]; } cudaGraphEdgeData;
enum cudaStreamCaptureStatus { cudaStreamCaptureStatusNone = 0, cudaStreamCaptureStatusActive = 1 };
struct cudaGraphNodeParams { int type; int reserved[3]; };
__host__ cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags);
__host__ cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags = 0);
// As cuda_runtime.h keeps the CUDA 11 form for C++: the error outputs are
// ignored.
static __inline__ __host__ cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, cudaGraphNode_t *pErrorNode, char *pLogBuffer, size_t bufferSize) {
  (void)pErrorNode; (void)pLogBuffer; (void)bufferSize;
  return ::cudaGraphInstantiate(pGraphExec, graph, 0);
}
__host__ cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream);
__host__ cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to, cudaGraphEdgeData *edgeData, size_t *numEdges);
__host__ cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies, cudaGraphEdgeData *edgeData, size_t *pNumDependencies);
__host__ cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes, cudaGraphEdgeData *edgeData, size_t *pNumDependentNodes);
__host__ cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData, size_t numDependencies);
__host__ cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData, size_t numDependencies);
__host__ cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out, unsigned long long *id_out = 0, cudaGraph_t *graph_out = 0, const cudaGraphNode_t **dependencies_out = 0, const cudaGraphEdgeData **edgeData_out = 0, size_t *numDependencies_out = 0);
__host__ cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies, const cudaGraphEdgeData *dependencyData, size_t numDependencies, unsigned int flags = 0);
__host__ cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies, const cudaGraphEdgeData *dependencyData, size_t numDependencies, struct cudaGraphNodeParams *nodeParams);

// Programmatic Dependent Launch, device side (sm_90 on), as the toolkit's
// cuda_device_runtime_api.h defines them.
static inline __device__ void cudaTriggerProgrammaticLaunchCompletion(void) {
  asm volatile("griddepcontrol.launch_dependents;" :::);
}
static inline __device__ void cudaGridDependencySynchronize(void) {
  asm volatile("griddepcontrol.wait;" ::: "memory");
}

// A function's attributes, as cudaFuncGetAttributes reports them (the
// fields the tests read).
struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
};
__host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
                                           const void *func);
template <class T>
__host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
                                           T *entry) {
  return ::cudaFuncGetAttributes(attr, (const void *)entry);
}

// The feature queries of crt/host_defines.h (CUDA 12.9 and 13).
#ifndef __CUDA_ARCH_HAS_FEATURE__
#define __CUDA_ARCH_HAS_FEATURE__(_FEAT) __CUDA_ARCH_FEAT_##_FEAT
#endif
#ifndef __CUDA_HAS_ARCH_SPECIFIC
#ifdef __CUDA_ARCH_SPECIFIC__
#define __CUDA_HAS_ARCH_SPECIFIC(N) (__CUDA_ARCH_SPECIFIC__ == (N##0))
#else
#define __CUDA_HAS_ARCH_SPECIFIC(N) 0
#endif
#endif
#ifndef __CUDA_HAS_ARCH_FAMILY_SPECIFIC
#ifdef __CUDA_ARCH_FAMILY_SPECIFIC__
#define __CUDA_HAS_ARCH_FAMILY_SPECIFIC(N)                                     \
  (((N) == 101 && __CUDA_ARCH_FAMILY_SPECIFIC__ == 1010) ||                    \
   ((N) != 101 && __CUDA_ARCH_FAMILY_SPECIFIC__ >= (N##0) &&                   \
    __CUDA_ARCH_FAMILY_SPECIFIC__ < (N##0) + 100))
#else
#define __CUDA_HAS_ARCH_FAMILY_SPECIFIC(N) 0
#endif
#endif
