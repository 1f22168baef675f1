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

namespace {
/// What a walk does after visiting a block.
enum class Walk { Continue, Prune, Done };
} // namespace

/// Walks the CFG depth first from Start, whose first First elements are
/// skipped, to the blocks reachable from it, each once (Start once more,
/// whole, when a loop leads back to it). Visit(B, Skip) says whether to go
/// on to B's successors, not to, or to end the walk. True when a Visit ended
/// it.
static bool
walkForward(const CFG &Cfg, const CFGBlock *Start, unsigned First,
            llvm::function_ref<Walk(const CFGBlock *, unsigned)> Visit) {
  llvm::SmallVector<bool, 64> Seen(Cfg.getNumBlockIDs(), false);
  llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 16> Work;
  Work.push_back({Start, First});
  while (!Work.empty()) {
    auto [B, Skip] = Work.pop_back_val();
    Walk W = Visit(B, Skip);
    if (W == Walk::Done)
      return true;
    if (W == Walk::Prune)
      continue;
    for (const CFGBlock *S : B->succs())
      if (S && !Seen[S->getBlockID()]) {
        Seen[S->getBlockID()] = true;
        Work.push_back({S, 0});
      }
  }
  return false;
}

/// Whether Pred holds for a statement of B after its first Skip elements.
static bool anyStmt(const CFGBlock *B, unsigned Skip,
                    llvm::function_ref<bool(const Stmt *)> Pred) {
  unsigned I = 0;
  for (const CFGElement &El : *B) {
    if (I++ < Skip)
      continue;
    if (auto CS = El.getAs<CFGStmt>(); CS && Pred(CS->getStmt()))
      return true;
  }
  return false;
}

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
  auto IsWork = [&](const Stmt *S) { return isWork(S); };
  return !walkForward(
      *Cfg, Start, First, [&](const CFGBlock *B, unsigned Skip) {
        return anyStmt(B, Skip, IsWork) ? Walk::Done : Walk::Continue;
      });
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
  return walkForward(*Cfg, Start, First, [&](const CFGBlock *B, unsigned Skip) {
    if (B == Exit)
      return Walk::Done;
    return anyStmt(B, Skip, Stop) ? Walk::Prune : Walk::Continue;
  });
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
    // The first barriers on the way from the break: B itself is passed
    // (its elements come before the break), and a path ends at a block
    // that reaches a barrier.
    bool AtBreak = true;
    if (walkForward(*Cfg, B, 0, [&](const CFGBlock *C, unsigned) {
          if (std::exchange(AtBreak, false) || !HasBarrier[C->getBlockID()])
            return Walk::Continue;
          return C == Target ? Walk::Done : Walk::Prune;
        }))
      return LoopExit{T, Loop, Inner};
  }
  return std::nullopt;
}

} // namespace cuda_tidy
