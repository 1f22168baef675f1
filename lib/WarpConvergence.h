//===--- WarpConvergence.h - Does the whole warp reach a point? -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A conservative, structural proof that every lane of a warp reaches a
/// statement together, used to choose the full lane mask (0xffffffff) for a
/// `*_sync` warp intrinsic.
///
/// Model: the whole warp reaches statement S in function F when
///  - every condition that S is nested under (if, ?:, &&, ||, switch) is
///    *lane-independent*: built only from literals, enumerators, template
///    arguments, constants, `blockIdx`/`blockDim`/`gridDim`, kernel parameters
///    passed by value and never modified, and local variables initialised
///    from such values and never modified;
///  - every loop around S is a counted loop with lane-independent bounds whose
///    body has no break, continue, return or goto (`for (int o = 16; o > 0;
///    o /= 2)`);
///  - no return, goto or call to a no-return function comes before S in F;
///  - F is a kernel, or a `__device__` function whose every call in the
///    translation unit is itself reached by the whole warp (to a depth of 4).
///
/// Left out, deliberately: values that are lane-independent for a reason this
/// model does not see (a load from a uniform address, a `__shfl_sync` of lane
/// 0, a vote result); callers in other translation units (`-rdc`); blocks
/// whose size is not a multiple of 32, which leave the last warp partial.
/// The first two make the proof fail, never succeed wrongly; the third is an
/// assumption the documentation states.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_WARPCONVERGENCE_H
#define CUDA_TIDY_LIB_WARPCONVERGENCE_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class Stmt;
class VarDecl;
} // namespace clang

namespace cuda_tidy {

/// What stops the proof: a location and a clause that says why ("the
/// condition depends on 'threadIdx.x'").
struct ConvergenceObstacle {
  clang::SourceLocation Loc;
  std::string Reason;
};

/// Answers "does the whole warp reach S?" for one translation unit. Results
/// per function are cached; create one per translation unit.
class WarpConvergence {
public:
  explicit WarpConvergence(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// std::nullopt when the whole warp provably reaches S (a statement in the
  /// body of F); otherwise the first obstacle found.
  std::optional<ConvergenceObstacle> obstacle(const clang::Stmt *S,
                                              const clang::FunctionDecl *F);

private:
  clang::ASTContext &Ctx;
  /// Per function: variables written after their declaration.
  llvm::DenseMap<const clang::FunctionDecl *,
                 llvm::DenseSet<const clang::VarDecl *>>
      Modified;
  /// Callers of each function in the translation unit, built on first use.
  llvm::DenseMap<const clang::FunctionDecl *,
                 llvm::SmallVector<std::pair<const clang::CallExpr *,
                                             const clang::FunctionDecl *>,
                                   2>>
      Callers;
  bool CallersBuilt = false;
  unsigned Depth = 0;

  const llvm::DenseSet<const clang::VarDecl *> &
  modifiedVars(const clang::FunctionDecl *F);
  void buildCallers();
  std::optional<ConvergenceObstacle> entryObstacle(const clang::FunctionDecl *F);

  friend class UniformityProver;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_WARPCONVERGENCE_H
