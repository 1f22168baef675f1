//===--- Guards.cpp - The lanes that run a statement ----------------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/lanes/Guards.h"
#include "lib/lanes/FunctionFacts.h"
#include "lib/lanes/ThreadVariance.h"
#include "lib/lanes/WarpEvaluator.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace cuda_tidy::lanes {

GuardModel::GuardModel(FunctionFacts &Facts, ThreadVariance &Variance,
                       WarpValues &Values)
    : Facts(Facts), Variance(Variance), Values(Values) {}

/// The early exit `if (c) return;` (or `{ return; }`).
static const Expr *earlyReturnCond(const Stmt *S) {
  const auto *If = dyn_cast<IfStmt>(S);
  if (!If || If->getElse() || If->getInit() || If->getConditionVariable())
    return nullptr;
  const Stmt *Then = If->getThen();
  if (const auto *CS = dyn_cast<CompoundStmt>(Then))
    Then = CS->size() == 1 ? CS->body_front() : nullptr;
  if (const auto *R = dyn_cast_or_null<ReturnStmt>(Then))
    return R->getRetValue() ? nullptr : If->getCond();
  return nullptr;
}

static bool containsJump(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt, BreakStmt, ContinueStmt,
          CXXThrowExpr>(S))
    return true;
  if (isa<LambdaExpr>(S))
    return false;
  for (const Stmt *Child : S->children())
    if (containsJump(Child))
      return true;
  return false;
}

bool GuardModel::jumps(const Stmt *S) {
  auto [It, New] = Jumps.try_emplace(S, false);
  if (New)
    It->second = containsJump(S);
  return It->second;
}

static bool containsLabel(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (isa<LabelStmt, SwitchCase>(S))
    return true;
  for (const Stmt *Child : S->children())
    if (containsLabel(Child))
      return true;
  return false;
}

void GuardModel::guardOf(
    const Stmt *From, const Stmt *Stop, FunctionInfo &I, const Frame &Fr,
    llvm::SmallVectorImpl<Cond> &Guard,
    llvm::SmallVectorImpl<const ForStmt *> &Loops, bool &Opaque) {
  auto Add = [&](const Expr *C, bool Taken) {
    if (C)
      Guard.push_back(Cond{C, Taken, Variance.isVarying(C, Fr)});
  };
  const Stmt *S = From;
  while (S != Stop) {
    const Stmt *Parent = I.PM->getParent(S);
    if (!Parent)
      break;
    if (const auto *If = dyn_cast<IfStmt>(Parent)) {
      if (If->getConditionVariable() || If->isConsteval())
        Opaque = true;
      else if (S == If->getThen())
        Add(If->getCond(), true);
      else if (S == If->getElse())
        Add(If->getCond(), false);
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(Parent)) {
      if (S == CO->getTrueExpr())
        Add(CO->getCond(), true);
      else if (S == CO->getFalseExpr())
        Add(CO->getCond(), false);
    } else if (const auto *BO = dyn_cast<BinaryOperator>(Parent)) {
      if (BO->getOpcode() == BO_LAnd && S == BO->getRHS())
        Add(BO->getLHS(), true);
      else if (BO->getOpcode() == BO_LOr && S == BO->getRHS())
        Add(BO->getLHS(), false);
    } else if (const auto *For = dyn_cast<ForStmt>(Parent)) {
      if (S == For->getBody() || S == For->getInc() || S == For->getCond()) {
        auto It = I.Counted.find(For);
        bool Jumps = jumps(For->getBody());
        // A stride loop: enumerated by iteration, its test a condition on
        // the lanes that run each one.
        if (const StrideLoop *SL = strideIn(For, Fr);
            SL && !Jumps && !Variance.isVarying(SL->Bound, Fr)) {
          Loops.push_back(For);
          Cond C{For->getCond(), true, true};
          C.LoopBound = true;
          Guard.push_back(C);
          S = Parent;
          continue;
        }
        // A loop the whole warp runs the same number of times (the
        // uniformity analysis knows `for (; it < iters; ++it)` is).
        bool Varying =
            (Variance.isVarying(For->getCond(), Fr) &&
             !Variance.provenWarpUniform(For->getCond(), Fr)) ||
            (It != I.Counted.end() && Variance.isVarying(It->second.Init, Fr));
        if (It != I.Counted.end() && !Varying && !Jumps)
          Loops.push_back(For);
        else if (Varying || Jumps)
          Opaque = true;
      }
    } else if (const auto *While = dyn_cast<WhileStmt>(Parent)) {
      if (S == While->getBody() &&
          ((Variance.isVarying(While->getCond(), Fr) &&
            !Variance.provenWarpUniform(While->getCond(), Fr)) ||
           jumps(While->getBody())))
        Opaque = true;
    } else if (const auto *Do = dyn_cast<DoStmt>(Parent)) {
      if (S == Do->getBody() &&
          ((Variance.isVarying(Do->getCond(), Fr) &&
            !Variance.provenWarpUniform(Do->getCond(), Fr)) ||
           jumps(Do->getBody())))
        Opaque = true;
    } else if (isa<SwitchStmt, SwitchCase, LabelStmt, CXXTryStmt, CXXCatchStmt>(
                   Parent)) {
      Opaque = true;
    } else if (const auto *CS = dyn_cast<CompoundStmt>(Parent)) {
      // Earlier siblings: `if (c) return;` narrows the lanes; any other
      // jump makes them unknown.
      for (const Stmt *Sib : CS->body()) {
        if (Sib == S)
          break;
        if (const Expr *C = earlyReturnCond(Sib))
          Add(C, false);
        else if (jumps(Sib))
          Opaque = true;
      }
    }
    S = Parent;
  }
}


