//===--- RemovedApi.cpp - CUDA APIs that toolkits removed -----------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/toolkit/RemovedApi.h"
#include "llvm/ADT/STLExtras.h"

namespace cuda_tidy {

namespace {
constexpr ToolkitVersion V(unsigned Major, unsigned Minor) {
  return ToolkitVersion{Major, Minor};
}
constexpr ToolkitVersion Unknown{};

using K = ApiKind;
using C = ApiChange;
using F = ApiFix;

// Sorted by kind, then name. The versions: CUDA 12.0 and 13.0 release notes,
// HIPIFY's CUDA API tables (deprecated/removed columns), the 13.0 headers.
const RemovedApi Table[] = {
    // Host runtime API.
    {"cudaBindSurfaceToArray", K::RuntimeFunction, C::Removed, V(12, 0),
     V(11, 0), "", F::None, 0,
     "create a surface object with 'cudaCreateSurfaceObject' and pass it to "
     "the kernels"},
    {"cudaBindTexture", K::RuntimeFunction, C::Removed, V(12, 0), V(11, 0),
     "cudaCreateTextureObject", F::TextureObject, 0,
     "create a texture object with 'cudaCreateTextureObject' and pass it to "
     "the kernels that read it"},
    {"cudaBindTexture2D", K::RuntimeFunction, C::Removed, V(12, 0), V(11, 0),
     "cudaCreateTextureObject", F::TextureObject, 0,
     "create a texture object over the pitched memory with "
     "'cudaCreateTextureObject' and pass it to the kernels that read it"},
    {"cudaBindTextureToArray", K::RuntimeFunction, C::Removed, V(12, 0),
     V(11, 0), "cudaCreateTextureObject", F::TextureObject, 0,
     "create a texture object over the array with 'cudaCreateTextureObject' "
     "and pass it to the kernels that read it"},
    {"cudaBindTextureToMipmappedArray", K::RuntimeFunction, C::Removed,
     V(12, 0), V(11, 0), "cudaCreateTextureObject", F::None, 0,
     "create a texture object of resource type "
     "'cudaResourceTypeMipmappedArray' and pass it to the kernels"},
    {"cudaCreateTextureObject_v2", K::RuntimeFunction, C::Removed, V(12, 0),
     Unknown, "cudaCreateTextureObject", F::Rename, 0,
     "'cudaCreateTextureObject' takes the same arguments since CUDA 12.0"},
    {"cudaDeviceGetSharedMemConfig", K::RuntimeFunction, C::Deprecated,
     V(12, 4), Unknown, "", F::None, 0,
     "shared memory banks are 4 bytes wide on Volta and later "
     "('cudaSharedMemBankSizeFourByte')"},
    {"cudaDeviceSetSharedMemConfig", K::RuntimeFunction, C::Deprecated,
     V(12, 4), Unknown, "", F::RemoveCall, 0,
     "shared memory banks are 4 bytes wide on Volta and later and the call "
     "has no effect; remove it"},
    {"cudaFuncSetSharedMemConfig", K::RuntimeFunction, C::Deprecated, V(12, 4),
     Unknown, "", F::RemoveCall, 0,
     "shared memory banks are 4 bytes wide on Volta and later and the call "
     "has no effect; remove it"},
    {"cudaGetSurfaceReference", K::RuntimeFunction, C::Removed, V(12, 0),
     V(11, 0), "", F::None, 0, "use a surface object"},
    {"cudaGetTextureAlignmentOffset", K::RuntimeFunction, C::Removed, V(12, 0),
     V(11, 0), "", F::None, 0,
     "a texture object needs memory aligned to 'textureAlignment' "
     "('cudaDevAttrTextureAlignment'); there is no offset"},
    {"cudaGetTextureObjectTextureDesc_v2", K::RuntimeFunction, C::Removed,
     V(12, 0), Unknown, "cudaGetTextureObjectTextureDesc", F::Rename, 0,
     "'cudaGetTextureObjectTextureDesc' takes the same arguments since CUDA "
     "12.0"},
    {"cudaGetTextureReference", K::RuntimeFunction, C::Removed, V(12, 0),
     V(11, 0), "", F::None, 0, "use a texture object"},
    {"cudaGraphAddDependencies", K::RuntimeFunction, C::Changed, V(13, 0),
     Unknown, "", F::InsertNullArgument, 3,
     "the edge data array comes before the count; 'nullptr' keeps default "
     "edges"},
    {"cudaGraphAddNode", K::RuntimeFunction, C::Changed, V(13, 0), Unknown, "",
     F::InsertNullArgument, 3,
     "the edge data array comes before the count; 'nullptr' keeps default "
     "edges"},
    {"cudaGraphGetEdges", K::RuntimeFunction, C::Changed, V(13, 0), Unknown,
     "", F::InsertNullArgument, 3,
     "the edge data array comes before the count; with 'nullptr' the call "
     "fails with 'cudaErrorLossyQuery' where an edge has data, as before"},
    {"cudaGraphInstantiate", K::RuntimeFunction, C::Changed, V(12, 0),
     Unknown, "", F::GraphInstantiateFlags, 0,
     "it takes flags instead of the error node and log buffer; "
     "'cudaGraphInstantiateWithParams' returns the error node"},
    {"cudaGraphNodeGetDependencies", K::RuntimeFunction, C::Changed, V(13, 0),
     Unknown, "", F::InsertNullArgument, 2,
     "the edge data array comes before the count; with 'nullptr' the call "
     "fails with 'cudaErrorLossyQuery' where an edge has data, as before"},
    {"cudaGraphNodeGetDependentNodes", K::RuntimeFunction, C::Changed,
     V(13, 0), Unknown, "", F::InsertNullArgument, 2,
     "the edge data array comes before the count; with 'nullptr' the call "
     "fails with 'cudaErrorLossyQuery' where an edge has data, as before"},
    {"cudaGraphRemoveDependencies", K::RuntimeFunction, C::Changed, V(13, 0),
     Unknown, "", F::InsertNullArgument, 3,
     "the edge data array comes before the count; 'nullptr' keeps default "
     "edges"},
    {"cudaLaunchCooperativeKernelMultiDevice", K::RuntimeFunction, C::Removed,
     V(13, 0), V(11, 3), "", F::None, 0,
     "launch with 'cudaLaunchCooperativeKernel' on each device and "
     "synchronize the devices from the host"},
    {"cudaMemAdvise", K::RuntimeFunction, C::Changed, V(13, 0), Unknown, "",
     F::MemLocation, 0,
     "it takes a 'cudaMemLocation' instead of a device ordinal"},
    {"cudaMemPrefetchAsync", K::RuntimeFunction, C::Changed, V(13, 0), Unknown,
     "", F::MemLocation, 0,
     "it takes a 'cudaMemLocation' and flags instead of a device ordinal"},
    {"cudaMemcpyArrayToArray", K::RuntimeFunction, C::Deprecated, V(10, 1),
     Unknown, "cudaMemcpy2DArrayToArray", F::ArrayCopy2D, 0,
     "use 'cudaMemcpy2DArrayToArray' with the width and height of the copy"},
    {"cudaMemcpyFromArray", K::RuntimeFunction, C::Deprecated, V(10, 1),
     Unknown, "cudaMemcpy2DFromArray", F::ArrayCopy2D, 0,
     "use 'cudaMemcpy2DFromArray' with the width and height of the copy (a "
     "copy of N bytes within one row is N wide and 1 high)"},
    {"cudaMemcpyFromArrayAsync", K::RuntimeFunction, C::Deprecated, V(10, 1),
     Unknown, "cudaMemcpy2DFromArrayAsync", F::ArrayCopy2D, 0,
     "use 'cudaMemcpy2DFromArrayAsync' with the width and height of the copy "
     "(a copy of N bytes within one row is N wide and 1 high)"},
    {"cudaMemcpyToArray", K::RuntimeFunction, C::Deprecated, V(10, 1),
     Unknown, "cudaMemcpy2DToArray", F::ArrayCopy2D, 0,
     "use 'cudaMemcpy2DToArray' with the width and height of the copy (a copy "
     "of N bytes within one row is N wide and 1 high)"},
    {"cudaMemcpyToArrayAsync", K::RuntimeFunction, C::Deprecated, V(10, 1),
     Unknown, "cudaMemcpy2DToArrayAsync", F::ArrayCopy2D, 0,
     "use 'cudaMemcpy2DToArrayAsync' with the width and height of the copy (a "
     "copy of N bytes within one row is N wide and 1 high)"},
    {"cudaProfilerInitialize", K::RuntimeFunction, C::Removed, V(12, 0),
     V(11, 0), "", F::None, 0,
     "remove it; Nsight Systems and Nsight Compute take their configuration "
     "on their command line"},
    {"cudaSetDoubleForDevice", K::RuntimeFunction, C::Removed, V(13, 0),
     V(7, 5), "", F::RemoveCall, 0,
     "every device CUDA 13 supports has double precision and the call had "
     "no effect; remove it"},
    {"cudaSetDoubleForHost", K::RuntimeFunction, C::Removed, V(13, 0), V(7, 5),
     "", F::RemoveCall, 0,
     "every device CUDA 13 supports has double precision and the call had "
     "no effect; remove it"},
    {"cudaStreamGetCaptureInfo", K::RuntimeFunction, C::Changed, V(13, 0),
     Unknown, "", F::InsertNullArgument, 5,
     "the edge data output comes before the count; with 'nullptr' the call "
     "fails with 'cudaErrorLossyQuery' where an edge has data, as before"},
    {"cudaStreamUpdateCaptureDependencies", K::RuntimeFunction, C::Changed,
     V(13, 0), Unknown, "", F::InsertNullArgument, 2,
     "the edge data array comes before the count; 'nullptr' keeps default "
     "edges"},
    {"cudaThreadExit", K::RuntimeFunction, C::Removed, V(13, 0), V(4, 0),
     "cudaDeviceReset", F::Rename, 0,
     "'cudaDeviceReset' does the same for the current device"},
    {"cudaThreadGetCacheConfig", K::RuntimeFunction, C::Removed, V(13, 0),
     V(4, 0), "cudaDeviceGetCacheConfig", F::Rename, 0,
     "'cudaDeviceGetCacheConfig' takes the same arguments"},
    {"cudaThreadGetLimit", K::RuntimeFunction, C::Removed, V(13, 0), V(4, 0),
     "cudaDeviceGetLimit", F::Rename, 0,
     "'cudaDeviceGetLimit' takes the same arguments"},
    {"cudaThreadSetCacheConfig", K::RuntimeFunction, C::Removed, V(13, 0),
     V(4, 0), "cudaDeviceSetCacheConfig", F::Rename, 0,
     "'cudaDeviceSetCacheConfig' takes the same arguments"},
    {"cudaThreadSetLimit", K::RuntimeFunction, C::Removed, V(13, 0), V(4, 0),
     "cudaDeviceSetLimit", F::Rename, 0,
     "'cudaDeviceSetLimit' takes the same arguments"},
    {"cudaThreadSynchronize", K::RuntimeFunction, C::Removed, V(13, 0),
     V(4, 0), "cudaDeviceSynchronize", F::Rename, 0,
     "'cudaDeviceSynchronize' does the same"},
    {"cudaUnbindTexture", K::RuntimeFunction, C::Removed, V(12, 0), V(11, 0),
     "cudaDestroyTextureObject", F::TextureObject, 0,
     "destroy the texture object with 'cudaDestroyTextureObject'"},

    // Device functions: the reads and writes of texture and surface
    // references. The texture object forms keep the names.
    {"surf1Dread", K::DeviceFunction, C::Removed, V(12, 0), V(11, 0), "",
     F::None, 0, "read through a surface object"},
    {"surf1Dwrite", K::DeviceFunction, C::Removed, V(12, 0), V(11, 0), "",
     F::None, 0, "write through a surface object"},
    {"surf2Dread", K::DeviceFunction, C::Removed, V(12, 0), V(11, 0), "",
     F::None, 0, "read through a surface object"},
    {"surf2Dwrite", K::DeviceFunction, C::Removed, V(12, 0), V(11, 0), "",
     F::None, 0, "write through a surface object"},
    {"surf3Dread", K::DeviceFunction, C::Removed, V(12, 0), V(11, 0), "",
     F::None, 0, "read through a surface object"},
    {"surf3Dwrite", K::DeviceFunction, C::Removed, V(12, 0), V(11, 0), "",
     F::None, 0, "write through a surface object"},
    {"tex1D", K::DeviceFunction, C::Removed, V(12, 0), V(11, 0), "",
     F::TextureObject, 0, "read through a texture object: 'tex1D<T>(obj, x)'"},
    {"tex1DGrad", K::DeviceFunction, C::Removed, V(12, 0), V(11, 0), "",
     F::TextureObject, 0, "read through a texture object"},
    {"tex1DLayered", K::DeviceFunction, C::Removed, V(12, 0), V(11, 0), "",
     F::TextureObject, 0, "read through a texture object"},
    {"tex1DLod", K::DeviceFunction, C::Removed, V(12, 0), V(11, 0), "",
     F::TextureObject, 0, "read through a texture object"},
    {"tex1Dfetch", K::DeviceFunction, C::Removed, V(12, 0), V(11, 0), "",
     F::TextureObject, 0,
     "read through a texture object: 'tex1Dfetch<T>(obj, i)'"},
    {"tex2D", K::DeviceFunction, C::Removed, V(12, 0), V(11, 0), "",
     F::TextureObject, 0,
     "read through a texture object: 'tex2D<T>(obj, x, y)'"},
    {"tex2DGrad", K::DeviceFunction, C::Removed, V(12, 0), V(11, 0), "",
     F::TextureObject, 0, "read through a texture object"},
    {"tex2DLayered", K::DeviceFunction, C::Removed, V(12, 0), V(11, 0), "",
     F::TextureObject, 0, "read through a texture object"},
    {"tex2DLod", K::DeviceFunction, C::Removed, V(12, 0), V(11, 0), "",
     F::TextureObject, 0, "read through a texture object"},
    {"tex3D", K::DeviceFunction, C::Removed, V(12, 0), V(11, 0), "",
     F::TextureObject, 0,
     "read through a texture object: 'tex3D<T>(obj, x, y, z)'"},
    {"tex3DGrad", K::DeviceFunction, C::Removed, V(12, 0), V(11, 0), "",
     F::TextureObject, 0, "read through a texture object"},
    {"tex3DLod", K::DeviceFunction, C::Removed, V(12, 0), V(11, 0), "",
     F::TextureObject, 0, "read through a texture object"},
    {"texCubemap", K::DeviceFunction, C::Removed, V(12, 0), V(11, 0), "",
     F::TextureObject, 0, "read through a texture object"},

    // Types.
    {"cudaLaunchParams", K::Type, C::Removed, V(13, 0), V(11, 3), "", F::None,
     0,
     "it served 'cudaLaunchCooperativeKernelMultiDevice'; launch on each "
     "device with 'cudaLaunchCooperativeKernel'"},
    {"double4", K::Type, C::Deprecated, V(13, 0), Unknown, "double4_16a",
     F::VectorType16a, 0,
     "'double4_16a' has the same size and 16-byte alignment"},
    {"long4", K::Type, C::Deprecated, V(13, 0), Unknown, "long4_16a",
     F::VectorType16a, 0,
     "'long4_16a' has the same size and 16-byte alignment"},
    {"longlong4", K::Type, C::Deprecated, V(13, 0), Unknown, "longlong4_16a",
     F::VectorType16a, 0,
     "'longlong4_16a' has the same size and 16-byte alignment"},
    {"surface", K::Type, C::Removed, V(12, 0), V(11, 0), "", F::None, 0,
     "create a surface object with 'cudaCreateSurfaceObject' where the "
     "reference is bound, pass it to the kernels, and read and write through "
     "it"},
    {"surfaceReference", K::Type, C::Removed, V(12, 0), V(11, 0), "",
     F::None, 0, "use a surface object"},
    {"texture", K::Type, C::Removed, V(12, 0), V(11, 0),
     "cudaTextureObject_t", F::TextureObject, 0,
     "create a texture object with 'cudaCreateTextureObject' where the "
     "reference is bound, pass it to the kernels that read it, and destroy "
     "it where the reference is unbound"},
    {"textureReference", K::Type, C::Removed, V(13, 0), V(11, 0), "",
     F::None, 0, "use a texture object"},
    {"ulong4", K::Type, C::Deprecated, V(13, 0), Unknown, "ulong4_16a",
     F::VectorType16a, 0,
     "'ulong4_16a' has the same size and 16-byte alignment"},
    {"ulonglong4", K::Type, C::Deprecated, V(13, 0), Unknown, "ulonglong4_16a",
     F::VectorType16a, 0,
     "'ulonglong4_16a' has the same size and 16-byte alignment"},

    // cudaDeviceProp fields, and the attribute that gives each value.
    {"clockRate", K::DevicePropField, C::Removed, V(13, 0), Unknown,
     "cudaDevAttrClockRate", F::DeviceAttribute, 0, ""},
    {"computeMode", K::DevicePropField, C::Removed, V(13, 0), Unknown,
     "cudaDevAttrComputeMode", F::DeviceAttribute, 0, ""},
    {"cooperativeMultiDeviceLaunch", K::DevicePropField, C::Removed, V(13, 0),
     Unknown, "", F::None, 0,
     "multi-device cooperative launch was removed with "
     "'cudaLaunchCooperativeKernelMultiDevice' and no attribute reports it; "
     "test 'cooperativeLaunch' on each device"},
    {"deviceOverlap", K::DevicePropField, C::Removed, V(13, 0), Unknown,
     "cudaDevAttrGpuOverlap", F::DeviceAttribute, 0, ""},
    {"kernelExecTimeoutEnabled", K::DevicePropField, C::Removed, V(13, 0),
     Unknown, "cudaDevAttrKernelExecTimeout", F::DeviceAttribute, 0, ""},
    {"maxTexture1DLinear", K::DevicePropField, C::Removed, V(13, 0), Unknown,
     "cudaDevAttrMaxTexture1DLinearWidth", F::DeviceAttribute, 0, ""},
    {"memoryClockRate", K::DevicePropField, C::Removed, V(13, 0), Unknown,
     "cudaDevAttrMemoryClockRate", F::DeviceAttribute, 0, ""},
    {"singleToDoublePrecisionPerfRatio", K::DevicePropField, C::Removed,
     V(13, 0), Unknown, "cudaDevAttrSingleToDoublePrecisionPerfRatio",
     F::DeviceAttribute, 0, ""},
};

const RemovedApi *find(llvm::StringRef Name,
                       std::initializer_list<ApiKind> Kinds) {
  for (const RemovedApi &A : Table)
    if (A.Name == Name && llvm::is_contained(Kinds, A.Kind))
      return &A;
  return nullptr;
}
} // namespace

llvm::ArrayRef<RemovedApi> removedApis() { return Table; }

const RemovedApi *findRemovedFunction(llvm::StringRef Name) {
  return find(Name, {ApiKind::RuntimeFunction, ApiKind::DeviceFunction});
}

const RemovedApi *findRemovedType(llvm::StringRef Name) {
  return find(Name, {ApiKind::Type});
}

const RemovedApi *findRemovedDevicePropField(llvm::StringRef Name) {
  return find(Name, {ApiKind::DevicePropField});
}

std::string describeChange(const RemovedApi &Api) {
  switch (Api.Change) {
  case ApiChange::Removed:
    return "removed in CUDA " + Api.In.str();
  case ApiChange::Changed:
    return "changed in CUDA " + Api.In.str();
  case ApiChange::Deprecated:
    return "deprecated since CUDA " + Api.In.str();
  }
  return "";
}

// The declarations the removed and changed entries need, written for
// cuda-tidy after the signatures the CUDA 11 and 12 runtime documentation
// gives. Each group is declared only where the toolkit no longer has it.
static constexpr const char *CompatText = R"cpp(
#if defined(__cplusplus) && __has_include(<cuda_runtime.h>)
#include <cuda_runtime.h>
#endif
#if defined(__cplusplus) && defined(CUDART_VERSION)

#if CUDART_VERSION >= 13000
// Removed in CUDA 13.0.
struct textureReference {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int __cudaReserved[14];
};
struct cudaLaunchParams {
  void *func;
  dim3 gridDim;
  dim3 blockDim;
  void **args;
  size_t sharedMem;
  cudaStream_t stream;
};
// Templates with a defaulted argument: a project's own function of the
// same name and parameters (a shim such as `static inline cudaError_t
// cudaThreadSynchronize() { ... }`) is no redeclaration of these and wins
// overload resolution over them.
#define __CUDA_TIDY_REMOVED template <int __cuda_tidy_removed = 0> __host__
__CUDA_TIDY_REMOVED cudaError_t cudaThreadExit(void);
__CUDA_TIDY_REMOVED cudaError_t cudaThreadSynchronize(void);
__CUDA_TIDY_REMOVED cudaError_t cudaThreadSetLimit(enum cudaLimit limit,
                                                   size_t value);
__CUDA_TIDY_REMOVED cudaError_t cudaThreadGetLimit(size_t *pValue,
                                                   enum cudaLimit limit);
__CUDA_TIDY_REMOVED cudaError_t
cudaThreadGetCacheConfig(enum cudaFuncCache *pCacheConfig);
__CUDA_TIDY_REMOVED cudaError_t
cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig);
__CUDA_TIDY_REMOVED cudaError_t cudaSetDoubleForDevice(double *d);
__CUDA_TIDY_REMOVED cudaError_t cudaSetDoubleForHost(double *d);
__CUDA_TIDY_REMOVED cudaError_t cudaLaunchCooperativeKernelMultiDevice(
    struct cudaLaunchParams *launchParamsList, unsigned int numDevices,
    unsigned int flags = 0);
