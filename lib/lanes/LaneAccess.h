//===--- LaneAccess.h - Which lane touches which shared element -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A lane model of shared-memory accesses, used to find warp-synchronous
/// code: lanes of one warp that exchange data through shared memory with no
/// barrier between the write and the read.
///
/// Model:
///  - An access is an lvalue of scalar type that is read (an lvalue-to-rvalue
///    conversion), written (the left of `=`) or both (`+=`, `++`), and whose
///    address evaluates to a `__shared__` variable plus a byte offset. The
///    address may go through array subscripts (several dimensions), `*`,
///    pointer arithmetic, casts, struct members, local pointers that are
///    never reassigned (`volatile int *v = sdata;`), pointer parameters of
///    `__device__` functions, bound at each call in the translation unit
///    (`warpReduce(sdata, tid)`), and pointers returned by functions and
///    conversion operators with a visible body (`SharedMemory<T>()`'s
///    `operator T *()`): every `return` must give the same address. All
///    `extern __shared__` arrays alias. Global memory is modelled the same
///    way through the pointer parameters of kernels that the kernel does not
///    reassign (one object per parameter: distinct parameters are assumed
///    not to alias; pointers to const are never written), for accesses whose
///    element differs between lanes (an element every lane reads is a race
///    with the whole grid, not a warp exchange).
///  - Contexts: a function is analysed in each call chain that leads to it
///    from a kernel (or from a function with no caller in the translation
///    unit, whose entry lanes are unknown), up to 16 chains of up to 8
///    calls; recursion is cut. Callers come from the analysis context's call
///    graph (lib/AnalysisContext.h), plus dependent calls of template
///    patterns that name one function (`warpTail<BlockSize>(s, tid)`).
///  - Indices are *evaluated*, not matched: for each `threadIdx.x` of a block
///    and each block size in {32, 64, ..., 1024} (a multiple of 32: the last
///    warp is full; at most the kernel's `__launch_bounds__`), every index
///    is computed exactly with the types' integer semantics (a warp's 32
///    threads at a time: one walk of an expression serves a warp; the
///    guards of a one-dimensional block, where they are of the forms
///    LaneAccessAnalysis::Impl::evalBlock knows, for all its warps at once,
///    each lane's value A + C * warp, so that warps no thread of which
///    passes cost nothing). Where the
///    kernel's launches in the translation unit (lib/launch/LaunchModel.h) give a
///    two- or three-dimensional block, or the cuda.BlockDim option does for
///    a kernel with no such launch, each of those shapes is evaluated
///    instead, thread by linear index (`x + y * X + z * X * Y`; lane = index
///    % 32), and `threadIdx.y`/`.z`, `blockDim.y`/`.z` have values; otherwise
///    they are not evaluated. `blockIdx` is 0 (both accesses of an exchange
///    run in one block). Local variables that are never reassigned are
///    followed to their initialisers (`tid`, `lane = tid & 31`, `warp = tid
///    / 32`); a local whose only writes are direct children of the block
///    that declares it (`idx += 32;`) is evaluated at each use from its
///    initialiser and the writes before the use;
///    counted `for` loops whose bounds do not depend on the thread are
///    enumerated (`for (int d = 1; d < 32; d *= 2)`, `for (s = blockDim.x / 2;
///    s > 32; s >>= 1)`); a uniform loop whose bound cannot be evaluated (a
///    kernel parameter) is sampled on its first two iterations. So `tid + c`,
///    `tid - c`, `lane ^ c`,
///    `(lane + 1) & 31`, `warp * 32 + lane` need no special case. Calls
///    with a visible body are evaluated through their returns (all must
///    agree); a local whose only write is `mov.u32 %0, %%laneid;` inline asm
///    is the lane; cooperative groups' block `thread_rank()`/`thread_index().x`
///    are the thread index, a static tile's `thread_rank()` and
///    `meta_group_rank()` are `tid % N` and `tid / N`.
///  - Templates: a pattern that the translation unit never instantiates is
///    analysed as written; its template parameters are the same in every
///    thread and value-dependent expressions are not evaluated. Instantiated
///    templates are analysed through their instantiations only.
///  - The lanes that run an access are those for which every enclosing `if`,
///    `?:`, `&&`, `||` condition and every earlier `if (c) return;` in an
///    enclosing block evaluates to the side taken. A condition that does not
///    depend on the thread (a kernel parameter, `blockIdx`) is either true for
///    the whole warp or for none of it and is ignored. So is a condition the
///    model cannot evaluate but the uniformity analysis (with opaque calls
///    varying) proves warp-uniform in the context, or that the model's own
///    shapes prove so (a grid-stride index, initialised lane-linear and only
///    advanced by uniform multiples of 32, shifted right by 5 or more); a
///    branch on it does not split a warp, and a loop on it (`for (; it <
///    iters; ++it)`) runs as many times in every lane. Any other condition that
///    cannot be evaluated (a loaded value) makes the lane set *unknown*: no
///    lane mask is given, and a pair of accesses that such a condition guards
///    on both sides is not an exchange (it may let one lane through); an access
///    under one on its own side only is analysed as if every lane ran it.
///  - Two accesses can run concurrently in a warp when some program point
///    reaches both with no barrier in between (which covers one reaching the
///    other, both in one statement, and both sides of a divergent branch).
///    Barriers are `__syncwarp`, `__syncthreads*`, cooperative groups'
///    `sync()` members and `cooperative_groups::sync`, `bar.sync` and
///    `bar.warp.sync` in inline asm, calls to functions that reach one of
///    these, and calls to functions whose body is not visible.
///    Accesses in one iteration of a loop share the loop variable; a path that
///    takes a back edge lets them take any values. A counted loop whose first
///    test holds for every block size runs its body: no path skips it.
///  - An exchange is a write and a read that can run concurrently, by two
///    different lanes of the same warp, of overlapping bytes.
///
///  - Stride loops: a counted loop whose variable starts at a value that
///    differs between threads and moves by the same step in all of them,
///    tested against a bound the loop does not change (`for (int pos =
///    threadIdx.x; pos < n; pos += blockDim.x)`), is enumerated by iteration
///    (while the block's first thread runs them, up to 64; an unknown bound
///    is sampled on two), the variable's value in each thread its start
///    plus that many steps, and the test a condition on the lanes of each
///    iteration. Where some thread runs an iteration that was not
///    enumerated, or the test cannot be evaluated, the lanes of the loop's
///    statements are unknown (no fix). Two accesses in the loop meet in one
///    iteration, or, through its back edge, in consecutive ones.
///  - Calls: the accesses of a helper with no barrier are also placed at
///    each call of it, so that a write made in one call and a read made in
///    another call (of the same helper or not) with no barrier between the
///    calls are an exchange, in the caller (`f(&s[t], 32); f(&s[(2 * t) &
///    63], 1);`); the fix goes between the calls.
///
/// Left out, deliberately (each makes the analysis silent, never noisy):
/// indices that depend on `threadIdx.y`/`.z` in blocks of unknown shape, on
/// loaded values or on variables that are written under a condition or in a
/// loop other than a counted or stride loop's own variable; a write in a
/// function and a read in a helper it calls, and accesses under a loop of a
/// helper paired across calls; stride-loop iterations further apart than
/// one; calls through function pointers and dependent calls naming more
/// than one function; tiles partitioned at run time; accesses made through
/// atomics or through references. Blocks whose size is not a multiple of 32 are
/// assumed away. The work is bounded; a function that exceeds it is skipped.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_LANES_LANEACCESS_H
#define CUDA_TIDY_LIB_LANES_LANEACCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <array>
#include <cstdint>
#include <string>
#include <vector>
#include <memory>
#include <optional>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class Stmt;
class VarDecl;
} // namespace clang

