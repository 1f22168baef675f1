//===--- Uniformity.h - Which values and branches differ by thread -*- C++
//-*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A uniformity (divergence) analysis of device code: for each value and each
/// point of a kernel or `__device__` function, how widely the threads of a
/// block can disagree about it.
///
/// Levels, from most to least uniform:
///  - block-uniform: the same in every thread of the block (`blockIdx.x`,
///    `blockDim.x`, kernel parameters passed by value, constants, loads from
///    block-uniform addresses such as `flags[blockIdx.x]`, shared variables,
///    the result of `__syncthreads_count/_and/_or`);
///  - warp-uniform: the same in every lane of a warp, different between warps
///    (`threadIdx.x / 32`, `threadIdx.x >> 5`, `threadIdx.x < 64`, vote
///    results such as `__ballot_sync`, `__shfl_sync` from a uniform lane);
///  - thread-varying: may differ between lanes (`threadIdx`, the lane id,
///    cooperative groups' `thread_rank()`, atomics' results, shuffles,
///    `clock()`, loads from thread-varying addresses).
///
/// Model. The analysis runs over the clang CFG of one function body:
///  - Each local variable (automatic storage, parameters included) carries a
///    level, flow-sensitively: an assignment replaces it, a compound
///    assignment, `++`, a write through `&x` or a non-const reference joins
///    into it. At a merge point levels join (the least uniform wins); loops
///    iterate to a fixed point.
///  - Control dependence comes from the CFG's post-dominator tree. A block is
///    controlled at the join of the levels of the branches it depends on
///    (transitively): a loop body at its loop condition's level, code after a
///    varying `break` or `return` at that branch's level. A variable set in a
///    block is at least as varying as the block's control: "a variable set in
///    a varying branch is varying after the branch".
///  - In a kernel, a branch one side of which only leads to `return` does not
///    make the rest of the kernel diverge: threads that exit do not take part
///    in later barriers or values (the Volta execution model). controlAt()
///    can count such exits when a client needs to (HIP's wavefronts, or a
///    warp that must be complete).
///  - Warp uniformity is tracked with two shapes: "lane-linear" values
///    (`threadIdx.x` plus a multiple of 32, cooperative groups' block
///    `thread_rank()`; `tid += blockDim.x * gridDim.x` keeps it, and so does
///    a write under control that is the same in every lane of a warp) and
///    "aligned" ones (uniform multiples of 32,
///    `blockDim.x`). Dividing a lane-linear value by, shifting it right by,
///    or comparing it with an aligned one is warp-uniform. This assumes that
///    `blockDim.x` is a multiple of 32; UniformityOptions can drop it, and then
///    nothing derived from `threadIdx` is warp-uniform.
///  - Values affine in the thread index are kept exactly (the affine
///    divergence analysis of Sampaio, Souza, Collange and Pereira, TOPLAS
///    2013, with integer coefficients): `U + cx*threadIdx.x + cy*threadIdx.y
///    + cz*threadIdx.z + cq*q`, where U is the same in every thread (at the
///    value's Rest level) and q is `(block.thread_rank() - threadIdx.x) /
///    32`, the part of cooperative groups' block rank that comes from
///    `threadIdx.y` and `.z` (zero in one-dimensional blocks). The form goes
///    through `+`, `-`, unary minus, `*` and `<<` by constants, locals, loop
///    updates, the values functions return, and division or `>>` by a power
///    of two that divides U (the analysis knows which power of two divides
///    U: `blockDim.x` is a multiple of 32 under BlockSizeMultipleOf32), the
///    coefficients it does not divide going into one rounded-down part:
///    `(U + threadIdx.x) / 4` is `U/4 + floor(threadIdx.x / 4)`. A value
///    whose thread part cancels is as uniform as U: `j - threadIdx.x` with
///    `j = blockIdx.x * blockDim.x + threadIdx.x`, stepped by `gridDim.x *
///    blockDim.x`, is block-uniform. One whose only thread part is q is
///    block-uniform for clients that report divergence (kernels written so
///    are launched with one-dimensional blocks) and warp-uniform for those
///    that prove uniformity (OpaqueCallsVary). A thread-varying value with no
///    such form is named, where a local is set to it, by a symbol of that
///    definition (or of the merge of paths that bring different values:
///    SSA's names), and a form may carry one symbol times a coefficient:
///    `last = first + 8 * width` after a thread-varying branch that moves
///    `first` keeps `last - first` uniform. A new run of a definition drops
///    its symbol from the locals that hold the old run's value; symbols stay
///    in their function and in integer locals. A kernel is analysed for its
///    launches where the client gives them (setLaunchFacts): bounds on the
///    thread index drop rounded-down parts that are 0 in every thread and
///    make `i < n` uniform when the thread part's range is shorter than the
///    power of two that divides the rest. Division assumes the dividend
///    is not negative (an index), and no form survives an overflow of its
///    16-bit coefficients.
///  - Within the translation unit, calls are summarised: a function with a
///    body gets a summary (does it reach a block barrier; which parameters
///    make the conditions at its barriers, its return value or what it stores
///    through pointers vary), computed on first use and applied at each call
///    with the caller's arguments. A member function's object (and a lambda's
///    captures, through its closure object) counts as one more parameter.
///  - Template instantiations are analysed like other functions, and so are
///    template patterns (a header's templates that the translation unit never
///    instantiates): a template parameter is block-uniform, a dependent call
///    is the one function or template its name finds (else opaque), and any
///    other dependent expression is as uniform as what it is made of.
///
/// Left out, deliberately:
///  - Memory is not tracked: a load is as uniform as its address, whatever
///    other threads stored there. After a barrier this is the common case; a
///    load racing with stores is not modelled.
///  - Aliasing: a write through a reference or pointer variable updates only
///    what the analysis can name. Calls through function pointers and calls
///    to functions without a body are *opaque*: their result joins their
///    arguments (a pure function), or, with OpaqueCallsVary, is
///    thread-varying. The second setting is for clients that must prove
///    uniformity (a full warp mask); the first for clients that must be sure
///    something varies (a divergent barrier), so that an unknown stays quiet.
///  - `threadIdx.y` and `threadIdx.z` are thread-varying unless the kernel's
///    launches in the translation unit make them warp-uniform (every launch
///    with a block whose x extent, or x times y for `.z`, is a multiple of
///    32: `dim3(32, 8)`); with no launch in sight nothing is assumed of the
///    block's shape.
///  - Affine forms are not kept through memory, through products of two
///    non-constant values or division by a non-constant or a constant that
///    is not a power of two. A device function's parameter is a level, not
///    a form: a callee's `j - threadIdx.x` on its parameter `j` is
///    thread-varying with `j` in UniformValue::Mixed, and only a call's
///    bound analysis (boundBarrierControl) sees it cancel. A template
///    parameter of a pattern is unknown except where an `if constexpr`
///    around the point asked about, or a `static_assert` in the body, fixes
///    it (analyzePinnedAt). Launches in other translation units are not
///    seen.
///  - Work is bounded (CFG size, fixed-point rounds, summary depth). When a
///    bound is hit the function has no result and callers treat its calls as
///    opaque: silence rather than noise.
///
/// The implementation is in units by concern; UniformityImpl.h, private to
/// this folder, says which holds what.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_UNIFORMITY_UNIFORMITY_H
#define CUDA_TIDY_LIB_UNIFORMITY_UNIFORMITY_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class Decl;
class Expr;
class FunctionDecl;
class Stmt;
class VarDecl;
class FieldDecl;
class MemberExpr;
} // namespace clang

