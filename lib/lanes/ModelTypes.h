//===--- ModelTypes.h - The lane model's vocabulary -------------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the parts of the lane model (LaneModel.h) exchange: frames (the
/// call chain an expression is evaluated in), environments (the threads and
/// loop values it is evaluated for), per-warp batches of values and
/// addresses, guards, accesses, CFG positions and per-function facts; and
/// the small helpers every part uses.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_LANES_MODELTYPES_H
#define CUDA_TIDY_LIB_LANES_MODELTYPES_H

#include "lib/launch/ConstantEval.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/bit.h"
#include <cstdint>
#include <functional>
#include <memory>

namespace cuda_tidy {

class CallGraphIndex;
class FunctionCfgs;
class LaunchModel;
class UniformityAnalysis;
struct UniformityOptions;

/// The full lane mask of a warp.
constexpr uint32_t FullLaneMask = 0xffffffffu;

namespace lanes {

/// What the lane model needs from the translation unit's other analyses,
/// each asked for on first use; the caller keeps them alive as long as the
/// model.
struct LaneModelInputs {
  std::function<const CallGraphIndex &()> Calls;
  std::function<const LaunchModel &()> Launches;
  std::function<UniformityAnalysis &(const UniformityOptions &)> Uniformity;
  /// The CFGs shared with the uniformity analysis (null: the model builds
  /// its own).
  FunctionCfgs *Cfgs = nullptr;
};

/// How an access uses its element: Atomic is the target of an atomic
/// function (`atomicAdd(&s[i], 1)`).
enum class Role { Read, Write, ReadWrite, Atomic };

/// An evaluated address: a shared variable (all dynamic shared memory is one
/// key) and a byte offset.
struct Address {
  const void *Key = nullptr;
  const clang::VarDecl *Var = nullptr;
  int64_t Byte = 0;
};

/// The model evaluates an expression for up to 32 threads at once (a batch:
/// lane L is the thread Env::Tid + L), so that one walk of the expression
/// serves a whole warp.

/// The values of an integer expression in a batch. Lanes not in Valid have
/// none: not asked for, or not known there.
struct Vals {
  uint32_t Valid = 0;
  /// Every lane holds a value, zero at first, so that operations can run
  /// over all 32 lanes (and vectorise); only valid lanes mean anything.
  int64_t V[32] = {};
};

/// The addresses an lvalue or pointer designates in a batch: in every valid
/// lane the same object (Key, Var), at its own byte offset.
struct Addrs {
  uint32_t Valid = 0;
  const void *Key = nullptr;
  const clang::VarDecl *Var = nullptr;
  int64_t Byte[32] = {};
};

/// The call chain an expression is evaluated in: a function, and the call
/// (in Parent's function) that binds its parameters.
struct Frame {
  const clang::FunctionDecl *F = nullptr;
  const clang::CallExpr *Call = nullptr;
  const Frame *Parent = nullptr;
};

/// The root of a context: the kernel or the function whose callers are not
/// known.
inline const Frame &rootOf(const Frame &Fr) {
  const Frame *Cur = &Fr;
  while (Cur->Parent)
    Cur = Cur->Parent;
  return *Cur;
}

/// Values of the symbols the model enumerates.
struct Env {
  /// The linear thread index in the block (x + y * X + z * X * Y) of lane 0
  /// of the batch being evaluated.
  int64_t Tid = 0;
  /// blockDim.x; with a known shape also blockDim.y and .z (ShapeKnown),
  /// else the block is one-dimensional as far as the model knows and
  /// threadIdx.y/.z are not evaluated.
  int64_t BlockDim = 32;
  int64_t DimY = 1, DimZ = 1;
  bool ShapeKnown = false;
  /// Set when an evaluation reads BlockDim (shared by copies of the Env).
  bool *ReadBlockDim = nullptr;
  llvm::SmallDenseMap<const clang::VarDecl *, int64_t, 4> Loop;
  /// The iteration (from 0) of each enclosing stride loop being enumerated,
  /// by its variable, whose value differs between threads (see
  /// StrideLoop).
  llvm::SmallDenseMap<const clang::VarDecl *, int64_t, 2> Trips;
  /// Set when a stride loop's iterations were not all enumerated for every
  /// thread (an unknown bound, or more than MaxStrideTrips): the lanes that
  /// run a statement in it are then not known for all iterations.
  bool *StrideCut = nullptr;
  /// Enumerate the first iteration of a stride loop whose (uniform) step
  /// the model cannot evaluate, instead of none (the race finder: a race
  /// in the first iteration is a race).
  bool FirstTripOfUnknownStride = false;
  /// Set by a client that asks where an element lies across the rows of
  /// its array (AccessTable's unplaced threads): a subscript of a row (an
  /// element of array type) whose index is not known counts as row 0, and
  /// the row's size is folded into *LooseRows (a gcd), so that the address
  /// is known modulo *LooseRows (`cnt[bin][threadIdx.x]`: column t of
  /// some row).
  int64_t *LooseRows = nullptr;
};

/// Records in En that an evaluation read blockDim.
inline void noteBlockDim(const Env &En) {
  if (En.ReadBlockDim)
    *En.ReadBlockDim = true;
}

/// A block shape the model evaluates: Known shapes give threadIdx.y/.z and
/// blockDim.y/.z; otherwise only x is modelled.
struct BlockShape {
  Dim3 D;
  bool Known = false;
};

/// Sets En's block to S.
inline void setShape(Env &En, const BlockShape &S) {
  En.BlockDim = int64_t(S.D.X);
  En.DimY = int64_t(S.D.Y);
  En.DimZ = int64_t(S.D.Z);
  En.ShapeKnown = S.Known;
}

/// The block sizes of a one-dimensional block of unknown size the model
/// evaluates (a multiple of 32: the last warp is full).
inline constexpr unsigned BlockSizes[] = {32, 64, 128, 256, 512, 1024};

/// The lanes of the batch of the block's threads that starts at Base.
inline uint32_t batchOf(unsigned Base, unsigned Threads) {
  return Threads - Base >= 32 ? FullLaneMask
                              : (uint32_t(1) << (Threads - Base)) - 1;
}

/// A condition an access or statement is under, with the side taken.
struct Cond {
  const clang::Expr *E;
  bool Taken;
  bool Varying;
  /// Whether the uniformity analysis proves E warp-uniform: 0 not asked,
  /// 1 yes, 2 no.
  mutable uint8_t WarpUniform = 0;
  /// The test of a stride loop (`pos < n`): a lane it cannot be evaluated
  /// for runs the iteration (the loop is sampled, as a uniform loop with an
  /// unknown bound is), but its lanes are then unknown.
  bool LoopBound = false;
};

/// A counted loop with a thread-independent trip count.
struct CountedLoop {
  const clang::ForStmt *Loop = nullptr;
  const clang::VarDecl *Var = nullptr;
  const clang::Expr *Init = nullptr;
};

/// A stride loop: a counted loop whose variable starts at a value that
/// differs between threads and advances by the same amount in all of them
/// (`for (int pos = threadIdx.x; pos < n; pos += 256)`), tested against a
/// bound that does not change in the loop. In iteration J a thread's
/// variable is its start plus J steps, and a thread runs iteration J when
/// its test holds there (it held in every earlier one: the variable only
/// moves towards the bound).
struct StrideLoop {
  const clang::ForStmt *Loop = nullptr;
  const clang::VarDecl *Var = nullptr;
  const clang::Expr *Init = nullptr;
  /// The step's expression (`v += Step`), or null for `++v` and `--v`.
  const clang::Expr *Step = nullptr;
  /// `-=` or `--`.
  bool Down = false;
  /// The loop runs while the variable is below the bound (`<`, `<=`), or
  /// above it (`>`, `>=`).
  bool Below = true;
  /// The bound.
  const clang::Expr *Bound = nullptr;
};

/// A position in the CFG: block ID and element index.
struct Pos {
  unsigned Block = 0;
  unsigned Index = 0;
};

/// A candidate access: an lvalue of scalar type that is read, written or
/// both, whatever it designates (FunctionFacts::accessesOf).
struct Access {
  const clang::Expr *E;
  Role R;
  const clang::Stmt *Statement;
  Pos Where;
  llvm::SmallVector<Cond, 4> Guard; // innermost first, up to the body
  llvm::SmallVector<const clang::ForStmt *, 2> Loops; // enclosing counted loops
  bool GuardOpaque = false; // under a varying loop, switch or jump
  /// A `__shared__` variable of scalar type named directly: the
  /// warp-exchange finder leaves these out.
  bool SharedScalar = false;
  /// An element whose type depends on a template parameter (`s[idx]` with
  /// `volatile T *s`), in a template pattern: its size is not known; its
  /// address is in units of elements (WarpAddresses::evalObjW).
  bool DependentElement = false;
};

/// The size an access covers in its address's units: bytes, or one element
/// for an element of dependent type.
inline int64_t accessSize(const clang::ASTContext &Ctx, const Access &A) {
  return A.DependentElement
             ? 1
             : Ctx.getTypeSizeInChars(A.E->getType()).getQuantity();
}

/// One call of a context as its caller sees it: the conditions and counted
/// loops around the call, evaluated in the caller's frame.
struct CallLevel {
  const Frame *Fr = nullptr;
  llvm::SmallVector<Cond, 4> Guard;
  llvm::SmallVector<const clang::ForStmt *, 2> Loops; // outermost first
  bool Opaque = false;
};
/// The calls of a context, outermost first.
using CallChain = llvm::SmallVector<CallLevel, 4>;

/// Blocks (by ID) and the element ranges in them from which a target is
/// reached with no barrier in between.
struct ReachSet {
  struct Range {
    unsigned Block, Lo, Hi; // [Lo, Hi)
    bool Crossed;           // the path takes a back edge
  };
  llvm::SmallVector<Range, 16> Ranges;
};

/// Which elements of each CFG block (by ID) are barriers.
using BarrierTable = llvm::SmallVector<llvm::SmallVector<bool, 8>, 32>;

/// What the model knows of one function body (FunctionFacts::info).
struct FunctionInfo {
  const clang::FunctionDecl *F = nullptr;
  /// (Shared with the uniformity analysis through LaneModelInputs::Cfgs.)
  std::shared_ptr<clang::ParentMap> PM;
  std::shared_ptr<clang::CFG> Cfg;
  std::unique_ptr<clang::CFGDomTree> Dom;
  llvm::SmallVector<const clang::CFGBlock *, 32> Blocks;
  llvm::DenseMap<const clang::Stmt *, Pos> Positions;
  /// The elements that order the lanes of a warp (FunctionFacts.h).
  BarrierTable Barrier;
  llvm::DenseMap<const clang::VarDecl *, llvm::SmallVector<const clang::Stmt *, 2>>
      Mods;
  llvm::DenseMap<const clang::ForStmt *, CountedLoop> Counted;
  /// The counted loops of stride-loop form, by loop and by variable.
  llvm::DenseMap<const clang::ForStmt *, StrideLoop> Strides;
  llvm::DenseMap<const clang::VarDecl *, const StrideLoop *> StrideOfVar;
  /// The condition blocks of counted loops whose body runs at least once
  /// (GuardModel::enteredLoops fills it on first use).
  llvm::DenseSet<unsigned> Entered;
  bool EnteredFilled = false;
  /// Locals that inline asm writes, with the number of asm statements that
  /// do; and those one `mov.u32 %0, %%laneid;` sets (the lane index).
  llvm::DenseMap<const clang::VarDecl *, unsigned> AsmWrites;
  llvm::SmallPtrSet<const clang::VarDecl *, 2> LaneIdAsm;
  llvm::SmallVector<Access, 16> Accesses;
  /// The calls the body makes (not in lambdas), with their positions; filled
  /// on first use.
  llvm::SmallVector<std::pair<const clang::CallExpr *, Pos>, 8> Calls;
  bool CallsFilled = false;
  bool Ok = false;
};

/// How deep the evaluators follow an expression, through variables,
/// parameters and calls.
inline constexpr unsigned MaxDepth = 24;

/// Calls Fn(L) for each lane L set in M, lowest first.
template <typename Fn> inline void forLanes(uint32_t M, Fn &&F) {
  for (; M; M &= M - 1)
    F(unsigned(llvm::countr_zero(M)));
}

/// Calls Fn(L) for all 32 lanes: for operations that are harmless on the
/// meaningless values of invalid lanes (no division, no shift).
template <typename Fn> inline void allLanes(Fn &&F) {
  for (unsigned L = 0; L < 32; ++L)
    F(L);
}

/// X in every lane of Active.
inline Vals splat(uint32_t Active, int64_t X) {
  Vals R;
  R.Valid = Active;
  allLanes([&](unsigned L) { R.V[L] = X; });
  return R;
}

/// The binary operators the lane model evaluates (besides && and ||).
inline bool isEvaluatedBinary(clang::BinaryOperatorKind Op) {
  switch (Op) {
  case clang::BO_Add: case clang::BO_Sub: case clang::BO_Mul:
  case clang::BO_Div: case clang::BO_Rem: case clang::BO_Shl:
  case clang::BO_Shr: case clang::BO_And: case clang::BO_Or:
  case clang::BO_Xor: case clang::BO_LT: case clang::BO_GT:
  case clang::BO_LE: case clang::BO_GE: case clang::BO_EQ:
  case clang::BO_NE:
    return true;
  default:
    return false;
  }
}

inline const clang::Expr *stripParens(const clang::Expr *E) {
  return E ? E->IgnoreParens() : nullptr;
}

/// The variable E names (parentheses aside), or null.
inline const clang::VarDecl *refVar(const clang::Expr *E) {
  if (const auto *DRE =
          llvm::dyn_cast_or_null<clang::DeclRefExpr>(stripParens(E)))
    return llvm::dyn_cast<clang::VarDecl>(DRE->getDecl());
  return nullptr;
}

inline bool isDescendantOf(const clang::Stmt *S, const clang::Stmt *Ancestor,
                           const clang::ParentMap &PM) {
  for (; S; S = PM.getParent(S))
    if (S == Ancestor)
      return true;
  return false;
}

/// The memory a `__shared__` variable names: itself, or for every extern
/// `__shared__` array the one dynamic shared allocation they all start at.
const void *sharedKey(const clang::VarDecl *V);

/// The element type of `base[index]` in a template pattern when it depends
/// on a template parameter (`volatile T *s`, `__shared__ T s[N]`), canonical
/// and unqualified; null otherwise.
const clang::Type *dependentElementType(const clang::ArraySubscriptExpr *ASE);

/// What wrapping a value to an integer type needs, for the last type asked
/// (the evaluators ask about the same few types in a row).
class IntTypes {
public:
  struct Info {
    /// An integer (or enumeration) type; Boolean, or of Width bits, Signed.
    bool Integer = false;
    bool Boolean = false;
    bool Signed = false;
    unsigned Width = 0;
  };
  explicit IntTypes(const clang::ASTContext &Ctx) : Ctx(Ctx) {}
  const Info &of(clang::QualType T) {
    if (Known && T.getAsOpaquePtr() == Last)
      return Cached;
    Known = true;
    Last = T.getAsOpaquePtr();
    Cached = Info();
    if (!T.isNull() && T->isIntegerType()) {
      Cached.Integer = true;
      Cached.Boolean = T->isBooleanType();
      if (!Cached.Boolean) {
        Cached.Width = Ctx.getIntWidth(T);
        Cached.Signed = T->isSignedIntegerOrEnumerationType();
      }
    }
    return Cached;
  }

private:
  const clang::ASTContext &Ctx;
  bool Known = false;
  void *Last = nullptr;
  Info Cached;
};

} // namespace lanes
} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_LANES_MODELTYPES_H
