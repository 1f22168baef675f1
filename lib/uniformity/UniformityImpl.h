//===--- UniformityImpl.h - Inside the uniformity analysis ------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the units of lib/uniformity/ share; nothing outside this folder
/// includes it (clients use Uniformity.h). The model is stated there and in
/// docs/analysis-uniformity.md. How the analysis of one function is built:
///
///  - FunctionUniformityImpl holds its results: the CFG with its order and
///    control dependences, the level of each branch condition and of the
///    control at each block, the level of each expression, where each local
///    got its level, the barriers, the levels of the return value and of the
///    stores. Its queries are in Explain.cpp (why a point diverges, where a
///    value comes from) and Paths.cpp (what the threads that skip a point
///    do, what follows a point, early loop exits).
///  - FunctionSolver (Solver.cpp) fills them: it builds the CFG, finds the
///    kernel's exit-only blocks, and alternates the variables' fixed point
///    with the control's until both are stable, then records.
///  - BlockEvaluator (Transfer.cpp) is the transfer function: it runs the
///    statements of one block over the levels of the locals.
///  - Intrinsics.cpp says what CUDA's known calls and inline assembly mean:
///    which are barriers, the levels of intrinsics and cooperative groups
///    calls, which toolkit calls change memory.
///  - Uniformity.cpp is the public interface, the cache of results and the
///    function summaries with their application at calls.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_UNIFORMITY_UNIFORMITYIMPL_H
#define CUDA_TIDY_LIB_UNIFORMITY_UNIFORMITYIMPL_H

#include "lib/ast/CudaAST.h"
#include "lib/uniformity/Uniformity.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/CFGStmtMap.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <array>
#include <vector>