namespace cuda_tidy {

class FunctionCfgs;


/// How widely the threads of a block may disagree; ordered, so that the
/// join of two levels is their maximum.
enum class Uniformity : uint8_t { Block = 0, Warp = 1, Thread = 2 };

/// A level that may depend on the parameters of the function it was computed
/// in: the join of Base and of the levels of the parameters in Params (bit i
/// for parameter i; ThisParam for the object or a lambda's closure).
struct UniformValue {
  static constexpr unsigned ThisParam = 63;
  /// How a value is laid out over the lanes; see the file comment.
  enum ShapeKind : uint8_t { None = 0, Aligned = 1, LaneLinear = 2 };

  Uniformity Base = Uniformity::Block;
  ShapeKind Shape = None;
  /// The affine form below is known; without it a value that is not
  /// thread-varying is its own uniform part, with no thread part.
  bool Affine = false;
  /// The level of the uniform part U of an affine value (Params apply too).
  Uniformity Rest = Uniformity::Block;
  /// 2^Pow2 divides U (63: U is zero), for any value that is not
  /// thread-varying or is affine.
  uint8_t Pow2 = 0;
  /// U is a multiple of `blockDim.x` (or zero), for any value that is not
  /// thread-varying or is affine: `k * blockDim.x`. With it `(U +
  /// threadIdx.x) / blockDim.x` is U / blockDim.x, since `threadIdx.x <
  /// blockDim.x`.
  bool DimX = false;
  /// The rounded-down part divides by 2^FloorShift.
  uint8_t FloorShift = 0;
  /// The value is U + Lin . t + FloorMul * floor((Flr . t) / 2^FloorShift),
  /// t = (threadIdx.x, threadIdx.y, threadIdx.z, q); see the file comment.
  int16_t FloorMul = 0;
  std::array<int16_t, 4> Lin{}, Flr{};
  /// A thread-varying part with no form in the thread index: SymMul times
  /// the value that a local got at one definition (Sym, an identifier of
  /// the analysis; 0: none), so that the form is U + Lin . t + ... + SymMul
  /// * Sym. `last = first + 4 * mult` after a thread-varying branch that
  /// sets `first` keeps `last - first` uniform. See the file comment.
  uint32_t Sym = 0;
  int16_t SymMul = 0;
  uint64_t Params = 0;
  /// For a thread-varying value: the parameters (a subset of Params) whose
  /// own thread part may cancel the value's, as in a helper's `j -
  /// threadIdx.x` on its parameter `j` (zero: the value varies whatever the
  /// parameters are). Such a value is thread-varying for every client that
  /// does not bind those parameters (bind() keeps it so); with them bound
  /// to a call's arguments (UniformityAnalysis::boundBarrierControl) the
  /// callee is analysed again and the value may turn out uniform. MixRest is
  /// its level when the thread parts cancel.
  uint64_t Mixed = 0;
  Uniformity MixRest = Uniformity::Block;