uint32_t GuardModel::evalGuard(
    llvm::ArrayRef<Cond> Guard, const Frame &Fr, const Env &En,
    uint32_t Active, uint32_t &Unknown,
    llvm::SmallPtrSetImpl<const Expr *> *Unknowns) {
  for (const Cond &C : Guard) {
    if (!Active)
      break;
    if (!C.Varying) {
      // The whole warp agrees: analysed as taken unless it is known not to
      // be.
      if (uniformSkip(C, Fr, En))
        Active = 0;
      continue;
    }
    Vals V = Values.evalW(C.E, Fr, En, Active);
    if (uint32_t Lost = Active & ~V.Valid; Lost && C.LoopBound) {
      Unknown |= Lost; // they run it, sampled; their lanes are unknown
    } else if (Lost) {
      // A condition the whole warp agrees on (`((tid >> 5) & 1) == 0` with
      // a grid-stride `tid`): taken by every lane of a warp or by none.
      if (!C.WarpUniform)
        C.WarpUniform = Variance.provenWarpUniform(C.E, Fr) ? 1 : 2;
      if (C.WarpUniform != 1) {
        Unknown |= Lost;
        if (Unknowns)
          Unknowns->insert(C.E);
      }
    }
    uint32_t Fails = 0;
    allLanes([&](unsigned L) {
      Fails |= uint32_t((V.V[L] != 0) != C.Taken) << L;
    });
    Active &= ~(Fails & V.Valid);
  }
  return Active;
}

bool GuardModel::uniformSkip(const Cond &C, const Frame &Fr, const Env &En) {
  if (C.Varying || C.LoopBound)
    return false;
  Vals V = Values.evalW(C.E, Fr, En, 1);
  return (V.Valid & 1) && (V.V[0] != 0) != C.Taken;
}

bool GuardModel::chainOf(const Frame &Fr, CallChain &Out) {
  Out.clear();
  for (const Frame *Cur = &Fr; Cur->Call && Cur->Parent; Cur = Cur->Parent) {
    FunctionInfo &PI = Facts.info(Cur->Parent->F);
    if (!PI.Ok)
      return false;
    CallLevel L;
    L.Fr = Cur->Parent;
    guardOf(Cur->Call, Cur->Parent->F->getBody(), PI, *Cur->Parent, L.Guard,
            L.Loops, L.Opaque);
    std::reverse(L.Loops.begin(), L.Loops.end());
    Out.push_back(std::move(L));
  }
  std::reverse(Out.begin(), Out.end());
  return true;
}