namespace clang::tidy {
class ClangTidyContext;
} // namespace clang::tidy

namespace cuda_tidy {

/// The full lane mask of a warp.
constexpr uint32_t FullLaneMask = 0xffffffffu;

/// A write and a read of the same shared element by two lanes of one warp
/// with no barrier between them.
struct WarpExchange {
  /// The function whose body holds both accesses.
  const clang::FunctionDecl *Func = nullptr;
  /// The read of another lane's element (an lvalue; for `s[t] += s[t + 1]`
  /// the read may be the compound assignment's left side).
  const clang::Expr *Read = nullptr;
  /// The write the read exchanges with.
  const clang::Expr *Write = nullptr;
  /// The statements that hold them (see LaneAccessAnalysis::statementOf).
  const clang::Stmt *ReadStmt = nullptr;
  const clang::Stmt *WriteStmt = nullptr;
  /// The `__shared__` variable accessed, or for global memory the kernel's
  /// pointer parameter the accesses go through (Global).
  const clang::VarDecl *Shared = nullptr;
  bool Global = false;
  /// The call that passes shared memory into Func, when the accesses go
  /// through a pointer parameter; null otherwise.
  const clang::CallExpr *Via = nullptr;
  /// For an exchange split over two calls made in Func (a write in one, a
  /// read in the other): the calls; Read and Write are in the callees, and
  /// ReadStmt and WriteStmt are the statements of Func that hold the calls.
  const clang::CallExpr *ReadCall = nullptr;
  const clang::CallExpr *WriteCall = nullptr;
  /// The calls further up that lead to Via, innermost first (`scanBlock(v,
  /// s)` in `scan` for `scanWarp(v, s)` in `scanBlock`).
  llvm::SmallVector<const clang::CallExpr *, 2> Callers;
  /// One witness: ReaderLane reads the element that WriterLane writes.
  unsigned ReaderLane = 0;
  unsigned WriterLane = 0;
  /// Every lane seen reading or writing in a conflict, over all contexts.
  uint32_t Lanes = 0;
  /// Whether a barrier-free path leads from the write to the read, or from
  /// the read to the write (both in a loop). Neither: the two run on
  /// different sides of a branch that splits the warp.
  bool WriteReachesRead = false;
  bool ReadReachesWrite = false;
  /// Where the write's and the read's sides meet: the statement that holds
  /// WriteStmt (ReadStmt) and is a sibling, in the innermost compound
  /// statement holding both, of the one that holds the other access, when
  /// that is not WriteStmt (ReadStmt) itself and it holds no jump. Every
  /// path from the access to the other leaves it through its end, so a
  /// `__syncwarp` right after it orders the pair, with the mask of the
  /// lanes that run it (statementMask() knows it). For `if (lane == 0)
  /// base[w] = x; if (f) y = base[w];`: the first `if`.
  const clang::Stmt *WriteMeet = nullptr;
  const clang::Stmt *ReadMeet = nullptr;
};

/// Finds the warp exchanges of one translation unit. Create one per
/// translation unit; results are in source order of the reads.
class LaneAccessAnalysis {
public:
  explicit LaneAccessAnalysis(clang::ASTContext &Ctx);
  ~LaneAccessAnalysis();

