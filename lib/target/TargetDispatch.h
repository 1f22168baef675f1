//===--- TargetDispatch.h - CCCL's <nv/target> dispatch macros -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The invocations of CCCL's target-dispatch macros (`<nv/target>`):
/// `NV_IF_TARGET(q, t)`, `NV_IF_TARGET(q, t, f)`, `NV_IF_ELSE_TARGET(q, t,
/// f)` and `NV_DISPATCH_TARGET(q1, c1, q2, c2, ...)`, and which of their
/// arms a compilation keeps.
///
/// Model. With nvcc and with clang the macros choose an arm in the
/// preprocessor (the toolkit header pastes each query into a 0/1 macro
/// defined under `#if __CUDA_ARCH__ ...`), so the arms a compilation drops
/// are not in its AST and no `#if` is written around them in the user's
/// file. The arms are read from the macro's unexpanded arguments while the
/// preprocessor runs, wherever the invocation comes from (written in the
/// function, or from another macro such as CCCL's
/// `_CCCL_PDL_GRID_DEPENDENCY_SYNC()`); arm i is kept when its query holds
/// and no earlier one does (a trailing arm with no query, the `f` of
/// `NV_IF_ELSE_TARGET`, when none does). Queries are decided for each
/// compilation of the build from its architecture macros:
/// `NV_PROVIDES_SM_<N>` (`__CUDA_ARCH__ >= N*10`), `NV_IS_EXACTLY_SM_<N>`,
/// `NV_HAS_FEATURE_SM_<N>a` (the `a` target of N, as nvcc defines it),
/// `NV_IS_DEVICE`, `NV_IS_HOST`, `NV_ANY_TARGET`, `NV_NO_TARGET`.
///
/// Left out: a query spelled through another macro of the user's, or
/// combined (`&&` is NVC++'s `if target` form only), is unknown, and so is
/// every arm after it; invocations expanded in system headers are not
/// recorded (their functions are not analysed).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_TARGET_TARGETDISPATCH_H
#define CUDA_TIDY_LIB_TARGET_TARGETDISPATCH_H

#include "lib/target/ArchConditionals.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>
#include <vector>

namespace clang {
class LangOptions;
class PPCallbacks;
class Preprocessor;
class SourceManager;
} // namespace clang

namespace cuda_tidy {

/// One arm of a dispatch: the code it compiles, and the query that selects
/// it.
struct TargetDispatchArm {
  /// The query as written (`NV_PROVIDES_SM_90`); empty for an arm with no
  /// query (the fallback).
  std::string Query;
  /// The first and last token of the arm's code, where they are spelled
  /// (in the file, or in the macro definition the invocation comes from);
  /// invalid for an empty arm.
  clang::SourceLocation SpellingBegin, SpellingEnd;
};

/// One invocation of a dispatch macro.
struct TargetDispatch {
  /// "NV_IF_TARGET", "NV_IF_ELSE_TARGET" or "NV_DISPATCH_TARGET".
  llvm::StringRef Macro;
  /// The file range of the outermost expansion holding the invocation (the
  /// invocation itself, or the user's macro call that expands to it).
  clang::SourceRange Expansion;
  llvm::SmallVector<TargetDispatchArm, 2> Arms;
};

/// Whether a compilation with \p Macros keeps arm \p Arm of \p D (the
/// model); \p Deciding is set to the arm whose query decides it (Arm itself
/// when its query is false or holds, an earlier arm whose query holds).
Truth armKept(const TargetDispatch &D, unsigned Arm, const ArchMacros &Macros,
              unsigned *Deciding = nullptr);

/// The text of an arm's code as spelled, or empty when it cannot be read
/// (an empty arm, or one spread over files).
llvm::StringRef armText(const TargetDispatchArm &Arm,
                        const clang::SourceManager &SM,
                        const clang::LangOptions &LangOpts);

/// The dispatches of a translation unit, recorded while the preprocessor
/// runs.
class TargetDispatches {
public:
  /// Callbacks that fill this object; register with the preprocessor. This
  /// object must outlive them.
  std::unique_ptr<clang::PPCallbacks> makeCallbacks(clang::Preprocessor &PP);

  /// The dispatches whose expansion lies inside \p FileRange (file
  /// locations of one file), in source order.
  llvm::SmallVector<const TargetDispatch *, 2>
  within(clang::SourceRange FileRange, const clang::SourceManager &SM) const;

  llvm::ArrayRef<TargetDispatch> all() const { return All; }
  bool empty() const { return All.empty(); }
  void add(TargetDispatch D) { All.push_back(std::move(D)); }

private:
  std::vector<TargetDispatch> All;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_TARGET_TARGETDISPATCH_H
