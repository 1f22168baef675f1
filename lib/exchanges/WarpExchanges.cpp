//===--- WarpExchanges.cpp - Lanes of a warp exchanging data --------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/exchanges/WarpExchanges.h"
#include "lib/ast/CudaAST.h"
#include "lib/lanes/AccessPairs.h"
#include "lib/lanes/AccessTable.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include <algorithm>
#include <unordered_map>

using namespace clang;

namespace cuda_tidy {

using namespace lanes;

namespace {

/// The elements a warp writes: byte -> (object, lanes). Filled in thread
/// order (the first object seen at a byte keeps it), then sorted once.
struct WarpWriters {
  struct Entry {
    int64_t Byte;
    const void *Key;
    uint32_t Lanes;
  };
  std::vector<Entry> Entries;
  bool Sorted = true;
  void add(int64_t Byte, const void *Key, unsigned Lane) {
    Entries.push_back({Byte, Key, 1u << Lane});
    Sorted = false;
  }
  /// Sorts by byte and merges: per byte, the first object added and the
  /// lanes that wrote it.
  void finish() {
    if (Sorted)
      return;
    Sorted = true;
    auto ByByte = [](const Entry &A, const Entry &B) {
      return A.Byte < B.Byte;
    };
    // Lanes mostly write ascending elements: often sorted already.
    if (!std::is_sorted(Entries.begin(), Entries.end(), ByByte))
      std::stable_sort(Entries.begin(), Entries.end(), ByByte);
    unsigned Out = 0;
    for (unsigned K = 0; K < Entries.size();) {
      Entry E = Entries[K];
      unsigned J = K + 1;
      for (; J < Entries.size() && Entries[J].Byte == E.Byte; ++J)
        if (Entries[J].Key == E.Key)
          E.Lanes |= Entries[J].Lanes;
      Entries[Out++] = E;
      K = J;
    }
    Entries.resize(Out);
  }
  /// The first entry at or after Byte (after finish()).
  const Entry *lowerBound(int64_t Byte) const {
    return std::lower_bound(
        Entries.data(), end(), Byte,
        [](const Entry &E, int64_t B) { return E.Byte < B; });
  }
  const Entry *end() const { return Entries.data() + Entries.size(); }
};

/// The first exchange found: the reader's and a writer's lane and the
/// shared variable.
struct Witness {
  bool Found = false;
  unsigned ReaderLane = 0, WriterLane = 0;
  const VarDecl *Var = nullptr;
};

/// The search for one (read, write) pair of a context: how they meet, and
/// the witnesses found.
struct Pair : AccessPair {
  using AccessPair::AccessPair;
  /// The witness chosen, and for the block size being evaluated the first
  /// in enumeration order and the first of each warp.
  Witness Chosen, PassFirst, WarpFirst[32];
  uint32_t Lanes = 0;
  /// Conditions that could not be evaluated for some lane, per side.
  llvm::SmallPtrSet<const Expr *, 4> UnknownW, UnknownR;
  bool ReadBlockDim = false;
  /// Some thread's evaluation (an address, a guard) read blockDim, rather
  /// than only the loops' values.
  bool ThreadsReadBlockDim = false;
  llvm::ArrayRef<BlockShape> Shapes;
};

/// One valuation of a pair's loops: each loop variable's value and each
/// stride loop's iteration, by variable, then the two sides' shifts.
using Valuation = llvm::SmallVector<int64_t, 8>;

Valuation valuationOf(const Env &E, const AccessPair::TripShift &Shift) {
  Valuation V;
  auto Add = [&](const auto &Map) {
    llvm::SmallVector<std::pair<const VarDecl *, int64_t>, 4> Sorted(
        Map.begin(), Map.end());
    llvm::sort(Sorted, llvm::less_first());
    V.push_back(int64_t(Sorted.size()));
    for (const auto &[Var, Value] : Sorted) {
      V.push_back(int64_t(reinterpret_cast<uintptr_t>(Var)));
      V.push_back(Value);
    }
  };
  Add(E.Loop);
  Add(E.Trips);
  V.push_back(Shift.W);
  V.push_back(Shift.R);
  return V;
}

/// Runs Fn on the threads of an access with E's blockDim reads noted in
/// P.ThreadsReadBlockDim as well as where E notes them.
template <typename FnT>
decltype(auto) threadsOf(Pair &P, Env &E, FnT &&Fn) {
  bool *Loops = E.ReadBlockDim;
  E.ReadBlockDim = &P.ThreadsReadBlockDim;
  decltype(auto) Result = Fn();
  E.ReadBlockDim = Loops;
  if (P.ThreadsReadBlockDim && Loops)
    *Loops = true;
  return Result;
}

} // namespace

/// The exchanges of one context.
class WarpExchangeFinder::FrameSearch {
public:
  FrameSearch(WarpExchangeFinder &Finder, const Frame &Fr, bool EntryKnown,
              llvm::SmallVectorImpl<WarpExchange> &Out)
      : Finder(Finder), M(Finder.M), Fr(Fr), EntryKnown(EntryKnown), Out(Out) {}
  void run();

private:
  /// Past the budget the rest of this context is not analysed, and the
  /// function is recorded so that the check says so.
  bool overBudget() {
    if (!M.MaxWork || M.Work - StartWork <= M.MaxWork)
      return false;
    Finder.CutShort.insert(rootOf(Fr).F);
    return true;
  }
  const ReachSet &reachOf(unsigned K) {
    if (!Reach[K])
      Reach[K] = M.Facts.reach(*I, Table->accesses()[K].Where,
                               M.Guards.enteredLoops(*I));
    return *Reach[K];
  }
  /// Evaluates the pair for every shape; false when the budget ran out.
  bool search(Pair &P);
  /// Evaluates one block shape, adding its loops' valuations to Seen if
  /// given; false when the budget ran out.
  bool runShape(Pair &P, unsigned ShapeIdx,
                std::vector<Valuation> *Seen = nullptr);
  /// Every valuation of the pair's loops in each block smaller than
  /// Shapes[Largest] is one of Largest's (LargestSeen, sorted here).
  bool smallerRepeatLargest(Pair &P, unsigned Largest,
                            std::vector<Valuation> &LargestSeen);
  /// In every valuation of the pair in Shapes[ShapeIdx], both accesses run
  /// in the same lanes of every warp, at elements that move on by the same
  /// bytes from one warp to the next, and nothing read blockDim: each warp
  /// exchanges as the first does.
  bool warpsShifted(Pair &P, unsigned ShapeIdx);
  /// The pair's writers and readers for one valuation of the loops.
  void valuation(Pair &P, Env &E1, unsigned ShapeIdx);
  /// The writers of the pair for E's loop values, per warp.
  const std::vector<WarpWriters> &writers(Pair &P, const Env &E1,
                                          unsigned ShapeIdx,
                                          std::vector<WarpWriters> &Local);
  void addWriters(Pair &P, std::vector<WarpWriters> &Into, Env &E2,
                  unsigned ShapeIdx);
  void record(Pair &P);

