//===--- AsyncCopyOrdering.cpp - Async copies read before they land -------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/asynccopy/AsyncCopyOrdering.h"
#include "lib/asynccopy/AsyncCopyAnalysis.h"
#include "lib/asynccopy/RingSlots.h"
#include "lib/asynccopy/StageRelations.h"
#include "lib/ast/CudaAST.h"
#include "lib/ast/FunctionCfgs.h"
#include "lib/uniformity/Uniformity.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include "clang/Basic/SourceManager.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/FoldingSet.h"
#include <functional>
#include <tuple>
#include <utility>

using namespace clang;

namespace cuda_tidy {
namespace asynccopy {
namespace detail {

/// A block barrier at S publishes what the threads waited for and orders
/// nothing else.
static void onBarrier(const Stmt *S, State &St) {
  std::vector<Copy> Kept;
  for (Copy &C : St.Copies) {
    if (C.Waited)
      continue;
    C.Barrier = S;
    Kept.push_back(C);
  }
  St.Copies = std::move(Kept);
  for (Touch &T : St.Written)
    T.Barrier = S;
  for (Touch &T : St.Pending)
    T.Barrier = S;
  St.Reads.clear();
  normalize(St.Written);
  normalize(St.Pending);
}

/// A step of a variable: the slots named by it, read in its new value,
/// move back by the step (a copy issued at `stage` is at `stage - 1` after
/// `++stage`).
void Analysis::shiftSlots(const Step &Move, State &St) const {
  for (Copy &C : St.Copies)
    Slots.shift(Move, C.Dest.Part);
  for (Read &R : St.Reads)
    Slots.shift(Move, R.Where.Part);
  normalize(St.Copies);
  normalize(St.Reads);
}

/// A declaration of a loop counter sets its class's count to 0; the step
/// of a class moves its relations and the stages of the copies issued at
/// its count.
void Analysis::onCounters(const Stmt *S, State &St) const {
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        if (unsigned X = Counts.FirstOf.lookup(V))
          declareClass(St.Rel, X);
    return;
  }
  const unsigned X = Counts.StepOf.lookup(S);
  if (!X)
    return;
  stepClass(St.Rel, X);
  for (Copy &C : St.Copies)
    if (C.LinClass == X) {
      if (C.Lin <= -MaxLin)
        C.LinClass = 0;
      else
        --C.Lin;
    }
  normalize(St.Copies);
}

/// The innermost loop holding S, or null.
void Analysis::report(Finding F, bool Report) {
  if (!Report || !Reported.insert(F.Access).second)
    return;
  F.InsertBefore = (F.Kind == FindingKind::ReadInFlight ||
                    F.Kind == FindingKind::WriteInFlight ||
                    F.Kind == FindingKind::BulkStoreNoFence)
                       ? placeFix(F.Source, F.Access, F.Barrier)
                       : nullptr;
  Findings.push_back(F);
}

static uint8_t stagesOf(const State &St, const ValueDecl *Pipe) {
  for (const StageCount &G : St.Stages)
    if (G.Pipe == Pipe)
      return G.N;
  return 0;
}

static void setStages(State &St, const ValueDecl *Pipe, uint8_t N) {
  for (StageCount &G : St.Stages)
    if (G.Pipe == Pipe) {
      G.N = N;
      return;
    }
  St.Stages.push_back({Pipe, N});
  normalize(St.Stages);
}

/// The copy belongs to the pipeline the event names (every pipeline copy
/// when the analysis cannot name the object).
static bool onPipe(const Copy &C, const Event &E) {
  return C.Fam == E.Fam &&
         (E.Fam != Family::Pipeline || !E.Pipe || !C.Pipe || C.Pipe == E.Pipe);
}

/// One stage consumed: every other copy of the pipeline is one stage
/// closer to the oldest.
static void consumeStage(const Event &E, State &St) {
  for (Copy &C : St.Copies)
    if (onPipe(C, E) && C.Older != UnknownCount && C.Older > 0)
      --C.Older;
  if (E.Pipe) {
    const uint8_t N = stagesOf(St, E.Pipe);
    setStages(St, E.Pipe, N == UnknownCount || N == 0 ? N : N - 1);
  }
}

/// `consumer_wait()` completes the oldest committed stage not yet consumed
/// (a thread-scope pipeline consumes it at once, a block-scope one at
/// `consumer_release()`); `pipeline_consumer_wait_prior<N>` completes all
/// but the N most recent and leaves N stages unconsumed. Where the count
/// is lost, a wait completes every committed stage.
void Analysis::onPipelineWait(const Event &E, const Stmt *S, State &St) {
  const uint8_t N = E.Pipe ? stagesOf(St, E.Pipe) : UnknownCount;
  const bool Counted = E.Pipe && N != UnknownCount;
  std::vector<Copy> Kept;
  for (Copy &C : St.Copies) {
    if (!onPipe(C, E) || C.Waited) {
      Kept.push_back(C);
      continue;
    }
    bool Done = C.Committed;
    if (E.Oldest && Counted && C.Older != UnknownCount)
      Done = C.Committed && C.Older == 0;
    else if (auto Lock = E.Oldest ? lockstepDone(E, C, St) : std::nullopt)
      Done = C.Committed && *Lock;
    else if (!E.Oldest && !E.AllGroups)
      Done = C.Committed && C.Newer >= E.Prior;
    if (Done)
      continue;
    C.Wait = S;
    if (!E.Oldest && !E.AllGroups)
      C.Older = C.Committed ? uint8_t(E.Prior - 1 - C.Newer)
                            : std::min<uint8_t>(C.Older, E.Prior);
    Kept.push_back(C);
  }
  St.Copies = std::move(Kept);
  if (E.Oldest && !E.BlockScope && Counted && N > 0)
    consumeStage(E, St);
  if (!E.Oldest && !E.AllGroups && E.Pipe)
    setStages(St, E.Pipe, uint8_t(E.Prior));
}

void Analysis::onEvent(const Event &E, const Stmt *S, State &St, bool Report) {
  switch (E.Kind) {
  case EventKind::Issue:
    if (E.Where && St.Copies.size() < MaxFacts) {
      Copy C;
      C.Issue = S;
      C.Dest = *E.Where;
      C.Dest.Part = settle(C.Dest);
      C.Fam = E.Fam;
      C.Spell = E.Spell;
      C.Group = E.Group;
      C.Pipe = E.Pipe;
      if (E.Fam == Family::Pipeline)
        C.Older = E.Pipe ? stagesOf(St, E.Pipe) : UnknownCount;
      if (C.Dest.Part.Kind == Slot::Affine && C.Dest.Part.Var)
        C.LinClass = uint8_t(Counts.ClassOf.lookup(C.Dest.Part.Var));
      checkOverwrite(C.Dest, S, St, Report);
      St.Copies.push_back(C);
    }
    if (E.CommitsItself)
      onEvent(makeEvent(EventKind::Commit, E.Fam), S, St, Report);
    break;
  case EventKind::Commit:
    for (Copy &C : St.Copies) {
      if (!onPipe(C, E) || C.Waited)
        continue;
      if (!C.Committed)
        C.Committed = true;
      else if (C.Newer < MaxNewer)
        ++C.Newer;
    }
    if (E.Fam == Family::Pipeline && E.Pipe) {
      const uint8_t N = stagesOf(St, E.Pipe);
      setStages(St, E.Pipe, N >= MaxNewer ? UnknownCount : N + 1);
    }
    break;
  case EventKind::Wait: {
    // A barrier's wait or `cg::wait` orders the group's threads too.
    if (E.Publishes && E.Fam != Family::Pipeline)
      St.Reads.clear();
    if (E.Fam == Family::Pipeline) {
      onPipelineWait(E, S, St);
      break;
    }
    std::vector<Copy> Kept;
    for (Copy &C : St.Copies) {
      const bool Done = C.Fam == E.Fam && !C.Waited &&
                        (E.AllGroups || (C.Committed && C.Newer >= E.Prior));
      if (C.Fam == E.Fam && !C.Waited && !Done)
        C.Wait = S;
      if (Done) {
        if (E.Publishes || C.Fam != Family::CpAsync)
          continue;
        C.Waited = true;
        C.Wait = S;
        C.Barrier = nullptr;
      }
      Kept.push_back(C);
    }
    St.Copies = std::move(Kept);
    break;
  }
  case EventKind::Release:
    if (E.BlockScope)
      consumeStage(E, St);
    break;
  case EventKind::Acquire:
    // A block-scope pipeline's acquire waits until every consumer released
    // the stage: the reads before it are over.
    if (E.BlockScope)
      St.Reads.clear();
    break;
  case EventKind::BulkStore:
    if (!E.Where)
      break;
    for (const Touch &W : St.Written)
      if (W.Key == E.Where->Key) {
        Finding F;
        F.Kind = FindingKind::BulkStoreNoFence;
        F.Access = S;
        F.Buffer = W.Key;
        F.Source = W.At;
        F.Barrier = W.Barrier;
        report(F, Report);
        break;
      }
    St.Pending.push_back(Touch{E.Where->Key, S, nullptr});
    break;
  case EventKind::BulkWaitRead:
    St.Pending.clear();
    break;
  case EventKind::ProxyFence:
    St.Written.clear();
    break;
  case EventKind::BlockBarrier:
    onBarrier(S, St);
    break;
  case EventKind::SharedRead:
  case EventKind::SharedWrite:
    if (E.Where)
      onLocatedAccess(*E.Where,
                      isa<GCCAsmStmt>(S) ? E.Where->Spelled : nullptr, S,
                      E.Kind == EventKind::SharedWrite, St, Report);
    break;
  }
}

/// The components of the thread index (bit 0: x, 1: y, 2: z) S depends
/// on, directly or through the initialisers of the locals it reads; a
/// thread rank or lane counts as x.
static uint8_t threadComponents(const Stmt *S, unsigned Depth = 3) {
  if (!S)
    return 0;
  if (const auto *E = dyn_cast<Expr>(S)) {
    if (auto Ref = getBuiltinVarRef(E);
        Ref && Ref->Var == BuiltinVar::ThreadIdx && Ref->Dim < 3)
      return uint8_t(1u << Ref->Dim);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts())) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) && Depth > 0)
        return threadComponents(V->getInit(), Depth - 1);
      return 0;
    }
    if (const auto *CE = dyn_cast<CallExpr>(E))
      if (const auto *Callee = CE->getDirectCallee();
          Callee && Callee->getDeclName().isIdentifier() &&
          (Callee->getName() == "thread_rank" ||
           Callee->getName() == "__lane_id"))
        return 1;
  }
  uint8_t Out = 0;
  for (const Stmt *Child : S->children())
    Out |= threadComponents(Child, Depth);
  return Out;
}