  static UniformValue of(Uniformity U, ShapeKind S = None) {
    UniformValue V;
    V.Base = U;
    V.Shape = S;
    return V;
  }
  static UniformValue param(unsigned Index) {
    UniformValue V;
    V.Params = uint64_t(1) << Index;
    return V;
  }
  bool isBlockUniform() const {
    return Base == Uniformity::Block && Params == 0;
  }
  bool operator==(const UniformValue &O) const {
    return Base == O.Base && Shape == O.Shape && Params == O.Params &&
           Mixed == O.Mixed && MixRest == O.MixRest && Affine == O.Affine &&
           Pow2 == O.Pow2 && DimX == O.DimX &&
           (!Affine || (Rest == O.Rest && FloorShift == O.FloorShift &&
                        FloorMul == O.FloorMul && Lin == O.Lin &&
                        Flr == O.Flr && Sym == O.Sym && SymMul == O.SymMul));
  }
  bool operator!=(const UniformValue &O) const { return !(*this == O); }
};

/// The least uniform of A and B.
UniformValue join(UniformValue A, UniformValue B);

/// V's level in its own function when the parameters in V.Mixed are taken
/// as what their callers bind (a level that depends on those parameters):
/// the level a report inside the function goes by.
inline Uniformity ownLevel(const UniformValue &V) {
  return V.Base == Uniformity::Thread && V.Mixed ? V.MixRest : V.Base;
}

/// The group of threads a barrier waits for.
enum class BarrierScope : uint8_t { Block = 0, Cluster = 1, Grid = 2 };

/// "block", "cluster", "grid".
llvm::StringRef barrierScopeName(BarrierScope S);

/// What is known of a kernel's blocks and arguments where it is launched
/// (from the client: the launches of the translation unit,
/// `__launch_bounds__`). Zero where unknown.
struct LaunchFacts {
  /// The most threads a block of the kernel has along x, y and z:
  /// `threadIdx.x < MaxThreads[0]`.
  std::array<uint32_t, 3> MaxThreads{};
  /// `blockDim`, where every launch has the same.
  std::array<uint32_t, 3> BlockDim{};
  /// The power of two that divides `blockDim.x`, `.y`, `.z` at every
  /// launch (0 where unknown): with 32 dividing `blockDim.x`, each warp is
  /// part of one row, and `threadIdx.y` is the same in all its lanes.
  std::array<uint8_t, 3> ExtentPow2{};
  /// By parameter: the power of two that divides its argument at every
  /// launch (an integer known there).
  llvm::SmallVector<uint8_t, 8> ParamPow2;
  /// By parameter: G > 0 when every launch's grid has `gridDim.x * G <=`
  /// its argument (the grid is that argument divided by G, rounded down:
  /// `dim3 grid(n / 32)` with `n` passed): then `blockIdx.x * G + G <= n`
  /// in every block. 0 where unknown.
  llvm::SmallVector<uint32_t, 8> ParamGridX;
  /// The most blocks a grid of the kernel has along x, y and z, where every
  /// launch's grid is a proven constant (`k<<<3, 256>>>`): `blockIdx.x <
  /// MaxBlocks[0]`; 0 where unknown. GridDim: `gridDim`, where every launch
  /// has the same.
  std::array<uint32_t, 3> MaxBlocks{};
  std::array<uint32_t, 3> GridDim{};
};

/// Options of one analysis; a client that needs other options creates
/// another UniformityAnalysis.
struct UniformityOptions {
  /// The group whose threads "block-uniform" ranges over. Block: the
  /// analysis as described above. Cluster or Grid: values that differ
  /// between the blocks of that group count as thread-varying too
  /// (`blockIdx`, a cluster's `block_rank()`, a group's `block_index()`,
  /// values of `__shared__` variables, which each block has its own copy
  /// of), so that block-uniform means the same in every thread of every
  /// block of the cluster or grid.
  BarrierScope Scope = BarrierScope::Block;
  /// Assume that `blockDim.x` is a multiple of 32, which makes
  /// `threadIdx.x / 32` and `threadIdx.x < 32` warp-uniform.
  bool BlockSizeMultipleOf32 = true;
  /// Treat the results of opaque calls, and locals whose address escapes, as
  /// thread-varying (for proofs of uniformity) rather than as the join of
  /// what flows in (for reports of divergence).
  bool OpaqueCallsVary = false;
};

/// What makes a point of a function diverge: a branch or a loop.
struct DivergenceCause {
  enum Kind { Branch, Loop };
  Kind K = Branch;
  /// The if, loop, switch, `?:` or logical operator.
  const clang::Stmt *Terminator = nullptr;
  /// Its condition, if it has one.
  const clang::Expr *Condition = nullptr;
  /// The level of the condition.
  UniformValue Level;
  /// A `return` inside the branch, when the divergence comes from threads
  /// leaving early.
  const clang::Stmt *Return = nullptr;
  /// A `break` or `goto` inside the branch that leaves the loop around S.
  const clang::Stmt *Exit = nullptr;
};

/// A thread-varying way out of a loop that holds a barrier: threads that take
/// it go on to the barriers after the loop while the others wait at the
/// loop's.
struct LoopExit {
  /// The `break` or `goto`.
  const clang::Stmt *Exit = nullptr;
  /// The loop it leaves.
  const clang::Stmt *Loop = nullptr;
  /// A barrier in the loop.
  const clang::Stmt *LoopBarrier = nullptr;
};

/// What a value's level comes from, as describe() finds it (the check
/// words it: "'tid'", "the result of 'atomicAdd'").
struct ValueSource {
  enum SourceKind {
    /// A variable, a declaration or a builtin (`threadIdx.x`), by Name.
    Named,
    /// The result of a call, of the function Name (empty: not known).
    CallResult,
    /// The object a member function is called on.
    Object,
    /// Nothing more precise than a value that differs between threads.
    Varying,
  };
  SourceKind Kind = Varying;
  std::string Name;
};

/// One step of an explanation, for a note: the local Var got its level at
/// Loc, How, from Source ("'tid' is set from 'threadIdx.x' here").
struct TraceStep {
  enum StepKind {
    /// Set from the value Source.
    From,
    /// Set under a condition on Source.
    UnderCondition,
    /// Set under a loop.
    UnderLoop,
    /// Set under a condition that differs between threads.
    UnderVaryingControl,
    /// Set by a call or inline assembly whose result differs.
    ByCallOrAsm,
  };
  clang::SourceLocation Loc;
  std::string Var;
  StepKind How = From;
  ValueSource Source;
};

/// Where a local variable got a level: the assignment or declaration, the
/// value assigned (null for a write by a call or by inline asm), and whether
/// the level came from the control around the write rather than the value.
struct ValueOrigin {
  const clang::Stmt *Where = nullptr;
  const clang::Expr *From = nullptr;
  bool UnderControl = false;
};

/// A block barrier reached in a function: a barrier itself, or a call to a
/// function that reaches one.
struct BarrierSite {
  /// The call or the asm statement.
  const clang::Stmt *Site = nullptr;
  /// For a call to a function that reaches a barrier: that function.
  const clang::FunctionDecl *Callee = nullptr;
  /// The barrier's spelling: "__syncthreads", "bar.sync",
  /// "cooperative_groups::sync"; for a call, the barrier the callee reaches.
  std::string Name;
  /// The barrier inside the callee (for a note), or the site itself.
  const clang::Stmt *Barrier = nullptr;
  /// A warp barrier with a full mask (`__syncwarp()`), not a block barrier.
  bool WarpBarrier = false;
  /// For a barrier of a cluster (`cluster.sync()`, `barrier.cluster.wait`)
  /// or of a grid (`grid.sync()`): which. Such a barrier is also a block
  /// barrier: every thread of the block must reach it.
  BarrierScope Scope = BarrierScope::Block;
};

/// What callers need to know about a function.
struct FunctionSummary {
  /// The function reaches a block barrier, directly or through callees.
  bool ReachesBarrier = false;
  /// The first such barrier, for notes.
  BarrierSite FirstBarrier;
  /// The parameters whose level makes the control at some barrier vary
  /// (Base is always block-uniform: divergence inside is reported inside).
  UniformValue BarrierControl;
  /// The level of the return value.
  UniformValue Return;
  /// The level of what the function stores through pointers, references and
  /// its object.
  UniformValue Store;
};

class FunctionUniformityImpl;

/// The results for one function body. Levels of points and values are
/// symbolic in its parameters unless it is a kernel.
class FunctionUniformity {
public:
  explicit FunctionUniformity(std::unique_ptr<FunctionUniformityImpl> Impl);
  ~FunctionUniformity();