void GuardModel::enumerateChain(
    const CallChain &C, Env &En, llvm::function_ref<bool(Env &)> Fn,
    unsigned Idx) {
  if (Idx == C.size()) {
    Fn(En);
    return;
  }
  if (C[Idx].Loops.empty()) {
    enumerateChain(C, En, Fn, Idx + 1);
    return;
  }
  enumerate(C[Idx].Loops, *C[Idx].Fr, En, [&](Env &E) {
    enumerateChain(C, E, Fn, Idx + 1);
    return true;
  });
}

std::optional<int64_t> GuardModel::stepLoop(const ForStmt *L,
                                            const VarDecl *V, const Frame &Fr,
                                            Env &En) {
  WarpValues &A = Values;
  const Expr *Inc = L->getInc()->IgnoreParens();
  int64_t Cur = En.Loop[V];
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc)) {
    if (!UO->isIncrementDecrementOp() || refVar(UO->getSubExpr()) != V)
      return std::nullopt;
    return A.normalize(Cur + (UO->isIncrementOp() ? 1 : -1), V->getType());
  }
  const auto *BO = dyn_cast<BinaryOperator>(Inc);
  if (!BO || refVar(BO->getLHS()) != V)
    return std::nullopt;
  if (BO->getOpcode() == BO_Assign)
    return A.eval(BO->getRHS(), Fr, En);
  auto R = A.eval(BO->getRHS(), Fr, En);
  if (!R)
    return std::nullopt;
  int64_t B = *R;
  switch (BO->getOpcode()) {
  case BO_AddAssign:
    return A.normalize(Cur + B, V->getType());
  case BO_SubAssign:
    return A.normalize(Cur - B, V->getType());
  case BO_MulAssign:
    return A.normalize(Cur * B, V->getType());
  case BO_DivAssign:
    return B ? std::optional<int64_t>(A.normalize(Cur / B, V->getType()))
             : std::nullopt;
  case BO_ShlAssign:
    return B >= 0 && B < 63
               ? std::optional<int64_t>(A.normalize(Cur << B, V->getType()))
               : std::nullopt;
  case BO_ShrAssign:
    return B >= 0 && B < 63
               ? std::optional<int64_t>(A.normalize(Cur >> B, V->getType()))
               : std::nullopt;
  default:
    return std::nullopt;
  }
}

static constexpr unsigned MaxTrips = 64;
/// Stride loops: each iteration repeats the lanes' pattern one step on.
static constexpr unsigned MaxStrideTrips = 64;

void GuardModel::enumerate(llvm::ArrayRef<const ForStmt *> Loops,
                                         const Frame &Fr, Env &En,
                                         llvm::function_ref<bool(Env &)> Fn,
                                         unsigned Idx) {
  if (Idx == Loops.size()) {
    Fn(En);
    return;
  }
  const ForStmt *L = Loops[Idx];
  FunctionInfo &I = Facts.info(Fr.F);
  if (const StrideLoop *SL = strideIn(L, Fr)) {
    enumerateStride(*SL, Loops, Fr, En, Fn, Idx);
    return;
  }
  auto It = I.Counted.find(L);
  if (It == I.Counted.end())
    return;
  const VarDecl *V = It->second.Var;
  auto Start = Values.eval(It->second.Init, Fr, En);
  std::optional<int64_t> Saved;
  if (auto Old = En.Loop.find(V); Old != En.Loop.end())
    Saved = Old->second;
  if (!Start) {
    // A start the model cannot evaluate but the same in every thread (`for
    // (shift = startbit; shift < startbit + nbits; ++shift)`): the body is
    // evaluated once with the variable unknown, so what depends on it is
    // unknown and what does not is seen, as for a bound it cannot evaluate.
    if (Variance.isVarying(It->second.Init, Fr))
      return;
    En.Loop.erase(V);
    enumerate(Loops, Fr, En, Fn, Idx + 1);
    if (Saved)
      En.Loop[V] = *Saved;
    return;
  }
  En.Loop[V] = Values.normalize(*Start, V->getType());
  for (unsigned Trip = 0; Trip < MaxTrips; ++Trip) {
    // A bound the model cannot evaluate is the same for the whole warp
    // (the loop is uniform): take the first two iterations as samples.
    auto C = Values.eval(L->getCond(), Fr, En);
    if (C ? !*C : Trip >= 2)
      break;
    enumerate(Loops, Fr, En, Fn, Idx + 1);
    auto Next = stepLoop(L, V, Fr, En);
    if (!Next)
      break;
    En.Loop[V] = *Next;
  }
  if (Saved)
    En.Loop[V] = *Saved;
  else
    En.Loop.erase(V);
}