/// A read of a place whose address leaves out a component of the thread
/// index: other threads read the same elements.
void Analysis::noteRead(const Location &L, const Expr *LValue, const Stmt *S,
                        State &St) const {
  if (L.Part.Kind == Slot::Unknown || !LValue || St.Reads.size() >= MaxFacts)
    return;
  const uint8_t FreeOf = uint8_t(~threadComponents(LValue) & 7u);
  if (!FreeOf)
    return;
  Read R;
  R.At = S;
  R.Where = L;
  R.FreeOf = FreeOf;
  St.Reads.push_back(R);
  normalize(St.Reads);
}

/// A copy issued into a place this thread read since the last block
/// barrier, at an address that depends on a component of the thread index
/// the read's does not: other threads may still be reading what the copy
/// overwrites.
void Analysis::checkOverwrite(const Location &Dest, const Stmt *S, State &St,
                              bool Report) {
  const uint8_t Depends = threadComponents(Dest.Spelled);
  for (const Read &R : St.Reads) {
    if (R.Where.Key != Dest.Key || !(R.FreeOf & Depends) ||
        !overlapSure(R.Where.Part, Dest.Part, St))
      continue;
    Finding F;
    F.Kind = FindingKind::CopyOverRead;
    F.Access = S;
    F.Buffer = Dest.Key;
    F.Source = S;
    F.Read = R.At;
    report(F, Report);
    return;
  }
}