  const clang::FunctionDecl *function() const;

  /// The level of E where it is evaluated. E must be in the body; parts of
  /// unreachable code are block-uniform.
  UniformValue valueOf(const clang::Expr *E) const;

  /// How widely threads may disagree about reaching S. CountKernelExits:
  /// in a kernel, also count threads that left through an early `return`
  /// (device functions always count their returns).
  UniformValue controlAt(const clang::Stmt *S,
                         bool CountKernelExits = false) const;

  /// The innermost branch or loop that makes controlAt(S) reach Level, or
  /// depend on a parameter in ParamMask.
  std::optional<DivergenceCause> causeAt(const clang::Stmt *S, Uniformity Level,
                                         uint64_t ParamMask = 0,
                                         bool CountKernelExits = false) const;

  /// What makes E reach Level (`tid`, `threadIdx.x`, the result of
  /// `atomicAdd`), and the steps that trace it to its source (`tid` is set
  /// from `threadIdx.x`), at most MaxSteps of them.
  ValueSource describe(const clang::Expr *E, Uniformity Level,
                       llvm::SmallVectorImpl<TraceStep> *Trace = nullptr,
                       unsigned MaxSteps = 3) const;

  /// The first write that gave V at least Level, if any.
  std::optional<ValueOrigin> origin(const clang::VarDecl *V,
                                    Uniformity Level) const;

