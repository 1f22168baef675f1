//===--- Solver.cpp - The uniformity analysis of one function -------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// FunctionSolver: builds the CFG of one function with its reverse post order
// and control dependences, finds the blocks of a kernel that only lead to
// `return`, then alternates the fixed point of the locals' levels
// (dataflow) with that of the control levels (updateControl) until neither
// changes, and records the results each block's last replay noted.
//
//===----------------------------------------------------------------------===//

#include "lib/uniformity/UniformityImpl.h"
#include "lib/ast/FunctionCfgs.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/Analyses/Dominators.h"

using namespace clang;

namespace cuda_tidy {

bool FunctionSolver::buildCfg(Stmt *Body) {
  FunctionCfg Built = A.cfgs() ? A.cfgs()->of(Fn.F, Body)
                               : buildFunctionCfg(Fn.F, Body, Fn.Ctx);
  Fn.Cfg = std::move(Built.Cfg);
  Fn.PM = std::move(Built.PM);
  if (!Fn.Cfg || Fn.Cfg->getNumBlockIDs() > MaxBlocks)
    return false;
  Fn.StmtMap = std::make_unique<CFGStmtMap>(*Fn.Cfg, *Fn.PM);
  return true;
}

void FunctionSolver::orderBlocks() {
  unsigned N = Fn.Cfg->getNumBlockIDs();
  // Reverse post order from the entry.
  Fn.Reachable.assign(N, false);
  llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 32> Stack;
  std::vector<const CFGBlock *> Post;
  const CFGBlock *Entry = &Fn.Cfg->getEntry();
  Stack.push_back({Entry, 0});
  Fn.Reachable[Entry->getBlockID()] = true;
  while (!Stack.empty()) {
    auto &[B, Next] = Stack.back();
    if (Next < B->succ_size()) {
      const CFGBlock *S = *(B->succ_begin() + Next);
      ++Next;
      if (S && !Fn.Reachable[S->getBlockID()]) {
        Fn.Reachable[S->getBlockID()] = true;
        Stack.push_back({S, 0});
      }
      continue;
    }
    Post.push_back(B);
    Stack.pop_back();
  }
  Fn.RPO.assign(Post.rbegin(), Post.rend());
  Fn.ById.assign(N, nullptr);
  for (const CFGBlock *B : Fn.RPO)
    Fn.ById[B->getBlockID()] = B;
}

void FunctionSolver::computeControlDependence() {
  // What clang's ControlDependencyCalculator gives, for all blocks at once.
  std::vector<llvm::SmallVector<unsigned, 4>> All =
      iteratedControlDependences(*Fn.Cfg);
  Fn.CD.assign(Fn.Cfg->getNumBlockIDs(), {});
  for (const CFGBlock *B : Fn.RPO)
    for (unsigned D : All[B->getBlockID()])
      if (Fn.Reachable[D])
        Fn.CD[B->getBlockID()].push_back(D);
}

void FunctionSolver::scanBlocks(std::vector<bool> &Returns) {
  for (const CFGBlock *B : Fn.RPO) {
    for (const CFGElement &El : *B) {
      auto CS = El.getAs<CFGStmt>();
      if (!CS)
        continue;
      const Stmt *S = CS->getStmt();
      if (isa<ReturnStmt>(S))
        Returns[B->getBlockID()] = true;
      if (recognizeBarrier(S, Fn.Ctx))
        Fn.HasBarrier[B->getBlockID()] = true;
      if (const auto *Call = dyn_cast<CallExpr>(S)) {
        const FunctionDecl *Def = nullptr;
        if (const FunctionDecl *FD = resolveCallee(Call))
          if (FD->hasBody(Def) && Def)
            if (const FunctionSummary *Sum = A.summary(Def))
              if (Sum->ReachesBarrier)
                Fn.HasBarrier[B->getBlockID()] = true;
      }
    }
    if (B->hasNoReturnElement())
      Returns[B->getBlockID()] = true;
  }
}

void FunctionSolver::markExitOnly(const std::vector<bool> &Returns) {
  unsigned N = Fn.Cfg->getNumBlockIDs();
  const CFGBlock *Exit = &Fn.Cfg->getExit();
  // The greatest fixed point, so that a loop whose every exit returns (`for
  // (...) s[...] = ...; return;`) is exit-only too: start from every block
  // without a barrier and drop those with a way to fall off the end of the
  // kernel or to reach a barrier. Post order: successors first.
  for (const CFGBlock *B : Fn.RPO)
    Fn.ExitOnly[B->getBlockID()] = !Fn.HasBarrier[B->getBlockID()] && B != Exit;
  for (unsigned Round = 0; Round <= N; ++Round) {
    bool Changed = false;
    for (auto It = Fn.RPO.rbegin(); It != Fn.RPO.rend(); ++It) {
      const CFGBlock *B = *It;
      unsigned ID = B->getBlockID();
      if (!Fn.ExitOnly[ID] || Returns[ID])
        continue;
      unsigned Succs = 0;
      bool All = true;
      for (const CFGBlock *S : B->succs()) {
        if (!S)
          continue;
        ++Succs;
        if (S == Exit || !Fn.ExitOnly[S->getBlockID()])
          All = false;
      }
      if (!All || Succs == 0) {
        Fn.ExitOnly[ID] = false;
        Changed = true;
      }
    }
    if (!Changed)
      break;
  }
  for (const CFGBlock *B : Fn.RPO) {
    unsigned Succs = 0, Exits = 0;
    for (const CFGBlock *S : B->succs()) {
      if (!S)
        continue;
      ++Succs;
      if (Fn.ExitOnly[S->getBlockID()])
        ++Exits;
    }
    Fn.ExitBranch[B->getBlockID()] = Succs == 2 && Exits == 1;
  }
}

void FunctionSolver::computeExitOnly() {
  unsigned N = Fn.Cfg->getNumBlockIDs();
  Fn.ExitOnly.assign(N, false);
  Fn.ExitBranch.assign(N, false);
  Fn.HasBarrier.assign(N, false);
  std::vector<bool> Returns(N, false);
  scanBlocks(Returns);
  if (Fn.Kernel)
    markExitOnly(Returns);
}

static bool sameState(const VarLevels &A, const VarLevels &B) {
  if (A.size() != B.size())
    return false;
  for (const auto &[V, U] : A) {
    auto It = B.find(V);
    if (It == B.end() || It->second != U)
      return false;
  }
  return true;
}

void FunctionSolver::nameMerged(const CFGBlock *B, VarLevels &S,
                                unsigned Preds) {
  // One path in: its values, named already.
  if (Preds <= 1)
    return;
  llvm::SmallVector<std::pair<uint32_t, const VarDecl *>, 2> New;
  for (auto &[V, U] : S) {
    // A parameter that some path into B does not write holds its argument
    // there, which is not the symbol the others hold (a local is written
    // by its declaration on every path that reaches its uses).
    if (U.Affine && U.SymMul && isa<ParmVarDecl>(V))
      for (const CFGBlock *P : B->preds())
        if (P && Replayed[P->getBlockID()] && !Out[P->getBlockID()].count(V)) {
          U = withoutSymbol(U);
          break;
        }
    // Paths with different values of V merge: the value at B is a new one
    // (SSA's phi), with B's symbol.
    if (!needsSymbol(U) || !symbolicVar(V))
      continue;
    U = symbolic(U, A.symbolFor(V, B));
    New.emplace_back(U.Sym, V);
  }
  for (auto [Sym, V] : New)
    if (A.SymbolInfos[Sym].Copied)
      dropSymbol(S, Sym, V);
}

bool FunctionSolver::entryMayChange(const CFGBlock *B) const {
  const unsigned ID = B->getBlockID();
  if (!MergedAt[ID] || MergedCopied[ID] != A.CopiedCount)
    return true;
  for (const CFGBlock *P : B->preds())
    if (P && OutStamp[P->getBlockID()] >= MergedAt[ID])
      return true;
  return false;
}

bool FunctionSolver::dataflow() {
  for (unsigned Round = 0; Round < MaxRounds; ++Round) {
    bool Changed = false;
    for (const CFGBlock *B : Fn.RPO) {
      unsigned ID = B->getBlockID();
      // The entry state is merged from the predecessors' exit states (and
      // the symbols copied so far): with none of them changed since it was
      // last merged, it is In[ID] again.
      const bool Forced = Round == 0 && (!PassDone || CtlChanged[ID]);
      if (!Forced && !entryMayChange(B))
        continue;
      VarLevels S;
      unsigned Preds = 0;
      for (const CFGBlock *P : B->preds()) {
        if (!P || !Fn.Reachable[P->getBlockID()] || !Replayed[P->getBlockID()])
          continue;
        ++Preds;
        for (const auto &[V, U] : Out[P->getBlockID()]) {
          auto [It, Inserted] = S.try_emplace(V, U);
          if (!Inserted)
            It->second = join(It->second, U);
        }
      }
      nameMerged(B, S, Preds);
      MergedAt[ID] = ++Stamp;
      MergedCopied[ID] = A.CopiedCount;
      // A block whose entry state is what it was in the last round gives
      // the same exit state (the control levels do not change within one
      // call): it is replayed in the first round only, and in a later call
      // only where updateControl changed its control level.
      if (!Forced && sameState(S, In[ID]))
        continue;
      In[ID] = std::move(S);
      VarLevels State = In[ID];
      Eval.replay(ID, State);
      const bool First = !Replayed[ID];
      Replayed[ID] = true;
      const bool OutChanged = !sameState(State, Out[ID]);
      Changed |= OutChanged;
      if (OutChanged || First)
        OutStamp[ID] = ++Stamp;
      Out[ID] = std::move(State);
    }
    PassDone = true;
    A.Work += Fn.RPO.size();
    if (!Changed)
      return true;
    if (A.Work > MaxWork)
      return false;
  }
  return false;
}

bool FunctionSolver::updateControl() {
  bool Changed = false;
  CtlChanged.assign(Fn.CtlFull.size(), false);
  for (unsigned Round = 0; Round < Fn.RPO.size() + 2; ++Round) {
    bool RoundChanged = false;
    for (const CFGBlock *B : Fn.RPO) {
      unsigned X = B->getBlockID();
      UniformValue Full, Live;
      for (unsigned D : Fn.CD[X]) {
        UniformValue Via = join(Fn.CondLevel[D], Fn.CtlFull[D]);
        Full = join(Full, Via);
        if (Fn.allowed(D, X, /*CountExits=*/false))
          Live = join(Live, join(Fn.CondLevel[D], Fn.CtlLive[D]));
      }
      Full = plain(join(Fn.CtlFull[X], Full));
      Live = plain(join(Fn.CtlLive[X], Live));
      if (Full != Fn.CtlFull[X] || Live != Fn.CtlLive[X]) {
        Fn.CtlFull[X] = Full;
        Fn.CtlLive[X] = Live;
        CtlChanged[X] = true;
        RoundChanged = true;
      }
    }
    if (!RoundChanged)
      break;
    Changed = true;
  }
  return Changed;
}

/// Locals whose address escapes; with OpaqueCallsVary they are varying.
static void collectEscaped(const Stmt *S,
                           llvm::DenseSet<const VarDecl *> &Out) {
  if (!S)
    return;
  auto LocalOf = [](const Expr *E) -> const VarDecl * {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        if (V->hasLocalStorage())
          return V;
    return nullptr;
  };
  if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->getOpcode() == UO_AddrOf)
      if (const VarDecl *V = LocalOf(UO->getSubExpr()))
        Out.insert(V);
  } else if (const auto *VD = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : VD->decls())
      if (const auto *Ref = dyn_cast<VarDecl>(D))
        if (Ref->getType()->isReferenceType() && Ref->getInit() &&
            !Ref->getType().getNonReferenceType().isConstQualified())
          if (const VarDecl *V = LocalOf(Ref->getInit()))
            Out.insert(V);
  } else if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
    for (const LambdaCapture &C : Lambda->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
        if (const auto *V = dyn_cast<VarDecl>(C.getCapturedVar()))
          Out.insert(V);
  }
  for (const Stmt *Child : S->children())
    collectEscaped(Child, Out);
}

