//===--- LaneModel.h - Which thread touches which shared element -*- C++
//-*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The lane model: for each access to shared memory (or to a kernel's
/// global pointer parameters) in device code, which threads of a block run
/// it and which element each of them touches, evaluated exactly for the
/// block shapes the code admits. Its clients pair accesses: the
/// warp-exchange finder (lib/exchanges/WarpExchanges.h) pairs those of two
/// lanes of one warp with no barrier between them, the race finder
/// (lib/races/SharedRaces.h) those of two warps.
///
/// Model:
///  - An access is an lvalue of scalar type that is read (an lvalue-to-rvalue
///    conversion), written (the left of `=`) or both (`+=`, `++`), and whose
///    address evaluates to a `__shared__` variable plus a byte offset. The
///    address may go through array subscripts (several dimensions), `*`,
///    pointer arithmetic, casts, struct members, local pointers that are
///    never reassigned (`volatile int *v = sdata;`; a chain of them each
///    derived from the one before, `float *v2 = v1 + step;`, in one level
///    however long), pointer parameters of
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
///    graph (lib/ast/CallGraph.h), plus dependent calls of template
///    patterns that name one function (`warpTail<BlockSize>(s, tid)`).
///  - Indices are *evaluated*, not matched: for each `threadIdx.x` of a block
///    and each block size in {32, 64, ..., 1024} (a multiple of 32: the last
///    warp is full; at most the kernel's `__launch_bounds__`), every index
///    is computed exactly with the types' integer semantics (a warp's 32
///    threads at a time: one walk of an expression serves a warp; the
///    guards of a one-dimensional block, where they are of the forms
///    BlockEvaluator knows, for all its warps at once,
///    each lane's value A + C * warp, so that warps no thread of which
///    passes cost nothing). Where the
///    kernel's launches in the translation unit (lib/launch/LaunchModel.h) give
///    a two- or three-dimensional block, or the cuda.BlockDim option does for
///    a kernel with no such launch, each of those shapes is evaluated
///    instead, thread by linear index (`x + y * X + z * X * Y`; lane = index
///    % 32), and `threadIdx.y`/`.z`, `blockDim.y`/`.z` have values; otherwise
///    they are not evaluated. `blockIdx` is 0 (both accesses of an exchange
///    run in one block). Local variables that are never reassigned are
///    followed to their initialisers (`tid`, `lane = tid & 31`, `warp = tid
///    / 32`); an element of an array of integer constants that nothing
///    writes (a local only read by element, or a const array) is its
///    constant (`stride[k]` with `int stride[4] = {0, 256, 512, 768}`); a local
///    whose only writes are direct children of the block that declares it (`idx
///    += 32;`) is evaluated at each use from its initialiser and the writes
///    before the use; counted `for` loops whose bounds do not depend on the
///    thread are enumerated (`for (int d = 1; d < 32; d *= 2)`, `for (s =
///    blockDim.x / 2; s > 32; s >>= 1)`); a uniform loop whose bound cannot be
///    evaluated (a kernel parameter) is sampled on its first two iterations. So
///    `tid + c`, `tid - c`, `lane ^ c`,
///    `(lane + 1) & 31`, `warp * 32 + lane` need no special case. Calls
///    with a visible body are evaluated through their returns (all must
///    agree); a local whose only write is `mov.u32 %0, %%laneid;` inline asm
///    is the lane; cooperative groups' block `thread_rank()`/`thread_index().x`
///    are the thread index, a static tile's `thread_rank()` and
///    `meta_group_rank()` are `tid % N` and `tid / N`.
///  - Templates: a pattern that the translation unit never instantiates is
///    analysed as written; its template parameters are the same in every
///    thread and value-dependent expressions are not evaluated. An element
///    whose type is a template parameter (`s[idx]` with `volatile T *s`)
///    is an access for the warp-exchange finder: read where it is an
///    operand, a value initialiser or returned value, or an argument of an
///    unresolved call, written on the left of an assignment; its size is
///    not known, so its address counts elements, in an object of its own
///    per type, and two such elements meet only through bases at the same
///    byte. Instantiated
///    templates are analysed through their instantiations only.
///  - The lanes that run an access are those for which every enclosing `if`,
///    `?:`, `&&`, `||` condition and every earlier `if (c) return;` in an
///    enclosing block evaluates to the side taken. A condition that does not
///    depend on the thread (a kernel parameter, `blockIdx`) is either true for
///    the whole warp or for none of it: where it evaluates (a template
///    argument, a parameter bound at the call: `if (maxlevel >= 2)`) and is
///    false, no thread runs what it guards; otherwise it is ignored. So is a
///    condition the model cannot evaluate but the uniformity analysis (with
///    opaque calls varying) proves warp-uniform in the context, or that the
///    model's own shapes prove so (a grid-stride index, initialised lane-linear
///    and only advanced by uniform multiples of 32, shifted right by 5 or
///    more); a branch on it does not split a warp, and a loop on it (`for (; it
///    < iters; ++it)`) runs as many times in every lane. Any other condition
///    that cannot be evaluated (a loaded value) makes the lane set *unknown*:
///    no lane mask is given, and a pair of accesses that such a condition
///    guards on both sides is not an exchange (it may let one lane through); an
///    access under one on its own side only is analysed as if every lane ran
///    it.
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
///    63], 1);`); the fix goes between the calls. For the warp-exchange
///    finder they are placed at a single call too, with those of the
///    helpers' own barrier-free helpers at any depth, so that a write in a
///    function and a read in a helper it calls (or the reverse) are an
///    exchange in the function (`re[t] = x; p = partner(re, im, t);`).
///
/// Left out, deliberately (each makes the analysis silent, never noisy):
/// indices that depend on `threadIdx.y`/`.z` in blocks of unknown shape, on
/// loaded values or on variables that are written under a condition or in a
/// loop other than a counted or stride loop's own variable; accesses under
/// a loop of a helper paired across calls, and for the block-level race
/// finder a write in a function and a read in a helper it calls;
/// stride-loop iterations further apart than
/// one; calls through function pointers and dependent calls naming more
/// than one function; tiles partitioned at run time; accesses made through
/// atomics or through references. Blocks whose size is not a multiple of 32 are
/// assumed away. The work is bounded; a function that exceeds it is skipped.
///
///
/// The parts of the model, each a unit of its own, in the order of a chain:
/// each is given, in its constructor, the parts above it that it uses, and
/// none holds the model.
///  - FunctionFacts (FunctionFacts.h): per function, its CFG, barriers,
///    writes, counted and stride loops, candidate accesses and calls;
///  - CallContexts (CallContexts.h): the call chains a function is analysed
///    in, and the block shapes of each chain's kernel;
///  - ThreadVariance (ThreadVariance.h): whether a value differs between
///    threads, and the warp-uniformity proofs;
///  - WarpValues and WarpAddresses (WarpEvaluator.h): the values of integer
///    expressions and the addresses of lvalues for 32 threads at a time;
///  - GuardModel (Guards.h): the conditions and loops around a statement,
///    the lanes that pass them, the enumeration of loop iterations;
///  - BlockEvaluator (BlockEvaluator.h): values, guards and addresses for a
///    whole one-dimensional block at once, for the forms where that is
///    exact;
///  - AccessTable (AccessTable.h): one context's accesses and, per block
///    shape and loop valuation, the threads that run each and the element
///    each touches, computed once per access (made by the clients).
///
/// One LaneModel per translation unit owns the parts and serves every
/// client, so per-function facts are computed once.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_LANES_LANEMODEL_H
#define CUDA_TIDY_LIB_LANES_LANEMODEL_H

