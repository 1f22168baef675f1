//===--- LaunchAttributes.h - The attribute array of a launch ---*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The attribute array of a `cudaLaunchKernelEx` / `cuLaunchKernelEx` launch,
/// entry by entry: its id and the value of one member of its value union.
///
/// Model: the same as LaunchModel's reading of the cluster attribute: the
/// local `cudaLaunchConfig_t` / `CUlaunchConfig` of the launch, its
/// `numAttrs` and `attrs` fields as FieldWrites sees them before the call,
/// and the elements of the local attribute array (`attrs[i].id = ...;
/// attrs[i].val.<member> = ...`, or a single `cudaLaunchAttribute`), set
/// inline or in a helper the array is given to.
///
/// An array filled at a counter (`attrs[n].id = ...; ++n;` under
/// conditions, `numAttrs = n`: CCCL's triple_chevron) is read as holding
/// each entry written; every such entry may be set.
///
/// Left out: a configuration or array that escapes, is passed by pointer
/// from elsewhere, or whose element count is not a constant: the array is
/// then unreadable (std::nullopt), which callers must treat as "any
/// attribute may be set".
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_LAUNCH_LAUNCHATTRIBUTES_H
#define CUDA_TIDY_LIB_LAUNCH_LAUNCHATTRIBUTES_H

#include "lib/launch/LaunchModel.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace cuda_tidy {

/// One entry of a launch's attribute array.
struct LaunchAttributeEntry {
  /// The enumerator the id is set to; empty when it is not one.
  llvm::StringRef IdName;
  /// Where the id is set, in the launching function (the helper call when a
  /// helper sets it).
  const clang::Expr *IdExpr = nullptr;
  /// The value of the member asked for, when proven.
  std::optional<uint64_t> Value;
};

/// The entries of L's attribute array, reading the member ValueMember of
/// each value union (`programmaticStreamSerializationAllowed`). Empty when
/// the launch sets no attribute; std::nullopt when the launch is not a
/// `cudaLaunchKernelEx` / `cuLaunchKernelEx` launch whose array can be read.
std::optional<llvm::SmallVector<LaunchAttributeEntry, 2>>
readLaunchAttributes(const LaunchSite &L, ConstantEvaluator &Eval,
                     llvm::StringRef ValueMember);

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_LAUNCH_LAUNCHATTRIBUTES_H