#undef __CUDA_TIDY_REMOVED
// The CUDA 12 parameter lists of functions CUDA 13 changed (overloads of
// the new ones).
__host__ cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                          int dstDevice,
                                          cudaStream_t stream = 0);
__host__ cudaError_t cudaMemAdvise(const void *devPtr, size_t count,
                                   enum cudaMemoryAdvise advice, int device);
__host__ cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from,
                                       cudaGraphNode_t *to, size_t *numEdges);
__host__ cudaError_t cudaGraphNodeGetDependencies(
    cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
    size_t *pNumDependencies);
__host__ cudaError_t cudaGraphNodeGetDependentNodes(
    cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
    size_t *pNumDependentNodes);
__host__ cudaError_t cudaGraphAddDependencies(cudaGraph_t graph,
                                              const cudaGraphNode_t *from,
                                              const cudaGraphNode_t *to,
                                              size_t numDependencies);
__host__ cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph,
                                                 const cudaGraphNode_t *from,
                                                 const cudaGraphNode_t *to,
                                                 size_t numDependencies);
__host__ cudaError_t cudaStreamGetCaptureInfo(
    cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
    unsigned long long *id_out, cudaGraph_t *graph_out,
    const cudaGraphNode_t **dependencies_out, size_t *numDependencies_out);