  /// The block shape of kernels that no launch in the translation unit
  /// gives a proven block (the module-wide option cuda.BlockDim). Call
  /// before run().
  void setDefaultBlockShape(unsigned X, unsigned Y, unsigned Z);

  /// The work one analysis context (a kernel, or one call of a device
  /// function) may take, in evaluation steps; 0 for no limit. Call before
  /// run().
  void setWorkBudget(uint64_t Units);

  /// The kernels (or device functions analysed on their own) whose analysis
  /// the work budget cut short: exchanges past the cut are not reported.
  llvm::ArrayRef<const clang::FunctionDecl *> cutShort() const;

  /// Analyses every device function with a body that is not a dependent
  /// template pattern (once; later calls return at once).
  void run();

  llvm::ArrayRef<WarpExchange> exchanges() const { return Exchanges; }

  /// The lanes of a warp that run statement S, the same for every warp that
  /// runs it and every context it was analysed in (one per call of its
  /// function, or the kernel itself); std::nullopt when unknown. Only
  /// statements holding an exchange's access are known after run().
  std::optional<uint32_t> statementMask(const clang::Stmt *S) const;

  /// The statement an access belongs to: the ancestor that is a direct
  /// child of a compound statement or the body of an if, loop or label.
  const clang::Stmt *statementOf(const clang::Expr *E,
                                 const clang::FunctionDecl *F);