void FunctionSolver::record() {
  // Each block's last replay ran from its final entry state under the final
  // control levels (a block whose control changed is replayed by the next
  // dataflow): its notes are what a replay now would note, unless symbols
  // were found copied since it began. Committed in reverse post order, as a
  // pass replaying every block would meet them.
  for (const CFGBlock *B : Fn.RPO) {
    const unsigned ID = B->getBlockID();
    if (!Eval.notesCurrent(ID)) {
      VarLevels State = In[ID];
      Eval.replay(ID, State);
    }
    Eval.commit(ID);
  }
  Eval.dropNotes();
  // The per-block variable states are only needed while solving; the
  // results are kept for every function of the translation unit, so free
  // them now.
  std::vector<VarLevels>().swap(In);
  std::vector<VarLevels>().swap(Out);
  std::vector<bool>().swap(Replayed);
  std::vector<unsigned>().swap(OutStamp);
  std::vector<unsigned>().swap(MergedAt);
  std::vector<unsigned>().swap(MergedCopied);
  llvm::sort(Fn.Barriers, [&](const BarrierSite &L, const BarrierSite &R) {
    return Fn.SM.isBeforeInTranslationUnit(L.Site->getBeginLoc(),
                                           R.Site->getBeginLoc());
  });
}

bool FunctionSolver::run() {
  Stmt *Body = Fn.F->getBody();
  // Template patterns are analysed as written (a dependent value every thread
  // shares is a template parameter; the rest is opaque); clients decide
  // whether to report in a pattern or in its instantiations.
  if (!Body || Fn.F->isInvalidDecl() || !buildCfg(Body))
    return false;
  orderBlocks();
  unsigned N = Fn.Cfg->getNumBlockIDs();
  In.assign(N, VarLevels());
  Out.assign(N, VarLevels());
  Replayed.assign(N, false);
  OutStamp.assign(N, 0);
  MergedAt.assign(N, 0);
  MergedCopied.assign(N, 0);
  Fn.CondLevel.assign(N, UniformValue());
  Fn.CtlLive.assign(N, UniformValue());
  Fn.CtlFull.assign(N, UniformValue());
  computeControlDependence();
  if (A.options().OpaqueCallsVary)
    collectEscaped(Body, Eval.Escaped);
  if (Fn.Kernel && A.LaunchFactsOf)
    Fn.Launch = A.LaunchFactsOf(Fn.F);
  computeExitOnly();

  unsigned Outer = 0;
  for (; Outer < MaxOuterRounds; ++Outer) {
    if (!dataflow())
      return false;
    if (!updateControl())
      break;
  }
  if (Outer == MaxOuterRounds)
    return false;
  record();
  return true;
}

} // namespace cuda_tidy