  /// Whether every thread that does not reach S (at branches that reach
  /// Level or depend on a parameter in ParamMask) leaves the function with no
  /// store, atomic, user call, inline asm or barrier on the way.
  bool skippersOnlyLeave(const clang::Stmt *S, Uniformity Level,
                         uint64_t ParamMask = 0) const;

  /// Whether nothing after S (a statement of the body) until the function
  /// ends stores, calls user code or waits.
  bool quietAfter(const clang::Stmt *S) const;

  /// Whether some path from From (a statement of the body) to the end of
  /// the function meets no statement for which Stop holds.
  bool exitAvoiding(const clang::Stmt *From,
                    llvm::function_ref<bool(const clang::Stmt *)> Stop) const;

  /// A `break` or `goto` whose control reaches Level, out of a loop holding
  /// a barrier, after which Barrier is the first barrier reached.
  std::optional<LoopExit> earlyLoopExit(const clang::Stmt *Barrier,
                                        Uniformity Level) const;

  /// The barriers the function reaches, in source order.
  llvm::ArrayRef<BarrierSite> barriers() const;

  /// The level of a call's result or of a callee's control, from its summary
  /// value V with the arguments of Call (a call in this function).
  UniformValue substitute(UniformValue V, const clang::CallExpr *Call) const;

private:
  std::unique_ptr<FunctionUniformityImpl> Impl;
};

/// The analysis of one translation unit, with caches of function results
/// and summaries. Create one per translation unit and options.
class UniformityAnalysis {
public:
  explicit UniformityAnalysis(clang::ASTContext &Ctx,
                              UniformityOptions Opts = {});
  ~UniformityAnalysis();

