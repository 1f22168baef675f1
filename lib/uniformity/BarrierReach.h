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
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_UNIFORMITY_BARRIERREACH_H
#define CUDA_TIDY_LIB_UNIFORMITY_BARRIERREACH_H

#include "llvm/ADT/DenseMap.h"
#include <functional>

namespace clang {
class ASTContext;
class CallExpr;
class FunctionDecl;
} // namespace clang

namespace cuda_tidy {

class BarrierReach {
public:
  /// WarpBarriers: `__syncwarp` counts too. AlsoCounts: calls that count
  /// as if they were barriers (a client's own sites of interest).
  BarrierReach(clang::ASTContext &Ctx, bool WarpBarriers,
               std::function<bool(const clang::CallExpr *)> AlsoCounts = {})
      : Ctx(Ctx), WarpBarriers(WarpBarriers),
        AlsoCounts(std::move(AlsoCounts)) {}

  /// Whether F (its definition) may reach a barrier; false for a function
  /// with no visible body (the caller's uniformity analysis treats such a
  /// call on its own terms).
  bool mayReach(const clang::FunctionDecl *F);

private:
  clang::ASTContext &Ctx;
  bool WarpBarriers;
  std::function<bool(const clang::CallExpr *)> AlsoCounts;
  llvm::DenseMap<const clang::FunctionDecl *, bool> Known;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_UNIFORMITY_BARRIERREACH_H