  /// Evaluates integer expression E in function F (standalone: parameters
  /// unknown) for one thread index and block size; std::nullopt when the
  /// model cannot. For tests.
  std::optional<int64_t> evaluateAt(const clang::Expr *E,
                                    const clang::FunctionDecl *F,
                                    unsigned ThreadIdxX, unsigned BlockDimX);

  /// The lanes of each warp of a one-dimensional block of BlockDimX threads
  /// (a multiple of 32) in which condition E of F, analysed on its own,
  /// holds: the whole block evaluated at once when AtOnce (std::nullopt
  /// where that evaluation does not apply), else warp by warp (std::nullopt
  /// where a lane's value is unknown). For tests: both must agree.
  std::optional<std::vector<uint32_t>>
  conditionLanes(const clang::Expr *E, const clang::FunctionDecl *F,
                 unsigned BlockDimX, bool AtOnce);

  /// The byte offset, in its object, of the element lvalue E of F (on its
  /// own) designates in each thread of a one-dimensional block of
  /// BlockDimX threads: for the whole block at once when AtOnce (only
  /// `base[index]` with a base all threads share; std::nullopt otherwise),
  /// else warp by warp (std::nullopt where a lane's is unknown). For
  /// tests: both must agree.
  std::optional<std::vector<int64_t>>
  elementBytes(const clang::Expr *E, const clang::FunctionDecl *F,
               unsigned BlockDimX, bool AtOnce);

  /// The lanes of a warp that run statement S of F analysed on its own (a
  /// kernel, or the callers of a `__device__` function). For tests.
  std::optional<uint32_t> guardMask(const clang::Stmt *S,
                                    const clang::FunctionDecl *F);

  class Impl;

private:
  std::unique_ptr<Impl> P;
  llvm::SmallVector<WarpExchange, 8> Exchanges;
  bool Ran = false;
};

/// The module-wide option that gives the block shape of kernels the
/// translation unit does not launch with a proven block.
inline constexpr const char *BlockDimOptionName = "cuda.BlockDim";

/// The module-wide option that bounds the lane model's work per analysis
/// context (evaluation steps; 0: no limit), and its default: a few seconds
/// on one kernel.
inline constexpr const char *LaneModelBudgetOptionName = "cuda.LaneModelBudget";
inline constexpr uint64_t DefaultLaneModelBudget = 40000000;

/// Parses a block shape option: "X", "X,Y" or "X,Y,Z" (each at least 1,
/// at most 1024 threads in all). std::nullopt with Error set otherwise.
std::optional<std::array<unsigned, 3>> parseBlockDim(llvm::StringRef Text,
                                                     std::string &Error);

/// The lane model's module-wide options as configured (cuda.BlockDim and
/// cuda.LaneModelBudget), read by each check that uses the lane model.
class BlockDimOption {
public:
  explicit BlockDimOption(clang::tidy::ClangTidyContext &Context);
  /// A message for an invalid value, once per process and value (several
  /// checks read the option); empty otherwise.
  std::string takeError() const;
  /// Gives the lane model the shape, if one is configured, and the budget.
  void applyTo(LaneAccessAnalysis &Lanes) const;
  uint64_t budget() const { return Budget; }

private:
  void readBudget(clang::tidy::ClangTidyContext &Context);
  uint64_t Budget = DefaultLaneModelBudget;
  std::optional<std::array<unsigned, 3>> Shape;
  std::string Raw, Error;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_LANES_LANEACCESS_H
