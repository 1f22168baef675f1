//===--- AsyncCopyOrdering.cpp - Async copies read before they land -------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/asynccopy/AsyncCopyOrdering.h"
#include "lib/asynccopy/RingSlots.h"
#include "lib/asynccopy/StageRelations.h"
#include "lib/ast/CudaAST.h"
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
#include <utility>

using namespace clang;

namespace cuda_tidy {
namespace asynccopy {

namespace {

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
  /// Pipeline family: the pipeline object, and how many of its committed
  /// stages not yet consumed are older than the copy's own (UnknownCount
  /// when the analysis lost count).
  const ValueDecl *Pipe = nullptr;
  uint8_t Older = 0;
  /// The step class of the slot's variable (0: none), and how many steps
  /// of it ago the copy was issued (0 or less).
  uint8_t LinClass = 0;
  int8_t Lin = 0;

  auto key() const {
    return std::make_tuple(Issue, Dest.Part.C, unsigned(Dest.Part.Kind),
                           Committed, Newer, Waited, Wait, Barrier, Pipe,
                           Older, LinClass, Lin);
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

/// A read of shared memory since the last block barrier, that other
/// threads may still be making when a copy into the place is issued.
struct Read {
  const Stmt *At = nullptr;
  Location Where;
  /// The thread index components (bit 0: x, 1: y, 2: z) the read's
  /// address does not depend on.
  uint8_t FreeOf = 0;
  auto key() const {
    return std::make_tuple(At, Where.Part.C, unsigned(Where.Part.Kind));
  }
  bool operator<(const Read &O) const { return key() < O.key(); }
  bool operator==(const Read &O) const { return key() == O.key(); }
};

/// How many committed stages of a pipeline object are not yet consumed.
struct StageCount {
  const ValueDecl *Pipe = nullptr;
  uint8_t N = 0;
  auto key() const { return std::make_pair(Pipe, N); }
  bool operator<(const StageCount &O) const { return key() < O.key(); }
  bool operator==(const StageCount &O) const { return key() == O.key(); }
};

struct State {
  std::vector<Copy> Copies;
  std::vector<Touch> Written, Pending;
  std::vector<Read> Reads;
  std::vector<StageCount> Stages;
  /// How far the counters of the body's loops are apart.
  Relations Rel;
  bool Reached = false;
  bool operator==(const State &O) const {
    return Reached == O.Reached && Copies == O.Copies &&
           Written == O.Written && Pending == O.Pending && Reads == O.Reads &&
           Stages == O.Stages && Rel == O.Rel;
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
constexpr uint8_t UnknownCount = 0xFF;
/// Steps of its class after which a copy's stage is no longer followed.
constexpr int8_t MaxLin = 16;

/// Stage counts meet as one count or none: a pipeline whose count differs
/// between the paths (a prologue loop, a conditional commit) is counted no
/// more, and its waits complete every committed stage.
static void mergeStages(std::vector<StageCount> &Into,
                        const std::vector<StageCount> &From,
                        bool IntoReached) {
  if (!IntoReached) {
    Into = From;
    return;
  }
  auto CountIn = [](const std::vector<StageCount> &V, const ValueDecl *P) {
    for (const StageCount &G : V)
      if (G.Pipe == P)
        return G.N;
    return uint8_t(0);
  };
  std::vector<StageCount> Out;
  for (const std::vector<StageCount> *Side : {&std::as_const(Into), &From})
    for (const StageCount &G : *Side) {
      if (llvm::any_of(Out, [&](const StageCount &O) { return O.Pipe == G.Pipe; }))
        continue;
      const uint8_t A = CountIn(Into, G.Pipe), B = CountIn(From, G.Pipe);
      Out.push_back({G.Pipe, A == B ? A : UnknownCount});
    }
  normalize(Out);
  Into = std::move(Out);
}

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
  void shiftSlots(const Step &Move, State &St) const;
  void onPipelineWait(const Event &E, const Stmt *S, State &St);
  void noteRead(const Location &L, const Expr *LValue, const Stmt *S,
                State &St) const;
  void checkOverwrite(const Location &Dest, const Stmt *S, State &St,
                      bool Report);
  Slot settle(const Location &L) const { return Slots.settle(L); }
  bool overlapSure(const Slot &P, const Slot &Q, const State &St) const {
    return Slots.overlapSure(P, Q) ||
           (!Counts.empty() && overlapByRelation(P, Q, St.Rel, Counts));
  }
  /// Loop counters: declarations, steps, and a copy's stage.
  void onCounters(const Stmt *S, State &St) const;
  void collectLockstep(const Stmt *Body);
  bool declaredOnce(unsigned Class) const;
  std::optional<bool> lockstepDone(const Event &E, const Copy &C,
                                   const State &St) const;
  const Stmt *placeFix(const Stmt *Source, const Stmt *Access,
                       const Stmt *Barrier) const;
  void report(Finding F, bool Report);

  const FunctionDecl *FD;
  ASTContext &Ctx;
  FunctionCfg Cfg;
  VarWrites Writes;
  SlotModel Slots{Writes, Ctx};
  Counters Counts;
  /// Thread-scope pipelines whose one commit runs once per iteration of
  /// one `for` loop (the producer's) and whose one `consumer_wait()` runs
  /// once per iteration of another (the consumer's, stepping the class):
  /// the stage a copy belongs to is its producer's count at the issue.
  llvm::DenseMap<const ValueDecl *, std::pair<const ForStmt *, unsigned>>
      Lockstep;
  llvm::DenseSet<const Stmt *> Elements;
  /// Loops whose body waits on a barrier (`while (!try_wait(...))`).
  llvm::DenseSet<const Stmt *> SpinLoops;
  void collectSpinLoops(const Stmt *S);
  bool waitsOnBarrier(const Stmt *S);
  /// In a kernel: the families some wait in the body (or a helper it
  /// calls) completes; a copy of another family is never waited for.
  bool IsKernel = false;
  bool Waits[3] = {false, false, false};
  void collectWaits(const Stmt *S);
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
