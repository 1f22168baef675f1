//===--- FunctionFacts.h - What the lane model knows of a body --*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Per function body, computed once: its CFG with the positions of its
/// statements and which elements are barriers (anything that orders the
/// lanes of a warp: `__syncwarp`, block barriers, cooperative groups'
/// `sync()`, `bar.sync` in asm, calls that reach one or whose body is not
/// visible); the variables written after their declaration; the counted and
/// stride loops; the locals inline asm sets; the candidate accesses (scalar
/// lvalues read or written through a subscript, member or `*`); the calls
/// it makes; the values it returns; and the CFG paths that reach a point
/// with no barrier in between (reach()).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_LANES_FUNCTIONFACTS_H
#define CUDA_TIDY_LIB_LANES_FUNCTIONFACTS_H

#include "lib/lanes/ModelTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>

namespace cuda_tidy::lanes {

class FunctionFacts {
public:
  /// Cfgs: the CFGs shared with the uniformity analysis (null: the facts
  /// build their own).
  FunctionFacts(clang::ASTContext &Ctx, FunctionCfgs *Cfgs);

  /// The facts of F's body (FunctionInfo::Ok false when it has no body or
  /// no CFG).
  FunctionInfo &info(const clang::FunctionDecl *F);
  bool isModified(FunctionInfo &I, const clang::VarDecl *V);
  /// S orders the lanes of a warp (see the file comment).
  bool isBarrierStmt(const clang::Stmt *S);
  /// F's body reaches a barrier (or is not visible).
  bool reachesBarrier(const clang::FunctionDecl *F, unsigned Depth);
  /// The values F's `return` statements give; empty when one gives none.
  llvm::ArrayRef<const clang::Expr *> returnsOf(const clang::FunctionDecl *F);
  /// The statement E belongs to (LaneModel::statementOf).
  const clang::Stmt *statementOf(const clang::Stmt *E, FunctionInfo &I);
  /// The candidate accesses of I's body, in source order.
  llvm::SmallVectorImpl<Access> &accessesOf(FunctionInfo &I);
  /// The calls in I's function body, with their CFG positions.
  llvm::ArrayRef<std::pair<const clang::CallExpr *, Pos>>
  callsOf(FunctionInfo &I);
  /// The blocks and element ranges from which Target is reached with no
  /// barrier in between, and whether the path takes a back edge. Entered:
  /// the condition blocks of the counted loops whose body runs at least
  /// once (GuardModel::enteredLoops), which no path leaves without coming
  /// round.
  ReachSet reach(FunctionInfo &I, Pos Target,
                 const llvm::DenseSet<unsigned> &Entered);
  /// The same with the barriers of a client (by CFG block and element),
  /// following no edge out of the blocks of SkipFrom (the latches of loops
  /// whose back edge a client rules out) and none of DeadEdges (from block,
  /// to block: edges a client proves never taken).
  ReachSet reach(FunctionInfo &I, Pos Target,
                 const llvm::DenseSet<unsigned> &Entered,
                 const BarrierTable &Barrier,
                 llvm::ArrayRef<unsigned> SkipFrom = {},
                 llvm::ArrayRef<std::pair<unsigned, unsigned>> DeadEdges = {});

private:
  clang::ASTContext &Ctx;
  FunctionCfgs *Cfgs;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<FunctionInfo>>
      Infos;
  llvm::DenseMap<const clang::FunctionDecl *, int> BarrierState; // 0 ?, 1 no, 2 yes
  /// The return values of functions, for evaluating calls.
  llvm::DenseMap<const clang::FunctionDecl *,
                 llvm::SmallVector<const clang::Expr *, 1>>
      Returns;
};

} // namespace cuda_tidy::lanes

#endif // CUDA_TIDY_LIB_LANES_FUNCTIONFACTS_H
