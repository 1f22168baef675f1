//===--- AsyncCopyOrdering.cpp - Async copies read before they land -------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/asynccopy/AsyncCopyOrdering.h"
#include "lib/ast/FunctionCfgs.h"
#include "lib/uniformity/Uniformity.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/FoldingSet.h"
#include <functional>
#include <tuple>

using namespace clang;

namespace cuda_tidy {
namespace asynccopy {

namespace {

/// How a local variable is written after its initialisation: never, only
/// by the increment of one `for` loop by one, or otherwise.
struct VarWrites {
  llvm::DenseMap<const VarDecl *, const Stmt *> StepLoop;
  llvm::DenseSet<const VarDecl *> Unstable;
};

class WriteCollector : public RecursiveASTVisitor<WriteCollector> {
public:
  explicit WriteCollector(VarWrites &Out) : Out(Out) {}
  bool TraverseForStmt(ForStmt *F) {
    Loop.push_back(F);
    bool R = RecursiveASTVisitor::TraverseForStmt(F);
    Loop.pop_back();
    return R;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp())
      note(U->getSubExpr(), U, U->isIncrementOp());
    else if (U->getOpcode() == UO_AddrOf)
      note(U->getSubExpr(), U, false);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (!B->isAssignmentOp())
      return true;
    bool ByOne = false;
    if (B->getOpcode() == BO_AddAssign) {
      Expr::EvalResult R;
      ByOne = B->getRHS()->EvaluateAsInt(R, *Ctx) && R.Val.getInt() == 1;
    }
    note(B->getLHS(), B, ByOne);
    return true;
  }
  ASTContext *Ctx = nullptr;

private:
  void note(const Expr *E, const Stmt *Writer, bool ByOne) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!V)
      return;
    const ForStmt *F = nullptr;
    for (const ForStmt *L : Loop)
      if (L->getInc() == Writer)
        F = L;
    if (!F || !ByOne || Out.StepLoop.count(V)) {
      Out.Unstable.insert(V);
      return;
    }
    Out.StepLoop[V] = F;
  }
  VarWrites &Out;
  llvm::SmallVector<const ForStmt *, 4> Loop;
};

/// A copy in flight, or waited for by its own thread only.
struct Copy {
  const Stmt *Issue = nullptr;
  Location Dest;
  Family Fam = Family::CpAsync;
  Spelling Spell = Spelling::Other;
  const Expr *Group = nullptr;
  bool Committed = false;
  uint8_t Newer = 0;
  bool Waited = false;
  const Stmt *Wait = nullptr;
  const Stmt *Barrier = nullptr;

  auto key() const {
    return std::make_tuple(Issue, Dest.Part.C, unsigned(Dest.Part.Kind),
                           Committed, Newer, Waited, Wait, Barrier);
  }
  bool operator<(const Copy &O) const { return key() < O.key(); }
  bool operator==(const Copy &O) const { return key() == O.key(); }
};

/// A buffer written by generic stores (since the last proxy fence), or the
/// source of a bulk store (not yet waited for).
struct Touch {
  const VarDecl *Key = nullptr;
  const Stmt *At = nullptr;
  const Stmt *Barrier = nullptr;
  auto key() const { return std::make_tuple(Key, At, Barrier); }
  bool operator<(const Touch &O) const { return key() < O.key(); }
  bool operator==(const Touch &O) const { return key() == O.key(); }
};

struct State {
  std::vector<Copy> Copies;
  std::vector<Touch> Written, Pending;
  bool Reached = false;
  bool operator==(const State &O) const {
    return Reached == O.Reached && Copies == O.Copies &&
           Written == O.Written && Pending == O.Pending;
  }
};

template <typename T> static void normalize(std::vector<T> &V) {
  llvm::sort(V);
  V.erase(std::unique(V.begin(), V.end()), V.end());
}

