//===--- AsyncCopyCompletion.cpp - What completes a copy; where fixes go ---===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/asynccopy/AsyncCopyAnalysis.h"

using namespace clang;

namespace cuda_tidy::asynccopy::detail {

static const Stmt *enclosingLoop(const Stmt *S, const ParentMap &PM) {
  for (const Stmt *P = PM.getParent(S); P; P = PM.getParent(P))
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P))
      return P;
  return nullptr;
}

/// The class's variables are declared once per run of the body: outside
/// every loop, or in the init of a `for` loop outside every loop.
bool Analysis::declaredOnce(unsigned Class) const {
  const StepClass &C = Counts.of(Class);
  const Stmt *At = C.Decl;
  if (!At)
    return false;
  const ParentMap &PM = *Cfg.PM;
  if (const auto *For = dyn_cast_or_null<ForStmt>(PM.getParent(At));
      For && For->getInit() == At)
    At = For;
  return !enclosingLoop(At, PM);
}

/// S runs once in every iteration of Loop that reaches it: only compound
/// statements and expressions that evaluate all their parts lie between.
static bool unconditionalIn(const Stmt *S, const Stmt *Loop,
                            const ParentMap &PM) {
  for (const Stmt *P = PM.getParent(S); P && P != Loop; P = PM.getParent(P)) {
    if (isa<CompoundStmt>(P))
      continue;
    const auto *E = dyn_cast<Expr>(P);
    if (!E || isa<AbstractConditionalOperator>(E))
      return false;
    if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isLogicalOp())
      return false;
  }
  return true;
}

/// Finds the thread-scope pipelines whose stages follow two loop counters
/// (see Lockstep).
void Analysis::collectLockstep(const Stmt *Body) {
  struct Uses {
    llvm::SmallVector<const Stmt *, 2> Commits, Waits, Issues;
    bool Other = false;
  };
  llvm::DenseMap<const ValueDecl *, Uses> ByPipe;
  llvm::SmallVector<const ContinueStmt *, 2> Continues;
  bool Helpers = false;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *CS = dyn_cast<ContinueStmt>(S))
      Continues.push_back(CS);
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      auto Events = eventsOf(S, Ctx);
      if (Events.empty()) {
        const FunctionDecl *Callee = Call->getDirectCallee();
        Helpers |= Callee && Callee->hasBody() &&
                   !isInSystemHeader(Callee) &&
                   mentionsAsyncCopies(Callee->getBody(), true, 1);
      }
      for (const Event &E : Events) {
        if (E.Fam != Family::Pipeline || !E.Pipe)
          continue;
        Uses &U = ByPipe[E.Pipe];
        if (E.Kind == EventKind::Commit)
          U.Commits.push_back(S);
        else if (E.Kind == EventKind::Issue)
          U.Issues.push_back(S);
        else if (E.Kind == EventKind::Wait && E.Oldest && !E.BlockScope)
          U.Waits.push_back(S);
        else if (E.Kind == EventKind::Wait)
          U.Other = true;
      }
    }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(Body);
  if (Helpers)
    return;
  const ParentMap &PM = *Cfg.PM;
  const SourceManager &SM = Ctx.getSourceManager();
  auto ClassOfLoop = [&](const Stmt *Loop) -> unsigned {
    for (unsigned Id = 1; Id <= Counts.Classes.size(); ++Id)
      if (Counts.of(Id).Loop == Loop && declaredOnce(Id))
        return Id;
    return 0;
  };
  for (const auto &[Pipe, U] : ByPipe) {
    if (U.Other || U.Commits.size() != 1 || U.Waits.size() != 1)
      continue;
    const Stmt *Commit = U.Commits.front(), *Wait = U.Waits.front();
    const auto *Producer = dyn_cast_or_null<ForStmt>(enclosingLoop(Commit, PM));
    const Stmt *Consumer = enclosingLoop(Wait, PM);
    const unsigned B = ClassOfLoop(Consumer);
    if (!Producer || !ClassOfLoop(Producer) || !B || Producer == Consumer ||
        !unconditionalIn(Wait, Consumer, PM))
      continue;
    // A `continue` before the wait would skip it in some iteration.
    const Stmt *ConsumerBody = cast<ForStmt>(Consumer)->getBody();
    if (llvm::any_of(Continues, [&](const ContinueStmt *C) {
          return SM.isBeforeInTranslationUnit(ConsumerBody->getBeginLoc(),
                                              C->getBeginLoc()) &&
                 SM.isBeforeInTranslationUnit(C->getBeginLoc(),
                                              Wait->getBeginLoc());
        }))
      continue;
    // Each copy is committed by the commit of its own iteration.
    const auto *CommitBlock = dyn_cast_or_null<CompoundStmt>(PM.getParent(
        PM.getParent(Commit) && isa<ExprWithCleanups>(PM.getParent(Commit))
            ? PM.getParent(Commit)
            : Commit));
    auto Inside = [&](const Stmt *S, const Stmt *Outer) {
      for (const Stmt *P = S; P; P = PM.getParent(P))
        if (P == Outer)
          return true;
      return false;
    };
    if (!CommitBlock ||
        !llvm::all_of(U.Issues, [&](const Stmt *Issue) {
          return enclosingLoop(Issue, PM) == Producer &&
                 Inside(Issue, CommitBlock) &&
                 SM.isBeforeInTranslationUnit(Issue->getBeginLoc(),
                                              Commit->getBeginLoc());
        }))
      continue;
    Lockstep[Pipe] = {Producer, B};
  }
}

/// Whether a lockstep pipeline's `consumer_wait()` completes copy C: the
/// wait in the consumer's iteration n completes stage n, and the copy's
/// stage is the producer's count at its issue.
std::optional<bool> Analysis::lockstepDone(const Event &E, const Copy &C,
                                           const State &St) const {
  auto It = E.Pipe ? Lockstep.find(E.Pipe) : Lockstep.end();
  if (It == Lockstep.end() || !C.LinClass ||
      Counts.of(C.LinClass).Loop != It->second.first ||
      !declaredOnce(C.LinClass))
    return std::nullopt;
  auto D = exactDifference(St.Rel, C.LinClass, It->second.second);
  if (!D)
    return std::nullopt;
  return C.Lin + *D <= 0;
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

void Analysis::collectWaits(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (isa<CallExpr>(S) || isa<GCCAsmStmt>(S)) {
    llvm::SmallVector<Event, 1> Events = eventsOf(S, Ctx);
    if (const auto *Call = dyn_cast<CallExpr>(S); Call && Events.empty())
      helperEvents(Call, nullptr, 0, Events);
    for (const Event &E : Events)
      if (E.Kind == EventKind::Wait)
        Waits[unsigned(E.Fam)] = true;
  }
  for (const Stmt *Child : S->children())
    collectWaits(Child);
}

void Analysis::collectSpinLoops(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (isa<WhileStmt, ForStmt, DoStmt>(S) && waitsOnBarrier(S))
    SpinLoops.insert(S);
  for (const Stmt *Child : S->children())
    collectSpinLoops(Child);
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


} // namespace cuda_tidy::asynccopy::detail