namespace cuda_tidy {

// Bounds on the work done for one translation unit and one function.
inline constexpr unsigned MaxBlocks = 3000;
inline constexpr unsigned MaxRounds = 64;
inline constexpr unsigned MaxOuterRounds = 8;
inline constexpr unsigned MaxSummaryDepth = 12;
inline constexpr unsigned long long MaxWork = 20000000;

/// Template parameters fixed to a value (by an `if constexpr` around what is
/// asked about).
using TemplatePins =
    llvm::SmallVector<std::pair<const clang::Decl *, int64_t>, 2>;

/// Integral constants, with pinned template parameters.
struct ConstEval {
  const clang::ASTContext &Ctx;
  const TemplatePins *Pins = nullptr;
  /// The kernel's launch facts (bounds on the thread index), if any.
  const LaunchFacts *Launch = nullptr;
  std::optional<llvm::APSInt> operator()(const clang::Expr *E) const;
};

/// Pow2 of a value known to be zero (every power of two divides it).
inline constexpr unsigned ZeroPow2 = 63;
/// The power of two that divides C (ZeroPow2 for zero).
unsigned pow2Of(const llvm::APSInt &C);

/// The level of `L Op R` from the levels of its operands (Algebra.cpp): the
/// shapes' reasoning, made exact by the affine form where it has one.
UniformValue combine(clang::BinaryOperatorKind Op, const clang::Expr *LE,
                     UniformValue L, const clang::Expr *RE, UniformValue R,
                     const ConstEval &Ctx, const UniformityOptions &Opts);

class FunctionUniformityImpl;

/// Cond, a comparison of a kernel's argument `n` with an index, decided in
/// every thread by the kernel's launches (a grid of `n / G` blocks,
/// LaunchFacts::ParamGridX): true or false, or none (GridBounds.cpp).
std::optional<bool> decideByGrid(const clang::Expr *Cond,
                                 const FunctionUniformityImpl &Fn);

/// Cmp, a comparison whose two sides the kernel's launches bound
/// (`blockIdx.x * 256 + threadIdx.x < 1000` in a grid of 3 blocks of 256,
/// a counted loop's variable): true or false in every thread, or none
/// (IndexRanges.cpp).
std::optional<bool> decideByRanges(const clang::BinaryOperator *Cmp,
                                   const FunctionUniformityImpl &Fn);
struct IndexRangeCache;

/// The levels of the locals at one point of a function.
using VarLevels = llvm::DenseMap<const clang::VarDecl *, UniformValue>;

/// Drops the shape and the affine form: what control and opaque results
/// carry.
inline UniformValue plain(UniformValue V) {
  V.Shape = UniformValue::None;
  V.Affine = false;
  V.Pow2 = 0;
  V.DimX = false;
  V.Rest = Uniformity::Block;
  V.FloorMul = 0;
  V.FloorShift = 0;
  V.Lin = {};
  V.Flr = {};
  V.Sym = 0;
  V.SymMul = 0;
  return V;
}

/// A and B, affine, have the same thread part.
inline bool sameThreadPart(const UniformValue &A, const UniformValue &B) {
  return A.Lin == B.Lin && A.Sym == B.Sym && A.SymMul == B.SymMul &&
         A.FloorMul == B.FloorMul &&
         (A.FloorMul == 0 || (A.FloorShift == B.FloorShift && A.Flr == B.Flr));
}

/// V as written under control at level Ctl: as varying as both; the shape
/// and the affine form survive control that is the same in every lane of a
/// warp (a warp runs the write with all of its lanes or with none), with
/// the control's level joined into the uniform part.
inline UniformValue underControl(UniformValue V, UniformValue Ctl) {
  if (Ctl.Base == Uniformity::Thread && Ctl.Mixed &&
      (V.Base != Uniformity::Thread || V.Mixed)) {
    // Control that varies only through parameters' thread parts (a
    // helper's `while (j - threadIdx.x < n)`): the value keeps its form,
    // and varies as far as the control does.
    UniformValue R = V;
    R.Shape = UniformValue::None;
    R.Params |= Ctl.Params;
    R.MixRest = std::max(ownLevel(V), Ctl.MixRest);
    R.Mixed = V.Mixed | Ctl.Mixed;
    R.Base = Uniformity::Thread;
    if (R.Affine)
      R.Rest = std::max(R.Rest, Ctl.MixRest);
    return R;
  }
  if (Ctl.Base == Uniformity::Thread)
    return plain(join(V, Ctl));
  UniformValue R = V;
  R.Base = std::max(V.Base, Ctl.Base);
  R.Params |= Ctl.Params;
  if (Ctl.Params)
    R.Shape = UniformValue::None;
  if (R.Affine)
    R.Rest = std::max(R.Rest, Ctl.Base);
  return R;
}

/// V is thread-varying with no form: what a symbol stands for when a local
/// holds it (UniformValue::Sym).
inline bool needsSymbol(const UniformValue &V) {
  return V.Base == Uniformity::Thread && !V.Affine && !V.Mixed;
}

/// V, a value that needsSymbol(), as SymMul = 1 times the symbol Sym.
inline UniformValue symbolic(UniformValue V, uint32_t Sym) {
  V.Affine = true;
  V.Rest = Uniformity::Block;
  V.Pow2 = 0;
  V.DimX = false;
  V.Sym = Sym;
  V.SymMul = 1;
  return V;
}

/// V with no symbol (for what leaves the function: its symbols name its
/// own definitions, whose runs a caller does not see).
inline UniformValue withoutSymbol(UniformValue V) {
  if (!V.Affine || !V.SymMul)
    return V;
  UniformValue P = plain(V);
  P.Shape = V.Shape;
  return P;
}

/// V is a local whose values may be named by a symbol: an integer (the
/// algebra of forms is about integers; a pointer's difference counts
/// elements and a float's sum rounds).
inline bool symbolicVar(const clang::VarDecl *V) {
  return V->getType()->isIntegralOrEnumerationType();
}

/// Drops symbol Sym from every local of State but Keep: a new run of its
/// definition, after which their values came from an older one.
void dropSymbol(VarLevels &State, uint32_t Sym, const clang::VarDecl *Keep);

/// V reaches level L, or depends on a parameter in Mask.
inline bool reaches(UniformValue V, Uniformity L, uint64_t Mask) {
  return V.Base >= L || (V.Params & Mask);
}

inline bool isLoopStmt(const clang::Stmt *S) {
  return llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt,
                   clang::CXXForRangeStmt>(S);
}

/// Loc lies in R (its ends included).
inline bool inRange(const clang::SourceManager &SM, clang::SourceRange R,
                    clang::SourceLocation Loc) {
  return !SM.isBeforeInTranslationUnit(Loc, R.getBegin()) &&
         !SM.isBeforeInTranslationUnit(R.getEnd(), Loc);
}

//===----------------------------------------------------------------------===//
// Known calls and inline assembly (Intrinsics.cpp).
//===----------------------------------------------------------------------===//

/// A builtin or a declaration of the CUDA headers.
bool isHeaderFunction(const clang::FunctionDecl *FD,
                      const clang::SourceManager &SM);

/// The value of an integral constant expression.
std::optional<llvm::APSInt> constantOf(const clang::Expr *E,
                                       const clang::ASTContext &Ctx);

/// The level of a call to a known intrinsic or cooperative groups function
/// FD, from the levels of its arguments (the object not included), or
/// std::nullopt when FD is not one the analysis knows. Header: whether FD
/// isHeaderFunction.
std::optional<UniformValue> intrinsicLevel(const clang::CallExpr *Call,
                                           const clang::FunctionDecl *FD,
                                           llvm::ArrayRef<UniformValue> Args,
                                           const UniformityOptions &Opts,
                                           clang::ASTContext &Ctx, bool Header);

/// The level of the outputs of inline assembly Asm whose inputs are at
/// Inputs: what it reads (`%laneid`, `%clock`) or does (atomics, shuffles,
/// votes).
UniformValue asmLevel(llvm::StringRef Asm, UniformValue Inputs);

/// A call to FD (null: through a pointer) may change memory or wait: a user
/// function, or a toolkit function that stores, orders memory or waits
/// rather than only computing.
bool isWorkCall(const clang::FunctionDecl *FD, const clang::SourceManager &SM);

//===----------------------------------------------------------------------===//
// Locals and calls.
//===----------------------------------------------------------------------===//

/// V is a local of F (parameters included) whose level is tracked.
inline bool isTracked(const clang::VarDecl *V, const clang::FunctionDecl *F) {
  return V->hasLocalStorage() && llvm::dyn_cast_or_null<clang::FunctionDecl>(
                                     V->getParentFunctionOrMethod()) == F;
}

/// The tracked local of F that E names or is part of (a member, an element
/// of a local array); Exact when E is the whole variable.
const clang::VarDecl *localRoot(const clang::Expr *E,
                                const clang::FunctionDecl *F, bool &Exact);

/// A call's operands as the callee sees them: its object, and the arguments
/// that are its parameters.
struct CallOperands {
  /// The object of a member call or of a member operator, which a non-const
  /// method may write.
  const clang::Expr *Object = nullptr;
  /// What the object's level comes from: Object, or the base of a member call
  /// that a template pattern leaves unresolved.
  const clang::Expr *ObjectValue = nullptr;
  /// The index of the call's first argument that is a parameter.
  unsigned FirstArg = 0;
};
CallOperands operandsOf(const clang::CallExpr *Call);

/// V, a level computed in a callee, with the levels of the object and the
/// arguments of a call in place of the callee's parameters.
UniformValue bind(UniformValue V, UniformValue Obj,
                  llvm::ArrayRef<UniformValue> Args);

//===----------------------------------------------------------------------===//
// The results for one function.
//===----------------------------------------------------------------------===//

class FunctionUniformityImpl {
public:
  FunctionUniformityImpl(clang::ASTContext &Ctx, const clang::FunctionDecl *F)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), F(F), Kernel(isKernel(F)) {}