__host__ cudaError_t cudaStreamUpdateCaptureDependencies(
    cudaStream_t stream, cudaGraphNode_t *dependencies, size_t numDependencies,
    unsigned int flags = 0);
__host__ cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode,
                                      cudaGraph_t graph,
                                      const cudaGraphNode_t *pDependencies,
                                      size_t numDependencies,
                                      struct cudaGraphNodeParams *nodeParams);
#endif // CUDART_VERSION >= 13000

#if CUDART_VERSION >= 12000
// Removed in CUDA 12.0: texture and surface references, and the functions
// that bind, unbind and read them.
struct surfaceReference {
  struct cudaChannelFormatDesc channelDesc;
};
template <class T, int dim = 1,
          enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture
    : public textureReference {
  __host__ texture(int norm = 0,
                   enum cudaTextureFilterMode fMode = cudaFilterModePoint,
                   enum cudaTextureAddressMode aMode = cudaAddressModeClamp);
  __host__ texture(int norm, enum cudaTextureFilterMode fMode,
                   enum cudaTextureAddressMode aMode,
                   struct cudaChannelFormatDesc desc);
};
template <class T, int dim = 1>
struct __attribute__((device_builtin_surface_type)) surface
    : public surfaceReference {
  __host__ surface();
  __host__ surface(struct cudaChannelFormatDesc desc);
};