/// Enough for the states real pipelines reach; beyond it new facts are
/// dropped (a missed report, never a false one).
constexpr size_t MaxFacts = 256;
constexpr uint8_t MaxNewer = 8;

template <typename T>
static void mergeInto(std::vector<T> &Into, const std::vector<T> &From) {
  Into.insert(Into.end(), From.begin(), From.end());
  normalize(Into);
  if (Into.size() > MaxFacts)
    Into.resize(MaxFacts);
}

class Analysis {
public:
  Analysis(const FunctionDecl *FD, ASTContext &Ctx) : FD(FD), Ctx(Ctx) {}
  std::vector<Finding> run();

private:
  void transfer(const Stmt *S, State &St, bool Report);
  void walk(const Stmt *S, State &St, bool Report, bool Top);
  /// The events of a call to a user's helper that holds asynchronous-copy
  /// operations, read through its arguments.
  void helperEvents(const CallExpr *Call, const ArgScope *Outer,
                    unsigned Depth, llvm::SmallVectorImpl<Event> &Out);
  void visit(const Stmt *S, State &St, bool Report);
  void onEvent(const Event &E, const Stmt *S, State &St, bool Report);
  void onAccess(const Expr *LValue, const Stmt *S, bool IsWrite, State &St,
                bool Report);
  void onLocatedAccess(Location At, const Expr *LValue, const Stmt *S,
                       bool IsWrite, State &St, bool Report);
  void crossBackEdge(const Stmt *Loop, State &St) const;
  Slot settle(Slot P) const;
  Slot settle(const Location &L) const;
  bool namesUnstable(const Stmt *S, unsigned Depth) const;
  bool overlapSure(const Slot &P, const Slot &Q) const;
  bool sameExpr(const Expr *A, const Expr *B) const;
  const Stmt *placeFix(const Stmt *Source, const Stmt *Access,
                       const Stmt *Barrier) const;
  void report(Finding F, bool Report);

  const FunctionDecl *FD;
  ASTContext &Ctx;
  FunctionCfg Cfg;
  VarWrites Writes;
  llvm::DenseSet<const Stmt *> Elements;
  /// Loops whose body waits on a barrier (`while (!try_wait(...))`).
  llvm::DenseSet<const Stmt *> SpinLoops;
  void collectSpinLoops(const Stmt *S);
  bool waitsOnBarrier(const Stmt *S);
  std::vector<Finding> Findings;
  llvm::DenseSet<const Stmt *> Reported;
};

} // namespace

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
  normalize(St.Written);
  normalize(St.Pending);
}

/// A slot whose variable changes other than by its loop's step is not
/// compared; nor is an expression naming any written variable.
/// S reads a variable written other than by its loop's step, directly or
/// through the initialisers of the locals it reads.
bool Analysis::namesUnstable(const Stmt *S, unsigned Depth) const {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return false;
    if (Writes.Unstable.count(V))
      return true;
    return Depth > 0 && V->hasLocalStorage() && !isa<ParmVarDecl>(V) &&
           namesUnstable(V->getInit(), Depth - 1);
  }
  for (const Stmt *Child : S->children())
    if (namesUnstable(Child, Depth))
      return true;
  return false;
}

/// A location computed with a variable that changes (an offset into a ring
/// kept in a variable, a pointer that moves) is not compared.
Slot Analysis::settle(const Location &L) const {
  Slot P = settle(L.Part);
  for (const Expr *I : L.Indices)
    if (namesUnstable(I, 3))
      P.Kind = Slot::Unknown;
  return P;
}

Slot Analysis::settle(Slot P) const {
  if (P.Kind == Slot::Affine && P.Var && Writes.Unstable.count(P.Var))
    P.Kind = Slot::Unknown;
  if (P.Kind == Slot::Opaque) {
    llvm::SmallVector<const Stmt *, 8> Work{P.E};
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (!S)
        continue;
      if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
        if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
            V && (Writes.Unstable.count(V) || Writes.StepLoop.count(V)))
          P.Kind = Slot::Unknown;
      if (isa<CallExpr>(S))
        P.Kind = Slot::Unknown;
      Work.append(S->child_begin(), S->child_end());
    }
  }
  return P;
}