#include "lib/lanes/BlockEvaluator.h"
#include "lib/lanes/CallContexts.h"
#include "lib/lanes/FunctionFacts.h"
#include "lib/lanes/Guards.h"
#include "lib/lanes/LaneModelSettings.h"
#include "lib/lanes/ModelTypes.h"
#include "lib/lanes/ThreadVariance.h"
#include "lib/lanes/WarpEvaluator.h"
#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace cuda_tidy {
class CallGraphIndex;
class FunctionCfgs;
class LaunchModel;
class UniformityAnalysis;
struct UniformityOptions;
} // namespace cuda_tidy

namespace cuda_tidy::lanes {

/// The lane model of one translation unit: its parts, the work counter they
/// share, and the queries that need several of them.
class LaneModel {
public:
  LaneModel(clang::ASTContext &Ctx, LaneModelInputs Inputs,
            const LaneModelSettings &Settings = {});
  ~LaneModel();
  LaneModel(const LaneModel &) = delete;
  LaneModel &operator=(const LaneModel &) = delete;

  clang::ASTContext &Ctx;
  LaneModelInputs Inputs;

  /// The work done so far, in evaluation steps (a thread's evaluation of an
  /// expression node is one); clients measure their own share by
  /// difference.
  uint64_t Work = 0;
  /// The work one analysis context may take (0: no limit).
  const uint64_t MaxWork;

  // The parts, in the order of the chain: each takes the ones above it
  // that it uses.
  FunctionFacts Facts;
  CallContexts Calls;
  ThreadVariance Variance;
  WarpValues Values;
  WarpAddresses Addresses;
  GuardModel Guards;
  BlockEvaluator Block;

  /// The lanes of a warp that run S in context Fr, the same in every warp
  /// and block shape that runs it (0: none runs it); std::nullopt when they
  /// differ or are not known. With EntryKnown false (the context's root is
  /// not a kernel) always unknown.
  std::optional<uint32_t> frameMask(const clang::Stmt *S, const Frame &Fr,
                                    bool EntryKnown);

  /// The statement an access belongs to: the ancestor that is a direct
  /// child of a compound statement or the body of an if, loop or label.
  const clang::Stmt *statementOf(const clang::Expr *E,
                                 const clang::FunctionDecl *F);

  /// The lanes of a warp that run statement S of F analysed on its own (a
  /// kernel, or the callers of a `__device__` function).
  std::optional<uint32_t> guardMask(const clang::Stmt *S,
                                    const clang::FunctionDecl *F);
};

} // namespace cuda_tidy::lanes

#endif // CUDA_TIDY_LIB_LANES_LANEMODEL_H
