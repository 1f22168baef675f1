//===--- AccessPairs.cpp - Two accesses between the same barriers ---------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/lanes/AccessPairs.h"
#include "lib/lanes/Guards.h"
#include "lib/lanes/LaneModel.h"

using namespace clang;

namespace cuda_tidy::lanes {

FunctionInfo *openContext(LaneModel &M, const Frame &Fr, CallChain &Chain,
                          std::optional<AccessTable> &Table,
                          TableOptions Opts) {
  FunctionInfo &I = M.Facts.info(Fr.F);
  if (!I.Ok)
    return nullptr;
  M.Facts.accessesOf(I);
  if (I.Accesses.empty() && M.Facts.callsOf(I).empty())
    return nullptr;
  // The callers' side: the lanes that make each call of the context, and
  // the loops around the calls.
  if (!M.Guards.chainOf(Fr, Chain))
    return nullptr;
  bool CallOpaque =
      llvm::any_of(Chain, [](const CallLevel &L) { return L.Opaque; });
  Table.emplace(M, Fr, Chain);
  Table->collect(I, CallOpaque, Opts);
  return &I;
}

bool placePair(AccessPair &P, const ReachSet &RR, const ReachSet &WR,
               FunctionInfo &I, bool ChainLoops, GuardModel &Guards,
               llvm::function_ref<bool(unsigned Block)> Splits,
               bool OwnWithHelpers) {
  const FrameAccess &R = *P.R, &W = *P.W;
  // An access of a helper pairs with one of another call (or, for a client
  // that asks, with one of this function); the helper's own frame pairs
  // those of one call. The parts of a call around its helper's barriers
  // (FrameAccess::Side) pair with everything but the same part of the same
  // call.
  using Part = FrameAccess::Part;
  if (R.Side != Part::Whole || W.Side != Part::Whole) {
    // Two calls in one statement, or an access beside a call: their order
    // around the barriers is not followed.
    if ((R.Site == W.Site && R.Side == W.Side) ||
        (R.Where.Block == W.Where.Block && R.Where.Index == W.Where.Index))
      return false;
  } else if (R.Site && W.Site ? R.Site == W.Site
                              : (R.Site || W.Site) && !OwnWithHelpers) {
    return false;
  }
  if (P.RI == P.WI ||
      (R.Where.Block == W.Where.Block && R.Where.Index == W.Where.Index)) {
    P.SameIter = true;
    return true;
  }
  auto Note = [&](bool C) { (C ? P.Crossed : P.SameIter) = true; };
  // One reaches the other with no barrier in between.
  for (const auto &X : RR.Ranges)
    if (X.Block == W.Where.Block && X.Lo <= W.Where.Index &&
        W.Where.Index < X.Hi) {
      Note(X.Crossed);
      P.WToR = true;
      P.CrossWR |= X.Crossed;
    }
  for (const auto &X : WR.Ranges)
    if (X.Block == R.Where.Block && X.Lo <= R.Where.Index &&
        R.Where.Index < X.Hi) {
      Note(X.Crossed);
      P.RToW = true;
      P.CrossRW |= X.Crossed;
    }
  // Or a branch that splits the threads leads to both (which adds nothing
  // when they already meet in one iteration and no loop is around either).
  const bool Settled =
      P.SameIter && W.Loops.empty() && R.Loops.empty() && !ChainLoops;
  for (const auto &X : Settled ? llvm::ArrayRef<ReachSet::Range>()
                               : llvm::ArrayRef(RR.Ranges))
    for (const auto &Y : WR.Ranges)
      if (X.Block == Y.Block && X.Hi == I.Barrier[X.Block].size() &&
          Y.Hi == X.Hi && Splits(X.Block) &&
          Guards.oppositeArms(I, X.Block, W.anchor(), R.anchor()))
        Note(X.Crossed || Y.Crossed);
  return P.SameIter || P.Crossed;
}

void splitLoops(AccessPair &P, GuardModel &Guards, const Frame &Fr) {
  // Loops: the caller's and those around both (when in one iteration) are
  // shared; the rest vary independently.
  for (const ForStmt *L : P.W->Loops)
    if (!P.Crossed && llvm::is_contained(P.R->Loops, L))
      P.Common.push_back(L);
    else
      P.WOnly.push_back(L);
  for (const ForStmt *L : P.R->Loops)
    if (!llvm::is_contained(P.Common, L))
      P.ROnly.push_back(L);
  // A stride loop around both is enumerated once for the two: in one
  // iteration the sides run the same one, and through the loop's back edge
  // the later side runs the next (with a barrier in the loop, no other
  // iteration runs between the same two barriers; without one, the pair
  // also meets within an iteration). Each iteration moves the lanes'
  // elements on by a step, so iterations further apart are left out.
  if (P.Crossed)
    for (const ForStmt *L : P.W->Loops)
      if (const StrideLoop *SL = Guards.strideIn(L, Fr);
          SL && llvm::is_contained(P.R->Loops, L)) {
        llvm::erase(P.WOnly, L);
        llvm::erase(P.ROnly, L);
        P.Common.insert(P.Common.begin(), L);
        P.SharedStrides.push_back(SL->Var);
      }
  if (P.SharedStrides.empty() || P.SameIter)
    P.Shifts.push_back({0, 0});
  if (!P.SharedStrides.empty() && P.CrossWR)
    P.Shifts.push_back({0, 1});
  if (!P.SharedStrides.empty() && P.CrossRW)
    P.Shifts.push_back({1, 0});
  // Common loops are enumerated outermost first.
  std::reverse(P.Common.begin(), P.Common.end());
  std::reverse(P.WOnly.begin(), P.WOnly.end());
  std::reverse(P.ROnly.begin(), P.ROnly.end());
}

void shiftTrips(const AccessPair &P, Env &E, int64_t By) {
  for (const VarDecl *V : P.SharedStrides)
    if (auto It = E.Trips.find(V); It != E.Trips.end())
      It->second += By;
}

void enumerateCommon(AccessPair &P, GuardModel &Guards, const CallChain &Chain,
                     const Frame &Fr, Env &Base,
                     llvm::function_ref<void(Env &)> Fn) {
  Guards.enumerateChain(Chain, Base, [&](Env &E0) {
    Env E1 = E0;
    Guards.enumerate(P.Common, Fr, E1, [&](Env &E) {
      for (const AccessPair::TripShift &S : P.Shifts) {
        P.Shift = S;
        Fn(E);
      }
      return true;
    });
    return true;
  });
}

} // namespace cuda_tidy::lanes