void Analysis::onAccess(const Expr *LValue, const Stmt *S, bool IsWrite,
                        State &St, bool Report) {
  if (std::optional<Location> L = locate(LValue, Ctx))
    onLocatedAccess(*L, LValue, S, IsWrite, St, Report);
}

void Analysis::onLocatedAccess(Location At, const Expr *LValue, const Stmt *S,
                               bool IsWrite, State &St, bool Report) {
  std::optional<Location> L = At;
  L->Part = settle(*L);
  for (const Copy &C : St.Copies) {
    if (C.Dest.Key != L->Key)
      continue;
    // In a kernel with no wait at all for the copy's family, a read of the
    // buffer reads data that nothing completes, whichever slot it is.
    const bool NeverWaited = IsKernel && !IsWrite && !C.Waited && !C.Wait &&
                             !Waits[unsigned(C.Fam)];
    if (!NeverWaited && !overlapSure(C.Dest.Part, L->Part, St))
      continue;
    Finding F;
    F.Kind = FindingKind::ReadInFlight;
    if (C.Waited) {
      // Only a read every thread makes alike is surely of another thread's
      // element.
      if (IsWrite || isThreadDependent(LValue) ||
          !isThreadDependent(C.Dest.Spelled))
        continue;
      F.Kind = FindingKind::NotPublished;
    } else if (C.Wait) {
      F.Kind = FindingKind::WrongGroup;
      for (const Event &E : eventsOf(C.Wait, Ctx))
        F.OldestOnly |= E.Kind == EventKind::Wait && E.Oldest;
    } else if (IsWrite) {
      F.Kind = FindingKind::WriteInFlight;
    }
    F.NeverWaited = NeverWaited && !overlapSure(C.Dest.Part, L->Part, St);
    F.Access = S;
    F.Place = LValue;
    F.Buffer = L->Key;
    F.Source = C.Issue;
    F.Barrier = C.Barrier;
    F.Wait = C.Wait;
    F.Fam = C.Fam;
    F.Spell = C.Spell;
    F.Committed = C.Committed;
    F.Group = C.Group;
    report(F, Report);
    break;
  }
  if (!IsWrite)
    noteRead(*L, LValue ? LValue : L->Spelled, S, St);
  if (!IsWrite)
    return;
  for (const Touch &P : St.Pending)
    if (P.Key == L->Key) {
      Finding F;
        F.Kind = FindingKind::BulkSourceRefill;
      F.Access = S;
      F.Place = LValue;
      F.Buffer = L->Key;
      F.Source = P.At;
      F.Barrier = P.Barrier;
      report(F, Report);
      break;
    }
  if (St.Written.size() < MaxFacts &&
      llvm::none_of(St.Written, [&](const Touch &W) { return W.Key == L->Key; }))
    St.Written.push_back(Touch{L->Key, S, nullptr});
}

