//===--- SharedRaces.h - Races on shared memory between warps ---*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The block-level race finder, a client of the lane model
/// (lib/lanes/LaneModel.h) and of the uniformity analysis, for
/// cuda-shared-memory-race.
///
/// Model: two accesses of a context (a function in one call chain from a
/// kernel, the accesses of barrier-free helpers placed at their calls, and
/// those of helpers that hold block barriers counted here split at the
/// call: the accesses before the helper's first barrier at the call, those
/// after its last barrier just past it) to the same `__shared__` memory
/// race when
///  - one is a plain (non-atomic) write, the other a read, a plain write or
///    an atomic (`atomicAdd(&s[i], v)`); atomics against atomics do not
///    race; one plain write every thread makes to one element is left out
///    (a flag set by many threads is a benign write-write race);
///  - they can run between the same two block barriers (AccessPairs.h):
///    one reaches the other with no block barrier in between, in one
///    iteration or through a loop's back edge, or a thread-varying branch
///    sends threads down both arms. A block barrier is `__syncthreads` and
///    its `_count/_and/_or` forms, cooperative groups' block, cluster and
///    grid `sync`, `bar.sync`/`barrier.sync` for the whole block in inline
///    asm, `cuda::barrier` arrive-and-wait (or wait after arrive), or a call that reaches one,
///    and it counts only where the uniformity analysis proves that every
///    thread of the block reaches it in the context (a barrier that
///    cuda-divergent-barrier reports separates nothing); `sync()` of a
///    local `thread_group` made from the block is one too. A call to a user
///    function whose body is not visible counts as a barrier (it may hold
///    one), and so does a completed mbarrier wait (MbarrierWaits.h). A
///    branch whose condition reads only memory the block agrees on
///    (UniformBranches.cpp) does not send threads down both arms. The
///    false edge of an `if` around a barrier whose condition
///    holds wherever it is tested is not taken (BlockBarriers.h,
///    deadEdges);
///  - for a block shape, two threads of *different warps* touch
///    overlapping bytes of one element (pairs within one warp are
///    cuda-implicit-warp-synchronization's); an access whose element comes
///    from a value read from memory (`atomicAdd(&hist[bin], 1)`,
///    LoadedIndex.h) may touch any element the other access writes in
///    another warp (where only a row index is loaded, `cnt[bin][t]`, only
///    the elements at its place in a row: AccessThreads::UnplacedBytes).
///    Through a loop's back edge, the loops around that loop
///    whose own back edge a barrier stops run one iteration on both sides
///    (the steps of a tree whose step is a stride loop).
///
/// Accesses in code the CFG does not reach (a constant condition of the
/// instantiation cuts it off) are left out.
///
/// Block shapes: those of the kernel's launches in the translation unit,
/// else the cuda.BlockDim option, else every size from 64 to 1024 (up to
/// `__launch_bounds__`) that the kernel's own indexing admits (no access
/// to a shared array of fixed size falls outside it): a pair is reported
/// only when it collides for every admitted size of more than two warps
/// (a tree over `blockDim.x / 2` crosses warps in one step only at 64),
/// with the sizes said. A kernel that reads threadIdx.y and that nothing in
/// the translation unit may launch (and no cuda.BlockDim) is evaluated for
/// the one two-dimensional block its indexing fills, where there is one:
/// the widest x extent (8 to 1024) that some y extent admits, then the
/// tallest y extent (2 up) that admits with it, every subscript of an
/// array dimension within the dimension and every element within its
/// object; doubling either extent must overrun an array (or exceed 1024
/// threads). A 16 x 16 tiled multiply (`As[ty][tx]` of `float As[16][16]`)
/// gives 16 x 16; a transpose through `tile[32][33]` stepping `j += 8`
/// gives 32 x 8. The warning says the shape is assumed.
///
/// Left out (each silences, never adds, a finding): an access whose lanes
/// are unknown (a condition the model cannot evaluate, a loop on a varying
/// condition, a switch or jump), everything the lane model leaves out
/// (LaneModel.h), atomics through pointer arithmetic (`atomicAdd(s + i,
/// 1)`), accesses to global memory; of a helper that holds barriers, the
/// accesses under its loops and those of the helpers it calls, and a call
/// in the same CFG element as the access it would pair with.
///
/// The fix: `__syncthreads();` at a point every thread of the block
/// reaches (proven by the uniformity analysis) between the two accesses:
/// before the statement, in the innermost block that holds both, that
/// holds the second; at the end of the loop body for a race through the
/// loop's back edge; a plain assignment that reads and writes the raced
/// element is split through a temporary. Otherwise the finding says why
/// not.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_RACES_SHAREDRACES_H
#define CUDA_TIDY_LIB_RACES_SHAREDRACES_H

