//===--- SharedRaces.cpp - Races on shared memory between warps -----------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/races/SharedRaces.h"
#include "lib/ast/CudaAST.h"
#include "lib/lanes/AccessPairs.h"
#include "lib/lanes/AccessTable.h"
#include "lib/races/BlockBarriers.h"
#include "lib/races/LoadedIndex.h"
#include "lib/uniformity/Uniformity.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/Basic/SourceManager.h"
#include <algorithm>
#include <array>
#include <set>
#include <unordered_map>

using namespace clang;

namespace cuda_tidy {

using namespace lanes;

namespace {

/// The elements a side writes, by byte: per (byte, object) the first thread
/// and the first thread of another warp, so that a reader finds a writer of
/// another warp in constant time.
struct WriterIndex {
  struct Entry {
    int64_t Byte;
    const void *Key;
    unsigned First;
    int Other = -1; // a thread of another warp than First's, or -1
  };
  std::vector<Entry> Entries;
  void add(int64_t Byte, const void *Key, unsigned Tid) {
    Entries.push_back({Byte, Key, Tid});
  }
  void finish() {
    auto Less = [](const Entry &A, const Entry &B) {
      return std::tie(A.Byte, A.Key, A.First) <
             std::tie(B.Byte, B.Key, B.First);
    };
    // Threads come in order, and most index by an increasing function of
    // the thread: already sorted.
    if (!std::is_sorted(Entries.begin(), Entries.end(), Less))
      llvm::sort(Entries, Less);
    unsigned Out = 0;
    for (unsigned K = 0; K < Entries.size();) {
      Entry E = Entries[K];
      unsigned J = K + 1;
      for (; J < Entries.size() && Entries[J].Byte == E.Byte &&
             Entries[J].Key == E.Key;
           ++J)
        if (E.Other < 0 && Entries[J].First / 32 != E.First / 32)
          E.Other = int(Entries[J].First);
      Entries[Out++] = E;
      K = J;
    }
    Entries.resize(Out);
  }
  /// An entry of Key written by a thread of another warp than Tid's.
  const Entry *anyOtherWarp(const void *Key, unsigned Tid) const {
    for (const Entry &E : Entries)
      if (E.Key == Key && (E.First / 32 != Tid / 32 || E.Other >= 0))
        return &E;
    return nullptr;
  }
  /// A thread of another warp than Tid's that writes a byte of [Lo, Hi) of
  /// Key, or -1.
  int otherWarp(int64_t Lo, int64_t Hi, const void *Key, unsigned Tid) const {
    auto It = std::lower_bound(
        Entries.begin(), Entries.end(), Lo,
        [](const Entry &E, int64_t B) { return E.Byte < B; });
    for (; It != Entries.end() && It->Byte < Hi; ++It) {
      if (It->Key != Key)
        continue;
      if (It->First / 32 != Tid / 32)
        return int(It->First);
      if (It->Other >= 0)
        return It->Other;
    }
    return -1;
  }
};

/// The state of one pair's search.
struct RacePair : AccessPair {
  using AccessPair::AccessPair;
  /// A condition the model cannot evaluate, on either side: the pair is
  /// left alone.
  bool Unknown = false;
  /// The witness of the shape being evaluated: the writer's and the other
  /// thread, the element.
  bool Found = false;
  unsigned WriterTid = 0, OtherTid = 0;
  Address Element;
  unsigned ShapeIdx = 0;
  /// The other side's element comes from a loaded value.
  bool LoadedIndex = false;
  /// The loop whose back edge joins the two with no barrier, if any.
  const Stmt *CrossLoop = nullptr;
};

} // namespace

static bool inReach(const ReachSet &Set, Pos Where, bool NonCrossed);

/// The races of one context.
class SharedRaceFinder::FrameSearch {
public:
  FrameSearch(SharedRaceFinder &Finder, const Frame &Fr)
      : Finder(Finder), M(Finder.M), Fr(Fr) {}
  void run();

private:
  bool overBudget() {
    if (!M.MaxWork || M.Work - StartWork <= M.MaxWork)
      return false;
    const FunctionDecl *Root = rootOf(Fr).F;
    if (!llvm::is_contained(Finder.CutShort, Root))
      Finder.CutShort.push_back(Root);
    return true;
  }
  const ReachSet &reachOf(unsigned K) {
    if (!Reach[K])
      Reach[K] = reachAt(Table->accesses()[K].Where);
    return *Reach[K];
  }
  /// FunctionFacts::reach with the context's barriers and dead edges, and
  /// the positions of the accesses made after the last barrier of a
  /// helper's call (FrameAccess::Side) where a path leaves the call.
  ReachSet reachAt(Pos Target, llvm::ArrayRef<unsigned> SkipFrom = {});
  /// Places the accesses of the calls of helpers that hold block barriers
  /// counted here: before the helper's first barrier at the call, after
  /// its last past it. False when there is none.
  bool placeBarrierHelpers();
  /// The helper Call makes whose body may reach a block barrier and holds
  /// shared-memory accesses, or null.
  const FunctionDecl *barrierHelper(const CallExpr *Call);
  /// The loop L holding both accesses whose back edge joins From (in one
  /// iteration) to To (in the next) with no barrier, or null.
  const Stmt *crossingLoop(const FrameAccess &From, const FrameAccess &To,
                           const ReachSet &ToReach);
  /// A barrier-free path from From to To within one iteration of the loops
  /// around both.
  bool sameIteration(const FrameAccess &From, const FrameAccess &To,
                     const ReachSet &ToReach);
  /// A barrier-free path from From's end of loop L's body, through L's back
  /// edge, to To in L's next iteration (ToReach: To's reach set).
  bool crosses(const Stmt *L, const FrameAccess &From, const FrameAccess &To,
               const ReachSet &ToReach);
  /// placePair's back-edge flags say a path takes some back edge; a race
  /// through one needs the back edge of a loop holding both accesses.
  bool refineCrossing(RacePair &P);
  /// The loops around both that hold P's crossing loop and whose own back
  /// edge no barrier-free path between the two takes: both sides run the
  /// same iteration of them (splitLoops varies them independently).
  void commonOuterLoops(RacePair &P);
  /// Whether the element of access K, where the model does not place it,
  /// comes from a value read from memory (LoadedIndex.h).
  bool loadedIndex(unsigned K);
  /// The block shapes to evaluate (see SharedRaces.h).
  void chooseShapes();
  /// Evaluates the pair for shape Shapes[K]: P.Found and the witness.
  void evaluate(RacePair &P, unsigned K);
  const WriterIndex &writers(RacePair &P, const Env &E, unsigned K,
                             WriterIndex &Local);
  /// Whether every access to Key's variable stays inside it in a block of
  /// shape Shapes[K].
  bool admitted(const void *Key, unsigned K);
  /// Whether some shared access of the context tells the warps of a block
  /// of shape Shapes[K] apart (not every one indexes by the lane only).
  bool warpsDiffer(unsigned K);
  struct DifferFact {
    bool Differs = false;
    /// The answer read no blockDim.
    bool Exact = false;
  };
  DifferFact differAt(unsigned K);
  /// Whether the pair collides for the shapes (see SharedRaces.h), with the
  /// sizes (unknown block) and the first witness.
  bool collides(RacePair &P, llvm::SmallVectorImpl<unsigned> &Sizes,
                RacePair &Witness);
  /// Searches the pair; records a race when found.
  void search(RacePair &P);
  void record(RacePair &P, llvm::ArrayRef<unsigned> Sizes, bool InIteration);