  /// Where kernels' launch facts come from; set before the first analysis.
  /// A kernel is then analysed for its launches: `threadIdx.y` is 0 in
  /// blocks of one row, `threadIdx.x / 128` is 0 in blocks of at most 128
  /// threads, a loop `for (i = threadIdx.x; i < n; i += 128)` runs as many
  /// times in every thread when 128 divides `n` at every launch.
  void setLaunchFacts(
      std::function<LaunchFacts(const clang::FunctionDecl *Kernel)> Facts) {
    LaunchFactsOf = std::move(Facts);
  }

  /// The results for F, or nullptr when F has no body, is dependent, or
  /// exceeds the analysis' bounds.
  const FunctionUniformity *analyze(const clang::FunctionDecl *F);

  /// F's summary, or nullptr when F cannot be analysed (its calls are then
  /// opaque).
  const FunctionSummary *summary(const clang::FunctionDecl *F);

  /// The control at the barriers a call reaches in Callee, as a level in
  /// Caller's function. Where the callee's barriers vary only through
  /// parameters whose thread parts may cancel (UniformValue::Mixed), the
  /// callee is analysed again with those parameters bound to the call's
  /// arguments, affine forms included: a helper's `while (j - threadIdx.x <
  /// n)` with `j` the caller's `blockIdx.x * blockDim.x + threadIdx.x` is
  /// block-uniform. Barriers the callee reports itself (varying whatever
  /// its parameters) are not counted.
  UniformValue boundBarrierControl(const FunctionUniformity &Caller,
                                   const clang::CallExpr *Call,
                                   const clang::FunctionDecl *Callee,
                                   unsigned Nesting = 0);

