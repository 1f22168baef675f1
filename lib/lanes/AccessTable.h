//===--- AccessTable.h - One context's accesses and their threads -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The per-access results of the lane model for one context (a function in
/// one call chain): its accesses that reach shared memory (or, for the
/// warp-exchange finder, a kernel's pointer parameter indexed by the
/// thread), each with its guard and loops; when two or more calls of
/// barrier-free helpers have accesses, the helpers' accesses placed at each
/// call too (loops of the helper left out), and for the warp-exchange
/// finder those of a single call and of the helpers' own helpers (at the
/// call made in this frame's function). For each access, block shape
/// and valuation of the enumerated loop variables, the threads of the block
/// that run it and the element each touches, computed once (an unrolled
/// kernel has hundreds of accesses; a reduction loop's accesses pair with
/// each other in every iteration): the guards of a one-dimensional block
/// for all its warps at once where BlockEvaluator applies, else warp by
/// warp; a smaller block reuses the largest's results when they read no
/// blockDim and met no unknown condition (a smaller block is the larger
/// one's first threads, which behave alike).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_LANES_ACCESSTABLE_H
#define CUDA_TIDY_LIB_LANES_ACCESSTABLE_H

#include "lib/lanes/BlockEvaluator.h"
#include "lib/lanes/ModelTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace cuda_tidy::lanes {

class BlockEvaluator;
class CallContexts;
class FunctionFacts;
class GuardModel;
class LaneModel;
class WarpAddresses;

/// What a client collects beyond the accesses of two calls of barrier-free
/// helpers (AccessTable::collect).
struct TableOptions {
  /// A helper's accesses are placed at a single call too when the
  /// function has accesses of its own (a write in the function and a read
  /// in a helper pair), and so are those of the helpers' helpers, at any
  /// depth, at the call made in the function.
  bool OwnWithHelpers = false;
  /// Elements of dependent type in template patterns (Access) are kept.
  bool DependentElements = false;
};

/// An access as one context sees it.
struct FrameAccess {
  FrameAccess(Access *A, llvm::ArrayRef<const clang::ForStmt *> Loops,
              bool Opaque)
      : A(A), Loops(Loops.begin(), Loops.end()), Opaque(Opaque) {}
  Access *A;
  llvm::SmallVector<Cond, 4> Guard;
  llvm::SmallVector<const clang::ForStmt *, 2> Loops;
  bool Opaque;
  /// The memory it reaches (a shared variable, dynamic shared memory or a
  /// kernel's pointer parameter): accesses to different ones never meet.
  const void *Key = nullptr;
  /// Key is a kernel's pointer parameter (global memory), not shared memory.
  bool Global = false;
  /// Its place in this frame's function: its own, or for an access of a
  /// helper called here, the call's.
  Pos Where = {};
  const clang::Stmt *Statement = nullptr;
  /// For an access of a helper: the call (Site), the helper's frame the
  /// access and Guard are evaluated in (In), and the conditions around the
  /// call in this frame (CallGuard). Loops are then the loops around the
  /// call.
  const clang::CallExpr *Site = nullptr;
  const Frame *In = nullptr;
  llvm::SmallVector<Cond, 2> CallGuard;
  /// For an access of a helper's helper (deeper calls): the conditions
  /// around each call between Site's callee and In, each with the frame it
  /// is evaluated in, outermost first.
  llvm::SmallVector<std::pair<llvm::SmallVector<Cond, 2>, const Frame *>, 0>
      MidGuards;
  /// For an access of a helper that holds block barriers (a client's,
  /// AccessTable::placeAroundBarriers): Before, it runs before the helper's
  /// first barrier (Where is the call's); After, after its last (Where is a
  /// position past the call's block, which the client's reach sets give
  /// for the paths that leave the call).
  enum class Part : uint8_t { Whole, Before, After };
  Part Side = Part::Whole;
  const Frame &frame(const Frame &Own) const { return In ? *In : Own; }
  /// What stands for it in this frame's function.
  const clang::Stmt *anchor() const { return Site ? Site : A->E; }
};