  SharedRaceFinder &Finder;
  LaneModel &M;
  const Frame &Fr;
  FunctionInfo *I = nullptr;
  CallChain Chain;
  std::optional<AccessTable> Table;
  std::optional<BarrierTable> Barriers;
  llvm::SmallVector<std::optional<ReachSet>, 16> Reach;
  bool ChainLoops = false;
  uint64_t StartWork = 0;
  llvm::SmallVector<BlockShape, 6> Shapes;
  bool ShapesKnown = false;
  std::unordered_map<const AccessThreads *, WriterIndex> WriterCache;
  llvm::DenseMap<std::pair<const void *, unsigned>, bool> Admitted;
  llvm::DenseMap<unsigned, DifferFact> Differ;
  /// Reach sets from the end of a loop's latch block, by block.
  llvm::DenseMap<unsigned, ReachSet> LatchReach;
  llvm::DenseMap<unsigned, bool> Loaded;
  /// Edges no execution takes (deadEdges).
  llvm::SmallVector<std::pair<unsigned, unsigned>, 2> DeadEdges;
  /// Per call of a helper with barriers whose accesses are placed (by its
  /// position), the position of the accesses after its last barrier: an
  /// index past the end of the call's block.
  llvm::DenseMap<std::pair<unsigned, unsigned>, unsigned> AfterCall;
};

ReachSet SharedRaceFinder::FrameSearch::reachAt(Pos Target,
                                                llvm::ArrayRef<unsigned> SkipFrom) {
  // An access after a helper's last barrier is reached from nothing of
  // this function (the helper's own context pairs what follows it there).
  if (Target.Index > (*Barriers)[Target.Block].size())
    return ReachSet();
  ReachSet Out = M.Facts.reach(*I, Target, *Barriers, SkipFrom, DeadEdges);
  if (AfterCall.empty())
    return Out;
  // A walk that stops at such a call reaches its accesses after the
  // barrier.
  for (unsigned K = 0, N = unsigned(Out.Ranges.size()); K < N; ++K) {
    const ReachSet::Range X = Out.Ranges[K];
    if (X.Lo == 0)
      continue;
    if (auto It = AfterCall.find({X.Block, X.Lo - 1}); It != AfterCall.end())
      Out.Ranges.push_back({X.Block, It->second, It->second + 1, X.Crossed});
  }
  return Out;
}

const FunctionDecl *
SharedRaceFinder::FrameSearch::barrierHelper(const CallExpr *Call) {
  const FunctionDecl *Def = M.Calls.followable(M.Calls.resolveCallee(Call), Fr);
  if (!Def || !Finder.BlockBarrierReach.mayReach(Def))
    return nullptr;
  FunctionInfo &CI = M.Facts.info(Def);
  if (!CI.Ok || M.Facts.accessesOf(CI).empty())
    return nullptr;
  return Def;
}

bool SharedRaceFinder::FrameSearch::placeBarrierHelpers() {
  bool Placed = false;
  for (const auto &[Call, Where] : M.Facts.callsOf(*I)) {
    if (!(*Barriers)[Where.Block][Where.Index])
      continue;
    const FunctionDecl *Def = barrierHelper(Call);
    if (!Def)
      continue;
    FunctionInfo &CI = M.Facts.info(Def);
    const Frame *In = M.Calls.callFrame(Def, Call, Fr);
    std::optional<BarrierTable> HB =
        blockBarriers(M, Finder.Plain, CI, *In, /*MayReachBarrier=*/true);
    if (!HB)
      continue;
    auto Dead = deadEdges(M, CI, *In, *HB);
    const unsigned Entry = CI.Cfg->getEntry().getBlockID();
    const ReachSet ToExit =
        M.Facts.reach(CI, Pos{CI.Cfg->getExit().getBlockID(), 0}, *HB, {}, Dead);
    auto [It, New] = AfterCall.try_emplace(
        std::pair(Where.Block, Where.Index),
        unsigned((*Barriers)[Where.Block].size() + 1 + AfterCall.size()));
    Table->placeAroundBarriers(
        *I, Call, Where, Pos{Where.Block, It->second}, Def, *In,
        [&](const Access &A) {
          unsigned Sides = 0;
          ReachSet FromEntry = M.Facts.reach(CI, A.Where, *HB, {}, Dead);
          if (llvm::any_of(FromEntry.Ranges, [&](const ReachSet::Range &X) {
                return X.Block == Entry;
              }))
            Sides |= 1;
          if (inReach(ToExit, A.Where, false))
            Sides |= 2;
          return Sides;
        });
    Placed = true;
  }
  return Placed;
}

/// Whether Where lies in one of Set's ranges (NonCrossed: reached without
/// a back edge).
static bool inReach(const ReachSet &Set, Pos Where, bool NonCrossed) {
  for (const auto &X : Set.Ranges)
    if (X.Block == Where.Block && X.Lo <= Where.Index && Where.Index < X.Hi &&
        !(NonCrossed && X.Crossed))
      return true;
  return false;
}

/// Whether the element at P runs at all: a constant condition of the
/// instantiation cuts it off (`if (block_size > 32)` for 32 threads) when
/// the CFG has no path to it.
static bool reachable(FunctionInfo &I, Pos P) {
  if (!I.Dom || P.Block >= I.Blocks.size() || !I.Blocks[P.Block])
    return true;
  return I.Dom->isReachableFromEntry(I.Blocks[P.Block]);
}

/// The block that jumps back to the start of loop L, or null.
static const CFGBlock *latchOf(FunctionInfo &I, const Stmt *L) {
  for (const CFGBlock *B : I.Blocks)
    if (B && B->getLoopTarget() == L && B->succ_size() == 1 && *B->succ_begin())
      return B;
  return nullptr;
}

/// The loops (innermost first) that hold both A and B.
static llvm::SmallVector<const Stmt *, 2>
loopsAroundBoth(const Stmt *A, const Stmt *B, const ParentMap &PM) {
  llvm::SmallVector<const Stmt *, 2> Out;
  for (const Stmt *L = PM.getParent(A); L; L = PM.getParent(L))
    if (isa<ForStmt, WhileStmt, DoStmt>(L) && isDescendantOf(B, L, PM))
      Out.push_back(L);
  return Out;
}

bool SharedRaceFinder::FrameSearch::crosses(const Stmt *L,
                                            const FrameAccess &From,
                                            const FrameAccess &To,
                                            const ReachSet &ToReach) {
  // The block that jumps back to the loop's start, and that start.
  const CFGBlock *Latch = latchOf(*I, L);
  if (!Latch)
    return false;
  unsigned Header = (*Latch->succ_begin())->getBlockID();
  bool HeaderReachesTo = llvm::any_of(ToReach.Ranges, [&](const auto &X) {
    return X.Block == Header && X.Lo == 0;
  });
  if (!HeaderReachesTo)
    return false;
  auto [It, New] = LatchReach.try_emplace(Latch->getBlockID());
  if (New)
    It->second = reachAt(Pos{Latch->getBlockID(), unsigned(Latch->size())});
  return inReach(It->second, From.Where, false);
}

const Stmt *SharedRaceFinder::FrameSearch::crossingLoop(
    const FrameAccess &From, const FrameAccess &To, const ReachSet &ToReach) {
  for (const Stmt *L : loopsAroundBoth(From.anchor(), To.anchor(), *I->PM))
    if (crosses(L, From, To, ToReach))
      return L;
  return nullptr;
}

bool SharedRaceFinder::FrameSearch::sameIteration(const FrameAccess &From,
                                                  const FrameAccess &To,
                                                  const ReachSet &ToReach) {
  // A path that takes no back edge of a loop around both: around a loop
  // that holds only one of them it is still the same iteration.
  llvm::SmallVector<unsigned, 2> Latches;
  for (const Stmt *L : loopsAroundBoth(From.anchor(), To.anchor(), *I->PM))
    if (const CFGBlock *Latch = latchOf(*I, L))
      Latches.push_back(Latch->getBlockID());
  if (Latches.empty())
    return inReach(ToReach, From.Where, false);
  return inReach(reachAt(To.Where, Latches), From.Where, false);
}

bool SharedRaceFinder::FrameSearch::refineCrossing(RacePair &P) {
  // One CFG element (`s[t] += s[t + 1]`): in one iteration, and through
  // the back edge of a loop around it when nothing in the loop stops it.
  const bool SamePos = P.R->Where.Block == P.W->Where.Block &&
                       P.R->Where.Index == P.W->Where.Index;
  if (P.RI == P.WI || !(P.WToR || P.RToW || P.Crossed || SamePos))
    return true;
  const ReachSet &RR = reachOf(P.RI), &WR = reachOf(P.WI);
  const bool WR0 = SamePos || sameIteration(*P.W, *P.R, RR);
  const bool RW0 = SamePos || sameIteration(*P.R, *P.W, WR);
  const Stmt *LoopWR =
      P.CrossWR || SamePos ? crossingLoop(*P.W, *P.R, RR) : nullptr;
  const Stmt *LoopRW =
      P.CrossRW || SamePos ? crossingLoop(*P.R, *P.W, WR) : nullptr;
  P.CrossWR = LoopWR != nullptr;
  P.CrossRW = LoopRW != nullptr;
  P.WToR = WR0 || P.CrossWR;
  P.RToW = RW0 || P.CrossRW;
  P.Crossed = P.CrossWR || P.CrossRW;
  P.SameIter |= WR0 || RW0;
  P.CrossLoop = LoopWR ? LoopWR : LoopRW;
  return P.SameIter || P.Crossed;
}

void SharedRaceFinder::FrameSearch::commonOuterLoops(RacePair &P) {
  if (!P.CrossLoop)
    return;
  // `for (s = n / 2; s > 0; s >>= 1) { __syncthreads(); for (i = t; i < s;
  // i += blockDim.x) a[i] += a[s + i]; }`: through the inner loop's back
  // edge both sides see one s.
  bool Moved = false;
  for (const ForStmt *L : P.W->Loops) {
    if (L == P.CrossLoop || !llvm::is_contained(P.WOnly, L) ||
        !llvm::is_contained(P.ROnly, L) ||
        !isDescendantOf(P.CrossLoop, L, *I->PM) ||
        crosses(L, *P.W, *P.R, reachOf(P.RI)) ||
        crosses(L, *P.R, *P.W, reachOf(P.WI)))
      continue;
    llvm::erase(P.WOnly, L);
    llvm::erase(P.ROnly, L);
    P.Common.push_back(L);
    Moved = true;
  }
  if (!Moved)
    return;
  // Outermost first, as splitLoops orders them (Loops: innermost first).
  llvm::SmallVector<const ForStmt *, 4> Ordered;
  for (const ForStmt *L : llvm::reverse(P.W->Loops))
    if (llvm::is_contained(P.Common, L))
      Ordered.push_back(L);
  P.Common.assign(Ordered.begin(), Ordered.end());
}

bool SharedRaceFinder::FrameSearch::loadedIndex(unsigned K) {
  auto [It, New] = Loaded.try_emplace(K, false);
  if (New) {
    const FrameAccess &A = Table->accesses()[K];
    It->second = indexFromMemory(M, A.A->E, A.frame(Fr));
  }
  return It->second;
}

void SharedRaceFinder::FrameSearch::chooseShapes() {
  const FunctionDecl *Root = rootOf(Fr).F;
  if (isKernel(Root))
    for (const Dim3 &D : M.Calls.launchedShapes(Root))
      Shapes.push_back({D, true});
  if (Shapes.empty())
    if (std::optional<Dim3> D = M.Calls.defaultShape())
      Shapes.push_back({*D, true});
  ShapesKnown = !Shapes.empty();
  if (ShapesKnown)
    return;
  uint64_t MaxThreads = 1024;
  if (const auto *LB = Root->getAttr<CUDALaunchBoundsAttr>()) {
    Expr::EvalResult R;
    if (LB->getMaxThreads() && !LB->getMaxThreads()->isValueDependent() &&
        LB->getMaxThreads()->EvaluateAsInt(R, M.Ctx) &&
        R.Val.getInt().getExtValue() > 0)
      MaxThreads = std::min<uint64_t>(MaxThreads, R.Val.getInt().getExtValue());
  }
  // One warp has no other warp to race with.
  for (unsigned BD : BlockSizes)
    if (BD >= 64 && BD <= MaxThreads)
      Shapes.push_back({Dim3{BD, 1, 1}, false});
}

void SharedRaceFinder::FrameSearch::run() {
  I = openContext(M, Fr, Chain, Table);
  if (!I)
    return;
  // Nothing to race on without a plain write to shared memory here or in a
  // helper.
  llvm::MutableArrayRef<FrameAccess> Acc = Table->accesses();
  auto PlainWrite = [](const FrameAccess &A) {
    return !A.Global &&
           (A.A->R == Role::Write || A.A->R == Role::ReadWrite);
  };
  // Or in a helper that holds barriers, around them.
  const bool MayReach = Finder.BlockBarrierReach.mayReach(Fr.F);
  auto HelperWrites = [&] {
    for (const auto &[Call, Where] : M.Facts.callsOf(*I))
      if (const FunctionDecl *Def = barrierHelper(Call))
        if (llvm::any_of(M.Facts.accessesOf(M.Facts.info(Def)),
                         [](const Access &A) {
                           return A.R == Role::Write ||
                                  A.R == Role::ReadWrite;
                         }))
          return true;
    return false;
  };
  if (llvm::none_of(Acc, PlainWrite) && !(MayReach && HelperWrites()))
    return;
  Barriers = blockBarriers(M, Finder.Plain, *I, Fr, MayReach);
  if (!Barriers)
    return;
  DeadEdges = deadEdges(M, *I, Fr, *Barriers);
  if (MayReach && placeBarrierHelpers()) {
    Acc = Table->accesses();
    if (llvm::none_of(Acc, PlainWrite))
      return;
  }
  chooseShapes();
  if (Shapes.empty())
    return;
  Table->setShapes(Shapes);
  Reach.resize(Acc.size());
  ChainLoops = llvm::any_of(
      Chain, [](const CallLevel &L) { return !L.Loops.empty(); });
  StartWork = M.Work;
  auto Splits = [&](unsigned Block) {
    return M.Guards.divergentBranch(*I, Block, Fr, /*WholeBlock=*/true);
  };
  // Accesses in code that never runs (in this instantiation) race with
  // nothing: the barriers there do not count either.
  llvm::SmallVector<bool, 16> Runs;
  for (const FrameAccess &A : Acc)
    Runs.push_back(reachable(*I, A.Where) &&
                   (!A.In || reachable(M.Facts.info(A.In->F), A.A->Where)));
  for (unsigned WI = 0; WI < Acc.size(); ++WI) {
    FrameAccess &W = Acc[WI];
    if (!PlainWrite(W) || W.Opaque || !Runs[WI])
      continue;
    for (unsigned RI = 0; RI < Acc.size(); ++RI) {
      FrameAccess &R = Acc[RI];
      if (R.Global || R.Opaque || R.Key != W.Key || !Runs[RI])
        continue;
      // An access paired with itself: threads updating one element; a
      // plain store every thread makes is left out (see SharedRaces.h).
      if (RI == WI && W.A->R != Role::ReadWrite)
        continue;
      // Two writes: once.
      if (PlainWrite(R) && RI < WI)
        continue;
      if (overBudget())
        return;
      RacePair P(RI, WI, R, W);
      if (!placePair(P, reachOf(RI), reachOf(WI), *I, ChainLoops, M.Guards,
                     Splits))
        continue;
      if (!refineCrossing(P))
        continue;
      splitLoops(P, M.Guards, Fr);
      commonOuterLoops(P);
      search(P);
    }
  }
}

const WriterIndex &SharedRaceFinder::FrameSearch::writers(RacePair &P,
                                                          const Env &E,
                                                          unsigned K,
                                                          WriterIndex &Local) {
  Env EW = E;
  shiftTrips(P, EW, P.Shift.W);
  llvm::SmallPtrSet<const Expr *, 4> Unknown;
  auto Add = [&](WriterIndex &Into, Env &E2) {
    for (const auto &[Tid, Ad] :
         Table->threads(P.WI, K, E2, Unknown).Threads)
      Into.add(Ad.Byte, Ad.Key, Tid);
  };
  const WriterIndex *Out = &Local;
  if (P.WOnly.empty()) {
    AccessThreads &C = Table->entry(P.WI, K, EW);
    auto [It, New] = WriterCache.try_emplace(&C);
    if (New) {
      Add(It->second, EW);
      It->second.finish();
    } else {
      Table->threads(P.WI, K, EW, Unknown);
    }
    Out = &It->second;
  } else {
    M.Guards.enumerate(P.WOnly, Fr, EW, [&](Env &E2) {
      Add(Local, E2);
      return true;
    });
    Local.finish();
  }
  if (!Unknown.empty())
    P.Unknown = true;
  return *Out;
}

void SharedRaceFinder::FrameSearch::evaluate(RacePair &P, unsigned K) {
  P.Found = false;
  Env Base;
  setShape(Base, Shapes[K]);
  bool ReadBD = false;
  Base.ReadBlockDim = &ReadBD;
  Base.FirstTripOfUnknownStride = true;
  ASTContext &Ctx = M.Ctx;
  const int64_t WSize =
      Ctx.getTypeSizeInChars(P.W->A->E->getType()).getQuantity();
  const int64_t RSize =
      Ctx.getTypeSizeInChars(P.R->A->E->getType()).getQuantity();
  enumerateCommon(P, M.Guards, Chain, Fr, Base, [&](Env &E) {
    if (P.Found || P.Unknown)
      return;
    WriterIndex Local;
    const WriterIndex &Writers = writers(P, E, K, Local);
    if (P.Unknown || Writers.Entries.empty())
      return;
    Env ER = E;
    shiftTrips(P, ER, P.Shift.R);
    M.Guards.enumerate(P.ROnly, Fr, ER, [&](Env &E2) {
      if (P.Found || P.Unknown)
        return true;
      llvm::SmallPtrSet<const Expr *, 4> Unknown;
      AccessThreads &C = Table->threads(P.RI, K, E2, Unknown);
      if (!Unknown.empty()) {
        P.Unknown = true;
        return true;
      }
      for (const auto &[Tid, Ad] : C.Threads) {
        int Writer =
            Writers.otherWarp(Ad.Byte - WSize + 1, Ad.Byte + RSize, Ad.Key, Tid);
        if (Writer < 0)
          continue;
        P.Found = true;
        P.WriterTid = unsigned(Writer);
        P.OtherTid = Tid;
        P.Element = Ad;
        P.ShapeIdx = K;
        break;
      }
      // Threads whose element comes from a loaded value (`h[bin] += 1`):
      // some input makes it one that a thread of another warp writes.
      if (!P.Found && !C.Unplaced.empty() && WSize == RSize &&
          loadedIndex(P.RI))
        if (const WriterIndex::Entry *E =
                Writers.anyOtherWarp(C.UnplacedKey, C.Unplaced.front())) {
          unsigned Tid = C.Unplaced.front();
          P.Found = true;
          P.WriterTid = E->First / 32 != Tid / 32 ? E->First : unsigned(E->Other);
          P.OtherTid = Tid;
          P.Element = Address{C.UnplacedKey, C.UnplacedVar, E->Byte};
          P.ShapeIdx = K;
          P.LoadedIndex = true;
        }
      return true;
    });
  });
}

bool SharedRaceFinder::FrameSearch::warpsDiffer(unsigned K) {
  if (auto It = Differ.find(K); It != Differ.end())
    return It->second.Differs;
  // A smaller block is a larger one's first threads, each evaluated alike
  // (AccessTable.h): an answer that read no blockDim holds for the larger
  // blocks when some warps differ, for the smaller ones when none do (the
  // answer reads no entry's unknown conditions: a thread whose condition is
  // unknown is left out the same way in every size).
  for (const auto &[K2, F] : Differ)
    if (F.Exact && (F.Differs ? K2 < K : K2 > K)) {
      const bool Differs = F.Differs;
      Differ[K] = {Differs, false};
      return Differs;
    }
  DifferFact F = differAt(K);
  Differ[K] = F;
  // A kernel written for one warp (its accesses index by the lane) is
  // asked about every size: the largest answers for all.
  const unsigned Largest = unsigned(Shapes.size() - 1);
  if (!F.Differs && F.Exact && K < Largest && !Differ.count(Largest))
    Differ[Largest] = differAt(Largest);
  return F.Differs;
}

SharedRaceFinder::FrameSearch::DifferFact
SharedRaceFinder::FrameSearch::differAt(unsigned K) {
  llvm::MutableArrayRef<FrameAccess> Acc = Table->accesses();
  bool Differs = false, ReadBD = false;
  const unsigned Warps = unsigned((Shapes[K].D.product() + 31) / 32);
  for (unsigned AI = 0; AI < Acc.size() && !Differs; ++AI) {
    if (Acc[AI].Global)
      continue;
    Env Base;
    setShape(Base, Shapes[K]);
    Base.FirstTripOfUnknownStride = true;
    Base.ReadBlockDim = &ReadBD;
    llvm::SmallVector<const ForStmt *, 2> Loops(Acc[AI].Loops.rbegin(),
                                                Acc[AI].Loops.rend());
    M.Guards.enumerateChain(Chain, Base, [&](Env &E0) {
      Env E1 = E0;
      M.Guards.enumerate(Loops, Fr, E1, [&](Env &E) {
        // From the whole block's guards and index where they evaluate so
        // (a kernel written for one warp: every warp is asked).
        if (std::optional<bool> Alike = Table->warpsAlike(AI, K, E)) {
          Differs = !*Alike;
          return !Differs;
        }
        llvm::SmallPtrSet<const Expr *, 4> Unknown;
        AccessThreads &C = Table->threads(AI, K, E, Unknown);
        // Thread T of warp 0 and thread T + 32 * W of warp W: whether
        // both run the access (`if (threadIdx.x == 0)` tells the warps
        // apart, `if (lane == 0)` does not), and at the same element.
        std::array<int64_t, 32> Lane0;
        llvm::SmallVector<uint32_t, 32> Lanes(Warps, 0);
        for (const auto &[Tid, Ad] : C.Threads) {
          const unsigned L = Tid % 32;
          Lanes[Tid / 32] |= 1u << L;
          if (Tid < 32)
            Lane0[L] = Ad.Byte;
          else if (!(Lanes[0] >> L & 1) || Lane0[L] != Ad.Byte)
            Differs = true;
        }
        if (!C.Unplaced.empty() ||
            llvm::any_of(Lanes, [&](uint32_t W) { return W != Lanes[0]; }))
          Differs = true;
        return !Differs;
      });
      return !Differs;
    });
  }
  return {Differs, !ReadBD};
}

bool SharedRaceFinder::FrameSearch::admitted(const void *Key, unsigned K) {
  auto [It, New] = Admitted.try_emplace({Key, K}, true);
  if (!New)
    return It->second;
  // A kernel whose every shared access touches the same element in thread
  // T and thread T + 32 (it indexes by the lane only) is written for blocks
  // of one warp: larger blocks are not what it admits.
  if (!warpsDiffer(K)) {
    Admitted[{Key, K}] = false;
    return false;
  }
  llvm::MutableArrayRef<FrameAccess> Acc = Table->accesses();
  bool Ok = true;
  for (unsigned AI = 0; AI < Acc.size() && Ok; ++AI) {
    const FrameAccess &A = Acc[AI];
    if (A.Key != Key || A.Global)
      continue;
    const int64_t Size =
        M.Ctx.getTypeSizeInChars(A.A->E->getType()).getQuantity();
    Env Base;
    setShape(Base, Shapes[K]);
    Base.FirstTripOfUnknownStride = true;
    llvm::SmallVector<const ForStmt *, 2> Loops(A.Loops.rbegin(),
                                                A.Loops.rend());
    M.Guards.enumerateChain(Chain, Base, [&](Env &E0) {
      Env E1 = E0;
      M.Guards.enumerate(Loops, Fr, E1, [&](Env &E) {
        llvm::SmallPtrSet<const Expr *, 4> Unknown;
        for (const auto &[Tid, Ad] : Table->threads(AI, K, E, Unknown).Threads) {
          if (!Ad.Var || Ad.Var->getType()->isIncompleteType() ||
              Ad.Var->getType()->isDependentType())
            continue;
          const int64_t Bytes =
              M.Ctx.getTypeSizeInChars(Ad.Var->getType()).getQuantity();
          if (Ad.Byte < 0 || Ad.Byte + Size > Bytes)
            Ok = false;
        }
        return Ok;
      });
      return Ok;
    });
  }
  Admitted[{Key, K}] = Ok;
  return Ok;
}

bool SharedRaceFinder::FrameSearch::collides(RacePair &P,
                                             llvm::SmallVectorImpl<unsigned> &Sizes,
                                             RacePair &Witness) {
  if (ShapesKnown) {
    // The shapes the code launches: a race in one is a race.
    for (unsigned K = 0; K < Shapes.size(); ++K) {
      evaluate(P, K);
      if (P.Unknown)
        return false;
      if (P.Found) {
        Witness = P;
        return true;
      }
    }
    return false;
  }
  // Unknown block: smallest first; a size the indexing admits with no
  // collision ends the search.
  bool HaveWitness = false;
  for (unsigned K = 0; K < Shapes.size(); ++K) {
    // A size the indexing does not admit says nothing either way.
    bool Admits = admitted(P.W->Key, K);
    if (!Admits)
      continue;
    evaluate(P, K);
    if (P.Unknown)
      return false;
    if (!P.Found) {
      // A block of two warps may be the one size a tree step's partners
      // stay apart in (`s = blockDim.x / 2` has one step across warps, and
      // a barrier before it): it alone does not clear the pair.
      if (Shapes[K].D.X > 64)
        return false;
      continue;
    }
    Sizes.push_back(unsigned(Shapes[K].D.X));
    if (!HaveWitness) {
      Witness = P;
      HaveWitness = true;
    }
  }
  return HaveWitness;
}

void SharedRaceFinder::FrameSearch::search(RacePair &P) {
  llvm::SmallVector<unsigned, 6> Sizes;
  RacePair Witness = P;
  if (!collides(P, Sizes, Witness))
    return;
  // A pair that meets both in one iteration and through a back edge: does
  // it collide within one iteration (then a barrier between the two is
  // needed, besides the one at the end of the loop body)?
  bool InIteration = P.SameIter;
  if (P.SameIter && P.Crossed) {
    RacePair Q(P.RI, P.WI, *P.R, *P.W);
    Q.SameIter = true;
    Q.WToR = P.WToR;
    Q.RToW = P.RToW;
    splitLoops(Q, M.Guards, Fr);
    llvm::SmallVector<unsigned, 6> QSizes;
    RacePair QWitness = Q;
    InIteration = collides(Q, QSizes, QWitness);
  }
  record(Witness, Sizes, InIteration);
}

/// The innermost if statement with A in one arm and B in the other.
static const Stmt *branchBetween(const Stmt *A, const Stmt *B,
                                 const ParentMap &PM) {
  for (const Stmt *Cur = PM.getParent(A); Cur; Cur = PM.getParent(Cur))
    if (const auto *If = dyn_cast<IfStmt>(Cur); If && If->getElse()) {
      bool AThen = isDescendantOf(A, If->getThen(), PM);
      bool BThen = isDescendantOf(B, If->getThen(), PM);
      bool AElse = isDescendantOf(A, If->getElse(), PM);
      bool BElse = isDescendantOf(B, If->getElse(), PM);
      if ((AThen && BElse) || (AElse && BThen))
        return If;
    }
  return nullptr;
}

void SharedRaceFinder::FrameSearch::record(RacePair &P,
                                           llvm::ArrayRef<unsigned> Sizes,
                                           bool InIteration) {
  const SourceManager &SM = M.Ctx.getSourceManager();
  // Which runs first on the barrier-free path; on both arms of a branch,
  // or both ways round a loop with no barrier, the one written first.
  bool WFirst = P.WToR;
  if (P.WToR == P.RToW)
    WFirst = !SM.isBeforeInTranslationUnit(P.R->anchor()->getBeginLoc(),
                                           P.W->anchor()->getBeginLoc());
  const FrameAccess &F = WFirst ? *P.W : *P.R, &S = WFirst ? *P.R : *P.W;
  SharedRace X;
  X.Func = Fr.F;
  X.First = F.A->E;
  X.Second = S.A->E;
  X.FirstStmt = F.Statement;
  X.SecondStmt = S.Statement;
  X.FirstRole = F.A->R;
  X.SecondRole = S.A->R;
  X.FirstCall = F.Site;
  X.SecondCall = S.Site;
  X.FirstSide = F.Side;
  X.SecondSide = S.Side;
  X.Shared = P.Element.Var;
  X.Byte = P.Element.Byte;
  X.FirstThread = WFirst ? P.WriterTid : P.OtherTid;
  X.SecondThread = WFirst ? P.OtherTid : P.WriterTid;
  X.Shape = Shapes[P.ShapeIdx];
  X.Sizes.assign(Sizes.begin(), Sizes.end());
  const ParentMap &PM = *I->PM;
  if (!P.WToR && !P.RToW && P.RI != P.WI)
    X.Branch = branchBetween(F.anchor(), S.anchor(), PM);
  X.Loop = P.CrossLoop;
  X.LoadedIndex = P.LoadedIndex;
  for (const Frame *Up = &Fr; Up->Call && Up->Parent; Up = Up->Parent)
    X.Callers.push_back(Up->Call);
  X.Fix = placeBarrier(M, Finder.Plain, *I, Fr, X, InIteration && !X.Branch,
                       P.Crossed);
  Finder.Races.push_back(std::move(X));
}

SharedRaceFinder::SharedRaceFinder(LaneModel &M, UniformityAnalysis &Plain)
    : M(M), Plain(Plain), BlockBarrierReach(M.Ctx, /*WarpBarriers=*/false) {}

void SharedRaceFinder::run() {
  if (Ran)
    return;
  Ran = true;
  const SourceManager &SM = M.Ctx.getSourceManager();
  for (const FunctionDecl *F : M.Calls.functions()) {
    if (SM.isInSystemHeader(SM.getExpansionLoc(F->getLocation())))
      continue;
    for (const Frame *Fr : M.Calls.contextsOf(F))
      FrameSearch(*this, *Fr).run();
  }
  // One race per pair of accesses (and of the calls that make them, for
  // the accesses of helpers): the first context's.
  llvm::SmallVector<SharedRace, 8> Merged;
  std::set<std::array<const void *, 4>> Seen;
  for (SharedRace &X : Races)
    if (Seen.insert({X.First, X.Second, X.FirstCall, X.SecondCall}).second)
      Merged.push_back(std::move(X));
  llvm::stable_sort(Merged, [&](const SharedRace &L, const SharedRace &R) {
    return SM.isBeforeInTranslationUnit(L.Second->getExprLoc(),
                                        R.Second->getExprLoc());
  });
  Races = std::move(Merged);
}

} // namespace cuda_tidy