extern "C" {
__host__ cudaError_t cudaBindTexture(size_t *offset,
                                     const struct textureReference *texref,
                                     const void *devPtr,
                                     const struct cudaChannelFormatDesc *desc,
                                     size_t size = 0xffffffffu);
__host__ cudaError_t cudaBindTexture2D(
    size_t *offset, const struct textureReference *texref, const void *devPtr,
    const struct cudaChannelFormatDesc *desc, size_t width, size_t height,
    size_t pitch);
__host__ cudaError_t cudaBindTextureToArray(
    const struct textureReference *texref, cudaArray_const_t array,
    const struct cudaChannelFormatDesc *desc);
__host__ cudaError_t cudaBindTextureToMipmappedArray(
    const struct textureReference *texref,
    cudaMipmappedArray_const_t mipmappedArray,
    const struct cudaChannelFormatDesc *desc);
__host__ cudaError_t cudaUnbindTexture(const struct textureReference *texref);
__host__ cudaError_t cudaGetTextureAlignmentOffset(
    size_t *offset, const struct textureReference *texref);
__host__ cudaError_t cudaGetTextureReference(
    const struct textureReference **texref, const void *symbol);
__host__ cudaError_t cudaBindSurfaceToArray(
    const struct surfaceReference *surfref, cudaArray_const_t array,
    const struct cudaChannelFormatDesc *desc);
__host__ cudaError_t cudaGetSurfaceReference(
    const struct surfaceReference **surfref, const void *symbol);
}

