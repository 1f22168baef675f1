//===--- Paths.cpp - Paths through a function, for barrier clients --------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Questions about the paths of one function's CFG that the barrier checks
// ask once the levels are known: whether the threads that skip a point only
// leave (skippersOnlyLeave), whether anything after a point changes memory
// or waits (quietAfter), whether a path to the end avoids some statements
// (exitAvoiding), and which varying `break` out of a loop with a barrier
// leads to a given barrier (earlyLoopExit).
//
//===----------------------------------------------------------------------===//

#include "lib/uniformity/UniformityImpl.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cuda_tidy {

bool FunctionUniformityImpl::isWork(const Stmt *S) const {
  if (isa<GCCAsmStmt, MSAsmStmt>(S) || recognizeBarrier(S, Ctx))
    return true;
  auto ToLocal = [&](const Expr *Target) {
    bool Exact = false;
    return localRoot(Target, F, Exact) != nullptr;
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    return BO->isAssignmentOp() && !ToLocal(BO->getLHS());
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    return UO->isIncrementDecrementOp() && !ToLocal(UO->getSubExpr());
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S))
    if (Op->isAssignmentOp() && Op->getNumArgs() > 0)
      return !ToLocal(Op->getArg(0));
  if (const auto *Call = dyn_cast<CallExpr>(S))
    return isWorkCall(resolveCallee(Call), SM);
  return false;
}

bool FunctionUniformityImpl::quietFrom(const CFGBlock *Start,
                                       unsigned First) const {
  llvm::SmallVector<bool, 64> Seen(Cfg->getNumBlockIDs(), false);
  llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 16> Work;
  Work.push_back({Start, First});
  while (!Work.empty()) {
    auto [B, From] = Work.pop_back_val();
    unsigned I = 0;
    for (const CFGElement &El : *B) {
      if (I++ < From)
        continue;
      if (auto CS = El.getAs<CFGStmt>())
        if (isWork(CS->getStmt()))
          return false;
    }
    for (const CFGBlock *S : B->succs())
      if (S && !Seen[S->getBlockID()]) {
        Seen[S->getBlockID()] = true;
        Work.push_back({S, 0});
      }
  }
  return true;
}

bool FunctionUniformityImpl::skippersOnlyLeave(const Stmt *S, Uniformity L,
                                               uint64_t Mask) const {
  const CFGBlock *Target = reachableBlockOf(S);
  if (!Target)
    return false;
  unsigned N = Cfg->getNumBlockIDs();
  // The blocks from which S can still be reached.
  std::vector<bool> CanReach(N, false);
  llvm::SmallVector<const CFGBlock *, 32> Work{Target};
  CanReach[Target->getBlockID()] = true;
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    for (const CFGBlock *P : B->preds())
      if (P && Reachable[P->getBlockID()] && !CanReach[P->getBlockID()]) {
        CanReach[P->getBlockID()] = true;
        Work.push_back(P);
      }
  }
  // Every way a thread can lose S at a varying branch must lead to the end
  // of the function with no work and no other barrier on the way.
  bool Skips = false;
  for (const CFGBlock *B : RPO) {
    unsigned X = B->getBlockID();
    if (!CanReach[X] || !reaches(CondLevel[X], L, Mask))
      continue;
    for (const CFGBlock *Succ : B->succs()) {
      if (!Succ || CanReach[Succ->getBlockID()])
        continue;
      Skips = true;
      if (!quietFrom(Succ, 0))
        return false;
    }
  }
  return Skips;
}

bool FunctionUniformityImpl::quietAfter(const Stmt *S) const {
  const CFGBlock *B = blockOf(S);
  if (!B)
    return false;
  unsigned I = 0;
  for (const CFGElement &El : *B) {
    ++I;
    if (auto CS = El.getAs<CFGStmt>(); CS && CS->getStmt() == S)
      return quietFrom(B, I);
  }
  return false;
}