bool Analysis::sameExpr(const Expr *A, const Expr *B) const {
  if (!A || !B)
    return false;
  llvm::FoldingSetNodeID IA, IB;
  A->IgnoreParenImpCasts()->Profile(IA, Ctx, true);
  B->IgnoreParenImpCasts()->Profile(IB, Ctx, true);
  return IA == IB;
}

bool Analysis::overlapSure(const Slot &P, const Slot &Q) const {
  if (P.Kind == Slot::Unknown || Q.Kind == Slot::Unknown)
    return false;
  if (P.Kind == Slot::Whole || Q.Kind == Slot::Whole)
    return true;
  if (P.Kind == Slot::Affine && Q.Kind == Slot::Affine) {
    if (P.Var != Q.Var || P.S != Q.S)
      return false;
    if (P.S == 0)
      return P.C == Q.C;
    return ((P.C - Q.C) % P.S + P.S) % P.S == 0;
  }
  if (P.Kind == Slot::Opaque && Q.Kind == Slot::Opaque)
    return sameExpr(P.E, Q.E);
  return false;
}

void Analysis::crossBackEdge(const Stmt *Loop, State &St) const {
  for (Copy &C : St.Copies) {
    Slot &P = C.Dest.Part;
    if (P.Kind != Slot::Affine || !P.Var)
      continue;
    auto It = Writes.StepLoop.find(P.Var);
    if (It == Writes.StepLoop.end() || It->second != Loop)
      continue;
    // One iteration older: in the stepped variable's new value the slot
    // is one less.
    P.C -= 1;
    if (P.S > 0)
      P.C = (P.C % P.S + P.S) % P.S;
    else if (P.C < -int64_t(MaxNewer))
      P.Kind = Slot::Unknown;
  }
  normalize(St.Copies);
}

bool Analysis::waitsOnBarrier(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (isa<CallExpr>(S) || isa<GCCAsmStmt>(S)) {
    llvm::SmallVector<Event, 1> Events = eventsOf(S, Ctx);
    if (const auto *Call = dyn_cast<CallExpr>(S); Call && Events.empty())
      helperEvents(Call, nullptr, 0, Events);
    for (const Event &E : Events)
      if (E.Kind == EventKind::Wait && E.Fam == Family::Barrier)
        return true;
  }
  for (const Stmt *Child : S->children())
    if (waitsOnBarrier(Child))
      return true;
  return false;
}

