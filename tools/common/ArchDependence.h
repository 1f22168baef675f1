//===--- ArchDependence.h - Does user code vary by GPU arch? ----*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Decides whether the device side of a CUDA file reads the same for every
/// architecture it is built for, so that one device parse can stand for all
/// of them (the architecture-dependent checks then evaluate their limits for
/// each architecture of the list, see lib/target/CudaTarget.h).
///
/// Model: the device job of the first architecture is preprocessed once.
/// The user's code (files clang does not treat as system headers) varies by
/// architecture when, in it:
///  - a conditional directive (`#if`, `#elif`, `#ifdef`, `#ifndef`) reads an
///    architecture macro (`__CUDA_ARCH__`, `__CUDA_ARCH_FEAT_*`,
///    `__CUDA_ARCH_SPECIFIC__`, any `__CUDA_ARCH*` name) or an
///    architecture-derived macro, and does not have one value for every
///    architecture of the list. Whether `__CUDA_ARCH__` is defined is the
///    same for every device architecture; a condition that reads
///    `__CUDA_ARCH__` directly (`#if __CUDA_ARCH__ >= 700`) is evaluated
///    for each architecture's value (lib/target/ArchConditionals.h) and varies only
///    when the values differ or cannot be told;
///  - code outside directives expands an architecture macro or an
///    architecture-derived macro (`int v = __CUDA_ARCH__;`,
///    `NV_IF_TARGET(NV_PROVIDES_SM_80, ...)`).
/// A macro is architecture-derived when its definition names an
/// architecture macro or another derived macro, or when a header defines or
/// undefines it under a condition that varies by architecture (libcu++'s
/// `nv/target` defines its `NV_PROVIDES_SM_*` selectors that way); the
/// branches the first architecture skips are scanned for `#define` and
/// `#undef` lines, so that a macro only other architectures define counts
/// too.
///
/// Left out: system headers themselves may declare different functions for
/// different architectures (intrinsics of newer GPUs); user code that calls
/// one compiles for the architectures that have it only, which a build for
/// all of them would reject. A file that cannot be preprocessed counts as
/// varying (each architecture is then parsed, as before).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_COMMON_ARCHDEPENDENCE_H
#define CUDA_TIDY_TOOLS_COMMON_ARCHDEPENDENCE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace llvm::vfs {
class FileSystem;
} // namespace llvm::vfs

namespace cuda_tidy {

/// The reserved macro through which cuda-tidy gives the one device job of
/// a file the list of architectures it stands for ("sm_75,sm_80").
inline constexpr const char *GpuArchListMacro = "__CUDA_TIDY_GPU_ARCHS__";

/// The answer for one file.
struct ArchDependence {
  /// Whether the user's code may read differently for some architecture of
  /// the list.
  bool Varies = true;
  /// Why it varies ("file.cu:12: '#if' reads '__CUDA_ARCH__'"), or why the
  /// question could not be answered; empty when it does not vary.
  std::string Reason;
};

/// Preprocesses the clang device job \p DeviceArgs (argv[0] included, one
/// device architecture) in \p Directory and says whether the user's code
/// varies between the architectures \p Archs (`sm_75`, `sm_90a`).
/// \p ResourceDir is clang's resource folder; empty: found from argv[0].
/// \p FS reads the files; null: the real file system.
ArchDependence findArchDependence(
    llvm::ArrayRef<std::string> DeviceArgs, llvm::ArrayRef<std::string> Archs,
    llvm::StringRef Directory, llvm::StringRef ResourceDir = "",
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS = nullptr);

/// The `__CUDA_ARCH__` value of an architecture name (`sm_100a` -> 1000), or
/// 0 when the name is not one.
unsigned cudaArchValue(llvm::StringRef Arch);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_COMMON_ARCHDEPENDENCE_H