void GuardModel::enumerateStride(
    const StrideLoop &SL, llvm::ArrayRef<const ForStmt *> Loops,
    const Frame &Fr, Env &En, llvm::function_ref<bool(Env &)> Fn,
    unsigned Idx) {
  const VarDecl *V = SL.Var;
  std::optional<int64_t> Saved;
  if (auto Old = En.Trips.find(V); Old != En.Trips.end())
    Saved = Old->second;
  // The variable must move towards the bound, the same way in every thread
  // (the step is the same for all: it does not depend on the thread).
  auto Step =
      SL.Step ? Values.eval(SL.Step, Fr, En) : std::optional<int64_t>(1);
  bool Ok = Step && *Step != 0 && ((*Step > 0) != SL.Down) == SL.Below &&
            !(SL.Step && Variance.isVarying(SL.Step, Fr));
  if (!Ok && En.StrideCut)
    *En.StrideCut = true;
  // A step the model cannot evaluate but the same in every thread
  // (`i += gridDim.x * blockDim.x`): the first iteration needs no step, and
  // a client that asks for it gets that one.
  if (!Ok && !Step && En.FirstTripOfUnknownStride &&
      !Variance.isVarying(SL.Step, Fr)) {
    En.Trips[V] = 0;
    enumerate(Loops, Fr, En, Fn, Idx + 1);
    if (Saved)
      En.Trips[V] = *Saved;
    else
      En.Trips.erase(V);
    return;
  }
  unsigned Trip = 0;
  for (; Ok && Trip < MaxStrideTrips; ++Trip) {
    En.Trips[V] = Trip;
    // Iterations are enumerated while the first thread of the block runs
    // them; a test it cannot evaluate is sampled on two iterations.
    Env First = En;
    First.Tid = 0;
    auto C = Values.eval(SL.Loop->getCond(), Fr, First);
    if (C ? !*C : Trip >= 2)
      break;
    enumerate(Loops, Fr, En, Fn, Idx + 1);
  }
  // Did any thread of the block run an iteration left out?
  if (Ok && En.StrideCut && !*En.StrideCut) {
    En.Trips[V] = Trip;
    const unsigned Threads = unsigned(
        En.ShapeKnown ? En.BlockDim * En.DimY * En.DimZ : En.BlockDim);
    Env Probe = En;
    for (unsigned Base = 0; Base < Threads && !*En.StrideCut; Base += 32) {
      Probe.Tid = Base;
      uint32_t Lanes = batchOf(Base, Threads);
      Vals T = Values.evalW(SL.Loop->getCond(), Fr, Probe, Lanes);
      bool Runs = T.Valid != Lanes;
      forLanes(T.Valid, [&](unsigned K) { Runs |= T.V[K] != 0; });
      if (Runs)
        *En.StrideCut = true;
    }
  }
  if (Saved)
    En.Trips[V] = *Saved;
  else
    En.Trips.erase(V);
}

