//===--- BarrierPoints.h - Pairs the inserted barriers order ----*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The `__syncthreads()` that cuda-shared-memory-race's fixes insert
/// (BarrierFix), and whether they order a pair of accesses: a race, or a
/// warp exchange, that the barrier of a race reported earlier orders goes
/// away once that fix is applied, so it is one cause with that race and
/// gets no warning of its own (one missing barrier, one warning).
///
/// Model, on the accesses' file locations (the template's spelling, the
/// call's location for an access made in a helper), A spelled before B:
///  - every path from A to B crosses a barrier inserted before a statement
///    S of a block C when A is spelled before S and B within S or after it
///    in C, and no label or case sits in C from S on (a jump into C past S
///    is the only other way in);
///  - every path from B back to A crosses a barrier at the end of the body
///    of the innermost loop that holds both (BarrierFix::AtEndOf is placed
///    only in a body with no jump or label, so no path leaves the iteration
///    early).
/// Left out (no ordering is claimed): a split assignment's barrier,
/// accesses in one statement, in two files, or a path through a `goto`.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_RACES_BARRIERPOINTS_H
#define CUDA_TIDY_LIB_RACES_BARRIERPOINTS_H

#include "lib/races/SharedRaces.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang {
class SourceManager;
} // namespace clang

namespace cuda_tidy {

/// The barriers a set of race fixes inserts, each with the report it
/// belongs to.
class BarrierPoints {
public:
  explicit BarrierPoints(const clang::SourceManager &SM) : SM(SM) {}

  /// Records the barriers Fix inserts, for the report Owner.
  void add(const BarrierFix &Fix, unsigned Owner);
  bool empty() const { return Before.empty() && AtEnd.empty(); }

  /// The owner of barriers that order the accesses spelled at X and Y on
  /// every path between them that exists: XReachesY, a path from X to Y
  /// with no barrier; YReachesX, one back. std::nullopt when some such
  /// path crosses none of the barriers.
  std::optional<unsigned> orders(clang::SourceLocation X,
                                 clang::SourceLocation Y, bool XReachesY,
                                 bool YReachesX) const;

private:
  struct BeforePoint {
    const clang::Stmt *S;
    const clang::CompoundStmt *Scope;
    unsigned Owner;
  };
  struct EndPoint {
    const clang::CompoundStmt *Body;
    unsigned Owner;
  };
  /// A barrier before which orders every path from A to B (A spelled
  /// first).
  std::optional<unsigned> forward(clang::SourceLocation A,
                                  clang::SourceLocation B) const;
  /// A barrier at the end of a loop body that orders every path from B
  /// back to A.
  std::optional<unsigned> backward(clang::SourceLocation A,
                                   clang::SourceLocation B) const;
  /// Whether Loc lies in [Begin, End] of one file.
  bool within(clang::SourceLocation Loc, clang::SourceLocation Begin,
              clang::SourceLocation End) const;

  const clang::SourceManager &SM;
  llvm::SmallVector<BeforePoint, 4> Before;
  llvm::SmallVector<EndPoint, 4> AtEnd;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_RACES_BARRIERPOINTS_H
