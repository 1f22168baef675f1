//===--- WarpConvergence.h - Does the whole warp reach a point? -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A proof that every lane of a warp reaches a statement together, used to
/// choose the full lane mask (0xffffffff) for a `*_sync` warp intrinsic.
///
/// Model: built on the uniformity analysis (lib/uniformity/Uniformity.h), run with
/// opaque calls counted as thread-varying. The whole warp reaches statement
/// S in function F when
///  - the control at S is at most warp-uniform: every branch and loop S
///    depends on has a block- or warp-uniform condition (`if (tid < 32)`,
///    `for (int o = 16; o > 0; o /= 2)`, `if (flags[blockIdx.x])`), and no
///    lane-dependent `return` or `break` comes before S (in a kernel too:
///    lanes that exit are absent from a full mask);
///  - F is a kernel, or a `__device__` function whose every call in the
///    translation unit is itself reached by the whole warp, with arguments
///    that are warp-uniform for the parameters S's control depends on (to a
///    depth of 4 callers).
///
/// Left out, deliberately: callers in other translation units (`-rdc`);
/// templates that are never instantiated (their pattern is not analysed);
/// blocks whose size is not a multiple of 32, which leave the last warp
/// partial. The first two make the proof fail, never succeed wrongly; the
/// third is an assumption the documentation states.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_UNIFORMITY_WARPCONVERGENCE_H
#define CUDA_TIDY_LIB_UNIFORMITY_WARPCONVERGENCE_H

#include "lib/ast/CallGraph.h"
#include "lib/uniformity/Uniformity.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
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
  /// Proofs over Calls with Analysis, a uniformity analysis that counts
  /// opaque calls as thread-varying (UniformityOptions::OpaqueCallsVary).
  WarpConvergence(UniformityAnalysis &Analysis, const CallGraphIndex &Calls);
  ~WarpConvergence();

  /// std::nullopt when the whole warp provably reaches S (a statement in the
  /// body of F); otherwise the first obstacle found.
  std::optional<ConvergenceObstacle> obstacle(const clang::Stmt *S,
                                              const clang::FunctionDecl *F);

private:
  UniformityAnalysis &Analysis;
  const CallGraphIndex &Calls;
  unsigned Depth = 0;

  std::optional<ConvergenceObstacle> entryObstacle(const clang::FunctionDecl *F,
                                                   uint64_t ParamMask);
  std::string whyVaries(const FunctionUniformity &FU, const clang::Expr *E,
                        unsigned Depth = 0);
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_UNIFORMITY_WARPCONVERGENCE_H
