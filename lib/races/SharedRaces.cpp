//===--- SharedRaces.cpp - Races on shared memory between warps -----------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/races/SharedRaces.h"
#include "lib/races/FrameSearch.h"
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
using races::RacePair;
using races::WriterIndex;

static bool inReach(const ReachSet &Set, Pos Where, bool NonCrossed);

ReachSet SharedRaceFinder::FrameSearch::reachAt(Pos Target,
                                                llvm::ArrayRef<unsigned> SkipFrom) {
  // An access after a helper's last barrier is reached from nothing of
  // this function (the helper's own context pairs what follows it there).
  if (Target.Index > (*Barriers)[Target.Block].size())
    return ReachSet();
  ReachSet Out = M.Facts.reach(*I, Target, M.Guards.enteredLoops(*I), *Barriers,
                               SkipFrom, DeadEdges);
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
  const FunctionDecl *Def = M.Calls.followable(resolveCallee(Call), Fr);
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
        blockBarriers(M, Finder.Plain, CI, *In, /*MayReachBarrier=*/true,
                      Finder.Waits);
    if (!HB)
      continue;
    auto Dead = deadEdges(M, CI, *In, *HB);
    const unsigned Entry = CI.Cfg->getEntry().getBlockID();
    const ReachSet ToExit =
        M.Facts.reach(CI, Pos{CI.Cfg->getExit().getBlockID(), 0},
                      M.Guards.enteredLoops(CI), *HB, {}, Dead);
    auto [It, New] = AfterCall.try_emplace(
        std::pair(Where.Block, Where.Index),
        unsigned((*Barriers)[Where.Block].size() + 1 + AfterCall.size()));
    Table->placeAroundBarriers(
        *I, Call, Where, Pos{Where.Block, It->second}, Def, *In,
        [&](const Access &A) {
          unsigned Sides = 0;
          ReachSet FromEntry = M.Facts.reach(
              CI, A.Where, M.Guards.enteredLoops(CI), *HB, {}, Dead);
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

/// The most threads a block of kernel Root may have: 1024, or fewer by its
/// `__launch_bounds__`.
static uint64_t maxThreads(const FunctionDecl *Root, ASTContext &Ctx) {
  uint64_t MaxThreads = 1024;
  if (std::optional<uint64_t> Bound = launchBoundsMaxThreads(Root, Ctx))
    MaxThreads = std::min(MaxThreads, *Bound);
  return MaxThreads;
}

/// Whether Body reads `threadIdx.y`.
static bool readsThreadIdxY(const Stmt *Body) {
  llvm::SmallVector<const Stmt *, 64> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *ME = dyn_cast<MemberExpr>(S))
      if (std::optional<BuiltinVarRef> Ref = getBuiltinVarRef(ME);
          Ref && Ref->Var == BuiltinVar::ThreadIdx && Ref->Dim == 1)
        return true;
    llvm::append_range(Work, S->children());
  }
  return false;
}

bool SharedRaceFinder::FrameSearch::inferShape(const FunctionDecl *Root) {
  if (!isKernel(Root) || !Root->hasBody() || M.Calls.mayBeLaunched(Root) ||
      !readsThreadIdxY(Root->getBody()))
    return false;
  const uint64_t MaxThreads = maxThreads(Root, M.Ctx);
  static constexpr unsigned Extents[] = {2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
  for (unsigned X : Extents)
    for (unsigned Y : Extents)
      if (X >= 8 && X * Y >= 64 && X * Y <= MaxThreads)
        Shapes.push_back({Dim3{X, Y, 1}, true});
  Table->setShapes(Shapes);
  llvm::DenseMap<unsigned, bool> Memo;
  // Whether the block X x Y fits the indexing; nullopt: not a block.
  auto Fits = [&](unsigned X, unsigned Y) -> std::optional<bool> {
    for (unsigned K = 0; K < Shapes.size(); ++K)
      if (Shapes[K].D.X == X && Shapes[K].D.Y == Y) {
        auto [It, New] = Memo.try_emplace(K, false);
        if (New)
          It->second = fitsShape(K) == Fit::Fits;
        return It->second;
      }
    return std::nullopt;
  };
  // The widest x extent some y extent admits, then the tallest y extent:
  // up to the first that overruns (a wider block only overruns further).
  unsigned BestX = 0, BestY = 0;
  for (unsigned X : Extents) {
    if (X < 8)
      continue;
    if (!Fits(X, std::max(2u, 64 / X)).value_or(false))
      break;
    BestX = X;
  }
  for (unsigned Y : Extents) {
    if (!BestX || BestX * Y < 64)
      continue;
    if (!Fits(BestX, Y).value_or(false))
      break;
    BestY = Y;
  }
  // The indexing bounds both extents: twice the x extent overruns an
  // array (with the fewest rows), and so does twice the y extent (with
  // as wide rows as a block allows).
  auto Overruns = [&](unsigned X, unsigned Y) {
    return !Fits(X, Y).value_or(true);
  };
  const bool Found =
      BestX && BestY &&
      Overruns(2 * BestX, std::max(2u, 32 / BestX)) &&
      Overruns(std::min<unsigned>(BestX, unsigned(MaxThreads / (2 * BestY))),
               2 * BestY);
  if (Found) {
    // The shapes stay as the table knows them (what it computed for the
    // chosen one is kept); only the chosen one is evaluated.
    for (unsigned K = 0; K < Shapes.size(); ++K)
      if (Shapes[K].D.X == BestX && Shapes[K].D.Y == BestY)
        AssumedIdx = K;
    return true;
  }
  Shapes.clear();
  Table->resetShapes(Shapes);
  return false;
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
  if (inferShape(Root)) {
    ShapesKnown = ShapeAssumed = true;
    return;
  }
  const uint64_t MaxThreads = maxThreads(Root, M.Ctx);
  // One warp has no other warp to race with.
  for (unsigned NumThreads : BlockSizes)
    if (NumThreads >= 64 && NumThreads <= MaxThreads)
      Shapes.push_back({Dim3{NumThreads, 1, 1}, false});
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
  Barriers = blockBarriers(M, Finder.Plain, *I, Fr, MayReach, Finder.Waits);
  if (!Barriers)
    return;
  DeadEdges = deadEdges(M, *I, Fr, *Barriers);
  if (MayReach && placeBarrierHelpers()) {
    Acc = Table->accesses();
    if (llvm::none_of(Acc, PlainWrite))
      return;
  }
  Reach.resize(Acc.size());
  ChainLoops = llvm::any_of(
      Chain, [](const CallLevel &L) { return !L.Loops.empty(); });
  StartWork = M.Work;
  auto Splits = [&](unsigned Block) {
    return M.Guards.divergentBranch(*I, Block, Fr, /*WholeBlock=*/true) &&
           !uniformByMemory(Block);
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


bool SharedRaceFinder::FrameSearch::haveShapes() {
  if (!ShapesChosen) {
    // Chosen for the first pair that needs them: inferring a shape from
    // the indexing evaluates every access several times, wasted on a
    // kernel whose barriers already order every pair. That work is not
    // the pairs' budget.
    ShapesChosen = true;
    const uint64_t Before = M.Work;
    chooseShapes();
    if (!Shapes.empty())
      Table->setShapes(Shapes);
    StartWork += M.Work - Before;
  }
  return !Shapes.empty();
}

void SharedRaceFinder::FrameSearch::search(RacePair &P) {
  if (!haveShapes())
    return;
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
  // The loaded element is the other side's (P.R), the writer's is placed.
  X.LoadedFirst = P.LoadedIndex && !WFirst;
  X.ShapeAssumed = ShapeAssumed;
  X.Kernel = rootOf(Fr).F;
  for (const Frame *Up = &Fr; Up->Call && Up->Parent; Up = Up->Parent)
    X.Callers.push_back(Up->Call);
  X.Fix = placeBarrier(M, Finder.Plain, *I, Fr, X, InIteration && !X.Branch,
                       P.Crossed);
  Finder.Races.push_back(std::move(X));
}

SharedRaceFinder::SharedRaceFinder(LaneModel &M, UniformityAnalysis &Plain,
                                   BarrierWalks &Walks)
    : M(M), Plain(Plain), BlockBarrierReach(Walks, /*WarpBarriers=*/false),
      Waits(M) {}

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
  for (SharedRace &Race : Races)
    if (Seen.insert({Race.First, Race.Second, Race.FirstCall, Race.SecondCall})
            .second)
      Merged.push_back(std::move(Race));
  llvm::stable_sort(Merged, [&](const SharedRace &L, const SharedRace &R) {
    return SM.isBeforeInTranslationUnit(L.Second->getExprLoc(),
                                        R.Second->getExprLoc());
  });
  Races = std::move(Merged);
}

} // namespace cuda_tidy
