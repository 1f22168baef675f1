//===--- RaceShapes.cpp - The block sizes a pair of accesses races in -----===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// SharedRaceFinder's evaluation of one pair of accesses for the block
// shapes of the context: the writers of each element, whether a thread of
// another warp reaches it, which block sizes the kernel's indexing admits
// (a kernel written for one warp, an array a larger block would overrun),
// and the sizes the pair collides in.
//
//===----------------------------------------------------------------------===//

#include "lib/races/FrameSearch.h"
#include "lib/races/LoadedIndex.h"
#include "clang/AST/ASTContext.h"

using namespace clang;

namespace cuda_tidy {

using namespace lanes;
using races::RacePair;
using races::WriterIndex;

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
  bool ReadsBlockDim = false;
  Base.ReadBlockDim = &ReadsBlockDim;
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
        if (std::optional<std::pair<unsigned, const WriterIndex::Entry *>>
                Hit = loadedCollision(Writers, C)) {
          const auto [Tid, E] = *Hit;
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

std::optional<std::pair<unsigned, const WriterIndex::Entry *>>
SharedRaceFinder::FrameSearch::loadedCollision(const WriterIndex &Writers,
                                               const AccessThreads &C) {
  // Any element: the first unplaced thread meets any writer of another
  // warp.
  const int64_t Mod = C.UnplacedModulus;
  using Hit = std::pair<unsigned, const WriterIndex::Entry *>;
  auto Any = [&](unsigned Tid) -> std::optional<Hit> {
    if (const WriterIndex::Entry *E = Writers.anyOtherWarp(C.UnplacedKey, Tid))
      return Hit(Tid, E);
    return std::nullopt;
  };
  if (Mod <= 0)
    return Any(C.Unplaced.front());
  // A row not known, the place in it known (`cnt[bin][t]`): only writers
  // at that place of some row, of another warp.
  auto Place = [Mod](int64_t Byte) { return (Byte % Mod + Mod) % Mod; };
  // Per place: its first writer's entry, and an entry with a writer of
  // another warp than that one (the same entry when it has one).
  struct PlaceWriters {
    const WriterIndex::Entry *First = nullptr, *Other = nullptr;
  };
  llvm::DenseMap<int64_t, PlaceWriters> ByPlace;
  for (const WriterIndex::Entry &E : Writers.Entries) {
    if (E.Key != C.UnplacedKey)
      continue;
    PlaceWriters &W = ByPlace[Place(E.Byte)];
    if (!W.First)
      W.First = &E;
    if (!W.Other && (E.Other >= 0 || E.First / 32 != W.First->First / 32))
      W.Other = &E;
  }
  for (unsigned K = 0; K < C.Unplaced.size(); ++K) {
    const unsigned Tid = C.Unplaced[K];
    if (C.UnplacedBytes[K] == AccessThreads::NoPlace) {
      if (auto Found = Any(Tid))
        return Found;
      continue;
    }
    auto It = ByPlace.find(Place(C.UnplacedBytes[K]));
    if (It == ByPlace.end())
      continue;
    const PlaceWriters &W = It->second;
    if (W.First->First / 32 != Tid / 32)
      return Hit(Tid, W.First);
    if (W.Other)
      return Hit(Tid, W.Other);
  }
  return std::nullopt;
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
  bool Differs = false, ReadsBlockDim = false;
  const unsigned Warps = unsigned((Shapes[K].D.product() + 31) / 32);
  for (unsigned AI = 0; AI < Acc.size() && !Differs; ++AI) {
    if (Acc[AI].Global)
      continue;
    Env Base;
    setShape(Base, Shapes[K]);
    Base.FirstTripOfUnknownStride = true;
    Base.ReadBlockDim = &ReadsBlockDim;
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
  return {Differs, !ReadsBlockDim};
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
  for (unsigned AI = 0; AI < Acc.size() && Ok; ++AI)
    if (Acc[AI].Key == Key && !Acc[AI].Global)
      Ok = staysInside(AI, K, /*Dimensions=*/false);
  Admitted[{Key, K}] = Ok;
  return Ok;
}

SharedRaceFinder::FrameSearch::Fit
SharedRaceFinder::FrameSearch::fitsShape(unsigned K) {
  llvm::MutableArrayRef<FrameAccess> Acc = Table->accesses();
  bool Ok = true;
  for (unsigned AI = 0; AI < Acc.size() && Ok; ++AI)
    if (!Acc[AI].Global && !Acc[AI].Opaque)
      Ok = staysInside(AI, K, /*Dimensions=*/true);
  return Ok ? Fit::Fits : Fit::Overruns;
}

bool SharedRaceFinder::FrameSearch::staysInside(unsigned AI, unsigned K,
                                                bool Dimensions) {
  const FrameAccess &A = Table->accesses()[AI];
  const int64_t Size =
      M.Ctx.getTypeSizeInChars(A.A->E->getType()).getQuantity();
  Env Base;
  setShape(Base, Shapes[K]);
  Base.FirstTripOfUnknownStride = true;
  llvm::SmallVector<const ForStmt *, 2> Loops(A.Loops.rbegin(), A.Loops.rend());
  bool Ok = true;
  M.Guards.enumerateChain(Chain, Base, [&](Env &E0) {
    Env E1 = E0;
    M.Guards.enumerate(Loops, Fr, E1, [&](Env &E) {
      llvm::SmallPtrSet<const Expr *, 4> Unknown;
      const AccessThreads &C = Table->threads(AI, K, E, Unknown);
      for (const auto &[Tid, Ad] : C.Threads) {
        if (!Ad.Var || Ad.Var->getType()->isIncompleteType() ||
            Ad.Var->getType()->isDependentType())
          continue;
        const int64_t Bytes =
            M.Ctx.getTypeSizeInChars(Ad.Var->getType()).getQuantity();
        if (Ad.Byte < 0 || Ad.Byte + Size > Bytes)
          Ok = false;
      }
      Ok = Ok && (!Dimensions || dimensionsFit(A, E, C.Threads));
      return Ok;
    });
    return Ok;
  });
  return Ok;
}

bool SharedRaceFinder::FrameSearch::dimensionsFit(
    const FrameAccess &A, const Env &E,
    llvm::ArrayRef<std::pair<unsigned, Address>> Threads) {
  // The subscripts of array dimensions, innermost first (`tile[r][c]`: c
  // within 33, r within 32).
  llvm::SmallVector<std::pair<const Expr *, uint64_t>, 3> Dims;
  for (const Expr *X = A.A->E->IgnoreParens();
       const auto *ASE = dyn_cast<ArraySubscriptExpr>(X);) {
    const Expr *Array = ASE->getBase()->IgnoreParenImpCasts();
    if (const auto *AT = M.Ctx.getAsConstantArrayType(Array->getType()))
      Dims.push_back({ASE->getIdx(), AT->getSize().getZExtValue()});
    X = Array;
  }
  const Frame &AF = A.frame(Fr);
  for (size_t I = 0; I < Threads.size() && !Dims.empty();) {
    // One warp's threads at a time.
    const unsigned Warp = Threads[I].first / 32;
    uint32_t Lanes = 0;
    for (; I < Threads.size() && Threads[I].first / 32 == Warp; ++I)
      Lanes |= 1u << (Threads[I].first % 32);
    Env EW = E;
    EW.Tid = int64_t(Warp) * 32;
    for (const auto &Dim : Dims) {
      const uint64_t Extent = Dim.second;
      const Vals V = M.Values.evalW(Dim.first, AF, EW, Lanes);
      bool Out = false;
      forLanes(V.Valid, [&](unsigned L) {
        Out |= V.V[L] < 0 || uint64_t(V.V[L]) >= Extent;
      });
      if (Out)
        return false;
    }
  }
  return true;
}

bool SharedRaceFinder::FrameSearch::collides(RacePair &P,
                                             llvm::SmallVectorImpl<unsigned> &Sizes,
                                             RacePair &Witness) {
  if (ShapesKnown) {
    // The shapes the code launches: a race in one is a race. An assumed
    // shape is the one of the candidates evaluated.
    const unsigned From = ShapeAssumed ? AssumedIdx : 0;
    const unsigned To = ShapeAssumed ? AssumedIdx + 1 : unsigned(Shapes.size());
    for (unsigned K = From; K < To; ++K) {
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

} // namespace cuda_tidy