template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaBindTexture(size_t *offset,
                                     const texture<T, dim, readMode> &tex,
                                     const void *devPtr,
                                     const struct cudaChannelFormatDesc &desc,
                                     size_t size = 0xffffffffu);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaBindTexture(size_t *offset,
                                     const texture<T, dim, readMode> &tex,
                                     const void *devPtr,
                                     size_t size = 0xffffffffu);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaBindTexture2D(
    size_t *offset, const texture<T, dim, readMode> &tex, const void *devPtr,
    const struct cudaChannelFormatDesc &desc, size_t width, size_t height,
    size_t pitch);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaBindTexture2D(size_t *offset,
                                       const texture<T, dim, readMode> &tex,
                                       const void *devPtr, size_t width,
                                       size_t height, size_t pitch);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaBindTextureToArray(
    const texture<T, dim, readMode> &tex, cudaArray_const_t array,
    const struct cudaChannelFormatDesc &desc);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaBindTextureToArray(
    const texture<T, dim, readMode> &tex, cudaArray_const_t array);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaBindTextureToMipmappedArray(
    const texture<T, dim, readMode> &tex,
    cudaMipmappedArray_const_t mipmappedArray,
    const struct cudaChannelFormatDesc &desc);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaBindTextureToMipmappedArray(
    const texture<T, dim, readMode> &tex,
    cudaMipmappedArray_const_t mipmappedArray);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaUnbindTexture(const texture<T, dim, readMode> &tex);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t