/// The threads of a block that run an access for one shape and loop
/// valuation, with the element each touches.
struct AccessThreads {
  bool Filled = false;
  /// An evaluation read blockDim.
  bool ReadsBlockDim = false;
  /// (linear thread index, element), in thread order.
  std::vector<std::pair<unsigned, Address>> Threads;
  /// Threads that run it, in thread order, whose element of the object
  /// UnplacedKey is not known (an index from a loaded value).
  std::vector<unsigned> Unplaced;
  /// Where a row index is what is not known (`cnt[bin][threadIdx.x]`):
  /// each unplaced thread's byte modulo UnplacedModulus (its place in a
  /// row), or NoPlace; UnplacedModulus 0: no thread's is known.
  static constexpr int64_t NoPlace = INT64_MIN;
  std::vector<int64_t> UnplacedBytes;
  int64_t UnplacedModulus = 0;
  const void *UnplacedKey = nullptr;
  const clang::VarDecl *UnplacedVar = nullptr;
  /// Conditions that could not be evaluated for some thread.
  llvm::SmallPtrSet<const clang::Expr *, 4> Unknown;
  /// Where each warp's threads start in Threads, and their end: made when
  /// first asked.
  std::vector<uint32_t> WarpStart;
  /// The threads of warp WarpIndex.
  llvm::ArrayRef<std::pair<unsigned, Address>> warp(unsigned WarpIndex);
};

class AccessTable {
public:
  AccessTable(FunctionFacts &Facts, CallContexts &Calls,
              WarpAddresses &Addresses, GuardModel &Guards,
              BlockEvaluator &Block, const Frame &Fr, const CallChain &Chain);
  /// The table over the parts of Model.
  AccessTable(LaneModel &Model, const Frame &Fr, const CallChain &Chain);

  /// Collects the accesses of Fr's function I and of the helpers it calls
  /// (see the file comment); CallOpaque: a call of the chain is under a
  /// condition the model cannot follow; Opts: what the client pairs
  /// besides.
  void collect(FunctionInfo &I, bool CallOpaque, TableOptions Opts = {});
  llvm::MutableArrayRef<FrameAccess> accesses() { return Acc; }

  /// Adds the accesses of helper Def, which holds block barriers, called at
  /// Call (at Where in I) in the frame In: Side(A) says whether access A of
  /// Def runs before its first barrier, after its last, both or neither
  /// (bit 1: before, bit 2: after); After accesses get the position After.
  /// Accesses under a loop of Def are left out.
  void placeAroundBarriers(FunctionInfo &I, const clang::CallExpr *Call,
                           Pos Where, Pos After, const clang::FunctionDecl *Def,
                           const Frame &In,
                           llvm::function_ref<unsigned(const Access &)> Side);

  /// The shapes the context is evaluated for (CallContexts::blockShapes,
  /// which the caller asks for: the table does not keep them across calls
  /// that may add to its cache).
  void setShapes(llvm::ArrayRef<BlockShape> S) { Shapes = S; }
  /// Sets other shapes than before: what was computed for the old ones is
  /// dropped.
  void resetShapes(llvm::ArrayRef<BlockShape> S) {
    Shapes = S;
    Cache.clear();
    Layouts.clear();
  }