  clang::ASTContext &Ctx;
  const clang::SourceManager &SM;
  const clang::FunctionDecl *F;
  bool Kernel;
  /// For an analysis bound at a call (UniformityAnalysis::analyzeBound):
  /// the values of the parameters bound, by index, and the template
  /// parameters pinned.
  llvm::SmallVector<std::optional<UniformValue>, 4> BoundParams;
  TemplatePins Pins;
  /// For a kernel: what its launches fix (UniformityAnalysis::setLaunchFacts).
  LaunchFacts Launch;
  /// The comparisons decideByRanges decided, and how the locals are written
  /// (built on first use).
  mutable std::shared_ptr<IndexRangeCache> Ranges;
  /// Reads of one field of a local struct, with the local that stands for
  /// the field (UniformityAnalysis::fieldVar), for explanations.
  llvm::DenseMap<const clang::MemberExpr *, const clang::VarDecl *> FieldReads;

  /// The CFG, its blocks in reverse post order from the entry and by ID.
  /// (Shared with the lane model through the analysis' FunctionCfgs.)
  std::shared_ptr<clang::CFG> Cfg;
  std::shared_ptr<clang::ParentMap> PM;
  std::unique_ptr<clang::CFGStmtMap> StmtMap;
  std::vector<const clang::CFGBlock *> RPO;
  std::vector<const clang::CFGBlock *> ById;
  std::vector<bool> Reachable;

