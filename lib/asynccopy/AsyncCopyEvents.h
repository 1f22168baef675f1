//===--- AsyncCopyEvents.h - What a statement does to async copies -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The vocabulary of asynchronous copies into and out of shared memory: what
/// one call or inline asm statement does (issues a copy, commits a group,
/// waits, fences the async proxy, issues or waits for a bulk store), and
/// where in shared memory an address points.
///
/// Model: a copy belongs to the family whose wait completes it. The cp.async
/// family shares the hardware's commit groups: `__pipeline_memcpy_async`,
/// `cp.async.ca/cg.shared.global`, `cooperative_groups::memcpy_async` (which
/// commits its own group) and CuTe's `SM80_CP_ASYNC*`; `__pipeline_commit`,
/// `cp.async.commit_group`, `cute::cp_async_fence` commit;
/// `__pipeline_wait_prior(N)`, `cp.async.wait_group N`,
/// `cute::cp_async_wait<N>`, `cg::wait_prior<N>` (and CUTLASS 2.x's
/// `cutlass::arch::cp_async_fence` / `cp_async_wait<N>`, whose copies are
/// the `cutlass::arch::cp_async*` objects) wait for all but the N most
/// recent groups, `cp.async.wait_all` and `cg::wait` for all. The pipeline
/// family: `cuda::memcpy_async` on a `cuda::pipeline`, committed by
/// `producer_commit()`, waited for by `consumer_wait()` (a wait for
/// the oldest stage not yet consumed, counted per pipeline object by
/// `producer_commit()`; a thread-scope pipeline consumes it at the wait, a
/// block-scope one at `consumer_release()`) or
/// `cuda::pipeline_consumer_wait_prior<N>`. The
/// barrier family: `cuda::memcpy_async` on a `cuda::barrier`,
/// `cuda::device::memcpy_async_tx`, bulk (TMA) loads in inline PTX or
/// `cuda::ptx::cp_async_bulk*`; any wait on a barrier (`wait`,
/// `arrive_and_wait`, `wait_parity`, `mbarrier.try_wait`/`test_wait`)
/// completes every copy of the family, as the analysis cannot tell
/// barriers apart.
///
/// CuTe's generic `copy(atom, src, dst)` is an issue, a bulk store or a
/// shared read by the copy operation its atom's type names; CuTe tensors
/// are located at the `__shared__` buffer they view, at a slot not
/// compared.
///
/// Left out: the deprecated `nvcuda::experimental::pipeline`; what a user's
/// function does is read by the analysis through its calls, not here.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_ASYNCCOPY_ASYNCCOPYEVENTS_H
#define CUDA_TIDY_LIB_ASYNCCOPY_ASYNCCOPYEVENTS_H

#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
class ParmVarDecl;
class ValueDecl;
class VarDecl;
} // namespace clang

