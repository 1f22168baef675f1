//===--- AccessPairs.h - Two accesses between the same barriers -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the clients of the lane model that pair accesses share: whether a
/// write W and another access R of one context can run between the same two
/// barriers, and for which loop values. They can when some program point
/// reaches both with no barrier in between: one reaches the other (in one
/// iteration, or through a loop's back edge), or a branch that splits the
/// threads leads to both arms. Which elements count as barriers (warp or
/// block) and which branches split (warp-divergent, thread-varying) is the
/// client's: it passes the reach sets and the split test.
///
/// Loops: loops around both are enumerated once for the two when they meet
/// in one iteration; through a back edge each side's loops vary
/// independently, except a stride loop around both, whose sides run the
/// same iteration or consecutive ones (each iteration moves the threads'
/// elements on by a step).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_LANES_ACCESSPAIRS_H
#define CUDA_TIDY_LIB_LANES_ACCESSPAIRS_H

#include "lib/lanes/AccessTable.h"
#include "lib/lanes/ModelTypes.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace cuda_tidy::lanes {

class GuardModel;

/// A write W and another access R of one context, and how they meet.
struct AccessPair {
  AccessPair(unsigned RI, unsigned WI, FrameAccess &R, FrameAccess &W)
      : RI(RI), WI(WI), R(&R), W(&W) {}
  /// Indices in the context's AccessTable.
  unsigned RI, WI;
  FrameAccess *R, *W;
  /// They can run in one iteration, or through a back edge; a barrier-free
  /// path leads from the write to R (WToR), from R to the write (RToW),
  /// through a back edge (CrossWR, CrossRW).
  bool SameIter = false, Crossed = false, WToR = false, RToW = false;
  bool CrossWR = false, CrossRW = false;
  /// Loops around both (enumerated once for the two), and the rest.
  llvm::SmallVector<const clang::ForStmt *, 4> Common, WOnly, ROnly;
  /// Stride loops around both whose sides may run consecutive iterations,
  /// and the iteration shifts of the write's and R's sides.
  llvm::SmallVector<const clang::VarDecl *, 2> SharedStrides;
  struct TripShift {
    int64_t W = 0, R = 0;
  };
  llvm::SmallVector<TripShift, 3> Shifts;
  TripShift Shift;
};

/// Whether the pair can run between the same two barriers, and in which
/// iterations: fills P's flags from the reach sets of its two sides
/// (FunctionFacts::reach with the client's barriers). Splits(Block): the
/// branch that ends Block sends threads that must be told apart down
/// different arms. With Settled, a branch is not looked at when the two
/// already meet in one iteration and no loop is around either
/// (ChainLoops: a loop is around some call of the context). An access of
/// a helper pairs with one of another call, and with OwnWithHelpers (the
/// table collected so) with one of the frame's own function too.
/// The first steps of a pair finder in the context Fr: the function's
/// facts and accesses, the callers' chain (Chain) and the access table
/// (Table, collected). Null when the context has nothing to pair.
FunctionInfo *openContext(LaneModel &M, const Frame &Fr, CallChain &Chain,
                          std::optional<AccessTable> &Table,
                          TableOptions Opts = {});

bool placePair(AccessPair &P, const ReachSet &RR, const ReachSet &WR,
               FunctionInfo &I, bool ChainLoops, GuardModel &Guards,
               llvm::function_ref<bool(unsigned Block)> Splits,
               bool OwnWithHelpers = false);

/// Fills P's loops and iteration shifts (see the file comment).
void splitLoops(AccessPair &P, GuardModel &Guards, const Frame &Fr);

/// Moves the iterations of P's shared stride loops in E on by By.
void shiftTrips(const AccessPair &P, Env &E, int64_t By);

/// Calls Fn for each valuation of the loops around the calls of Chain and
/// of P's common loops, once per shift (P.Shift set), from Base.
void enumerateCommon(AccessPair &P, GuardModel &Guards, const CallChain &Chain,
                     const Frame &Fr, Env &Base,
                     llvm::function_ref<void(Env &)> Fn);

} // namespace cuda_tidy::lanes

#endif // CUDA_TIDY_LIB_LANES_ACCESSPAIRS_H