/// An lvalue naming an element of memory (not a pointer variable itself).
static bool isElement(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return isa<FieldDecl>(ME->getMemberDecl()) &&
           (ME->isArrow() || isElement(ME->getBase()));
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
    return isElement(MT->getSubExpr());
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(E))
    return IC->getCastKind() == CK_NoOp && isElement(IC->getSubExpr());
  if (isa<ArraySubscriptExpr>(E))
    return true;
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return U->getOpcode() == UO_Deref;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      return V->hasAttr<CUDASharedAttr>() && !V->getType()->isArrayType();
  return false;
}

void Analysis::transfer(const Stmt *S, State &St, bool Report) {
  walk(S, St, Report, true);
  normalize(St.Copies);
}

/// The CFG (as every analysis here builds it) keeps whole statements and
/// expressions as elements: their parts are visited children first, in
/// evaluation order, leaving out parts that are elements of their own.
void Analysis::walk(const Stmt *S, State &St, bool Report, bool Top) {
  if (!S || (!Top && Elements.count(S)) || isa<LambdaExpr>(S))
    return;
  for (const Stmt *Child : S->children())
    walk(Child, St, Report, false);
  visit(S, St, Report);
}

void Analysis::helperEvents(const CallExpr *Call, const ArgScope *Outer,
                            unsigned Depth, llvm::SmallVectorImpl<Event> &Out) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || Depth > 3 || !Callee->hasBody() ||
      Ctx.getSourceManager().isInSystemHeader(
          Ctx.getSourceManager().getExpansionLoc(Callee->getLocation())))
    return;
  const FunctionDecl *Def = nullptr;
  const Stmt *Body = Callee->getBody(Def);
  if (!Body || !Def || Def == FD || !mentionsAsyncCopies(Body, true))
    return;
  ArgScope Scope;
  Scope.Outer = Outer;
  for (unsigned I = 0; I < Def->getNumParams() && I < Call->getNumArgs(); ++I)
    Scope.Args[Def->getParamDecl(I)] = Call->getArg(I);
  // The helper's events in source order, its control flow ignored (a
  // conditional wait counts as a wait: fewer reports, never more).
  llvm::SmallVector<const Stmt *, 32> Order;
  std::function<void(const Stmt *)> Collect = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    for (const Stmt *Child : S->children())
      Collect(Child);
    if (isa<CallExpr, GCCAsmStmt, CXXConstructExpr>(S))
      Order.push_back(S);
  };
  Collect(Body);
  for (const Stmt *S : Order) {
    if (recognizeBarrier(S, Ctx)) {
      Out.push_back(makeEvent(EventKind::BlockBarrier));
      continue;
    }
    auto Events = eventsOf(S, Ctx, &Scope);
    if (Events.empty()) {
      if (const auto *Inner = dyn_cast<CallExpr>(S))
        helperEvents(Inner, &Scope, Depth + 1, Out);
      continue;
    }
    Out.append(Events.begin(), Events.end());
  }
}

