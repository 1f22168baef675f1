//===--- RemovedApi.h - CUDA APIs that toolkits removed ---------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The table of CUDA APIs that CUDA 12 and 13 removed, changed or deprecated,
/// with the toolkit that did it and the replacement; the only place these
/// facts live. docs/checks/cuda-removed-toolkit-api.md prints the same table.
///
/// Model: an entry names one runtime API function, device function, type or
/// `cudaDeviceProp` field, as the CUDA headers spell it, at global scope.
///  - Removed: the 13.0 headers do not declare it; code using it does not
///    compile. Verified against /usr/local/cuda/include (13.0.88), where
///    `generated_cudart_removed_meta.h` lists the removed runtime functions
///    and `cupti_runtime_cbid.h` every runtime function ever traced; the
///    release that removed each is from the CUDA 12.0 and 13.0 release notes
///    and HIPIFY's API tables.
///  - Changed: the name is still declared, with another parameter list; the
///    old argument list does not compile.
///  - Deprecated: still declared, with a deprecation attribute; code builds
///    with a warning.
///
/// For the parse, compatDeclarations() gives declarations of the removed and
/// changed forms, each guarded by `CUDART_VERSION` so that a toolkit that
/// still has them keeps its own. With them, old code parses under the CUDA
/// 13 headers and its uses resolve to real declarations. Removed
/// `cudaDeviceProp` fields cannot be declared that way (a struct cannot be
/// reopened); they are recognised from clang's "no member named" error.
///
/// Left out: the driver API (cuda.h still declares its deprecated texture
/// reference and context functions), libraries (cuBLAS, cuSPARSE, ...),
/// dynamic parallelism's device-side `cudaDeviceSynchronize` (removed in
/// 12.0), and APIs removed before CUDA 12 (`cudaConfigureCall`, 10.1).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_TOOLKIT_REMOVEDAPI_H
#define CUDA_TIDY_LIB_TOOLKIT_REMOVEDAPI_H

#include "lib/target/ToolkitVersion.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace cuda_tidy {

/// What kind of entity an entry names.
enum class ApiKind {
  /// A host runtime API function.
  RuntimeFunction,
  /// A device function (the texture and surface reference reads and writes).
  DeviceFunction,
  /// A type or class template (`texture`, `textureReference`, `double4`).
  Type,
  /// A field of `cudaDeviceProp`.
  DevicePropField,
};

/// What the toolkit did to it.
enum class ApiChange { Removed, Changed, Deprecated };

/// The fix the check offers for a use.
enum class ApiFix {
  /// None: the note says what to do.
  None,
  /// Replace the name with Replacement (same parameters, same result).
  Rename,
  /// A `cudaDeviceProp` field read: the value of
  /// `cudaDeviceGetAttribute(&v, Replacement, device)`.
  DeviceAttribute,
  /// A 4-wide 64-bit vector type: Replacement is its `_16a` form, same size
  /// and alignment (`make_T` becomes `make_T_16a`).
  VectorType16a,
  /// Part of the texture reference API: the texture-object rewrite.
  TextureObject,
  /// A changed function whose new form takes an edge-data array: `nullptr`
  /// inserted as argument InsertAt.
  InsertNullArgument,
  /// `cudaMemPrefetchAsync`/`cudaMemAdvise` with a device ordinal: a
  /// `cudaMemLocation` for it (and the flags argument).
  MemLocation,
  /// `cudaGraphInstantiate(exec, graph, errNode, log, size)` with null
  /// error outputs: `cudaGraphInstantiate(exec, graph, 0)`.
  GraphInstantiateFlags,
  /// A call that has had no effect on any device CUDA 13 supports: the
  /// statement is removed when its result is not used.
  RemoveCall,
  /// `cudaMemcpyToArray` and kin: on a note, the 2D copy of one row
  /// (right when the copy stays within one row of the array).
  ArrayCopy2D,
};

/// One API entry.
struct RemovedApi {
  llvm::StringLiteral Name;
  ApiKind Kind;
  ApiChange Change;
  /// The release that removed, changed or deprecated it.
  ToolkitVersion In;
  /// For removed and changed entries, the release that deprecated the old
  /// form, where known.
  ToolkitVersion DeprecatedIn;
  /// The replacement: a function or type name, a `cudaDeviceAttr`
  /// enumerator; empty when there is none.
  llvm::StringLiteral Replacement;
  ApiFix Fix;
  /// InsertNullArgument: the index the `nullptr` argument takes.
  unsigned InsertAt = 0;
  /// What to do instead, for the note (a full sentence fragment, lower case).
  llvm::StringLiteral Advice;
};

/// Every entry, sorted by kind and name.
llvm::ArrayRef<RemovedApi> removedApis();

/// The entry for a function (runtime or device) named Name, or null.
const RemovedApi *findRemovedFunction(llvm::StringRef Name);

/// The entry for a type or class template named Name, or null.
const RemovedApi *findRemovedType(llvm::StringRef Name);

/// The entry for a `cudaDeviceProp` field named Name, or null.
const RemovedApi *findRemovedDevicePropField(llvm::StringRef Name);

/// "removed in CUDA 13.0", "changed in CUDA 13.0", "deprecated since CUDA
/// 13.0".
std::string describeChange(const RemovedApi &Api);

/// Declarations of the removed and changed APIs for the parse, each group
/// under `#if CUDART_VERSION >= N` of the release that removed it. Meant to
/// follow <cuda_runtime.h>; includes it when the toolkit's (or a stub's) is
/// found. Marked as a system header.
llvm::StringRef compatDeclarations();

/// The name compatDeclarations() is given in diagnostics and locations.
inline constexpr llvm::StringLiteral CompatDeclarationsName =
    "<cuda-tidy removed toolkit API>";

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_TOOLKIT_REMOVEDAPI_H