  /// Per block: the level of its terminator's condition; of the control
  /// around it, with and without the threads that left the kernel (Full and
  /// Live); the blocks it is control dependent on.
  std::vector<UniformValue> CondLevel, CtlLive, CtlFull;
  std::vector<llvm::SmallVector<unsigned, 4>> CD;
  /// In a kernel: the block only leads to `return`; the block branches to
  /// one such block and one other.
  std::vector<bool> ExitOnly, ExitBranch;
  /// The block reaches a block barrier (itself or through a call).
  std::vector<bool> HasBarrier;

  /// Recorded by the last pass, once the levels are stable.
  llvm::DenseMap<const clang::Expr *, UniformValue> ExprLevels;
  /// The first write that gave each local at least each level.
  llvm::DenseMap<const clang::VarDecl *, std::array<ValueOrigin, 3>> Reasons;
  llvm::SmallVector<BarrierSite, 4> Barriers;
  UniformValue ReturnLevel, StoreLevel;
  /// The return statements recorded so far.
  unsigned Returns = 0;

  /// The control at Block; CountExits: in a kernel, with the threads that
  /// left through an early `return`.
  UniformValue ctlOf(unsigned Block, bool CountExits = false) const {
    return CountExits || !Kernel ? CtlFull[Block] : CtlLive[Block];
  }
  /// Block X's control may come from branch D (in a kernel, unless counting
  /// exits, a branch to an exit-only block makes only that block diverge).
  bool allowed(unsigned D, unsigned X, bool CountExits) const {
    return !(Kernel && !CountExits && ExitBranch[D] && !ExitOnly[X]);
  }
  const clang::CFGBlock *blockOf(const clang::Stmt *S) const {
    return StmtMap ? StmtMap->getBlock(S) : nullptr;
  }
  /// The block of S when it is reachable from the entry.
  const clang::CFGBlock *reachableBlockOf(const clang::Stmt *S) const {
    const clang::CFGBlock *B = blockOf(S);
    return B && Reachable[B->getBlockID()] ? B : nullptr;
  }
  UniformValue levelOf(const clang::Expr *E) const {
    auto It = ExprLevels.find(E);
    return It == ExprLevels.end() ? UniformValue() : It->second;
  }
  /// The first write that gave V at least L, or null.
  const ValueOrigin *originOf(const clang::VarDecl *V, Uniformity L) const {
    auto It = Reasons.find(V);
    if (It == Reasons.end())
      return nullptr;
    const ValueOrigin &R = It->second[static_cast<unsigned>(L)];
    return R.Where ? &R : nullptr;
  }

  /// V, computed in a callee, with the levels of the call's arguments after
  /// the analysis (for clients). Uniformity.cpp.
  UniformValue substitute(UniformValue V, const clang::CallExpr *Call) const;

  // Explanations (Explain.cpp).
  std::optional<DivergenceCause> causeAt(const clang::Stmt *S, Uniformity L,
                                         uint64_t Mask, bool CountExits) const;
  ValueSource
  describe(const clang::Expr *E, Uniformity L,
           llvm::SmallVectorImpl<TraceStep> *Trace, unsigned &Steps,
           llvm::SmallPtrSetImpl<const clang::VarDecl *> &Seen) const;

  // Paths (Paths.cpp).
  bool skippersOnlyLeave(const clang::Stmt *S, Uniformity L,
                         uint64_t Mask) const;
  bool quietAfter(const clang::Stmt *S) const;
  bool exitAvoiding(const clang::Stmt *From,
                    llvm::function_ref<bool(const clang::Stmt *)> Stop) const;
  std::optional<LoopExit> earlyLoopExit(const clang::Stmt *Barrier,
                                        Uniformity L) const;

private:
  /// The cause that branch block Branch gives to a point S it controls.
  DivergenceCause causeOf(const clang::CFGBlock *Branch,
                          const clang::Stmt *S) const;
  /// describe() for a local: its name, and the trace of where it got L.
  ValueSource
  describeVar(const clang::VarDecl *V, Uniformity L,
              llvm::SmallVectorImpl<TraceStep> *Trace, unsigned &Steps,
              llvm::SmallPtrSetImpl<const clang::VarDecl *> &Seen) const;
  /// E reaches L through a value (the thread index, a load, a call) rather
  /// than only through variables set under a varying condition.
  bool byData(const clang::Expr *E, Uniformity L, unsigned Depth = 0) const;
  /// S (a statement of the CFG) changes memory or waits: a store that is not
  /// to a local, an atomic, a call to a user function, inline asm, a barrier.
  bool isWork(const clang::Stmt *S) const;
  /// Whether no work is done from the elements of B after index First, nor in
  /// any block reachable from there.
  bool quietFrom(const clang::CFGBlock *B, unsigned First) const;
};

