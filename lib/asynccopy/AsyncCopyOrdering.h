//===--- AsyncCopyOrdering.h - Async copies read before they land -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Which shared-memory accesses of a function may happen while an
/// asynchronous copy into the same place is still in flight, and which bulk
/// (TMA) stores read shared memory that generic writes reached without the
/// async-proxy fence, or have their source refilled before the store's read
/// finished.
///
/// Model: a forward may-analysis over clang's CFG of one body, one thread's
/// view. The state holds the copies in flight (the issue, the destination
/// buffer and slot, the family, whether committed and how many groups of
/// the family were committed after it), the copies its own thread waited
/// for but no block barrier has published yet, the buffers written since
/// the last proxy fence and the bulk stores not yet waited for with
/// `.read`. A block barrier completes no copy. A read (or plain write) is
/// reported when an in-flight copy provably overlaps it on some path: the
/// same buffer, and the whole of it, or the same ring slot (`x + C`,
/// `(x + C) % S`, `x ^ K` in the same variable x, shifted where x steps, so
/// a ring whose prefetch distance reaches the slot being read is seen). A read of an element the thread did not copy,
/// after its own wait but before a block barrier, is reported only when
/// the read does not depend on the thread (every thread reads it).
///
/// Also: `consumer_wait()` completes the oldest committed stage of its
/// pipeline object (counts lost on some path: every committed stage); in
/// a kernel with no wait for a copy's family, any read of its buffer is
/// reported; a copy issued over a place the thread read, at an address free
/// of a thread index component the copy's depends on, with no block
/// barrier since, is reported (other threads may still read it). Slots in
/// variables are followed through RingSlots.h's steps.
///
/// Slots named by the counters of two loops are compared where the
/// distance between the counters is exact (StageRelations.h); a
/// thread-scope pipeline committed once per producer iteration and waited
/// for once per consumer iteration completes, at the consumer's count n,
/// the stage issued at the producer's count n.
///
/// Left out, for precision: slots in variables written in other ways,
/// other relations between two variables, pointers into shared memory passed to
/// the analysed function, accesses inside called functions, barriers told
/// apart (any barrier wait completes every barrier-family copy).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_ASYNCCOPY_ASYNCCOPYORDERING_H
#define CUDA_TIDY_LIB_ASYNCCOPY_ASYNCCOPYORDERING_H

#include "lib/asynccopy/AsyncCopyEvents.h"
#include <vector>

namespace cuda_tidy {
namespace asynccopy {

enum class FindingKind : uint8_t {
  ReadInFlight,      ///< Read before the copy's completion.
  WriteInFlight,     ///< Plain write while the copy is in flight.
  WrongGroup,        ///< A wait ran but left the copy's group in flight.
  NotPublished,      ///< Waited in the issuing thread, no barrier since.
  BulkStoreNoFence,  ///< Bulk store after generic writes, no proxy fence.
  BulkSourceRefill,  ///< Write to a bulk store's source before its read.
  CopyOverRead       ///< A copy issued where other threads may still read.
};

struct Finding {
  FindingKind Kind = FindingKind::ReadInFlight;
  /// The access (or the bulk store, for BulkStoreNoFence).
  const clang::Stmt *Access = nullptr;
  /// The element read or written, where the warning points.
  const clang::Expr *Place = nullptr;
  const clang::VarDecl *Buffer = nullptr;
  /// The copy's issue; the generic write (BulkStoreNoFence); the bulk store
  /// (BulkSourceRefill).
  const clang::Stmt *Source = nullptr;
  /// The last block barrier between Source and Access on the path, if any.
  const clang::Stmt *Barrier = nullptr;
  /// WrongGroup: the wait that left the group in flight; NotPublished: the
  /// wait in the issuing thread.
  const clang::Stmt *Wait = nullptr;
  unsigned Prior = 0;
  Family Fam = Family::CpAsync;
  Spelling Spell = Spelling::Other;
  bool Committed = false;
  const clang::Expr *Group = nullptr;
  /// Where the missing wait (or fence) goes so that every thread that
  /// needs it reaches it before the access: a statement of a compound
  /// statement, the wait to go just before it; null when the analysis
  /// cannot place it exactly.
  const clang::Stmt *InsertBefore = nullptr;
  /// WrongGroup: the wait was `consumer_wait()`, which completes only the
  /// oldest stage.
  bool OldestOnly = false;
  /// ReadInFlight: no wait in the kernel completes the copy's family.
  bool NeverWaited = false;
  /// CopyOverRead: the read other threads may still be making.
  const clang::Stmt *Read = nullptr;
  /// Accesses that the same cause leaves exposed: of the same statement
  /// with the same kind, wait, barrier and fix (`As[k] * Bs[k]` after a
  /// wait for the wrong stage), or, for a wait that leaves groups in
  /// flight, any later read after that wait. One defect, reported once
  /// with these as notes.
  struct SameCause {
    /// Where the access is (its Place, else its Access).
    const clang::Stmt *At = nullptr;
    const clang::VarDecl *Buffer = nullptr;
    const clang::Stmt *Source = nullptr;
    /// In the statement of the finding it belongs to.
    bool SameStatement = true;
  };
  llvm::SmallVector<SameCause, 1> Also;
};

/// The findings in FD's body, in source order of their accesses, those of
/// one cause merged (Finding::Also); empty when the
/// body uses no asynchronous copy.
std::vector<Finding> findAsyncCopyHazards(const clang::FunctionDecl *FD,
                                          clang::ASTContext &Ctx);

} // namespace asynccopy
} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_ASYNCCOPY_ASYNCCOPYORDERING_H