#include "lib/lanes/AccessTable.h"
#include "lib/lanes/LaneModel.h"
#include "lib/races/MbarrierWaits.h"
#include "lib/uniformity/BarrierReach.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <string>

namespace cuda_tidy {

class UniformityAnalysis;

/// Where a `__syncthreads();` goes to order a race, or why none can.
struct BarrierFix {
  /// Insert before this statement (a child of Scope)...
  const clang::Stmt *Before = nullptr;
  const clang::CompoundStmt *Scope = nullptr;
  /// ...or at the end of this compound statement (a loop body).
  const clang::CompoundStmt *AtEndOf = nullptr;
  /// Or split this assignment: `T v = rhs; __syncthreads(); lhs = v;`.
  const clang::BinaryOperator *Split = nullptr;
  /// Why there is no fix, when there is none.
  std::string WhyNot;
};

/// Two accesses to the same shared element by threads of different warps
/// of a block with no block barrier between them.
struct SharedRace {
  /// The function whose body holds both (as its context sees them).
  const clang::FunctionDecl *Func = nullptr;
  /// The access that runs first on the barrier-free path, and the second
  /// (where the warning goes), with their statements in Func and roles.
  const clang::Expr *First = nullptr, *Second = nullptr;
  const clang::Stmt *FirstStmt = nullptr, *SecondStmt = nullptr;
  lanes::Role FirstRole = lanes::Role::Read, SecondRole = lanes::Role::Read;
  /// For an access of a helper called from Func: the call, and where in
  /// it for a helper that holds barriers (FrameAccess::Side).
  const clang::CallExpr *FirstCall = nullptr, *SecondCall = nullptr;
  lanes::FrameAccess::Part FirstSide = lanes::FrameAccess::Part::Whole,
                           SecondSide = lanes::FrameAccess::Part::Whole;
  /// The shared variable, and the raced element's byte offset in it.
  const clang::VarDecl *Shared = nullptr;
  int64_t Byte = 0;
  /// A witness: the linear thread indices that collide, in Shape.
  unsigned FirstThread = 0, SecondThread = 0;
  lanes::BlockShape Shape;
  /// The block sizes for which the pair collides, when the kernel's block
  /// is not known (the sizes its indexing admits); empty when it is.
  llvm::SmallVector<unsigned, 6> Sizes;
  /// The second access runs in the next iteration of this loop (a race
  /// through its back edge); or the two are on the arms of this branch.
  const clang::Stmt *Loop = nullptr;
  const clang::Stmt *Branch = nullptr;
  /// One access's element comes from a loaded value: some input makes it
  /// the element a thread of another warp writes. LoadedFirst: that access
  /// is the first (else the second).
  bool LoadedIndex = false;
  bool LoadedFirst = false;
  /// Shape is assumed from the kernel's indexing: no launch is in sight.
  bool ShapeAssumed = false;
  /// The kernel the context starts from.
  const clang::FunctionDecl *Kernel = nullptr;
  /// The calls that lead to Func (innermost first), when it is not a kernel.
  llvm::SmallVector<const clang::CallExpr *, 2> Callers;
  BarrierFix Fix;
};

/// Finds the shared-memory races between warps of one translation unit.
class SharedRaceFinder {
public:
  /// Plain: the uniformity analysis with default options (it proves the
  /// barriers every thread reaches).
  SharedRaceFinder(lanes::LaneModel &M, UniformityAnalysis &Plain,
                   BarrierWalks &Walks);

  /// Analyses every device function (once).
  void run();
  /// In source order of the second access; one per (first, second) pair.
  llvm::ArrayRef<SharedRace> races() const { return Races; }
  /// Kernels whose analysis the work budget cut short.
  llvm::ArrayRef<const clang::FunctionDecl *> cutShort() const {
    return CutShort;
  }

private:
  class FrameSearch;
  lanes::LaneModel &M;
  UniformityAnalysis &Plain;
  /// Functions that may reach a block barrier: the others have none to
  /// prove (no uniformity analysis of them).
  BarrierReach BlockBarrierReach;
  /// The completed mbarrier waits (they order like a block barrier).
  MbarrierWaits Waits;
  llvm::SmallVector<SharedRace, 8> Races;
  llvm::SmallVector<const clang::FunctionDecl *, 2> CutShort;
  bool Ran = false;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_RACES_SHAREDRACES_H