bool FunctionUniformityImpl::exitAvoiding(
    const Stmt *From, llvm::function_ref<bool(const Stmt *)> Stop) const {
  const CFGBlock *Start = reachableBlockOf(From);
  if (!Start)
    return false;
  // The element that evaluates From, or the statement that contains it.
  unsigned First = 0, I = 0;
  SourceRange R = From->getSourceRange();
  for (const CFGElement &El : *Start) {
    ++I;
    if (auto CS = El.getAs<CFGStmt>())
      if (CS->getStmt() == From ||
          CS->getStmt()->getSourceRange().fullyContains(R)) {
        First = I;
        break;
      }
  }
  const CFGBlock *Exit = &Cfg->getExit();
  llvm::SmallVector<bool, 64> Seen(Cfg->getNumBlockIDs(), false);
  llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 16> Work;
  Work.push_back({Start, First});
  while (!Work.empty()) {
    auto [B, Skip] = Work.pop_back_val();
    if (B == Exit)
      return true;
    bool Stopped = false;
    unsigned J = 0;
    for (const CFGElement &El : *B) {
      if (J++ < Skip)
        continue;
      if (auto CS = El.getAs<CFGStmt>(); CS && Stop(CS->getStmt())) {
        Stopped = true;
        break;
      }
    }
    if (Stopped)
      continue;
    for (const CFGBlock *S : B->succs())
      if (S && !Seen[S->getBlockID()]) {
        Seen[S->getBlockID()] = true;
        Work.push_back({S, 0});
      }
  }
  return false;
}

/// The loop that T, a `break` or `goto`, leaves; null for a `goto` and for
/// a `break` out of a switch.
static const Stmt *loopLeftBy(const Stmt *T, const ParentMap &PM) {
  if (!isa<BreakStmt>(T))
    return nullptr;
  for (const Stmt *P = PM.getParent(T); P; P = PM.getParent(P)) {
    if (isa<SwitchStmt>(P))
      return nullptr;
    if (isLoopStmt(P))
      return P;
  }
  return nullptr;
}

std::optional<LoopExit>
FunctionUniformityImpl::earlyLoopExit(const Stmt *Barrier, Uniformity L) const {
  const CFGBlock *Target = blockOf(Barrier);
  if (!Target)
    return std::nullopt;
  // A `break` (or `goto`) that some threads take while others stay in a loop
  // that holds a barrier: the leavers go on to the first barriers after the
  // loop while the others wait at the loop's.
  for (const CFGBlock *B : RPO) {
    const Stmt *T = B->getTerminatorStmt();
    if (!T || !isa<BreakStmt, GotoStmt>(T) || CtlFull[B->getBlockID()].Base < L)
      continue;
    const Stmt *Loop = loopLeftBy(T, *PM);
    if (!Loop)
      continue;
    // The loop holds a barrier.
    const Stmt *Inner = nullptr;
    for (const BarrierSite &Site : Barriers)
      if (inRange(SM, Loop->getSourceRange(), Site.Site->getBeginLoc())) {
        Inner = Site.Site;
        break;
      }
    if (!Inner || Inner == Barrier)
      continue;
    // The first barriers on the way from the break.
    llvm::SmallVector<bool, 64> Seen(Cfg->getNumBlockIDs(), false);
    llvm::SmallVector<const CFGBlock *, 16> Work;
    for (const CFGBlock *S : B->succs())
      if (S) {
        Seen[S->getBlockID()] = true;
        Work.push_back(S);
      }
    while (!Work.empty()) {
      const CFGBlock *C = Work.pop_back_val();
      if (HasBarrier[C->getBlockID()]) {
        if (C == Target)
          return LoopExit{T, Loop, Inner};
        continue;
      }
      for (const CFGBlock *S : C->succs())
        if (S && !Seen[S->getBlockID()]) {
          Seen[S->getBlockID()] = true;
          Work.push_back(S);
        }
    }
  }
  return std::nullopt;
}

} // namespace cuda_tidy