  /// The entry of access K for shape Shapes[ShapeIdx] and E's loop values,
  /// filled or not.
  AccessThreads &entry(unsigned K, unsigned ShapeIdx, const Env &E);
  /// The threads that run access K for shape Shapes[ShapeIdx] and E's loop
  /// values, filled on first use; notes a blockDim read in E and adds the
  /// unknown conditions to Unknown.
  AccessThreads &threads(unsigned K, unsigned ShapeIdx, Env &E,
                         llvm::SmallPtrSetImpl<const clang::Expr *> &Unknown);
  /// How access K is laid out over the warps of the block, for shape
  /// Shapes[ShapeIdx] and E's loop values, from the whole block's guards
  /// and index at once (BlockEvaluator) without making the entry; nullopt
  /// where those cannot be evaluated so (ask threads()). Notes a blockDim
  /// read in E.
  struct WarpLayout {
    /// Every warp runs the access in the same lanes (Lanes, warp 0's).
    bool SameLanes = false;
    uint32_t Lanes = 0;
    /// Thread T + 32 W is at thread T's byte plus W * Stride.
    int64_t Stride = 0;
  };
  std::optional<WarpLayout> warpLayout(unsigned K, unsigned ShapeIdx, Env &E);
  /// Every warp runs access K in the same lanes at the same elements
  /// (thread T of warp 0 and thread T + 32 W of warp W); see warpLayout.
  std::optional<bool> warpsAlike(unsigned K, unsigned ShapeIdx, Env &E);

private:
  /// Keeps FA when it reaches memory an exchange can go through.
  void add(FrameAccess FA);
  struct LayoutEntry;
  /// The lanes of each warp that pass all of A's guards, for the whole block
  /// at once (BlockEvaluator::blockLanes); false where they cannot be so
  /// evaluated.
  bool blockLanes(const FrameAccess &A, unsigned NumThreads, const Env &E,
                  llvm::SmallVectorImpl<uint32_t> &Pass);
  void fill(AccessThreads &C, const FrameAccess &A, unsigned NumThreads,
            Env &E);
  std::optional<WarpLayout> computeLayout(unsigned K, unsigned ShapeIdx,
                                          Env &E, LayoutEntry &Out);
  /// Fills C, access K's entry for a block of one warp, from the layout of
  /// the largest block when that read no blockDim and its warps run the
  /// access alike (the first warp of any size is the same); false if not.
  bool fromLayout(AccessThreads &C, unsigned K, const Env &E);
  /// Adds the accesses of helper Def (facts CI), called in frame In, at the
  /// call of I that Outer describes; with Nested, its helpers' too, Depth
  /// calls below that call.
  void placeHelper(const clang::FunctionDecl *Def, FunctionInfo &CI,
                   const Frame &In, const FrameAccess &Outer, bool Nested,
                   unsigned Depth);
  using Key = llvm::SmallVector<int64_t, 8>;
  Key keyOf(unsigned K, const Env &E, unsigned ShapeIdx) const;
  /// The same access and loop values in the largest of the block sizes
  /// tried, already evaluated, when no evaluation read blockDim and no
  /// condition was unknown.
  const AccessThreads *larger(unsigned K, unsigned ShapeIdx, const Env &E);

  struct KeyHash {
    size_t operator()(const Key &K) const {
      return llvm::hash_combine_range(K.begin(), K.end());
    }
  };

  FunctionFacts &Facts;
  CallContexts &Calls;
  WarpAddresses &Addresses;
  GuardModel &Guards;
  BlockEvaluator &Block;
  const Frame &Fr;
  const CallChain &Chain;
  TableOptions Opts;
  llvm::SmallVector<FrameAccess, 16> Acc;
  llvm::ArrayRef<BlockShape> Shapes;
  /// warpLayout's answers, and whether each read blockDim.
  struct LayoutEntry {
    std::optional<WarpLayout> Layout;
    bool ReadsBlockDim = false;
    /// Where the lanes are (with SameLanes and some lanes).
    bool HasAddress = false;
    BlockAddress BA;
  };
  std::unordered_map<Key, LayoutEntry, KeyHash> Layouts;
  std::unordered_map<Key, AccessThreads, KeyHash> Cache;
};

} // namespace cuda_tidy::lanes

#endif // CUDA_TIDY_LIB_LANES_ACCESSTABLE_H
