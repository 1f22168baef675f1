//===--- MbarrierWaits.h - Completed waits on an mbarrier -------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The statements after which a thread has seen an mbarrier's phase
/// complete, for the race finder (SharedRaces.h): what every thread that
/// arrived on the barrier wrote before its arrive is visible to the thread
/// past the wait (PTX ISA, mbarrier: arrive has release, a successful
/// test_wait/try_wait acquire semantics at CTA scope).
///
/// A completed wait is
///  - a blocking wait: `cuda::barrier`'s `wait`/`wait_parity`, CUTLASS's
///    `ClusterBarrier::wait`, an asm statement whose PTX loops on
///    `mbarrier.try_wait` (a `bra` back to it);
///  - a try or test (`mbarrier.try_wait`/`test_wait` in inline PTX,
///    `cuda::ptx::mbarrier_try_wait*`/`mbarrier_test_wait*`, `try_wait` of a
///    barrier class, the toolkit's `__mbarrier_try_wait*`/`__mbarrier_test_wait*`
///    primitives, clang's `__nvvm_mbarrier_test_wait*`) in the exit test
///    of a loop that leaves only when it succeeded: `while (!try_wait(..))`,
///    `do { asm(".. try_wait .." : "=r"(ok) ..); } while (!ok);`,
///    `for (;;) { if (try_wait(..)) break; }` with no other way out, and
///    `ok = 0; while (!ok) { ok = try_wait(..); }` (the flag zero just
///    before the loop, the try alone in its body: the loop's test is the
///    point, as the CFG has a path that skips the body);
///  - a call of a user function (three calls deep at most) that makes no
///    access to shared memory itself and holds a blocking wait, or returns
///    the result of a try (then the call is a try).
/// The operations are recognised by lib/asynccopy's events (eventsOf:
/// Wait on the Barrier family).
///
/// Left out (each only silences): how many arrivals the phase expects is
/// not compared with the block's size; a wait reached by only some threads
/// (warp-specialised consumers) orders what they read after it as well.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_RACES_MBARRIERWAITS_H
#define CUDA_TIDY_LIB_RACES_MBARRIERWAITS_H

#include "lib/lanes/ModelTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

namespace cuda_tidy {

namespace lanes {
class LaneModel;
} // namespace lanes

struct SharedRace;
namespace asynccopy {
struct Finding;
} // namespace asynccopy

/// Race repeats a finding of cuda-async-copy-ordering in the same function
/// (Findings: findAsyncCopyHazards of Race.Func): a copy completing on an
/// mbarrier (a bulk copy, `cuda::memcpy_async` on a barrier) is used before
/// its wait, the race's write comes before the copy is issued and its
/// second access after it, both in the function itself. The wait that
/// finding asks for orders the race too: one missing wait, one report.
bool repeatsMissingWait(const SharedRace &Race,
                        llvm::ArrayRef<asynccopy::Finding> Findings,
                        const clang::SourceManager &SM);

class MbarrierWaits {
public:
  explicit MbarrierWaits(lanes::LaneModel &M) : M(M) {}

  /// S, an element of I's CFG, completes a wait on an mbarrier phase in
  /// the thread that runs it (see the file comment).
  bool completesWait(const clang::Stmt *S, lanes::FunctionInfo &I);

private:
  enum class Kind : uint8_t { None, Try, Blocking };
  /// What S (a call or an asm statement) does, looking into user helpers
  /// Depth calls deep.
  Kind kindOf(const clang::Stmt *S, unsigned Depth);
  /// What a call of F does (cached).
  Kind kindOfCallee(const clang::FunctionDecl *F, unsigned Depth);
  /// A try at S, under parent map PM, is the exit test of a loop that
  /// leaves only when it succeeded.
  bool inSpinExit(const clang::Stmt *S, const clang::ParentMap &PM);
  /// S is the test of `while (!ok) { ok = try_wait(..); }` with `ok` zero
  /// on entry and nothing else in the body.
  bool flagLoopTest(const clang::Stmt *S, const clang::ParentMap &PM);

  lanes::LaneModel &M;
  llvm::DenseMap<const clang::FunctionDecl *, Kind> Callees;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_RACES_MBARRIERWAITS_H