cudaGetTextureAlignmentOffset(size_t *offset,
                              const texture<T, dim, readMode> &tex);
template <class T, int dim>
__host__ cudaError_t cudaBindSurfaceToArray(
    const surface<T, dim> &surf, cudaArray_const_t array,
    const struct cudaChannelFormatDesc &desc);
template <class T, int dim>
__host__ cudaError_t cudaBindSurfaceToArray(const surface<T, dim> &surf,
                                            cudaArray_const_t array);

// What a read returns: the element type, or for cudaReadModeNormalizedFloat
// the float vector of as many components.
template <class T, enum cudaTextureReadMode mode> struct __cuda_tidy_texel {
  typedef T type;
};
#define __CUDA_TIDY_TEXEL(T, R)                                                \
  template <> struct __cuda_tidy_texel<T, cudaReadModeNormalizedFloat> {       \
    typedef R type;                                                            \
  };
__CUDA_TIDY_TEXEL(char, float)
__CUDA_TIDY_TEXEL(signed char, float)
__CUDA_TIDY_TEXEL(unsigned char, float)
__CUDA_TIDY_TEXEL(short, float)
__CUDA_TIDY_TEXEL(unsigned short, float)
__CUDA_TIDY_TEXEL(char1, float1)
__CUDA_TIDY_TEXEL(uchar1, float1)
__CUDA_TIDY_TEXEL(short1, float1)
__CUDA_TIDY_TEXEL(ushort1, float1)
__CUDA_TIDY_TEXEL(char2, float2)
__CUDA_TIDY_TEXEL(uchar2, float2)
__CUDA_TIDY_TEXEL(short2, float2)
__CUDA_TIDY_TEXEL(ushort2, float2)
__CUDA_TIDY_TEXEL(char4, float4)
__CUDA_TIDY_TEXEL(uchar4, float4)
__CUDA_TIDY_TEXEL(short4, float4)
__CUDA_TIDY_TEXEL(ushort4, float4)
#undef __CUDA_TIDY_TEXEL
#define __CUDA_TIDY_TEX(Dim, Name, ...)                                        \
  template <class T, enum cudaTextureReadMode M>                               \
  __device__ typename __cuda_tidy_texel<T, M>::type Name(                      \
      texture<T, Dim, M> t, __VA_ARGS__);