namespace cuda_tidy {
namespace asynccopy {

/// Which wait completes a copy.
enum class Family : uint8_t { CpAsync, Pipeline, Barrier };

/// How the copy was spelled, for the fix's spelling of its wait.
enum class Spelling : uint8_t {
  Primitive,       ///< `__pipeline_memcpy_async`.
  Asm,             ///< inline `cp.async`.
  CooperativeGroup, ///< `cooperative_groups::memcpy_async`.
  Cute,            ///< CuTe's `copy` with an `SM80_CP_ASYNC*` operation.
  Cutlass,         ///< CUTLASS 2.x's `cutlass::arch::cp_async*` objects.
  Other
};

/// What a part of shared memory a copy or an access touches: the whole
/// buffer, or one slot of a ring written `x + C` or `(x + C) % S` in a
/// variable x (null for a constant slot), or a slot the analysis cannot
/// compare.
struct Slot {
  enum KindT : uint8_t { Whole, Affine, Opaque, Unknown } Kind = Whole;
  const clang::VarDecl *Var = nullptr;
  int64_t C = 0;
  /// The ring's size, 0 when the slot has no modulus.
  int64_t S = 0;
  /// For Opaque: the slot's expression.
  const clang::Expr *E = nullptr;
  /// Written `x ^ K` (C = K, S = 2K): equal to `(x + K) % 2K` only while x
  /// stays in [0, 2K), which the analysis checks.
  bool NeedsRange = false;
};

/// The slot an index expression names: `x`, `x + C`, `x - C`,
/// `(..) % S`, `(..) & (S - 1)`, `x ^ K`, a constant; Opaque otherwise.
Slot slotOfIndex(const clang::Expr *E, clang::ASTContext &Ctx);

/// Where an address or an lvalue points in shared memory: the buffer (a
/// `__shared__` variable, or a local pointer initialised from one) and the
/// slot in it.
struct Location {
  const clang::VarDecl *Key = nullptr;
  Slot Part;
  /// The lvalue or address expression, for the comparison of elements.
  const clang::Expr *Spelled = nullptr;
  /// The subscripts and offsets the address was computed with.
  llvm::SmallVector<const clang::Expr *, 4> Indices;
  /// The local pointer the address was computed through, whose
  /// initialiser named the slot.
  const clang::VarDecl *Alias = nullptr;
};

enum class EventKind : uint8_t {
  Issue,         ///< An asynchronous copy into shared memory.
  Commit,        ///< Closes the current group of the family.
  Wait,          ///< Waits for the family's groups.
  BulkStore,     ///< A bulk copy out of shared memory (reads the source).
  BulkWaitRead,  ///< `cp.async.bulk.wait_group.read`.
  ProxyFence,    ///< `fence.proxy.async.shared::cta` and its spellings.
  BlockBarrier,  ///< A block barrier inside a called helper.
  Release,       ///< `consumer_release()` of a pipeline.
  Acquire,       ///< `producer_acquire()` of a pipeline.
  SharedRead,    ///< `ldmatrix`, `ld.shared`, `wmma::load_matrix_sync`.
  SharedWrite    ///< `st.shared`, `stmatrix`, `wmma::store_matrix_sync`.
};

struct Event {
  EventKind Kind;
  Family Fam = Family::CpAsync;
  Spelling Spell = Spelling::Other;
  /// Issue: the copy's destination; BulkStore: its source.
  std::optional<Location> Where;
  /// Wait: how many most recent groups stay in flight (0: none); AllGroups
  /// also waits for copies not yet committed (`cp.async.wait_all`).
  unsigned Prior = 0;
  bool AllGroups = false;
  /// Wait: the wait also orders the block (`cg::wait` syncs the group;
  /// waits on pipelines and barriers complete the copies for every waiting
  /// thread).
  bool Publishes = false;
  /// Issue: the call commits its own group (`cooperative_groups`).
  bool CommitsItself = false;
  /// CooperativeGroup issue: the group argument, for the fix.
  const clang::Expr *Group = nullptr;
  /// Pipeline family: the pipeline object the issue, commit, wait or
  /// release names (null when the analysis cannot name it).
  const clang::ValueDecl *Pipe = nullptr;
  /// Pipeline Wait: `consumer_wait()`, a wait for the oldest stage not yet
  /// consumed (not for every committed stage).
  bool Oldest = false;
  /// Pipeline: the pipeline is shared by a group (its stage is consumed at
  /// `consumer_release()`, not at the wait).
  bool BlockScope = false;

  Event withAll() const {
    Event E = *this;
    E.AllGroups = true;
    E.Publishes = true;
    return E;
  }
};

inline Event makeEvent(EventKind K, Family F = Family::CpAsync) {
  Event E{K, F, Spelling::Other, std::nullopt};
  return E;
}

/// The arguments of the calls a helper's events are read through: a
/// parameter of the helper stands for the argument of the call (itself read
/// in the Outer scope, for a helper called by a helper).
struct ArgScope {
  llvm::DenseMap<const clang::ParmVarDecl *, const clang::Expr *> Args;
  const ArgScope *Outer = nullptr;
};

/// The events of S, a call or an inline asm statement, in order (an asm
/// statement may hold several instructions). Empty for anything else.
/// Addresses are read through Scope's arguments where they name a
/// parameter.
llvm::SmallVector<Event, 1> eventsOf(const clang::Stmt *S,
                                     clang::ASTContext &Ctx,
                                     const ArgScope *Scope = nullptr);

/// The terms of an index written as a sum (`a + b + c`), casts and
/// parentheses stripped.
void additiveTerms(const clang::Expr *E,
                   llvm::SmallVectorImpl<const clang::Expr *> &Out);

/// E's value when it is an integer constant expression.
std::optional<int64_t> constantValue(const clang::Expr *E,
                                     clang::ASTContext &Ctx);

/// E depends on the thread's index: it names `threadIdx`, a thread rank,
/// or a local variable initialised from one.
bool isThreadDependent(const clang::Expr *E);

/// Whether Body holds a call or asm statement that issues an asynchronous
/// copy or a bulk store (or, with Waits, one that may wait or commit): the
/// quick test before a body is analysed or a helper summarised. Looks into
/// the bodies of called user functions CalleeDepth calls deep.
bool mentionsAsyncCopies(const clang::Stmt *Body, bool Waits = false,
                         unsigned CalleeDepth = 0);

/// Where the lvalue or address E points in shared memory, if it points
/// into a `__shared__` variable the analysis can name.
std::optional<Location> locate(const clang::Expr *E, clang::ASTContext &Ctx,
                               const ArgScope *Scope = nullptr);

} // namespace asynccopy
} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_ASYNCCOPY_ASYNCCOPYEVENTS_H