void Analysis::visit(const Stmt *S, State &St, bool Report) {
  if (auto Move = Writes.Steps.find(S); Move != Writes.Steps.end())
    shiftSlots(Move->second, St);
  if (!Counts.empty())
    onCounters(S, St);
  if (recognizeBarrier(S, Ctx))
    onBarrier(S, St);
  if (isa<CallExpr, GCCAsmStmt, CXXConstructExpr>(S)) {
    llvm::SmallVector<Event, 1> Events = eventsOf(S, Ctx);
    if (Events.empty())
      if (const auto *Call = dyn_cast<CallExpr>(S))
        helperEvents(Call, nullptr, 0, Events);
    for (const Event &E : Events)
      onEvent(E, S, St, Report);
  }
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(S)) {
    if (IC->getCastKind() == CK_LValueToRValue && isElement(IC->getSubExpr()))
      onAccess(IC->getSubExpr(), S, false, St, Report);
  } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp() && isElement(BO->getLHS())) {
      if (BO->isCompoundAssignmentOp())
        onAccess(BO->getLHS(), S, false, St, Report);
      onAccess(BO->getLHS(), S, true, St, Report);
    }
  } else if (const auto *U = dyn_cast<UnaryOperator>(S)) {
    if (U->isIncrementDecrementOp() && isElement(U->getSubExpr()))
      onAccess(U->getSubExpr(), S, true, St, Report);
  } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
    // A class-typed element (float4) is read and written through its
    // copy assignment, with no lvalue-to-rvalue conversion.
    if (OC->isAssignmentOp() && OC->getNumArgs() == 2) {
      if (isElement(OC->getArg(1)))
        onAccess(OC->getArg(1), S, false, St, Report);
      if (isElement(OC->getArg(0)))
        onAccess(OC->getArg(0), S, true, St, Report);
    }
  } else if (const auto *CC = dyn_cast<CXXConstructExpr>(S)) {
    if (CC->getNumArgs() == 1 && CC->getConstructor()->isCopyOrMoveConstructor() &&
        isElement(CC->getArg(0)))
      onAccess(CC->getArg(0), S, false, St, Report);
  }
}