__CUDA_TIDY_TEX(0x01, tex1Dfetch, int x)
__CUDA_TIDY_TEX(0x01, tex1D, float x)
__CUDA_TIDY_TEX(0x01, tex1DLod, float x, float level)
__CUDA_TIDY_TEX(0x01, tex1DGrad, float x, float dPdx, float dPdy)
__CUDA_TIDY_TEX(0x02, tex2D, float x, float y)
__CUDA_TIDY_TEX(0x02, tex2DLod, float x, float y, float level)
__CUDA_TIDY_TEX(0x02, tex2DGrad, float x, float y, float2 dPdx, float2 dPdy)
__CUDA_TIDY_TEX(0x03, tex3D, float x, float y, float z)
__CUDA_TIDY_TEX(0x03, tex3DLod, float x, float y, float z, float level)
__CUDA_TIDY_TEX(0x03, tex3DGrad, float x, float y, float z, float4 dPdx,
                float4 dPdy)
__CUDA_TIDY_TEX(0xF1, tex1DLayered, float x, int layer)
__CUDA_TIDY_TEX(0xF2, tex2DLayered, float x, float y, int layer)
__CUDA_TIDY_TEX(0x0C, texCubemap, float x, float y, float z)
#undef __CUDA_TIDY_TEX

template <class T, int D>
__device__ void surf1Dread(T *res, surface<void, D> surf, int x, int s,
                           enum cudaSurfaceBoundaryMode mode =
                               cudaBoundaryModeTrap);