//===----------------------------------------------------------------------===//
// The transfer function (Transfer.cpp).
//===----------------------------------------------------------------------===//

/// Runs the statements of one block of a function over the levels of its
/// locals: evaluates each expression, applies each write, notes barriers.
/// Each replay also notes, for its block, what the function's results take
/// from it (per-expression levels, origins, barriers, return and store
/// levels); once the levels are stable the solver commits each block's
/// notes of its last replay, in reverse post order.
class BlockEvaluator {
public:
  BlockEvaluator(UniformityAnalysis &A, FunctionUniformityImpl &Fn)
      : A(A), Opts(A.options()), Fn(Fn), Ctx(Fn.Ctx), SM(Fn.SM),
        F(Fn.F), Consts{Fn.Ctx, &Fn.Pins, &Fn.Launch} {}

  /// Runs block Block from S, which becomes its exit state, and sets the
  /// level of its condition.
  void replay(unsigned Block, VarLevels &S);
  /// Whether a replay of Block now would note what its last replay noted:
  /// it was replayed, and no symbol was found copied since it began (the
  /// entry state and the control levels are the caller's to keep).
  bool notesCurrent(unsigned Block) const;
  /// Adds the notes of Block's last replay to the function's results.
  void commit(unsigned Block);
  /// Frees the notes.
  void dropNotes() { std::vector<BlockNotes>().swap(Notes); }
  /// Locals whose address escapes; with OpaqueCallsVary they are varying.
  llvm::DenseSet<const clang::VarDecl *> Escaped;

private:
  UniformityAnalysis &A;
  const UniformityOptions &Opts;
  /// The function's results, filled in by the last pass.
  FunctionUniformityImpl &Fn;
  clang::ASTContext &Ctx;
  const clang::SourceManager &SM;
  const clang::FunctionDecl *F;
  ConstEval Consts;

  /// The state of the block being replayed.
  VarLevels *Cur = nullptr;
  unsigned CurBlock = 0;
  llvm::DenseSet<const clang::Stmt *> BarrierSeen;
  /// isHeaderFunction of each callee asked about (a replay asks again).
  llvm::DenseMap<const clang::FunctionDecl *, bool> HeaderFunctions;
  bool headerFunction(const clang::FunctionDecl *FD) {
    auto [It, New] = HeaderFunctions.try_emplace(FD, false);
    if (New)
      It->second = isHeaderFunction(FD, SM);
    return It->second;
  }

  /// What one replay of a block gives the function's results, in the order
  /// the replay met it.
  struct BlockNotes {
    /// UniformityAnalysis::CopiedCount when the replay began; ~0u: none.
    unsigned Copied = ~0u;
    /// The value of each expression evaluated: while the block is replayed
    /// its elements come in evaluation order, subexpressions first, and a
    /// parent takes its children's values from here instead of walking them
    /// again (which made a replay quadratic in the depth of an expression).
    llvm::DenseMap<const clang::Expr *, UniformValue> Exprs;
    struct Write {
      const clang::VarDecl *V;
      const clang::Stmt *Where;
      const clang::Expr *From;
      Uniformity Level, Own;
    };
    llvm::SmallVector<Write, 0> Writes;
    /// Barriers met; with Summary set, a call (Site, Callee) to a function
    /// whose summary names the barrier it reaches.
    struct Barrier {
      BarrierSite Site;
      const FunctionSummary *Summary = nullptr;
    };
    llvm::SmallVector<Barrier, 0> Barriers;
    llvm::SmallVector<UniformValue, 0> Stores, Returned;
    void clear() {
      Exprs.clear();
      Writes.clear();
      Barriers.clear();
      Stores.clear();
      Returned.clear();
    }
  };
  /// By block ID.
  std::vector<BlockNotes> Notes;
  /// The notes of the block being replayed.
  BlockNotes *Noting = nullptr;

  UniformValue curCtl() const { return Fn.ctlOf(CurBlock); }
  /// The level of V before the function writes it.
  UniformValue initial(const clang::VarDecl *V) const;
  UniformValue opaque(UniformValue FromArgs) const {
    return Opts.OpaqueCallsVary ? UniformValue::of(Uniformity::Thread)
                                : plain(FromArgs);
  }