std::vector<Finding> Analysis::run() {
  Stmt *Body = FD->getBody();
  Cfg = buildFunctionCfg(FD, Body, Ctx);
  if (!Cfg.Cfg)
    return {};
  collectSpinLoops(Body);
  Writes = collectVarWrites(Body, Ctx);
  Counts = collectCounters(Body, Writes, Ctx);
  if (!Counts.empty())
    collectLockstep(Body);
  IsKernel = FD->hasAttr<CUDAGlobalAttr>();
  if (IsKernel)
    collectWaits(Body);
  CFG &G = *Cfg.Cfg;
  for (const CFGBlock *B : G)
    for (const CFGElement &El : *B)
      if (auto CS = El.getAs<CFGStmt>())
        Elements.insert(CS->getStmt());
  std::vector<State> In(G.getNumBlockIDs());
  In[G.getEntry().getBlockID()].Reached = true;
  // Forward to a fixpoint; the facts are finite (slots modulo their ring,
  // group counts capped), so the union stops growing.
  llvm::SmallVector<const CFGBlock *, 32> Work{&G.getEntry()};
  llvm::DenseSet<const CFGBlock *> Queued{&G.getEntry()};
  unsigned Steps = 0;
  while (!Work.empty() && ++Steps < 20000) {
    const CFGBlock *B = Work.pop_back_val();
    Queued.erase(B);
    State St = In[B->getBlockID()];
    for (const CFGElement &El : *B)
      if (auto CS = El.getAs<CFGStmt>())
        transfer(CS->getStmt(), St, false);
    const Stmt *Term = B->getTerminatorStmt();
    const bool SpinExit = Term && SpinLoops.count(Term) && B->succ_size() == 2;
    const auto *Cond = !Counts.empty() && B->succ_size() == 2
                           ? dyn_cast_or_null<Expr>(B->getTerminatorCondition())
                           : nullptr;
    unsigned SuccIndex = 0;
    for (const CFGBlock *Succ : B->succs()) {
      const bool ExitEdge = SuccIndex++ == 1;
      if (!Succ)
        continue;
      State Out = St;
      // A branch on how far two loop counters are apart narrows it; a
      // branch no path can take is not followed.
      if (Cond && !refineRelations(Out.Rel, Counts, Writes, Cond, !ExitEdge,
                                   Ctx))
        continue;
      // Leaving a loop that spins on a barrier's try_wait: the wait
      // succeeded (the path that never enters it is the same loop's exit).
      if (SpinExit && ExitEdge)
        onEvent(makeEvent(EventKind::Wait, Family::Barrier).withAll(), Term,
                Out, false);
      State &Into = In[Succ->getBlockID()];
      State Before = Into;
      mergeStages(Into.Stages, Out.Stages, Into.Reached);
      mergeRelations(Into.Rel, Out.Rel, Into.Reached);
      Into.Reached = true;
      mergeInto(Into.Copies, Out.Copies);
      mergeInto(Into.Written, Out.Written);
      mergeInto(Into.Pending, Out.Pending);
      mergeInto(Into.Reads, Out.Reads);
      if (!(Into == Before) && Queued.insert(Succ).second)
        Work.push_back(Succ);
    }
  }
  for (const CFGBlock *B : G) {
    State St = In[B->getBlockID()];
    if (!St.Reached)
      continue;
    for (const CFGElement &El : *B)
      if (auto CS = El.getAs<CFGStmt>())
        transfer(CS->getStmt(), St, true);
  }
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::sort(Findings, [&](const Finding &A, const Finding &B) {
    return SM.isBeforeInTranslationUnit(A.Access->getBeginLoc(),
                                        B.Access->getBeginLoc());
  });
  return std::move(Findings);
}