  WarpExchangeFinder &Finder;
  LaneModel &M;
  const Frame &Fr;
  bool EntryKnown;
  llvm::SmallVectorImpl<WarpExchange> &Out;
  FunctionInfo *I = nullptr;
  CallChain Chain;
  std::optional<AccessTable> Table;
  llvm::SmallVector<std::optional<ReachSet>, 16> Reach;
  /// A loop is around some call of the chain.
  bool ChainLoops = false;
  llvm::SmallPtrSet<const Stmt *, 16> MaskDone;
  uint64_t StartWork = 0;
  /// The writers of a write access per table entry (shape and loop values).
  std::unordered_map<const AccessThreads *, std::vector<WarpWriters>>
      WriterCache;
};

void WarpExchangeFinder::FrameSearch::run() {
  TableOptions Opts;
  Opts.OwnWithHelpers = true;
  Opts.DependentElements = true;
  I = openContext(M, Fr, Chain, Table, Opts);
  if (!I)
    return;
  llvm::MutableArrayRef<FrameAccess> Acc = Table->accesses();
  if (Acc.size() < 1)
    return;
  Reach.resize(Acc.size());
  ChainLoops =
      llvm::any_of(Chain, [](const CallLevel &L) { return !L.Loops.empty(); });
  StartWork = M.Work;
  for (unsigned RI = 0; RI < Acc.size(); ++RI) {
    FrameAccess &R = Acc[RI];
    // Atomics are for the block-level race finder only.
    if (R.A->R == Role::Write || R.A->R == Role::Atomic || R.A->SharedScalar)
      continue;
    for (unsigned WI = 0; WI < Acc.size(); ++WI) {
      FrameAccess &W = Acc[WI];
      if (W.A->R == Role::Read || W.A->R == Role::Atomic || W.A->SharedScalar ||
          W.Key != R.Key)
        continue;
      if (overBudget())
        return;
      Pair P(RI, WI, R, W);
      if (!placePair(
              P, reachOf(RI), reachOf(WI), *I, ChainLoops, M.Guards,
              [&](unsigned Block) {
                return M.Guards.divergentBranch(*I, Block, Fr);
              },
              /*OwnWithHelpers=*/true))
        continue;
      splitLoops(P, M.Guards, Fr);
      if (!search(P))
        return;
      if (!P.Chosen.Found)
        continue;
      // A condition the model cannot evaluate that guards both accesses
      // (`if (cta.thread_rank() == 0)` were it not understood, or a loaded
      // flag) may let a single lane through: silent for what it guards.
      if (llvm::any_of(P.UnknownR,
                       [&](const Expr *C) { return P.UnknownW.contains(C); }))
        continue;
      record(P);
    }
  }
}

bool WarpExchangeFinder::FrameSearch::search(Pair &P) {
  P.Shapes = M.Calls.blockShapes(Fr);
  Table->setShapes(P.Shapes);
  // The largest block first. When no evaluation read blockDim, each
  // thread's guards and addresses do not depend on the block size and a
  // smaller block is the first warps of this one: the first exchange of
  // the smallest block that has one is the first of the lowest warp that
  // has one, and the lanes of all sizes are this block's.
  if (P.Shapes.front().Known) {
    // The shapes the code launches: each is evaluated.
    for (unsigned K = 0; K < P.Shapes.size(); ++K) {
      if (!runShape(P, K))
        return false;
      if (!P.Chosen.Found)
        P.Chosen = P.PassFirst;
    }
    return true;
  }
  const unsigned Largest = P.Shapes.size() - 1;
  // Where every warp of the largest block exchanges as the first does and
  // nothing read blockDim, the block of one warp (the first warp of every
  // size) answers for all.
  if (Largest > 0 && P.Shapes.front().D.product() == 32 &&
      warpsShifted(P, Largest)) {
    if (!runShape(P, 0))
      return false;
    if (!P.ReadBlockDim) {
      P.Chosen = P.WarpFirst[0];
      return true;
    }
  }
  std::vector<Valuation> LargestSeen;
  if (!runShape(P, Largest, &LargestSeen))
    return false;
  if (!P.ReadBlockDim) {
    for (const Witness &F : P.WarpFirst)
      if (F.Found) {
        P.Chosen = F;
        break;
      }
    return true;
  }
  // Only the loops read blockDim (`for (k = blockDim.x / 2; ...)`): a
  // thread's lanes and addresses for given loop values are the same in
  // every block size, and a smaller block is the first warps of this one.
  // When this block exchanges nowhere and each smaller block's loop values
  // are among this one's, no smaller block exchanges either.
  if (!P.Chosen.Found && !P.PassFirst.Found && !P.ThreadsReadBlockDim &&
      P.WOnly.empty() && P.ROnly.empty() &&
      smallerRepeatLargest(P, Largest, LargestSeen))
    return true;
  // Otherwise each smaller size is evaluated, smallest first.
  Witness LargestFirst = P.PassFirst;
  for (unsigned K = 0; K < Largest; ++K) {
    if (!runShape(P, K))
      return false;
    if (!P.Chosen.Found)
      P.Chosen = P.PassFirst;
  }
  if (!P.Chosen.Found)
    P.Chosen = LargestFirst;
  return true;
}

bool WarpExchangeFinder::FrameSearch::runShape(Pair &P, unsigned ShapeIdx,
                                               std::vector<Valuation> *Seen) {
  P.PassFirst = Witness();
  for (Witness &F : P.WarpFirst)
    F = Witness();
  Env Base;
  setShape(Base, P.Shapes[ShapeIdx]);
  Base.ReadBlockDim = &P.ReadBlockDim;
  enumerateCommon(P, M.Guards, Chain, Fr, Base, [&](Env &E) {
    if (Seen)
      Seen->push_back(valuationOf(E, P.Shift));
    valuation(P, E, ShapeIdx);
  });
  return !overBudget();
}

bool WarpExchangeFinder::FrameSearch::smallerRepeatLargest(
    Pair &P, unsigned Largest, std::vector<Valuation> &LargestSeen) {
  auto Collect = [&](unsigned ShapeIdx, std::vector<Valuation> &Out) {
    Env Base;
    setShape(Base, P.Shapes[ShapeIdx]);
    bool ReadsBlockDim = false;
    Base.ReadBlockDim = &ReadsBlockDim;
    enumerateCommon(P, M.Guards, Chain, Fr, Base,
                    [&](Env &E) { Out.push_back(valuationOf(E, P.Shift)); });
  };
  llvm::sort(LargestSeen);
  for (unsigned K = 0; K < Largest; ++K) {
    std::vector<Valuation> Smaller;
    Collect(K, Smaller);
    for (const Valuation &V : Smaller)
      if (!std::binary_search(LargestSeen.begin(), LargestSeen.end(), V))
        return false;
  }
  return true;
}

bool WarpExchangeFinder::FrameSearch::warpsShifted(Pair &P, unsigned ShapeIdx) {
  bool Ok = true, ReadsBlockDim = false;
  std::optional<int64_t> Stride;
  auto Check = [&](unsigned AI, Env &E) {
    std::optional<AccessTable::WarpLayout> L =
        Table->warpLayout(AI, ShapeIdx, E);
    if (!L || !L->SameLanes || (L->Lanes && Stride && *Stride != L->Stride))
      Ok = false;
    else if (L->Lanes)
      Stride = L->Stride;
    return Ok;
  };
  Env Base;
  setShape(Base, P.Shapes[ShapeIdx]);
  Base.ReadBlockDim = &ReadsBlockDim;
  enumerateCommon(P, M.Guards, Chain, Fr, Base, [&](Env &E1) {
    if (!Ok)
      return;
    Env EW = E1;
    shiftTrips(P, EW, P.Shift.W);
    M.Guards.enumerate(P.WOnly, Fr, EW,
                       [&](Env &E2) { return Check(P.WI, E2); });
    Env ER = E1;
    shiftTrips(P, ER, P.Shift.R);
    M.Guards.enumerate(P.ROnly, Fr, ER,
                       [&](Env &E2) { return Check(P.RI, E2); });
  });
  return Ok && !ReadsBlockDim && !overBudget();
}

void WarpExchangeFinder::FrameSearch::addWriters(Pair &P,
                                                 std::vector<WarpWriters> &Into,
                                                 Env &E2, unsigned ShapeIdx) {
  AccessThreads &C = threadsOf(
      P, E2, [&]() -> AccessThreads & {
        return Table->threads(P.WI, ShapeIdx, E2, P.UnknownW);
      });
  for (const auto &[Tid, Ad] : C.Threads)
    Into[Tid / 32].add(Ad.Byte, Ad.Key, Tid % 32);
}

const std::vector<WarpWriters> &
WarpExchangeFinder::FrameSearch::writers(Pair &P, const Env &E1,
                                         unsigned ShapeIdx,
                                         std::vector<WarpWriters> &Local) {
  const unsigned BD = unsigned(P.Shapes[ShapeIdx].D.product());
  Env EW = E1;
  shiftTrips(P, EW, P.Shift.W);
  if (P.WOnly.empty()) {
    // One table entry: its writers are made once.
    AccessThreads &C = Table->entry(P.WI, ShapeIdx, EW);
    auto [It, New] = WriterCache.try_emplace(&C);
    if (New) {
      It->second.resize((BD + 31) / 32);
      addWriters(P, It->second, EW, ShapeIdx);
      for (WarpWriters &WW : It->second)
        WW.finish();
    } else {
      // The writer's unknown conditions and blockDim reads.
      threadsOf(P, EW, [&]() -> AccessThreads & {
        return Table->threads(P.WI, ShapeIdx, EW, P.UnknownW);
      });
    }
    return It->second;
  }
  Local.resize((BD + 31) / 32);
  M.Guards.enumerate(P.WOnly, Fr, EW, [&](Env &E2) {
    addWriters(P, Local, E2, ShapeIdx);
    return !overBudget();
  });
  for (WarpWriters &WW : Local)
    WW.finish();
  return Local;
}

void WarpExchangeFinder::FrameSearch::valuation(Pair &P, Env &E1,
                                                unsigned ShapeIdx) {
  // Writers of this valuation, per warp: byte -> (object, lanes).
  std::vector<WarpWriters> Local;
  const std::vector<WarpWriters> &Writers = writers(P, E1, ShapeIdx, Local);
  ASTContext &Ctx = M.Ctx;
  const int64_t WSize = accessSize(Ctx, *P.W->A);
  const int64_t RSize = accessSize(Ctx, *P.R->A);
  auto Visit = [&](unsigned Tid, const Address &Ad) {
    const WarpWriters &WarpW = Writers[Tid / 32];
    if (WarpW.Entries.empty())
      return;
    for (auto *It = WarpW.lowerBound(Ad.Byte - WSize + 1);
         It != WarpW.end() && It->Byte < Ad.Byte + RSize; ++It) {
      if (It->Key != Ad.Key)
        continue;
      uint32_t Others = It->Lanes & ~(1u << (Tid % 32));
      if (!Others)
        continue;
      Witness &F = P.WarpFirst[Tid / 32];
      if (!F.Found) {
        F.Found = true;
        F.ReaderLane = Tid % 32;
        F.WriterLane = llvm::countr_zero(Others);
        F.Var = Ad.Var;
        if (!P.PassFirst.Found)
          P.PassFirst = F;
      }
      P.Lanes |= Others | (1u << (Tid % 32));
    }
  };
  Env ER = E1;
  shiftTrips(P, ER, P.Shift.R);
  M.Guards.enumerate(P.ROnly, Fr, ER, [&](Env &E2) {
    // The readers of the warps that have writers.
    AccessThreads &C = threadsOf(P, E2, [&]() -> AccessThreads & {
      return Table->threads(P.RI, ShapeIdx, E2, P.UnknownR);
    });
    for (unsigned Wp = 0; Wp < Writers.size(); ++Wp)
      if (!Writers[Wp].Entries.empty())
        for (const auto &[Tid, Ad] : C.warp(Wp))
          Visit(Tid, Ad);
    return !overBudget();
  });
}

void WarpExchangeFinder::FrameSearch::record(Pair &P) {
  const FrameAccess &R = *P.R, &W = *P.W;
  WarpExchange X;
  X.Func = Fr.F;
  X.Read = R.A->E;
  X.Write = W.A->E;
  X.ReadStmt = R.Statement;
  X.WriteStmt = W.Statement;
  X.ReadCall = R.Site;
  X.WriteCall = W.Site;
  X.Shared = P.Chosen.Var;
  X.Global = P.Chosen.Var && isa<ParmVarDecl>(P.Chosen.Var);
  X.Via = Fr.Call;
  if (M.Calls.uncalledWarpHelper(rootOf(Fr).F)) {
    X.AssumedHelper = rootOf(Fr).F;
    for (const ParmVarDecl *PV : X.AssumedHelper->parameters())
      if (CallContexts::assumedThreadIndex(PV)) {
        X.AssumedIndex = PV;
        break;
      }
  }
  if (Fr.Parent)
    for (const Frame *Up = Fr.Parent; Up->Call && Up->Parent; Up = Up->Parent)
      X.Callers.push_back(Up->Call);
  X.ReaderLane = P.Chosen.ReaderLane;
  X.WriterLane = P.Chosen.WriterLane;
  X.Lanes = P.Lanes;
  X.WriteReachesRead = P.WToR;
  X.ReadReachesWrite = P.RToW;
  if (P.WToR)
    X.WriteMeet = M.Guards.meetOf(W.Statement, R.Statement, *I);
  if (P.RToW)
    X.ReadMeet = M.Guards.meetOf(R.Statement, W.Statement, *I);
  Out.push_back(X);
  // The statements' lane masks in this context. (Once per statement: the
  // mask depends on the statement and this frame only, and a statement
  // takes part in many exchanges.)
  for (const Stmt *S : {R.Statement, W.Statement, X.WriteMeet, X.ReadMeet})
    if (S && MaskDone.insert(S).second)
      Finder.mergeMask(S, M.frameMask(S, Fr, EntryKnown));
}

void WarpExchangeFinder::mergeMask(const Stmt *S,
                                   std::optional<uint32_t> Mask) {
  auto [It, New] = Masks.try_emplace(S, Mask);
  if (New)
    return;
  std::optional<uint32_t> &Old = It->second;
  if (!Old || !Mask)
    Old = std::nullopt;
  else if (*Old == 0)
    Old = Mask;
  else if (*Mask != 0 && *Mask != *Old)
    Old = std::nullopt;
}

void WarpExchangeFinder::run() {
  if (Ran)
    return;
  Ran = true;
  const SourceManager &SM = M.Ctx.getSourceManager();
  llvm::SmallVector<WarpExchange, 8> Found;
  for (const FunctionDecl *F : M.Calls.functions()) {
    if (SM.isInSystemHeader(SM.getExpansionLoc(F->getLocation())))
      continue;
    for (const Frame *Fr : M.Calls.contextsOf(F))
      FrameSearch(*this, *Fr, isKernel(rootOf(*Fr).F), Found).run();
  }
  // One exchange per (read, write) pair; the first context's witness.
  llvm::SmallVector<WarpExchange, 8> Merged;
  llvm::DenseMap<std::pair<const Expr *, const Expr *>, unsigned> Index;
  for (const WarpExchange &X : Found) {
    auto [Slot, New] = Index.try_emplace({X.Read, X.Write}, Merged.size());
    if (New) {
      Merged.push_back(X);
      continue;
    }
    WarpExchange *It = &Merged[Slot->second];
    It->Lanes |= X.Lanes;
    It->WriteReachesRead |= X.WriteReachesRead;
    It->ReadReachesWrite |= X.ReadReachesWrite;
  }
  llvm::stable_sort(Merged, [&](const WarpExchange &L, const WarpExchange &R) {
    return SM.isBeforeInTranslationUnit(L.Read->getExprLoc(),
                                        R.Read->getExprLoc());
  });
  Exchanges = std::move(Merged);
}

std::optional<uint32_t> WarpExchangeFinder::statementMask(const Stmt *S) const {
  auto It = Masks.find(S);
  if (It == Masks.end())
    return std::nullopt;
  return It->second;
}

} // namespace cuda_tidy