void Analysis::collectSpinLoops(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (isa<WhileStmt, ForStmt, DoStmt>(S) && waitsOnBarrier(S))
    SpinLoops.insert(S);
  for (const Stmt *Child : S->children())
    collectSpinLoops(Child);
}

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
      St.Copies.push_back(C);
    }
    if (E.CommitsItself)
      onEvent(makeEvent(EventKind::Commit, E.Fam), S, St, Report);
    break;
  case EventKind::Commit:
    for (Copy &C : St.Copies) {
      if (C.Fam != E.Fam || C.Waited)
        continue;
      if (!C.Committed)
        C.Committed = true;
      else if (C.Newer < MaxNewer)
        ++C.Newer;
    }
    break;
  case EventKind::Wait: {
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
    if (C.Dest.Key != L->Key || !overlapSure(C.Dest.Part, L->Part))
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
    } else if (IsWrite) {
      F.Kind = FindingKind::WriteInFlight;
    }
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
    if (isa<CallExpr, GCCAsmStmt>(S))
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
  if (recognizeBarrier(S, Ctx))
    onBarrier(S, St);
  if (isa<CallExpr>(S) || isa<GCCAsmStmt>(S)) {
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
  WriteCollector WC(Writes);
  WC.Ctx = &Ctx;
  WC.TraverseStmt(Body);
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
    const Stmt *Loop = B->getLoopTarget();
    const Stmt *Term = B->getTerminatorStmt();
    const bool SpinExit = Term && SpinLoops.count(Term) && B->succ_size() == 2;
    unsigned SuccIndex = 0;
    for (const CFGBlock *Succ : B->succs()) {
      const bool ExitEdge = SuccIndex++ == 1;
      if (!Succ)
        continue;
      State Out = St;
      if (Loop)
        crossBackEdge(Loop, Out);
      // Leaving a loop that spins on a barrier's try_wait: the wait
      // succeeded (the path that never enters it is the same loop's exit).
      if (SpinExit && ExitEdge)
        onEvent(makeEvent(EventKind::Wait, Family::Barrier).withAll(), Term,
                Out, false);
      State &Into = In[Succ->getBlockID()];
      State Before = Into;
      Into.Reached = true;
      mergeInto(Into.Copies, Out.Copies);
      mergeInto(Into.Written, Out.Written);
      mergeInto(Into.Pending, Out.Pending);
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

//===----------------------------------------------------------------------===//
// Where the fix goes
//===----------------------------------------------------------------------===//

/// The child of Compound that holds S, and its index; null when S is not
/// inside Compound.
static std::pair<const Stmt *, int> childHolding(const CompoundStmt *Compound,
                                                 const Stmt *S,
                                                 const ParentMap &PM) {
  for (const Stmt *Cur = S; Cur; Cur = PM.getParent(Cur)) {
    const Stmt *P = PM.getParent(Cur);
    if (P == Compound) {
      int I = 0;
      for (const Stmt *C : Compound->body()) {
        if (C == Cur)
          return {Cur, I};
        ++I;
      }
    }
  }
  return {nullptr, -1};
}

const Stmt *Analysis::placeFix(const Stmt *Source, const Stmt *Access,
                               const Stmt *Barrier) const {
  const ParentMap &PM = *Cfg.PM;
  if (!Source || !Access)
    return nullptr;
  if (!Barrier) {
    // The same thread copies and reads: the wait goes just before the
    // statement holding the access, in the innermost compound statement
    // that holds both.
    for (const Stmt *P = PM.getParent(Source); P; P = PM.getParent(P)) {
      const auto *CS = dyn_cast<CompoundStmt>(P);
      if (!CS)
        continue;
      auto [AC, AI] = childHolding(CS, Access, PM);
      auto [SC, SI] = childHolding(CS, Source, PM);
      if (AC && SC)
        return SI < AI ? AC : nullptr;
    }
    return nullptr;
  }
  // Before the barrier, which must be a statement of its own in a compound
  // statement that holds the issue before it and the access after it, and
  // that only loops and compound statements enclose: every thread reaches
  // it (cuda-divergent-barrier reports barriers that not all reach).
  const auto *CS = dyn_cast_or_null<CompoundStmt>(PM.getParent(Barrier));
  if (!CS)
    return nullptr;
  for (const Stmt *P = PM.getParent(CS); P; P = PM.getParent(P))
    if (!isa<CompoundStmt, ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P))
      return nullptr;
  auto [BC, BI] = childHolding(CS, Barrier, PM);
  auto [SC, SI] = childHolding(CS, Source, PM);
  auto [AC, AI] = childHolding(CS, Access, PM);
  if (BC && SC && AC && SI < BI && BI < AI)
    return Barrier;
  return nullptr;
}

std::vector<Finding> findAsyncCopyHazards(const FunctionDecl *FD,
                                          ASTContext &Ctx) {
  if (!FD || !FD->hasBody() ||
      !mentionsAsyncCopies(FD->getBody(), /*Waits=*/false, /*CalleeDepth=*/2))
    return {};
  return Analysis(FD, Ctx).run();
}

} // namespace asynccopy
} // namespace cuda_tidy