template <class T, int D>
__device__ T surf1Dread(surface<void, D> surf, int x,
                        enum cudaSurfaceBoundaryMode mode =
                            cudaBoundaryModeTrap);
template <class T, int D>
__device__ void surf1Dwrite(T val, surface<void, D> surf, int x,
                            enum cudaSurfaceBoundaryMode mode =
                                cudaBoundaryModeTrap);
template <class T, int D>
__device__ void surf2Dread(T *res, surface<void, D> surf, int x, int y,
                           enum cudaSurfaceBoundaryMode mode =
                               cudaBoundaryModeTrap);
template <class T, int D>
__device__ T surf2Dread(surface<void, D> surf, int x, int y,
                        enum cudaSurfaceBoundaryMode mode =
                            cudaBoundaryModeTrap);
template <class T, int D>
__device__ void surf2Dwrite(T val, surface<void, D> surf, int x, int y,
                            enum cudaSurfaceBoundaryMode mode =
                                cudaBoundaryModeTrap);
template <class T, int D>
__device__ void surf3Dread(T *res, surface<void, D> surf, int x, int y, int z,
                           enum cudaSurfaceBoundaryMode mode =
                               cudaBoundaryModeTrap);
template <class T, int D>
__device__ T surf3Dread(surface<void, D> surf, int x, int y, int z,
                        enum cudaSurfaceBoundaryMode mode =
                            cudaBoundaryModeTrap);
template <class T, int D>
__device__ void surf3Dwrite(T val, surface<void, D> surf, int x, int y, int z,
                            enum cudaSurfaceBoundaryMode mode =
                                cudaBoundaryModeTrap);

__host__ cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec,
                                          cudaGraph_t graph,
                                          cudaGraphNode_t *pErrorNode,
                                          char *pLogBuffer, size_t bufferSize);
__host__ cudaError_t cudaCreateTextureObject_v2(
    cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc,
    const struct cudaTextureDesc *pTexDesc,
    const struct cudaResourceViewDesc *pResViewDesc);
__host__ cudaError_t
cudaGetTextureObjectTextureDesc_v2(struct cudaTextureDesc *pTexDesc,
                                   cudaTextureObject_t texObject);
#endif // CUDART_VERSION >= 12000

#endif
)cpp";

llvm::StringRef compatDeclarations() { return CompatText; }

} // namespace cuda_tidy