  UniformValue eval(const clang::Expr *E);
  UniformValue evalUncached(const clang::Expr *E);
  UniformValue evalDeclRef(const clang::DeclRefExpr *DRE);
  /// `P p = {a, b};` for a local struct: each field set from its
  /// initialiser (false, and nothing set, for any other declaration).
  bool initFields(const clang::VarDecl *V, const clang::DeclStmt *DS);
  /// For `p.x`, p a local struct of the function (not a union, not a
  /// reference): the local that stands for the field; null otherwise.
  const clang::VarDecl *fieldOf(const clang::Expr *E,
                                const clang::VarDecl **Whole = nullptr);
  /// The level of a read of `p.x`: what was written to the field and to
  /// the whole of p.
  UniformValue evalField(const clang::MemberExpr *ME,
                         const clang::VarDecl *Field,
                         const clang::VarDecl *Whole);
  UniformValue evalBinary(const clang::BinaryOperator *BO);
  UniformValue evalCall(const clang::CallExpr *Call);
  /// Writes Stored into what a call to FD may write: locals passed by
  /// address or by non-const reference, local arrays, and the object of a
  /// non-const method.
  void writeThroughCall(const clang::CallExpr *Call,
                        const clang::FunctionDecl *FD, const CallOperands &Ops,
                        UniformValue Stored);
  void transfer(const clang::Stmt *S);
  void transferAsm(const clang::GCCAsmStmt *Asm);
  /// Own, when given, is the level the write brings in itself (the
  /// right-hand side of `x += y`), for the explanation of where a variable
  /// got its level; Value is what the target holds afterwards.
  void write(const clang::Expr *Target, UniformValue Value, bool Compound,
             const clang::Stmt *Where, const clang::Expr *From,
             std::optional<UniformValue> Own = std::nullopt);
  void setVar(const clang::VarDecl *V, UniformValue Value, bool Strong,
              const clang::Stmt *Where, const clang::Expr *From,
              std::optional<UniformValue> Own = std::nullopt);
  /// Notes barrier B met by the block being replayed; with Summary, B is a
  /// call (Site, Callee) to a function whose summary names the barrier.
  void noteBarrier(BarrierSite B, const FunctionSummary *Summary = nullptr);
  /// Value, just stored into V at Where: a thread-varying value with no
  /// form becomes the symbol of this definition.
  void nameValue(const clang::VarDecl *V, UniformValue &Value,
                 const clang::Stmt *Where);
};

//===----------------------------------------------------------------------===//
// The solver (Solver.cpp).
//===----------------------------------------------------------------------===//

/// Computes the results Fn for its function, within the analysis' bounds.
class FunctionSolver {
public:
  FunctionSolver(UniformityAnalysis &A, FunctionUniformityImpl &Fn)
      : A(A), Fn(Fn), Eval(A, Fn) {}

  /// False when the function has no body or exceeds a bound.
  bool run();

private:
  UniformityAnalysis &A;
  FunctionUniformityImpl &Fn;
  BlockEvaluator Eval;
  /// The levels of the locals at the entry and exit of each block.
  std::vector<VarLevels> In, Out;
  /// The blocks whose control level the last updateControl changed; the
  /// others, entered with the state of the last pass, are not replayed.
  std::vector<bool> CtlChanged;
  /// A pass over every block was made.
  bool PassDone = false;
  /// The blocks replayed at least once (the others' exit states are not
  /// known yet).
  std::vector<bool> Replayed;
  /// Whether a block's entry state can differ from In: the stamp of each
  /// block's last exit-state change (a first replay counts), and, for each
  /// block, the stamp and UniformityAnalysis::CopiedCount when its entry
  /// state was last merged (MergedAt 0: never).
  unsigned Stamp = 0;
  std::vector<unsigned> OutStamp, MergedAt, MergedCopied;
  bool entryMayChange(const clang::CFGBlock *B) const;
  /// Symbols for the locals of S, B's entry state merged from Preds replayed
  /// predecessors (UniformValue::Sym).
  void nameMerged(const clang::CFGBlock *B, VarLevels &S, unsigned Preds);

  bool buildCfg(clang::Stmt *Body);
  void orderBlocks();
  void computeControlDependence();
  void computeExitOnly();
  /// Which blocks return (or call a no-return function) and which reach a
  /// block barrier.
  void scanBlocks(std::vector<bool> &Returns);
  void markExitOnly(const std::vector<bool> &Returns);
  /// One fixed point of the locals' levels under the current control.
  bool dataflow();
  /// The control levels from the branch conditions; whether they changed.
  bool updateControl();
  /// The last pass, which records the results.
  void record();
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_UNIFORMITY_UNIFORMITYIMPL_H