/// Whether B, on the statement of A, is exposed by A's cause: the same
/// kind of finding, left by the same wait, after the same barrier, with the
/// same fix.
static bool sameCause(const Finding &A, const Finding &B) {
  if (A.Kind != B.Kind || !A.Place || !B.Place)
    return false;
  if (A.Kind != FindingKind::ReadInFlight &&
      A.Kind != FindingKind::WriteInFlight &&
      A.Kind != FindingKind::WrongGroup && A.Kind != FindingKind::NotPublished)
    return false;
  return A.Wait == B.Wait && A.Barrier == B.Barrier && A.Fam == B.Fam &&
         A.Spell == B.Spell && A.Committed == B.Committed &&
         A.Group == B.Group && A.InsertBefore == B.InsertBefore &&
         A.NeverWaited == B.NeverWaited && A.OldestOnly == B.OldestOnly;
}

/// One wait that leaves the groups in flight: every read after it of a copy
/// it leaves in flight is one cause (`consumer_wait()` for the wrong stage).
static bool sameWait(const Finding &A, const Finding &B) {
  return A.Kind == FindingKind::WrongGroup &&
         B.Kind == FindingKind::WrongGroup && A.Wait && A.Wait == B.Wait;
}

/// Merges the findings (in source order) of one cause into the first: one
/// statement's with one cause, and the reads one wait leaves in flight.
/// One defect, one warning.
static void mergeSameCause(std::vector<Finding> &Findings, const Stmt *Body) {
  if (Findings.size() < 2 || !Body)
    return;
  ParentMap Parents(const_cast<Stmt *>(Body));
  auto StatementOf = [&](const Stmt *S) {
    while (const Stmt *P = Parents.getParent(S)) {
      if (!isa<Expr, DeclStmt>(P))
        break;
      S = P;
    }
    return S;
  };
  std::vector<Finding> Out;
  for (Finding &F : Findings) {
    if (!Out.empty() && sameCause(Out.back(), F) &&
        StatementOf(Out.back().Access) == StatementOf(F.Access)) {
      Out.back().Also.push_back({F.Place, F.Buffer, F.Source, true});
      continue;
    }
    auto First = llvm::find_if(
        Out, [&](const Finding &E) { return sameWait(E, F); });
    if (First != Out.end()) {
      First->Also.push_back({F.Place ? F.Place : F.Access, F.Buffer, F.Source,
                             StatementOf(First->Access) ==
                                 StatementOf(F.Access)});
      continue;
    }
    Out.push_back(std::move(F));
  }
  Findings = std::move(Out);
}

} // namespace detail

std::vector<Finding> findAsyncCopyHazards(const FunctionDecl *FD,
                                          ASTContext &Ctx) {
  if (!FD || !FD->hasBody() ||
      !mentionsAsyncCopies(FD->getBody(), /*Waits=*/false, /*CalleeDepth=*/2))
    return {};
  std::vector<Finding> Findings = detail::Analysis(FD, Ctx).run();
  detail::mergeSameCause(Findings, FD->getBody());
  return Findings;
}

} // namespace asynccopy
} // namespace cuda_tidy
