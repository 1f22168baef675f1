//===--- FrameSearch.h - One context's search for shared races --*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Internal to lib/races: the state of SharedRaceFinder's search in one
/// context, shared by SharedRaces.cpp (pairs, barriers, loops, the races
/// recorded) and RaceShapes.cpp (the block sizes a pair collides in).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_RACES_FRAMESEARCH_H
#define CUDA_TIDY_LIB_RACES_FRAMESEARCH_H

#include "lib/lanes/AccessPairs.h"
#include "lib/lanes/AccessTable.h"
#include "lib/races/BlockBarriers.h"
#include "lib/races/SharedRaces.h"
#include <algorithm>
#include <optional>
#include <unordered_map>

namespace cuda_tidy {
namespace races {

using namespace lanes;

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
  const clang::Stmt *CrossLoop = nullptr;
};

} // namespace races

/// The races of one context.
class SharedRaceFinder::FrameSearch {
  using RacePair = races::RacePair;
  using WriterIndex = races::WriterIndex;

public:
  FrameSearch(SharedRaceFinder &Finder, const lanes::Frame &Fr)
      : Finder(Finder), M(Finder.M), Fr(Fr) {}
  void run();

private:
  bool overBudget() {
    if (!M.MaxWork || M.Work - StartWork <= M.MaxWork)
      return false;
    const clang::FunctionDecl *Root = rootOf(Fr).F;
    if (!llvm::is_contained(Finder.CutShort, Root))
      Finder.CutShort.push_back(Root);
    return true;
  }
  const lanes::ReachSet &reachOf(unsigned K) {
    if (!Reach[K])
      Reach[K] = reachAt(Table->accesses()[K].Where);
    return *Reach[K];
  }
  /// FunctionFacts::reach with the context's barriers and dead edges, and
  /// the positions of the accesses made after the last barrier of a
  /// helper's call (lanes::FrameAccess::Side) where a path leaves the call.
  lanes::ReachSet reachAt(lanes::Pos Target, llvm::ArrayRef<unsigned> SkipFrom = {});
  /// Places the accesses of the calls of helpers that hold block barriers
  /// counted here: before the helper's first barrier at the call, after
  /// its last past it. False when there is none.
  bool placeBarrierHelpers();
  /// The helper Call makes whose body may reach a block barrier and holds
  /// shared-memory accesses, or null.
  const clang::FunctionDecl *barrierHelper(const clang::CallExpr *Call);
  /// The loop L holding both accesses whose back edge joins From (in one
  /// iteration) to To (in the next) with no barrier, or null.
  const clang::Stmt *crossingLoop(const lanes::FrameAccess &From, const lanes::FrameAccess &To,
                           const lanes::ReachSet &ToReach);
  /// A barrier-free path from From to To within one iteration of the loops
  /// around both.
  bool sameIteration(const lanes::FrameAccess &From, const lanes::FrameAccess &To,
                     const lanes::ReachSet &ToReach);
  /// A barrier-free path from From's end of loop L's body, through L's back
  /// edge, to To in L's next iteration (ToReach: To's reach set).
  bool crosses(const clang::Stmt *L, const lanes::FrameAccess &From, const lanes::FrameAccess &To,
               const lanes::ReachSet &ToReach);
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
  /// A thread of C whose element comes from a loaded value and an element
  /// a thread of another warp writes that it may touch (any, or only those
  /// at its place in a row, AccessThreads::UnplacedBytes), as (thread,
  /// writer entry); none if there is none.
  std::optional<std::pair<unsigned, const WriterIndex::Entry *>>
  loadedCollision(const WriterIndex &Writers, const lanes::AccessThreads &C);
  /// Whether the branch ending Block, which the lane model takes as
  /// thread-varying, is block-uniform once loads of memory no thread of
  /// the block writes since the last barrier count as uniform
  /// (UniformBranches.cpp).
  bool uniformByMemory(unsigned Block);
  /// Every load E's value comes from (through the definitions of the
  /// locals it reads, Seen) reads memory the block leaves unwritten.
  bool loadsUnwritten(const clang::Expr *E,
                      llvm::SmallPtrSetImpl<const clang::VarDecl *> &Seen,
                      unsigned Depth);
  /// One load (a subscript, dereference, arrow member or shared variable).
  bool unwrittenLoad(const clang::Expr *Load);
  /// Kernel pointer parameter P is only ever loaded through.
  bool readOnlyParam(const clang::ParmVarDecl *P);
  /// The block shapes to evaluate (see SharedRaces.h).
  void chooseShapes();
  /// Chooses them on first use; false where there are none.
  bool haveShapes();
  /// With no launch in sight, a two-dimensional block the indexing of a
  /// kernel that reads threadIdx.y fills (see SharedRaces.h): Shapes holds
  /// the candidates, AssumedIdx the one. False, with Shapes empty, where
  /// none is.
  bool inferShape(const clang::FunctionDecl *Root);
  /// How the shared accesses fit a block of shape Shapes[K]: every index of
  /// an array dimension within it and every element within its object.
  enum class Fit { Fits, Overruns };
  Fit fitsShape(unsigned K);
  /// Whether, in every valuation of its loops in a block of shape
  /// Shapes[K], each thread of access AI touches bytes inside its object
  /// and, with Dimensions, each subscript of an array dimension stays
  /// within it.
  bool staysInside(unsigned AI, unsigned K, bool Dimensions);
  /// Whether access A's subscripts of array dimensions stay within them for
  /// the threads of Threads (E: their loop values).
  bool dimensionsFit(const lanes::FrameAccess &A, const lanes::Env &E,
                     llvm::ArrayRef<std::pair<unsigned, lanes::Address>> Threads);
  /// Evaluates the pair for shape Shapes[K]: P.Found and the witness.
  void evaluate(RacePair &P, unsigned K);
  const WriterIndex &writers(RacePair &P, const lanes::Env &E, unsigned K,
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
  lanes::LaneModel &M;
  const lanes::Frame &Fr;
  lanes::FunctionInfo *I = nullptr;
  lanes::CallChain Chain;
  std::optional<lanes::AccessTable> Table;
  std::optional<lanes::BarrierTable> Barriers;
  llvm::SmallVector<std::optional<lanes::ReachSet>, 16> Reach;
  bool ChainLoops = false;
  uint64_t StartWork = 0;
  llvm::SmallVector<lanes::BlockShape, 6> Shapes;
  bool ShapesChosen = false;
  bool ShapesKnown = false;
  /// The shape assumed from the indexing (inferShape), Shapes[AssumedIdx]:
  /// the only one evaluated.
  bool ShapeAssumed = false;
  unsigned AssumedIdx = 0;
  std::unordered_map<const lanes::AccessThreads *, WriterIndex> WriterCache;
  llvm::DenseMap<std::pair<const void *, unsigned>, bool> Admitted;
  llvm::DenseMap<unsigned, DifferFact> Differ;
  /// Reach sets from the end of a loop's latch block, by block.
  llvm::DenseMap<unsigned, lanes::ReachSet> LatchReach;
  llvm::DenseMap<unsigned, bool> Loaded;
  /// uniformByMemory's answers, by block; readOnlyParam's.
  llvm::DenseMap<unsigned, bool> UniformBranch;
  llvm::DenseMap<const clang::ParmVarDecl *, bool> ReadOnlyParams;
  /// Edges no execution takes (deadEdges).
  llvm::SmallVector<std::pair<unsigned, unsigned>, 2> DeadEdges;
  /// Per call of a helper with barriers whose accesses are placed (by its
  /// position), the position of the accesses after its last barrier: an
  /// index past the end of the call's block.
  llvm::DenseMap<std::pair<unsigned, unsigned>, unsigned> AfterCall;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_RACES_FRAMESEARCH_H
