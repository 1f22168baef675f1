//===--- ArchConditionals.h - Code only old architectures compile -*- C++
//-*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Finds the preprocessor regions that no compilation for Volta (compute
/// capability 7.0) or later includes: the pre-Volta branch of
/// `#if __CUDA_ARCH__ < 700 ... #else ... #endif` and the like. Legacy code in
/// such a region is deliberate, and checks stay silent on it.
///
/// Model: every `#if`/`#elif` condition is evaluated symbolically for each
/// modern `__CUDA_ARCH__` value (700 to 1210) with three-valued logic over
/// integer literals, `__CUDA_ARCH__`, `defined(...)`, `!`, the comparisons,
/// `+ - * /`, `&&`, `||` and parentheses. Any other macro is unknown. A region
/// is legacy-only when, for every modern value, its own condition is
/// definitely false or an earlier condition of its chain is definitely true.
/// `#ifdef __CUDA_ARCH__` is true for every device value; `#ifndef` false.
///
/// Left out: conditions spelled through other macros
/// (`#if MY_ARCH_IS_OLD`) are unknown, so their code is analysed: the check
/// errs towards reporting.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_ARCHCONDITIONALS_H
#define CUDA_TIDY_LIB_ARCHCONDITIONALS_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <optional>

namespace clang {
class PPCallbacks;
class SourceManager;
class LangOptions;
} // namespace clang

namespace cuda_tidy {

/// Three-valued truth for a preprocessor condition at one `__CUDA_ARCH__`.
enum class Truth { False, True, Unknown };

/// Evaluates the text of a `#if` condition with `__CUDA_ARCH__` set to
/// CudaArch (0 means "not defined", as on the host side).
Truth evaluateArchCondition(llvm::StringRef Condition, unsigned CudaArch,
                            const clang::LangOptions &LangOpts);

/// The legacy-only regions of one translation unit, filled by the callbacks
/// that makeCallbacks() returns while the preprocessor runs.
class LegacyArchRegions {
public:
  /// Callbacks to hand to Preprocessor::addPPCallbacks. This object must
  /// outlive them.
  std::unique_ptr<clang::PPCallbacks>
  makeCallbacks(const clang::SourceManager &SM,
                const clang::LangOptions &LangOpts);

  /// Whether the file location Loc lies in a legacy-only region.
  bool contains(clang::SourceLocation Loc,
                const clang::SourceManager &SM) const;

  /// Records a region; used by the callbacks.
  void add(clang::SourceRange Range) { Regions.push_back(Range); }

private:
  llvm::SmallVector<clang::SourceRange, 8> Regions;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_ARCHCONDITIONALS_H
