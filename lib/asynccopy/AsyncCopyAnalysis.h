//===--- AsyncCopyAnalysis.h - One function's async-copy analysis -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Internal to lib/asynccopy: the state and the walk of findAsyncCopyHazards,
// shared by AsyncCopyOrdering.cpp (the walk and the events) and
// AsyncCopyCompletion.cpp (what completes a copy, and where a fix goes).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_ASYNCCOPY_ASYNCCOPYANALYSIS_H
#define CUDA_TIDY_LIB_ASYNCCOPY_ASYNCCOPYANALYSIS_H

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
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/FoldingSet.h"
#include <functional>
#include <tuple>
#include <utility>

namespace cuda_tidy::asynccopy::detail {
using namespace clang;


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

template <typename T> inline void normalize(std::vector<T> &V) {
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
inline void mergeStages(std::vector<StageCount> &Into,
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
inline void mergeInto(std::vector<T> &Into, const std::vector<T> &From) {
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


} // namespace cuda_tidy::asynccopy::detail

#endif // CUDA_TIDY_LIB_ASYNCCOPY_ASYNCCOPYANALYSIS_H
