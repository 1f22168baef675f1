//===--- ToolkitVersion.h - A CUDA toolkit release --------------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A CUDA toolkit release, as the `#if` evaluator (ArchConditionals.h) sets
/// the version macros from it and the removed-API table (lib/toolkit) names
/// the release that removed or deprecated an API. One definition for both.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_TARGET_TOOLKITVERSION_H
#define CUDA_TIDY_LIB_TARGET_TOOLKITVERSION_H

#include <string>

namespace cuda_tidy {

/// A CUDA toolkit release; Major 0 means unknown.
struct ToolkitVersion {
  unsigned Major = 0;
  unsigned Minor = 0;
  /// "13.0".
  std::string str() const {
    return std::to_string(Major) + "." + std::to_string(Minor);
  }
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_TARGET_TOOLKITVERSION_H