  /// F analysed with the template parameters that the `if constexpr`
  /// statements around S fix (`if constexpr (CGSize == 1) { ... }`: in every
  /// instantiation that keeps S, CGSize is 1), and the `static_assert`s of
  /// its body that every such instantiation checks (`static_assert(CGSize ==
  /// 1)`), or nullptr when none does. For a template pattern, whose
  /// parameters are otherwise unknown.
  const FunctionUniformity *analyzePinnedAt(const clang::FunctionDecl *F,
                                            const clang::Stmt *S);

  const UniformityOptions &options() const { return Opts; }
  clang::ASTContext &context() const { return Ctx; }
  /// The CFGs to share with the other analyses of the translation unit
  /// (without, each analysed body gets its own).
  void shareCfgs(FunctionCfgs *C) { Cfgs = C; }
  FunctionCfgs *cfgs() const { return Cfgs; }

private:
  clang::ASTContext &Ctx;
  UniformityOptions Opts;
  FunctionCfgs *Cfgs = nullptr;
  struct Entry {
    std::unique_ptr<FunctionUniformity> Result;
    FunctionSummary Summary;
    bool InProgress = false;
    bool Failed = false;
  };
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<Entry>> Cache;
  /// Analyses with parameters bound or template parameters pinned.
  struct BoundEntry;
  std::vector<std::unique_ptr<BoundEntry>> Bound;
  const FunctionUniformity *
  analyzeBound(const clang::FunctionDecl *F,
               llvm::ArrayRef<std::optional<UniformValue>> Params,
               llvm::ArrayRef<std::pair<const clang::Decl *, int64_t>> Pins);
  unsigned Depth = 0;
  /// Total CFG blocks analysed, for the work bound.
  unsigned long long Work = 0;
  std::function<LaunchFacts(const clang::FunctionDecl *)> LaunchFactsOf;
  /// The symbols of UniformValue::Sym, by local and definition (a statement,
  /// or a CFG block where paths with different values merge), unique in the
  /// translation unit; and, by symbol, its local and whether a value holding
  /// it was stored into another local (then a new run of its definition
  /// must drop it from the others, whose value came from the run before).
  llvm::DenseMap<std::pair<const void *, const void *>, uint32_t> Symbols;
  struct SymbolInfo {
    const void *Var = nullptr;
    bool Copied = false;
  };
  std::vector<SymbolInfo> SymbolInfos{SymbolInfo()};
  /// How many symbols became Copied (a block's entry state depends on it).
  unsigned CopiedCount = 0;
  uint32_t symbolFor(const void *Var, const void *Definition);
  /// The locals that stand for one field of a local struct (`p.x`, named
  /// "p.x"), by variable and field, and the fields of each variable: a
  /// write to `p.x` sets its own, so that a uniform `p.y` stays uniform.
  llvm::DenseMap<std::pair<const clang::VarDecl *, const clang::FieldDecl *>,
                 const clang::VarDecl *>
      FieldVars;
  llvm::DenseMap<const clang::VarDecl *,
                 llvm::SmallVector<const clang::VarDecl *, 2>>
      FieldsOf;
  const clang::VarDecl *fieldVar(const clang::VarDecl *V,
                                 const clang::FieldDecl *Field);

  friend class FunctionSolver;
  friend class BlockEvaluator;
};

/// A barrier recognised at S (a call or an asm statement), without looking
/// into function bodies: `__syncthreads` and its `_count/_and/_or` forms,
/// cooperative groups' block `sync`, `bar.sync`/`barrier.sync` for the whole
/// block in inline asm, (as a warp barrier) `__syncwarp` with a full mask,
/// and the cluster and grid barriers: `cluster.sync()`, `grid.sync()`,
/// `cg::sync(cluster)`, `cg::sync(grid)`, `__cluster_barrier_wait()`,
/// `barrier.cluster.wait` in inline asm.
std::optional<BarrierSite> recognizeBarrier(const clang::Stmt *S,
                                            clang::ASTContext &Ctx);

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_UNIFORMITY_UNIFORMITY_H
