//===--- BarrierReach.h - Which functions may reach a barrier ---*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A syntactic over-approximation of "this function reaches a barrier":
/// its body, the bodies of the functions and constructors it calls, at any
/// depth, contain a barrier that recognizeBarrier (Uniformity.h) knows. A
/// call that a template pattern leaves dependent may name anything and
/// counts; so does a cycle of calls while it is being looked at. It reads
/// no uniformity: clients use it to skip the uniformity analysis of
/// functions whose answer cannot involve a barrier (most device functions
/// of user code).
///
/// The walk of each body is made once per translation unit (BarrierWalks)
/// and shared by every client, whatever it counts.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_UNIFORMITY_BARRIERREACH_H
#define CUDA_TIDY_LIB_UNIFORMITY_BARRIERREACH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include <functional>
#include <memory>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace cuda_tidy {

/// What BarrierReach looks at in each function body: the barriers, calls
/// and constructions, in the order its walk meets them (the walk stops at
/// the first that answers, and which one that is decides how a cycle of
/// calls is answered).
class BarrierWalks {
public:
  explicit BarrierWalks(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  struct Step {
    enum Kind : unsigned char { BlockBarrier, WarpBarrier, Call, Construct };
    Kind K;
    const clang::Stmt *S;
  };
  /// The steps of Def's body (Def has one).
  llvm::ArrayRef<Step> of(const clang::FunctionDecl *Def);
  /// Whether Def's body holds a call clang could not resolve by name (a
  /// RecoveryExpr over an unresolved name): a barrier may be hidden there.
  /// Statements clang dropped whole leave no trace and are not seen.
  /// Noted by the same walk.
  bool holdsErrors(const clang::FunctionDecl *Def);

private:
  struct Walk {
    std::vector<Step> Steps;
    bool Errors = false;
  };
  Walk &walk(const clang::FunctionDecl *Def);

  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<Walk>> Walked;
};

class BarrierReach {
public:
  /// WarpBarriers: `__syncwarp` counts too. AlsoCounts: calls that count
  /// as if they were barriers (a client's own sites of interest).
  BarrierReach(BarrierWalks &Walks, bool WarpBarriers,
               std::function<bool(const clang::CallExpr *)> AlsoCounts = {})
      : Walks(Walks), WarpBarriers(WarpBarriers),
        AlsoCounts(std::move(AlsoCounts)) {}

  /// Whether F (its definition) may reach a barrier; false for a function
  /// with no visible body (the caller's uniformity analysis treats such a
  /// call on its own terms).
  bool mayReach(const clang::FunctionDecl *F);

private:
  BarrierWalks &Walks;
  bool WarpBarriers;
  std::function<bool(const clang::CallExpr *)> AlsoCounts;
  llvm::DenseMap<const clang::FunctionDecl *, bool> Known;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_UNIFORMITY_BARRIERREACH_H