const StrideLoop *GuardModel::strideIn(const ForStmt *L,
                                                     const Frame &Fr) {
  FunctionInfo &I = Facts.info(Fr.F);
  auto It = I.Strides.find(L);
  if (It == I.Strides.end())
    return nullptr;
  auto [Known, New] = StrideIn.try_emplace({L, &Fr}, false);
  if (New)
    Known->second = Variance.isVarying(It->second.Init, Fr);
  return Known->second ? &It->second : nullptr;
}

const llvm::DenseSet<unsigned> &GuardModel::enteredLoops(FunctionInfo &I) {
  if (I.EnteredFilled || !I.Cfg)
    return I.Entered;
  I.EnteredFilled = true;
  for (const CFGBlock *B : *I.Cfg)
    if (const auto *For = dyn_cast_or_null<ForStmt>(B->getTerminatorStmt()))
      if (B->succ_size() == 2 && entersLoop(For, I))
        I.Entered.insert(B->getBlockID());
  return I.Entered;
}

bool GuardModel::entersLoop(const ForStmt *L, FunctionInfo &I) {
  auto It = I.Counted.find(L);
  if (It == I.Counted.end())
    return false;
  Frame Fr{I.F, nullptr, nullptr};
  if (Variance.isVarying(It->second.Init, Fr) ||
      Variance.isVarying(L->getCond(), Fr))
    return false;
  const VarDecl *V = It->second.Var;
  for (unsigned NumThreads : BlockSizes) {
    Env En;
    En.BlockDim = NumThreads;
    auto Start = Values.eval(It->second.Init, Fr, En);
    if (!Start)
      return false;
    En.Loop[V] = Values.normalize(*Start, V->getType());
    auto C = Values.eval(L->getCond(), Fr, En);
    if (!C || !*C)
      return false;
  }
  return true;
}

bool GuardModel::oppositeArms(FunctionInfo &I, unsigned Block, const Stmt *A,
                              const Stmt *B) {
  const auto *If =
      dyn_cast_or_null<IfStmt>(I.Blocks[Block]->getTerminatorStmt());
  if (!If || !If->getElse())
    return false;
  auto Arm = [&](const Stmt *S) {
    return isDescendantOf(S, If->getThen(), *I.PM)   ? 1
           : isDescendantOf(S, If->getElse(), *I.PM) ? 2
                                                     : 0;
  };
  int ArmA = Arm(A), ArmB = Arm(B);
  return ArmA && ArmB && ArmA != ArmB;
}

bool GuardModel::divergentBranch(FunctionInfo &I, unsigned Block,
                                 const Frame &Fr, bool WholeBlock) {
  const CFGBlock *B = I.Blocks[Block];
  if (!B || B->succ_size() < 2)
    return false;
  const Stmt *T = B->getTerminatorStmt();
  if (!T)
    return false;
  if (isa<SwitchStmt, IndirectGotoStmt, CXXTryStmt>(T))
    return true;
  const auto *C = dyn_cast_or_null<Expr>(B->getTerminatorCondition());
  // A branch the whole warp takes the same way does not split it.
  return !C || (Variance.isVarying(C, Fr) &&
                (WholeBlock || !Variance.provenWarpUniform(C, Fr)));
}

/// See WarpExchange::WriteMeet: the meeting point of From with To.
const Stmt *GuardModel::meetOf(const Stmt *From, const Stmt *To,
                               FunctionInfo &I) {
  for (const Stmt *S = From; S;) {
    const Stmt *Parent = I.PM->getParent(S);
    if (!Parent)
      return nullptr;
    if (isa<CompoundStmt>(Parent) && isDescendantOf(To, Parent, *I.PM)) {
      if (isDescendantOf(To, S, *I.PM) || S == From || jumps(S) ||
          containsLabel(S))
        return nullptr;
      return S;
    }
    S = Parent;
  }
  return nullptr;
}

} // namespace cuda_tidy::lanes
