//===--- LaneAccess.cpp - Which lane touches which shared element ---------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/lanes/LaneAccess.h"
#include "lib/AnalysisContext.h"
#include "lib/ast/CudaAST.h"
#include "lib/launch/LaunchModel.h"
#include "lib/uniformity/Uniformity.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/bit.h"
#include <deque>
#include <map>
#include <mutex>
#include <unordered_map>

using namespace clang;

namespace cuda_tidy {

namespace {

enum class Role { Read, Write, ReadWrite };

/// An evaluated address: a shared variable (all dynamic shared memory is one
/// key) and a byte offset.
struct Address {
  const void *Key = nullptr;
  const VarDecl *Var = nullptr;
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
  const VarDecl *Var = nullptr;
  int64_t Byte[32] = {};
};

/// The call chain an expression is evaluated in: a function, and the call
/// (in Parent's function) that binds its parameters.
struct Frame {
  const FunctionDecl *F = nullptr;
  const CallExpr *Call = nullptr;
  const Frame *Parent = nullptr;
};

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
  llvm::SmallDenseMap<const VarDecl *, int64_t, 4> Loop;
  /// The iteration (from 0) of each enclosing stride loop being enumerated,
  /// by its variable, whose value differs between threads (see
  /// StrideLoop).
  llvm::SmallDenseMap<const VarDecl *, int64_t, 2> Trips;
  /// Set when a stride loop's iterations were not all enumerated for every
  /// thread (an unknown bound, or more than MaxStrideTrips): the lanes that
  /// run a statement in it are then not known for all iterations.
  bool *StrideCut = nullptr;
};

/// A condition an access or statement is under, with the side taken.
struct Cond {
  const Expr *E;
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
  const ForStmt *Loop = nullptr;
  const VarDecl *Var = nullptr;
  const Expr *Init = nullptr;
};

/// A stride loop: a counted loop whose variable starts at a value that
/// differs between threads and advances by the same amount in all of them
/// (`for (int pos = threadIdx.x; pos < n; pos += 256)`), tested against a
/// bound that does not change in the loop. In iteration J a thread's
/// variable is its start plus J steps, and a thread runs iteration J when
/// its test holds there (it held in every earlier one: the variable only
/// moves towards the bound).
struct StrideLoop {
  const ForStmt *Loop = nullptr;
  const VarDecl *Var = nullptr;
  const Expr *Init = nullptr;
  /// The step's expression (`v += Step`), or null for `++v` and `--v`.
  const Expr *Step = nullptr;
  /// `-=` or `--`.
  bool Down = false;
  /// The loop runs while the variable is below the bound (`<`, `<=`), or
  /// above it (`>`, `>=`).
  bool Below = true;
  /// The bound.
  const Expr *Bound = nullptr;
};

/// A position in the CFG: block ID and element index.
struct Pos {
  unsigned Block = 0;
  unsigned Index = 0;
};

struct Access {
  const Expr *E;
  Role R;
  const Stmt *Statement;
  Pos Where;
  llvm::SmallVector<Cond, 4> Guard; // innermost first, up to the body
  llvm::SmallVector<const ForStmt *, 2> Loops; // enclosing counted loops
  bool GuardOpaque = false; // under a varying loop, switch or jump
};

/// One call of a context as its caller sees it: the conditions and counted
/// loops around the call, evaluated in the caller's frame.
struct CallLevel {
  const Frame *Fr = nullptr;
  llvm::SmallVector<Cond, 4> Guard;
  llvm::SmallVector<const ForStmt *, 2> Loops; // outermost first
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

struct FunctionInfo {
  const FunctionDecl *F = nullptr;
  std::unique_ptr<ParentMap> PM;
  std::unique_ptr<CFG> Cfg;
  std::unique_ptr<CFGDomTree> Dom;
  llvm::SmallVector<const CFGBlock *, 32> Blocks;
  llvm::DenseMap<const Stmt *, Pos> Positions;
  llvm::SmallVector<llvm::SmallVector<bool, 8>, 32> Barrier;
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const Stmt *, 2>> Mods;
  llvm::DenseMap<const ForStmt *, CountedLoop> Counted;
  /// The counted loops of stride-loop form, by loop and by variable.
  llvm::DenseMap<const ForStmt *, StrideLoop> Strides;
  llvm::DenseMap<const VarDecl *, const StrideLoop *> StrideOfVar;
  /// The condition blocks of counted loops whose body runs at least once.
  llvm::DenseSet<unsigned> Entered;
  /// Locals that inline asm writes, with the number of asm statements that
  /// do; and those one `mov.u32 %0, %%laneid;` sets (the lane index).
  llvm::DenseMap<const VarDecl *, unsigned> AsmWrites;
  llvm::SmallPtrSet<const VarDecl *, 2> LaneIdAsm;
  llvm::SmallVector<Access, 16> Accesses;
  /// The calls the body makes (not in lambdas), with their positions; filled
  /// on first use.
  llvm::SmallVector<std::pair<const CallExpr *, Pos>, 8> Calls;
  bool CallsFilled = false;
  bool Ok = false;
};

} // namespace

static bool isDescendantOf(const Stmt *S, const Stmt *Ancestor,
                           const ParentMap &PM);
static bool containsJump(const Stmt *S);
static bool containsLabel(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (isa<LabelStmt, SwitchCase>(S))
    return true;
  for (const Stmt *Child : S->children())
    if (containsLabel(Child))
      return true;
  return false;
}

class LaneAccessAnalysis::Impl {
public:
  explicit Impl(ASTContext &Ctx) : Ctx(Ctx) {}

  ASTContext &Ctx;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<FunctionInfo>> Infos;
  llvm::DenseMap<const FunctionDecl *, int> BarrierState; // 0 ?, 1 no, 2 yes
  /// Calls the translation unit's call graph cannot resolve: dependent calls
  /// in template patterns (`warpTail<BlockSize>(s, tid)`), by callee.
  llvm::DenseMap<
      const FunctionDecl *,
      llvm::SmallVector<std::pair<const CallExpr *, const FunctionDecl *>, 2>>
      PatternCallers;
  bool Collected = false;
  llvm::SmallVector<const FunctionDecl *, 16> Functions;
  /// The contexts each function is analysed in: call chains up to a kernel
  /// or a function with no known caller.
  std::deque<Frame> FrameStore;
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<const Frame *, 4>>
      Contexts;
  /// The return values of functions, for evaluating calls.
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<const Expr *, 1>>
      Returns;
  /// Conditions the uniformity analysis proves the same for a whole warp.
  llvm::DenseMap<std::pair<const Expr *, const Frame *>, bool> WarpUniform;
  UniformityAnalysis *Uniform = nullptr, *Plain = nullptr;
  /// Statement masks: absent = not computed, nullopt = unknown, 0 = never
  /// run in any context seen.
  llvm::DenseMap<const Stmt *, std::optional<uint32_t>> Masks;
  uint64_t Budget = 0;
  void noteBlockDim(const Env &En) {
    if (En.ReadBlockDim)
      *En.ReadBlockDim = true;
  }
  /// The work one analysis context may take (0: no limit), and the
  /// functions whose analysis it cut short, in the order found.
  uint64_t MaxWork = DefaultLaneModelBudget;
  llvm::SetVector<const FunctionDecl *> CutShort;
  /// A block shape the model evaluates: Known shapes give threadIdx.y/.z
  /// and blockDim.y/.z; otherwise only x is modelled.
  struct BlockShape {
    Dim3 D;
    bool Known = false;
  };
  /// The shape the cuda.BlockDim option gives kernels with no launch whose
  /// block is proven.
  std::optional<Dim3> DefaultShape;
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<BlockShape, 6>>
      ShapeCache;
  /// The shapes a frame is evaluated for (see LaneAccess.h).
  llvm::ArrayRef<BlockShape> blockShapes(const Frame &Fr);
  static void setShape(Env &En, const BlockShape &S) {
    En.BlockDim = int64_t(S.D.X);
    En.DimY = int64_t(S.D.Y);
    En.DimZ = int64_t(S.D.Z);
    En.ShapeKnown = S.Known;
  }
  /// The stride-loop form of L when its variable starts at a value that
  /// differs between the threads in the context Fr; null otherwise.
  const StrideLoop *strideIn(const ForStmt *L, const Frame &Fr);
  llvm::DenseMap<std::pair<const ForStmt *, const Frame *>, bool> StrideIn;
  /// Loop variables assumed uniform while their loop is checked.
  llvm::SmallVector<const VarDecl *, 4> AssumeUniform;

  FunctionInfo &info(const FunctionDecl *F);
  /// Fills Functions and PatternCallers (once).
  void collect();
  /// The device functions that call F, with the calls.
  llvm::SmallVector<std::pair<const CallExpr *, const FunctionDecl *>, 4>
  callersOf(const FunctionDecl *F);
  /// The call chains F is analysed in (see Contexts).
  llvm::ArrayRef<const Frame *> contextsOf(const FunctionDecl *F,
                                           unsigned Depth = 0);
  /// The function a call runs: its direct callee, or for a dependent call in
  /// a template pattern the one template or function it names.
  const FunctionDecl *resolveCallee(const CallExpr *CE) const;
  /// The definition of a callee whose body the model may follow.
  const FunctionDecl *followable(const FunctionDecl *Callee,
                                 const Frame &Fr) const;
  llvm::ArrayRef<const Expr *> returnsOf(const FunctionDecl *F);
  Vals evalCallW(const CallExpr *CE, const Frame &Fr, const Env &En,
                 uint32_t Active, unsigned Depth);
  Addrs evalPtrCallW(const CallExpr *CE, const Frame &Fr, const Env &En,
                     uint32_t Active, unsigned Depth);
  /// Cooperative groups' ranks and sizes of the block and of its tiles.
  Vals evalCooperativeW(const CallExpr *CE, const Env &En, uint32_t Active);
  /// The value of local V where Use reads it, when V is declared in a
  /// compound statement whose direct children are the only statements that
  /// write it (`idx += 32;`), so every thread that reaches Use ran the same
  /// writes in order: its initialiser, then each write before Use's
  /// statement.
  /// The value of stride-loop variable V in iteration Trip.
  Vals strideValue(const VarDecl *V, int64_t Trip, const Frame &Fr,
                   const Env &En, uint32_t Active, unsigned Depth);
  Vals straightLineValueW(const VarDecl *V, const DeclRefExpr *Use,
                          const Frame &Fr, const Env &En, uint32_t Active,
                          unsigned Depth);
  /// The uniformity analysis proves E (a condition in Fr's function) the
  /// same in every lane of a warp, in the context Fr.
  bool provenWarpUniform(const Expr *E, const Frame &Fr);
  /// How a value is laid out over the lanes, for conditions on variables
  /// the model cannot evaluate (a grid-stride index).
  enum class Shape { Uniform, Aligned, Linear, Warp, Varying };
  Shape shapeOf(const Expr *E, const Frame &Fr, unsigned Depth = 0);
  /// V starts lane-linear (`blockIdx.x * blockDim.x + threadIdx.x`) and is
  /// only ever advanced by uniform multiples of 32 (`tid += blockDim.x *
  /// gridDim.x`): in every lane of a warp it is the same multiple of 32
  /// plus the lane.
  bool isGridStride(const VarDecl *V, const Frame &Fr, unsigned Depth);
  llvm::SmallVector<const VarDecl *, 2> ShapeVisiting;
  /// Whether the first test of the counted loop L in F holds for every
  /// block size: the loop's body runs at least once.
  bool entersLoop(const ForStmt *L, FunctionInfo &I);
  bool reachesBarrier(const FunctionDecl *F, unsigned Depth);
  bool isBarrierStmt(const Stmt *S);
  bool isModified(FunctionInfo &I, const VarDecl *V);

  /// The values of integer expression E in the lanes of Active (a batch
  /// starting at thread En.Tid); the lanes where it is not known are left
  /// out of the result's Valid.
  Vals evalW(const Expr *E, const Frame &Fr, const Env &En, uint32_t Active,
             unsigned Depth = 0);
  /// The address pointer expression E holds, and the object lvalue E
  /// designates, in the lanes of Active.
  Addrs evalPtrW(const Expr *E, const Frame &Fr, const Env &En,
                 uint32_t Active, unsigned Depth = 0);
  Addrs evalPtrVarW(const VarDecl *V, const Frame &Fr, const Env &En,
                    uint32_t Active, unsigned Depth = 0);
  Addrs evalObjW(const Expr *E, const Frame &Fr, const Env &En,
                 uint32_t Active, unsigned Depth = 0);
  /// The same for the one thread En.Tid.
  std::optional<int64_t> eval(const Expr *E, const Frame &Fr, const Env &En,
                              unsigned Depth = 0);
  std::optional<Address> evalObj(const Expr *E, const Frame &Fr,
                                 const Env &En);
  std::optional<Address> evalPtrVar(const VarDecl *V, const Frame &Fr,
                                    const Env &En);
  /// The value of a constant expression (a template argument, a sizeof),
  /// evaluated once.
  std::optional<int64_t> constantOf(const Expr *E);
  llvm::DenseMap<const Expr *, std::optional<int64_t>> Constants;
  bool isVarying(const Expr *E, const Frame &Fr, unsigned Depth = 0);
  /// Whether a loop's increment (`++i`, `s >>= 1`) steps by a varying amount.
  bool isVaryingStep(const Expr *Inc, const Frame &Fr, unsigned Depth) {
    Inc = Inc->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(Inc))
      return !UO->isIncrementDecrementOp();
    if (const auto *BO = dyn_cast<BinaryOperator>(Inc))
      return !BO->isAssignmentOp() || isVarying(BO->getRHS(), Fr, Depth);
    return true;
  }
  int64_t normalize(int64_t V, QualType T);
  /// Every valid lane of W converted to T.
  void normalizeAll(Vals &W, QualType T);

  const Stmt *statementOf(const Stmt *E, FunctionInfo &I);
  void guardOf(const Stmt *From, const Stmt *Stop, FunctionInfo &I,
               const Frame &Fr, llvm::SmallVectorImpl<Cond> &Guard,
               llvm::SmallVectorImpl<const ForStmt *> &Loops, bool &Opaque);
  /// The lanes of Active (a batch starting at thread En.Tid) for which
  /// every condition of Guard evaluates to the side taken. A condition that
  /// cannot be evaluated in a lane and is not proven warp-uniform lets the
  /// lane pass, adds it to Unknown and the condition to Unknowns.
  /// A value over a whole one-dimensional block at once, for the index
  /// forms whose cost need not grow with the block size: in lane L of warp
  /// W, A[L] + C * W (an integer), or bit W of M[L] (a truth value).
  struct WarpVal {
    bool Bool = false;
    int64_t C = 0;
    int64_t A[32] = {};
    uint32_t M[32] = {};
  };
  /// Evaluates E for every thread of a block of NW warps (En.BlockDim = 32 *
  /// NW, shape not known) in one walk; false where the form is not one of
  /// those WarpVal holds or a lane's value would differ from evalW's (a
  /// value that wraps, a call, a variable written in the function): the
  /// caller then evaluates warp by warp. Sets ReadBD when blockDim is read.
  bool evalBlock(const Expr *E, const Frame &Fr, const Env &En, unsigned NW,
                 WarpVal &Out, bool &ReadBD, unsigned Depth = 0);
  /// The warps (bit W) in which each lane passes every warp-varying
  /// condition of Guard, cached; std::nullopt where evalBlock does not
  /// apply to one of them. The lanes of warp W are then those whose bit W
  /// is set, the same as evalGuard gives with no unknown lane.
  struct BlockGuard {
    bool Ok = false;
    bool ReadBlockDim = false;
    uint32_t Lanes[32] = {}; // by warp
  };
  const BlockGuard *blockGuard(llvm::ArrayRef<Cond> Guard, const Frame &Fr,
                               const Env &En);
  std::unordered_map<std::string, BlockGuard> BlockGuards;
  /// The elements `base[index]` designates in every thread of a block, for
  /// a base the same in all threads: byteAt(W, L) = Byte + (A[L] + C * W)
  /// * Size, what evalObjW gives lane L of warp W.
  struct BlockAddress {
    const void *Key = nullptr;
    const VarDecl *Var = nullptr;
    int64_t Byte = 0, Size = 0;
    WarpVal Index;
    int64_t byteAt(unsigned W, unsigned L) const {
      return int64_t(uint64_t(Byte) +
                     uint64_t(Index.A[L] + Index.C * int64_t(W)) *
                         uint64_t(Size));
    }
  };
  /// BlockAddress for lvalue E in a one-dimensional block of NW warps;
  /// false where E is of another form (the caller evaluates warp by warp).
  bool blockAddress(const Expr *E, const Frame &Fr, const Env &En,
                    unsigned NW, BlockAddress &Out);
  /// The lanes of each warp of the block that pass the chain's guards and
  /// those of Rest (each with its frame), through blockGuard; false when
  /// one of them is not evaluated for the whole block at once.
  bool blockLanes(const CallChain &Chain,
                  llvm::ArrayRef<std::pair<llvm::ArrayRef<Cond>, const Frame *>>
                      Rest,
                  const Env &En, unsigned Threads,
                  llvm::SmallVectorImpl<uint32_t> &Lanes);
  uint32_t evalGuard(llvm::ArrayRef<Cond> Guard, const Frame &Fr,
                     const Env &En, uint32_t Active, uint32_t &Unknown,
                     llvm::SmallPtrSetImpl<const Expr *> *Unknowns = nullptr);
  /// The calls that lead to Fr; false when a caller cannot be analysed.
  bool chainOf(const Frame &Fr, CallChain &Out);
  /// The lanes of Active that pass every call's guard (Unknown as
  /// evalGuard).
  uint32_t passesChain(const CallChain &C, const Env &En, uint32_t Active,
                       uint32_t &Unknown,
                       llvm::SmallPtrSetImpl<const Expr *> *Unknowns = nullptr) {
    for (const CallLevel &L : C)
      Active = evalGuard(L.Guard, *L.Fr, En, Active, Unknown, Unknowns);
    return Active;
  }
  /// The lanes of the batch of the block's threads that starts at Base.
  static uint32_t batchOf(unsigned Base, unsigned Threads) {
    return Threads - Base >= 32 ? FullLaneMask
                                : (uint32_t(1) << (Threads - Base)) - 1;
  }
  /// Enumerates the counted loops around the calls of C, outermost first.
  void enumerateChain(const CallChain &C, Env &En,
                      llvm::function_ref<bool(Env &)> Fn, unsigned Idx = 0);
  void enumerate(llvm::ArrayRef<const ForStmt *> Loops, const Frame &Fr,
                 Env &En, llvm::function_ref<bool(Env &)> Fn, unsigned I = 0);
  /// enumerate() for a stride loop: its iterations, from the first.
  void enumerateStride(const StrideLoop &SL,
                       llvm::ArrayRef<const ForStmt *> Loops, const Frame &Fr,
                       Env &En, llvm::function_ref<bool(Env &)> Fn,
                       unsigned Idx);
  ReachSet reach(FunctionInfo &I, Pos Target);
  /// A and B are in the two arms of the if statement that ends Block.
  bool oppositeArms(FunctionInfo &I, unsigned Block, const Stmt *A,
                    const Stmt *B) {
    const auto *If =
        dyn_cast_or_null<IfStmt>(I.Blocks[Block]->getTerminatorStmt());
    if (!If || !If->getElse())
      return false;
    auto Arm = [&](const Stmt *S) {
      return isDescendantOf(S, If->getThen(), *I.PM)   ? 1
             : isDescendantOf(S, If->getElse(), *I.PM) ? 2
                                                       : 0;
    };
    int ArmA = Arm(A), ArmB = Arm(B);
    return ArmA && ArmB && ArmA != ArmB;
  }
  bool divergentBranch(FunctionInfo &I, unsigned Block, const Frame &Fr) {
    const CFGBlock *B = I.Blocks[Block];
    if (!B || B->succ_size() < 2)
      return false;
    const Stmt *T = B->getTerminatorStmt();
    if (!T)
      return false;
    if (isa<SwitchStmt, IndirectGotoStmt, CXXTryStmt>(T))
      return true;
    const auto *C = dyn_cast_or_null<Expr>(B->getTerminatorCondition());
    // A branch the whole warp takes the same way does not split it.
    return !C || (isVarying(C, Fr) && !provenWarpUniform(C, Fr));
  }
  /// The frame of Def called by Call from Parent (one per call and parent,
  /// kept with the contexts).
  const Frame *callFrame(const FunctionDecl *Def, const CallExpr *Call,
                         const Frame &Parent) {
    const Frame *&Slot = CallFrames[{Call, &Parent}];
    if (!Slot) {
      FrameStore.push_back(Frame{Def, Call, &Parent});
      Slot = &FrameStore.back();
    }
    return Slot;
  }
  llvm::DenseMap<std::pair<const CallExpr *, const Frame *>, const Frame *>
      CallFrames;
  /// The calls in I's function body, with their CFG positions.
  llvm::ArrayRef<std::pair<const CallExpr *, Pos>> callsOf(FunctionInfo &I);
  void analyzeFrame(const Frame &Fr, bool EntryKnown,
                    llvm::SmallVectorImpl<WarpExchange> &Out);
  void mergeMask(const Stmt *S, std::optional<uint32_t> M) {
    auto [It, New] = Masks.try_emplace(S, M);
    if (New)
      return;
    std::optional<uint32_t> &Old = It->second;
    if (!Old || !M)
      Old = std::nullopt;
    else if (*Old == 0)
      Old = M;
    else if (*M != 0 && *M != *Old)
      Old = std::nullopt;
  }
  std::optional<uint32_t> frameMask(const Stmt *S, const Frame &Fr,
                                    bool EntryKnown);
  /// See WarpExchange::WriteMeet: the meeting point of From with To.
  const Stmt *meetOf(const Stmt *From, const Stmt *To, FunctionInfo &I) {
    for (const Stmt *S = From; S;) {
      const Stmt *Parent = I.PM->getParent(S);
      if (!Parent)
        return nullptr;
      if (isa<CompoundStmt>(Parent) && isDescendantOf(To, Parent, *I.PM)) {
        if (isDescendantOf(To, S, *I.PM) || S == From || containsJump(S) ||
            containsLabel(S))
          return nullptr;
        return S;
      }
      S = Parent;
    }
    return nullptr;
  }
};

//===----------------------------------------------------------------------===//
// Per-function facts.
//===----------------------------------------------------------------------===//

static const Expr *stripParens(const Expr *E) {
  return E ? E->IgnoreParens() : nullptr;
}

static const VarDecl *refVar(const Expr *E) {
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(stripParens(E)))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

static bool isDescendantOf(const Stmt *S, const Stmt *Ancestor,
                           const ParentMap &PM) {
  for (; S; S = PM.getParent(S))
    if (S == Ancestor)
      return true;
  return false;
}

/// Records every variable that is written after its declaration.
static void collectMods(const Stmt *S, FunctionInfo &I) {
  if (!S)
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      if (const VarDecl *V = refVar(BO->getLHS()))
        I.Mods[V].push_back(BO);
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      if (const VarDecl *V = refVar(UO->getSubExpr()))
        I.Mods[V].push_back(UO);
  } else if (const auto *CE = dyn_cast<CallExpr>(S)) {
    // Arguments bound to non-const references may be written.
    if (const FunctionDecl *Callee = CE->getDirectCallee()) {
      for (unsigned A = 0,
                    N = std::min(CE->getNumArgs(), Callee->getNumParams());
           A < N; ++A) {
        QualType PT = Callee->getParamDecl(A)->getType();
        if (PT->isReferenceType() &&
            !PT.getNonReferenceType().isConstQualified())
          if (const VarDecl *V = refVar(CE->getArg(A)))
            I.Mods[V].push_back(CE);
      }
    }
    if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(S))
      if (const VarDecl *V = refVar(MCE->getImplicitObjectArgument()))
        if (const CXXMethodDecl *MD = MCE->getMethodDecl())
          if (!MD->isConst())
            I.Mods[V].push_back(MCE);
  } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    // A non-const reference bound to a variable may write it.
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        if (VD->getType()->isReferenceType() &&
            !VD->getType().getNonReferenceType().isConstQualified())
          if (const VarDecl *V = refVar(VD->getInit()))
            I.Mods[V].push_back(DS);
  } else if (isa<LambdaExpr>(S)) {
    return;
  }
  for (const Stmt *Child : S->children())
    collectMods(Child, I);
}

bool LaneAccessAnalysis::Impl::isModified(FunctionInfo &I, const VarDecl *V) {
  return I.Mods.count(V) != 0;
}

bool LaneAccessAnalysis::Impl::isBarrierStmt(const Stmt *S) {
  // Block barriers, as the uniformity analysis recognises them (the CUDA
  // functions, their NVVM builtins, thread_block::sync, bar.sync); below,
  // what orders the lanes of a warp only, or a part of the block.
  if (recognizeBarrier(S, Ctx))
    return true;
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
    std::string Str = Asm->getAsmString();
    StringRef Text(Str);
    return Text.contains("bar.sync") || Text.contains("barrier.sync") ||
           Text.contains("bar.warp.sync") || Text.contains("barrier.cta");
  }
  const auto *CE = dyn_cast<CallExpr>(S);
  if (!CE)
    return false;
  const FunctionDecl *Callee = resolveCallee(CE);
  if (!Callee)
    return true; // an indirect call may synchronise
  StringRef Name =
      Callee->getDeclName().isIdentifier() ? Callee->getName() : "";
  if (isCudaHeaderDecl(Callee, Ctx.getSourceManager()))
    return Name == "__syncwarp" || Name == "__barrier_sync";
  // Cooperative groups: g.sync() and cooperative_groups::sync(g).
  const DeclContext *DC = Callee->getDeclContext();
  for (; DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "cooperative_groups")
        return Name == "sync" || Name == "barrier_wait" || Name == "wait";
  if (Ctx.getSourceManager().isInSystemHeader(
          Ctx.getSourceManager().getExpansionLoc(Callee->getLocation())))
    return false;
  if (Callee->getBuiltinID())
    return false;
  return reachesBarrier(Callee, 0);
}

bool LaneAccessAnalysis::Impl::reachesBarrier(const FunctionDecl *F,
                                              unsigned Depth) {
  const FunctionDecl *Def = nullptr;
  if (!F->hasBody(Def) || !Def->getBody())
    return true; // not visible: assume it may synchronise
  int &State = BarrierState[Def];
  if (State)
    return State == 2;
  if (Depth > 8)
    return true;
  State = 1; // recursion: assume not, unless found
  llvm::SmallVector<const Stmt *, 32> Work{Def->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (isa<CallExpr>(S) || isa<GCCAsmStmt>(S)) {
      if (isa<GCCAsmStmt>(S) ? isBarrierStmt(S) : [&] {
            const auto *CE = cast<CallExpr>(S);
            const FunctionDecl *C = resolveCallee(CE);
            if (!C || C == Def)
              return C == nullptr;
            if (isCudaHeaderDecl(C, Ctx.getSourceManager()) ||
                C->getBuiltinID())
              return isBarrierStmt(S);
            const DeclContext *DC = C->getDeclContext();
            for (; DC; DC = DC->getParent())
              if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
                if (NS->getName() == "cooperative_groups")
                  return isBarrierStmt(S);
            if (Ctx.getSourceManager().isInSystemHeader(
                    Ctx.getSourceManager().getExpansionLoc(C->getLocation())))
              return false;
            return reachesBarrier(C, Depth + 1);
          }()) {
        BarrierState[Def] = 2;
        return true;
      }
    }
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  BarrierState[Def] = 1;
  return false;
}

/// The counted loop L describes, if its trip count can be enumerated: one
/// variable, initialised in the loop, written only by the increment.
static std::optional<CountedLoop> countedLoop(const ForStmt *L,
                                              FunctionInfo &I) {
  const VarDecl *V = nullptr;
  const Expr *Init = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(L->getInit())) {
    if (!DS->isSingleDecl())
      return std::nullopt;
    V = dyn_cast<VarDecl>(DS->getSingleDecl());
    Init = V ? V->getInit() : nullptr;
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(
                 stripParens(dyn_cast_or_null<Expr>(L->getInit())))) {
    if (BO->getOpcode() == BO_Assign) {
      V = refVar(BO->getLHS());
      Init = BO->getRHS();
    }
  }
  if (!V || !Init || !L->getCond() || !L->getInc() ||
      !V->getType()->isIntegerType())
    return std::nullopt;
  for (const Stmt *M : I.Mods.lookup(V)) {
    if (isDescendantOf(M, L->getInc(), *I.PM))
      continue;
    if (M == L->getInit() || isDescendantOf(M, L->getInit(), *I.PM))
      continue;
    return std::nullopt;
  }
  return CountedLoop{L, V, Init};
}

/// Whether E mentions V.
static bool mentions(const Stmt *E, const VarDecl *V) {
  if (!E)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return DRE->getDecl() == V;
  for (const Stmt *Child : E->children())
    if (mentions(Child, V))
      return true;
  return false;
}

/// The stride-loop form of counted loop C, if it has one (see StrideLoop).
static std::optional<StrideLoop> strideLoop(const CountedLoop &C) {
  StrideLoop SL;
  SL.Loop = C.Loop;
  SL.Var = C.Var;
  SL.Init = C.Init;
  const Expr *Inc = C.Loop->getInc()->IgnoreParens();
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc)) {
    if (!UO->isIncrementDecrementOp() || refVar(UO->getSubExpr()) != C.Var)
      return std::nullopt;
    SL.Down = UO->isDecrementOp();
  } else if (const auto *BO = dyn_cast<BinaryOperator>(Inc)) {
    if ((BO->getOpcode() != BO_AddAssign && BO->getOpcode() != BO_SubAssign) ||
        refVar(BO->getLHS()) != C.Var || mentions(BO->getRHS(), C.Var) ||
        !BO->getRHS()->getType()->isIntegerType())
      return std::nullopt;
    SL.Step = BO->getRHS();
    SL.Down = BO->getOpcode() == BO_SubAssign;
  } else {
    return std::nullopt;
  }
  const auto *Test = dyn_cast<BinaryOperator>(
      C.Loop->getCond()->IgnoreParenImpCasts());
  if (!Test || !Test->isRelationalOp())
    return std::nullopt;
  const Expr *L = Test->getLHS(), *R = Test->getRHS();
  bool VarLeft = refVar(L->IgnoreParenImpCasts()) == C.Var;
  if (!VarLeft && refVar(R->IgnoreParenImpCasts()) != C.Var)
    return std::nullopt;
  SL.Bound = VarLeft ? R : L;
  if (mentions(SL.Bound, C.Var))
    return std::nullopt;
  bool Less = Test->getOpcode() == BO_LT || Test->getOpcode() == BO_LE;
  SL.Below = Less == VarLeft;
  return SL;
}

FunctionInfo &LaneAccessAnalysis::Impl::info(const FunctionDecl *F) {
  std::unique_ptr<FunctionInfo> &Slot = Infos[F];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<FunctionInfo>();
  FunctionInfo &I = *Slot;
  I.F = F;
  Stmt *Body = F->getBody();
  if (!Body)
    return I;
  I.PM = std::make_unique<ParentMap>(Body);
  CFG::BuildOptions Opts;
  Opts.AddImplicitDtors = false;
  Opts.AddInitializers = false;
  Opts.AddTemporaryDtors = false;
  Opts.AddCXXDefaultInitExprInCtors = false;
  I.Cfg = CFG::buildCFG(F, Body, &Ctx, Opts);
  if (!I.Cfg)
    return I;
  I.Dom = std::make_unique<CFGDomTree>(I.Cfg.get());
  I.Blocks.assign(I.Cfg->getNumBlockIDs(), nullptr);
  I.Barrier.resize(I.Cfg->getNumBlockIDs());
  for (const CFGBlock *B : *I.Cfg) {
    I.Blocks[B->getBlockID()] = B;
    auto &Bar = I.Barrier[B->getBlockID()];
    unsigned Idx = 0;
    for (const CFGElement &El : *B) {
      bool IsBarrier = false;
      if (auto CS = El.getAs<CFGStmt>()) {
        const Stmt *S = CS->getStmt();
        I.Positions.try_emplace(S, Pos{B->getBlockID(), Idx});
        IsBarrier = isBarrierStmt(S);
      }
      Bar.push_back(IsBarrier);
      ++Idx;
    }
  }
  // Declarations split by the CFG map back to the original statement.
  for (auto It = I.Cfg->synthetic_stmt_begin(), E = I.Cfg->synthetic_stmt_end();
       It != E; ++It) {
    auto Found = I.Positions.find(It->first);
    if (Found != I.Positions.end())
      I.Positions.try_emplace(It->second, Found->second);
  }
  collectMods(Body, I);
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *For = dyn_cast<ForStmt>(S))
      if (auto C = countedLoop(For, I)) {
        I.Counted.try_emplace(For, *C);
        if (auto SL = strideLoop(*C))
          I.Strides.try_emplace(For, *SL);
      }
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      for (unsigned O = 0, N = Asm->getNumOutputs(); O < N; ++O)
        if (const VarDecl *V = refVar(Asm->getOutputExpr(O)))
          ++I.AsmWrites[V];
      if (Asm->getNumOutputs() == 1 &&
          StringRef(Asm->getAsmString()).contains("%laneid"))
        if (const VarDecl *V = refVar(Asm->getOutputExpr(0)))
          I.LaneIdAsm.insert(V);
    }
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  for (const CFGBlock *B : *I.Cfg)
    if (const auto *For = dyn_cast_or_null<ForStmt>(B->getTerminatorStmt()))
      if (B->succ_size() == 2 && entersLoop(For, I))
        I.Entered.insert(B->getBlockID());
  for (const auto &[For, SL] : I.Strides)
    I.StrideOfVar[SL.Var] = &SL;
  I.Ok = true;
  return I;
}

//===----------------------------------------------------------------------===//
// Evaluation.
//===----------------------------------------------------------------------===//

int64_t LaneAccessAnalysis::Impl::normalize(int64_t V, QualType T) {
  if (T.isNull() || !T->isIntegerType())
    return V;
  if (T->isBooleanType())
    return V != 0;
  unsigned Width = Ctx.getIntWidth(T);
  if (Width >= 64)
    return V;
  uint64_t Mask = (uint64_t(1) << Width) - 1;
  uint64_t U = uint64_t(V) & Mask;
  if (T->isSignedIntegerOrEnumerationType() && (U >> (Width - 1)))
    U |= ~Mask;
  return int64_t(U);
}

static constexpr unsigned MaxDepth = 24;

/// Calls Fn(L) for each lane L set in M, lowest first.
template <typename Fn> static inline void forLanes(uint32_t M, Fn &&F) {
  for (; M; M &= M - 1)
    F(unsigned(llvm::countr_zero(M)));
}

/// Calls Fn(L) for all 32 lanes: for operations that are harmless on the
/// meaningless values of invalid lanes (no division, no shift).
template <typename Fn> static inline void allLanes(Fn &&F) {
  for (unsigned L = 0; L < 32; ++L)
    F(L);
}

static Vals splat(uint32_t Active, int64_t X) {
  Vals R;
  R.Valid = Active;
  allLanes([&](unsigned L) { R.V[L] = X; });
  return R;
}

void LaneAccessAnalysis::Impl::normalizeAll(Vals &W, QualType T) {
  if (T.isNull() || !T->isIntegerType())
    return;
  if (T->isBooleanType()) {
    allLanes([&](unsigned L) { W.V[L] = W.V[L] != 0; });
    return;
  }
  unsigned Width = Ctx.getIntWidth(T);
  if (Width >= 64 || Width == 0)
    return;
  if (T->isSignedIntegerOrEnumerationType()) {
    const unsigned Shift = 64 - Width;
    allLanes([&](unsigned L) {
      W.V[L] = int64_t(uint64_t(W.V[L]) << Shift) >> Shift;
    });
  } else {
    const uint64_t Mask = (uint64_t(1) << Width) - 1;
    allLanes([&](unsigned L) { W.V[L] = int64_t(uint64_t(W.V[L]) & Mask); });
  }
}

/// The binary operators the lane model evaluates (besides && and ||).
static bool isEvaluatedBinary(BinaryOperatorKind Op) {
  switch (Op) {
  case BO_Add: case BO_Sub: case BO_Mul: case BO_Div: case BO_Rem:
  case BO_Shl: case BO_Shr: case BO_And: case BO_Or: case BO_Xor:
  case BO_LT: case BO_GT: case BO_LE: case BO_GE: case BO_EQ: case BO_NE:
    return true;
  default:
    return false;
  }
}

std::optional<int64_t> LaneAccessAnalysis::Impl::constantOf(const Expr *E) {
  auto [It, New] = Constants.try_emplace(E);
  if (New) {
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx))
      It->second = R.Val.getInt().getExtValue();
  }
  return It->second;
}

std::optional<int64_t> LaneAccessAnalysis::Impl::eval(const Expr *E,
                                                      const Frame &Fr,
                                                      const Env &En,
                                                      unsigned Depth) {
  Vals W = evalW(E, Fr, En, 1, Depth);
  if (!(W.Valid & 1))
    return std::nullopt;
  return W.V[0];
}

Vals LaneAccessAnalysis::Impl::evalW(const Expr *E, const Frame &Fr,
                                     const Env &En, uint32_t Active,
                                     unsigned Depth) {
  Vals R;
  if (!Active || !E || Depth > MaxDepth || E->isValueDependent() ||
      E->isTypeDependent())
    return R;
  // The work is counted per thread, as if each were evaluated on its own.
  Budget += llvm::popcount(Active);
  // Each active lane's value from its linear thread index.
  auto Each = [&](auto &&Fn) {
    R.Valid = Active;
    allLanes([&](unsigned L) { R.V[L] = Fn(En.Tid + L); });
    return R;
  };
  E = E->IgnoreParens();
  // `threadIdx.x` and the like (below implicit conversions, which are
  // evaluated on their own).
  if (std::optional<BuiltinVarRef> Ref =
          isa<PseudoObjectExpr, MSPropertyRefExpr, MemberExpr>(E)
              ? getBuiltinVarRef(E)
              : std::nullopt) {
    if (Ref->Var == BuiltinVar::ThreadIdx) {
      if (Ref->Dim == 0)
        return Each([&](int64_t X) {
          return En.ShapeKnown ? X % En.BlockDim : X;
        });
      if (!En.ShapeKnown)
        return R;
      if (Ref->Dim == 1)
        return Each([&](int64_t X) { return (X / En.BlockDim) % En.DimY; });
      return Each([&](int64_t X) { return X / (En.BlockDim * En.DimY); });
    }
    if (Ref->Var == BuiltinVar::BlockDim) {
      if (Ref->Dim != 0 && !En.ShapeKnown)
        return R;
      noteBlockDim(En);
      return splat(Active, Ref->Dim == 0   ? En.BlockDim
                           : Ref->Dim == 1 ? En.DimY
                                           : En.DimZ);
    }
    // Both accesses of an exchange run in one block: any block stands for
    // it (global memory indexed by `blockIdx.x * blockDim.x + threadIdx.x`).
    if (Ref->Var == BuiltinVar::BlockIdx)
      return splat(Active, 0);
    return R;
  }
  QualType T = E->getType();
  auto Normalized = [&](Vals W, QualType To) {
    normalizeAll(W, To);
    return W;
  };
  if (const auto *IL = dyn_cast<IntegerLiteral>(E))
    return splat(Active, normalize(int64_t(IL->getValue().getZExtValue()), T));
  if (const auto *CL = dyn_cast<CharacterLiteral>(E))
    return splat(Active, int64_t(CL->getValue()));
  if (const auto *BL = dyn_cast<CXXBoolLiteralExpr>(E))
    return splat(Active, int64_t(BL->getValue()));
  if (isa<SubstNonTypeTemplateParmExpr, UnaryExprOrTypeTraitExpr>(E)) {
    if (auto C = constantOf(E))
      return splat(Active, *C);
    return R;
  }
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    switch (CE->getCastKind()) {
    case CK_LValueToRValue:
    case CK_NoOp:
    case CK_IntegralCast:
    case CK_IntegralToBoolean:
      return Normalized(evalW(CE->getSubExpr(), Fr, En, Active, Depth + 1),
                        T);
    default:
      return R;
    }
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
      return splat(Active, EC->getInitVal().getExtValue());
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V || !V->getType()->isIntegerType())
      return R;
    auto L = En.Loop.find(V);
    if (L != En.Loop.end())
      return splat(Active, L->second);
    if (!En.Trips.empty())
      if (auto Trip = En.Trips.find(V); Trip != En.Trips.end())
        return strideValue(V, Trip->second, Fr, En, Active, Depth + 1);
    if (const auto *PV = dyn_cast<ParmVarDecl>(V)) {
      if (!Fr.Call || !Fr.Parent || Fr.F != PV->getDeclContext())
        return R;
      unsigned Idx = PV->getFunctionScopeIndex();
      if (Idx >= Fr.Call->getNumArgs())
        return R;
      return Normalized(
          evalW(Fr.Call->getArg(Idx), *Fr.Parent, En, Active, Depth + 1),
          V->getType());
    }
    if (V->hasLocalStorage()) {
      // `asm("mov.u32 %0, %%laneid;" : "=r"(lane));`, the only write.
      if (V->getDeclContext() == Fr.F && !V->getInit()) {
        FunctionInfo &FI = info(Fr.F);
        if (FI.LaneIdAsm.contains(V) && FI.AsmWrites.lookup(V) == 1 &&
            !isModified(FI, V))
          return Normalized(Each([](int64_t X) { return X % 32; }),
                            V->getType());
      }
      if (V->getDeclContext() != Fr.F || !V->getInit() ||
          V->getType()->isReferenceType())
        return R;
      if (isModified(info(Fr.F), V))
        return straightLineValueW(V, DRE, Fr, En, Active, Depth + 1);
      return Normalized(evalW(V->getInit(), Fr, En, Active, Depth + 1),
                        V->getType());
    }
    if (V->getType().isConstQualified() && V->getInit())
      if (auto C = constantOf(V->getInit()))
        return splat(Active, normalize(*C, V->getType()));
    return R;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    UnaryOperatorKind Op = UO->getOpcode();
    if (Op != UO_Plus && Op != UO_Minus && Op != UO_Not && Op != UO_LNot)
      return R;
    R = evalW(UO->getSubExpr(), Fr, En, Active, Depth + 1);
    if (Op == UO_Minus)
      allLanes([&](unsigned L) { R.V[L] = int64_t(0 - uint64_t(R.V[L])); });
    else if (Op == UO_Not)
      allLanes([&](unsigned L) { R.V[L] = ~R.V[L]; });
    else if (Op == UO_LNot)
      allLanes([&](unsigned L) { R.V[L] = R.V[L] == 0; });
    if (Op != UO_LNot)
      normalizeAll(R, T);
    return R;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    BinaryOperatorKind Op = BO->getOpcode();
    if (Op == BO_LAnd || Op == BO_LOr) {
      Vals L = evalW(BO->getLHS(), Fr, En, Active, Depth + 1);
      // Lanes the left side decides, and the rest.
      uint32_t Decided = 0;
      const bool Stop = Op == BO_LAnd; // the value of L that decides
      allLanes([&](unsigned K) {
        Decided |= uint32_t((L.V[K] == 0) == Stop) << K;
      });
      Decided &= L.Valid;
      Vals Right =
          evalW(BO->getRHS(), Fr, En, L.Valid & ~Decided, Depth + 1);
      allLanes([&](unsigned K) {
        R.V[K] = (Decided >> K) & 1 ? int64_t(Op == BO_LOr)
                                    : int64_t(Right.V[K] != 0);
      });
      R.Valid = Decided | Right.Valid;
      return R;
    }
    if (BO->isAssignmentOp() || Op == BO_Comma || BO->isPtrMemOp())
      return R;
    if (!isEvaluatedBinary(Op))
      return R;
    Vals L = evalW(BO->getLHS(), Fr, En, Active, Depth + 1);
    Vals Right = evalW(BO->getRHS(), Fr, En, L.Valid, Depth + 1);
    const bool Unsigned = BO->getLHS()->getType()->isUnsignedIntegerType();
    R.Valid = Right.Valid;
    const int64_t *A = L.V, *B = Right.V;
    int64_t *Out = R.V;
    switch (Op) {
    case BO_Add:
      allLanes([&](unsigned K) { Out[K] = int64_t(uint64_t(A[K]) + uint64_t(B[K])); });
      break;
    case BO_Sub:
      allLanes([&](unsigned K) { Out[K] = int64_t(uint64_t(A[K]) - uint64_t(B[K])); });
      break;
    case BO_Mul:
      allLanes([&](unsigned K) { Out[K] = int64_t(uint64_t(A[K]) * uint64_t(B[K])); });
      break;
    case BO_And: allLanes([&](unsigned K) { Out[K] = A[K] & B[K]; }); break;
    case BO_Or: allLanes([&](unsigned K) { Out[K] = A[K] | B[K]; }); break;
    case BO_Xor: allLanes([&](unsigned K) { Out[K] = A[K] ^ B[K]; }); break;
    case BO_LT: allLanes([&](unsigned K) { Out[K] = A[K] < B[K]; }); break;
    case BO_GT: allLanes([&](unsigned K) { Out[K] = A[K] > B[K]; }); break;
    case BO_LE: allLanes([&](unsigned K) { Out[K] = A[K] <= B[K]; }); break;
    case BO_GE: allLanes([&](unsigned K) { Out[K] = A[K] >= B[K]; }); break;
    case BO_EQ: allLanes([&](unsigned K) { Out[K] = A[K] == B[K]; }); break;
    case BO_NE: allLanes([&](unsigned K) { Out[K] = A[K] != B[K]; }); break;
    default:
      // Division and shifts: lane by lane, for the lanes they are defined in.
      forLanes(Right.Valid, [&](unsigned K) {
        int64_t X = A[K], Y = B[K];
        if (Op == BO_Div || Op == BO_Rem) {
          if (Y == 0 || (X == INT64_MIN && Y == -1)) {
            R.Valid &= ~(1u << K);
            return;
          }
          if (Unsigned)
            Out[K] = Op == BO_Div ? int64_t(uint64_t(X) / uint64_t(Y))
                                  : int64_t(uint64_t(X) % uint64_t(Y));
          else
            Out[K] = Op == BO_Div ? X / Y : X % Y;
          return;
        }
        if (Y < 0 || Y >= 64) {
          R.Valid &= ~(1u << K);
          return;
        }
        if (Op == BO_Shl)
          Out[K] = int64_t(uint64_t(X) << Y);
        else
          Out[K] = Unsigned ? int64_t(uint64_t(X) >> Y) : X >> Y;
      });
      break;
    }
    if (!BO->isComparisonOp())
      normalizeAll(R, T);
    return R;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    Vals C = evalW(CO->getCond(), Fr, En, Active, Depth + 1);
    uint32_t True = 0;
    allLanes([&](unsigned K) { True |= uint32_t(C.V[K] != 0) << K; });
    True &= C.Valid;
    Vals A = evalW(CO->getTrueExpr(), Fr, En, True, Depth + 1);
    Vals B = evalW(CO->getFalseExpr(), Fr, En, C.Valid & ~True, Depth + 1);
    allLanes([&](unsigned K) {
      if ((A.Valid >> K) & 1)
        B.V[K] = A.V[K];
    });
    B.Valid |= A.Valid;
    return B;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    R = evalCooperativeW(CE, En, Active);
    if (uint32_t Rest = Active & ~R.Valid) {
      Vals C = evalCallW(CE, Fr, En, Rest, Depth + 1);
      forLanes(C.Valid, [&](unsigned K) { R.V[K] = C.V[K]; });
      R.Valid |= C.Valid;
    }
    normalizeAll(R, T);
    return R;
  }
  // `cta.thread_index().x`
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    const auto *Call =
        dyn_cast<CallExpr>(ME->getBase()->IgnoreImplicit()->IgnoreParens());
    if (FD && Call && FD->getName() == "x")
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        if (Callee->getDeclName().isIdentifier() &&
            Callee->getName() == "thread_index")
          return Normalized(evalCooperativeW(Call, En, Active), T);
    return R;
  }
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    return evalW(EWC->getSubExpr(), Fr, En, Active, Depth + 1);
  return R;
}

Vals LaneAccessAnalysis::Impl::strideValue(const VarDecl *V, int64_t Trip,
                                           const Frame &Fr, const Env &En,
                                           uint32_t Active, unsigned Depth) {
  Vals None;
  const StrideLoop *SL = info(Fr.F).StrideOfVar.lookup(V);
  if (!SL || V->getDeclContext() != Fr.F)
    return None;
  Vals Start = evalW(SL->Init, Fr, En, Active, Depth + 1);
  Vals Step = SL->Step ? evalW(SL->Step, Fr, En, Start.Valid, Depth + 1)
                       : splat(Start.Valid, 1);
  Step.Valid &= Start.Valid;
  const int64_t Times = SL->Down ? -Trip : Trip;
  allLanes([&](unsigned K) {
    Step.V[K] = int64_t(uint64_t(Start.V[K]) +
                        uint64_t(Times) * uint64_t(Step.V[K]));
  });
  normalizeAll(Step, V->getType());
  return Step;
}

Vals LaneAccessAnalysis::Impl::straightLineValueW(const VarDecl *V,
                                                  const DeclRefExpr *Use,
                                                  const Frame &Fr,
                                                  const Env &En,
                                                  uint32_t Active,
                                                  unsigned Depth) {
  Vals None;
  FunctionInfo &I = info(Fr.F);
  if (!I.PM || Depth > MaxDepth || !V->getType()->isIntegerType())
    return None;
  // The compound statement that declares V, and its child holding Use.
  const Stmt *Child = Use;
  const CompoundStmt *Scope = nullptr;
  while (const Stmt *Parent = I.PM->getParent(Child)) {
    if (const auto *CS = dyn_cast<CompoundStmt>(Parent)) {
      bool Declares = llvm::any_of(CS->body(), [&](const Stmt *S) {
        const auto *DS = dyn_cast<DeclStmt>(S);
        return DS && llvm::is_contained(DS->decls(), V);
      });
      if (Declares) {
        Scope = CS;
        break;
      }
    }
    Child = Parent;
  }
  if (!Scope)
    return None;
  auto IsChild = [&](const Stmt *M) {
    const Stmt *Top = M;
    while (const Stmt *P = I.PM->getParent(Top)) {
      if (P == Scope)
        return true;
      // `idx += 32;` as written: the write, through implicit nodes only.
      if (!isa<ExprWithCleanups, ImplicitCastExpr, ParenExpr>(P))
        return false;
      Top = P;
    }
    return false;
  };
  auto It = I.Mods.find(V);
  if (It == I.Mods.end() || !llvm::all_of(It->second, IsChild))
    return None;
  Vals Val;
  bool Declared = false;
  for (const Stmt *S : Scope->body()) {
    if (S == Child)
      break;
    if (const auto *DS = dyn_cast<DeclStmt>(S);
        DS && llvm::is_contained(DS->decls(), V)) {
      Declared = true;
      Val = evalW(V->getInit(), Fr, En, Active, Depth + 1);
      continue;
    }
    if (!Declared || !Val.Valid)
      continue;
    const Expr *W = dyn_cast<Expr>(S);
    W = W ? W->IgnoreImplicit()->IgnoreParens() : nullptr;
    if (!W || !llvm::is_contained(It->second, W))
      continue;
    if (const auto *UO = dyn_cast<UnaryOperator>(W)) {
      if (!UO->isIncrementDecrementOp())
        return None;
      const int64_t Step = UO->isIncrementOp() ? 1 : -1;
      forLanes(Val.Valid, [&](unsigned K) { Val.V[K] += Step; });
    } else if (const auto *BO = dyn_cast<BinaryOperator>(W)) {
      BinaryOperatorKind Op = BO->getOpcode();
      switch (Op) {
      case BO_Assign: case BO_AddAssign: case BO_SubAssign:
      case BO_MulAssign: case BO_AndAssign: case BO_OrAssign:
      case BO_XorAssign: case BO_ShlAssign:
        break;
      default:
        return None;
      }
      // The right side sees V's value before this write.
      Vals Right = evalW(BO->getRHS(), Fr, En, Val.Valid, Depth + 1);
      Val.Valid = Right.Valid;
      forLanes(Right.Valid, [&](unsigned K) {
        int64_t A = Val.V[K], B = Right.V[K];
        int64_t &Out = Val.V[K];
        switch (Op) {
        case BO_Assign: Out = B; break;
        case BO_AddAssign: Out = int64_t(uint64_t(A) + uint64_t(B)); break;
        case BO_SubAssign: Out = int64_t(uint64_t(A) - uint64_t(B)); break;
        case BO_MulAssign: Out = int64_t(uint64_t(A) * uint64_t(B)); break;
        case BO_AndAssign: Out = A & B; break;
        case BO_OrAssign: Out = A | B; break;
        case BO_XorAssign: Out = A ^ B; break;
        default:
          if (B < 0 || B >= 64)
            Val.Valid &= ~(1u << K);
          else
            Out = int64_t(uint64_t(A) << B);
          break;
        }
      });
    } else {
      return None;
    }
    normalizeAll(Val, V->getType());
  }
  if (!Declared)
    return None;
  return Val;
}
static bool inCooperativeGroups(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "cooperative_groups")
        return true;
  return false;
}

Vals LaneAccessAnalysis::Impl::evalCooperativeW(const CallExpr *CE,
                                                const Env &En,
                                                uint32_t Active) {
  Vals R;
  auto Each = [&](auto &&Fn) {
    R.Valid = Active;
    allLanes([&](unsigned L) { R.V[L] = Fn(En.Tid + L); });
    return R;
  };
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
  if (!MD || !MD->getDeclName().isIdentifier() || !inCooperativeGroups(MD))
    return R;
  StringRef Name = MD->getName();
  // The group's type: the object's, as written (a tile's members may be
  // declared in a base class).
  QualType T;
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE))
    T = MCE->getImplicitObjectArgument()->IgnoreParenImpCasts()->getType();
  else if (const auto *ME =
               dyn_cast<MemberExpr>(CE->getCallee()->IgnoreParenImpCasts()))
    T = ME->getBase()->IgnoreParenImpCasts()->getType();
  if (!T.isNull() && T->isPointerType())
    T = T->getPointeeType();
  const CXXRecordDecl *RD =
      T.isNull() ? MD->getParent() : T->getAsCXXRecordDecl();
  if (!RD || !RD->getDeclName().isIdentifier())
    return R;
  // The block: its rank is the linear thread index, which is what the
  // model's thread index stands for.
  if (RD->getName() == "thread_block") {
    if (Name == "thread_rank")
      return Each([](int64_t X) { return X; });
    if (Name == "thread_index") // .x of it
      return Each([&](int64_t X) {
        return En.ShapeKnown ? X % En.BlockDim : X;
      });
    if (Name == "num_threads" || Name == "size") {
      noteBlockDim(En);
      return splat(Active, En.BlockDim * En.DimY * En.DimZ);
    }
    return R;
  }
  // A tile of N threads of the block (N a power of two up to 32): lanes
  // Tid % N, tile Tid / N.
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || RD->getName() != "thread_block_tile" ||
      Spec->getTemplateArgs().size() < 1 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Integral)
    return R;
  int64_t N = Spec->getTemplateArgs()[0].getAsIntegral().getExtValue();
  if (N <= 0 || N > 32 || !llvm::isPowerOf2_64(uint64_t(N)))
    return R;
  if (Name == "thread_rank")
    return Each([&](int64_t X) { return X % N; });
  if (Name == "num_threads" || Name == "size")
    return splat(Active, N);
  if (Name == "meta_group_rank")
    return Each([&](int64_t X) { return X / N; });
  if (Name == "meta_group_size") {
    noteBlockDim(En);
    return splat(Active, En.BlockDim / N);
  }
  return R;
}

const FunctionDecl *
LaneAccessAnalysis::Impl::followable(const FunctionDecl *Callee,
                                     const Frame &Fr) const {
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || !Def || !Def->getBody() ||
      !isDeviceCode(Def) || Def->isVariadic())
    return nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
    return nullptr;
  // Recursion is cut.
  for (const Frame *Cur = &Fr; Cur; Cur = Cur->Parent)
    if (Cur->F == Def)
      return nullptr;
  return Def;
}

llvm::ArrayRef<const Expr *>
LaneAccessAnalysis::Impl::returnsOf(const FunctionDecl *F) {
  auto [It, New] = Returns.try_emplace(F);
  if (!New)
    return It->second;
  llvm::SmallVector<const Expr *, 1> Out;
  bool Ok = true;
  llvm::SmallVector<const Stmt *, 32> Work{F->getBody()};
  while (!Work.empty() && Ok) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *R = dyn_cast<ReturnStmt>(S)) {
      if (!R->getRetValue())
        Ok = false;
      else
        Out.push_back(R->getRetValue());
    }
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  if (!Ok)
    Out.clear();
  auto &Slot = Returns[F];
  Slot = std::move(Out);
  return Slot;
}

Vals LaneAccessAnalysis::Impl::evalCallW(const CallExpr *CE, const Frame &Fr,
                                         const Env &En, uint32_t Active,
                                         unsigned Depth) {
  Vals Result;
  if (Depth > MaxDepth || isa<CXXOperatorCallExpr>(CE))
    return Result;
  const FunctionDecl *Def = followable(resolveCallee(CE), Fr);
  if (!Def || !Def->getReturnType()->isIntegerType() || !info(Def).Ok)
    return Result;
  // Every return gives the same value: the call's value, whatever path the
  // callee takes.
  Frame Callee{Def, CE, &Fr};
  bool First = true;
  for (const Expr *R : returnsOf(Def)) {
    Vals V = evalW(R, Callee, En, First ? Active : Result.Valid, Depth + 1);
    normalizeAll(V, Def->getReturnType());
    if (First) {
      Result = V;
      First = false;
      continue;
    }
    uint32_t Agree = 0;
    forLanes(V.Valid & Result.Valid, [&](unsigned K) {
      if (V.V[K] == Result.V[K])
        Agree |= 1u << K;
    });
    Result.Valid = Agree;
  }
  return Result;
}

Addrs LaneAccessAnalysis::Impl::evalPtrCallW(const CallExpr *CE,
                                             const Frame &Fr, const Env &En,
                                             uint32_t Active, unsigned Depth) {
  Addrs Result;
  if (Depth > MaxDepth || isa<CXXOperatorCallExpr>(CE))
    return Result;
  const FunctionDecl *Def = followable(resolveCallee(CE), Fr);
  if (!Def || !Def->getReturnType()->isPointerType() || !info(Def).Ok)
    return Result;
  Frame Callee{Def, CE, &Fr};
  bool First = true;
  for (const Expr *R : returnsOf(Def)) {
    Addrs A = evalPtrW(R, Callee, En, First ? Active : Result.Valid, Depth + 1);
    if (First) {
      Result = A;
      First = false;
      continue;
    }
    uint32_t Agree = 0;
    if (A.Key == Result.Key)
      forLanes(A.Valid & Result.Valid, [&](unsigned K) {
        if (A.Byte[K] == Result.Byte[K])
          Agree |= 1u << K;
      });
    Result.Valid = Agree;
  }
  return Result;
}

static const void *sharedKey(const VarDecl *V) {
  // Every extern __shared__ array starts at the same address.
  static const char DynamicShared = 0;
  if (V->hasExternalStorage())
    return &DynamicShared;
  return V->getCanonicalDecl();
}

/// The same object in every lane of Active, at byte 0.
static Addrs objectAt(uint32_t Active, const void *Key, const VarDecl *Var) {
  Addrs A;
  A.Valid = Active;
  A.Key = Key;
  A.Var = Var;
  return A;
}

/// Base advanced by Index elements of Size bytes (negated when Negate), in
/// the lanes where both are known.
static Addrs advance(Addrs Base, const Vals &Index, int64_t Size,
                     bool Negate = false) {
  Base.Valid &= Index.Valid;
  const int64_t Step = Negate ? -Size : Size;
  allLanes([&](unsigned L) {
    Base.Byte[L] = int64_t(uint64_t(Base.Byte[L]) +
                           uint64_t(Index.V[L]) * uint64_t(Step));
  });
  return Base;
}

Addrs LaneAccessAnalysis::Impl::evalPtrW(const Expr *E, const Frame &Fr,
                                         const Env &En, uint32_t Active,
                                         unsigned Depth) {
  Addrs None;
  if (!Active || !E || Depth > MaxDepth)
    return None;
  E = E->IgnoreParens();
  // A shared array of a template pattern (`__shared__ float s[BlockSize]`)
  // passed on as a pointer: the decay is not spelled in dependent code.
  if (const VarDecl *V = refVar(E))
    if (V->hasAttr<CUDASharedAttr>() && V->getType()->isArrayType())
      return objectAt(Active, sharedKey(V), V);
  if (E->isTypeDependent() || E->isValueDependent())
    return None;
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    return evalPtrW(EWC->getSubExpr(), Fr, En, Active, Depth + 1);
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return evalPtrCallW(CE, Fr, En, Active, Depth + 1);
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    switch (CE->getCastKind()) {
    case CK_ArrayToPointerDecay:
      return evalObjW(CE->getSubExpr(), Fr, En, Active, Depth + 1);
    case CK_NoOp:
    case CK_BitCast:
    case CK_UserDefinedConversion: // `SharedMemory<T>()`'s `operator T *()`
      return evalPtrW(CE->getSubExpr(), Fr, En, Active, Depth + 1);
    case CK_LValueToRValue: {
      const VarDecl *V = refVar(CE->getSubExpr());
      if (!V)
        return None;
      return evalPtrVarW(V, Fr, En, Active, Depth + 1);
    }
    default:
      return None;
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_AddrOf)
      return evalObjW(UO->getSubExpr(), Fr, En, Active, Depth + 1);
    return None;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub)
      return None;
    const Expr *P = BO->getLHS(), *I = BO->getRHS();
    if (!P->getType()->isPointerType())
      std::swap(P, I);
    if (!P->getType()->isPointerType() || !I->getType()->isIntegerType() ||
        (BO->getOpcode() == BO_Sub && P != BO->getLHS()))
      return None;
    QualType Pointee = P->getType()->getPointeeType();
    if (Pointee->isIncompleteType() || Pointee->isVoidType())
      return None;
    Addrs Base = evalPtrW(P, Fr, En, Active, Depth + 1);
    Vals Off = evalW(I, Fr, En, Base.Valid, Depth + 1);
    return advance(Base, Off, Ctx.getTypeSizeInChars(Pointee).getQuantity(),
                   BO->getOpcode() == BO_Sub);
  }
  return None;
}

Addrs LaneAccessAnalysis::Impl::evalPtrVarW(const VarDecl *V, const Frame &Fr,
                                            const Env &En, uint32_t Active,
                                            unsigned Depth) {
  if (Depth > MaxDepth || !V->getType()->isPointerType())
    return Addrs();
  if (const auto *PV = dyn_cast<ParmVarDecl>(V)) {
    // A kernel's pointer parameter that the kernel never reassigns: global
    // memory, one object per parameter (distinct parameters are not assumed
    // to alias).
    if (!Fr.Call && Fr.F == PV->getDeclContext() && isKernel(Fr.F) &&
        !PV->getType()->getPointeeType().isConstQualified() &&
        !isModified(info(Fr.F), PV))
      return objectAt(Active, PV->getCanonicalDecl(), PV);
    if (!Fr.Call || !Fr.Parent || Fr.F != PV->getDeclContext())
      return Addrs();
    unsigned Idx = PV->getFunctionScopeIndex();
    if (Idx >= Fr.Call->getNumArgs())
      return Addrs();
    return evalPtrW(Fr.Call->getArg(Idx), *Fr.Parent, En, Active, Depth + 1);
  }
  if (!V->hasLocalStorage() || V->getDeclContext() != Fr.F || !V->getInit() ||
      isModified(info(Fr.F), V))
    return Addrs();
  return evalPtrW(V->getInit(), Fr, En, Active, Depth + 1);
}

Addrs LaneAccessAnalysis::Impl::evalObjW(const Expr *E, const Frame &Fr,
                                         const Env &En, uint32_t Active,
                                         unsigned Depth) {
  Addrs None;
  if (!Active || !E || Depth > MaxDepth || E->isTypeDependent() ||
      E->isValueDependent())
    return None;
  E = E->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (V && V->hasAttr<CUDASharedAttr>())
      return objectAt(Active, sharedKey(V), V);
    return None;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    QualType Elem = ASE->getType();
    if (Elem->isIncompleteType())
      return None;
    Addrs Base = evalPtrW(ASE->getBase(), Fr, En, Active, Depth + 1);
    Vals Idx = evalW(ASE->getIdx(), Fr, En, Base.Valid, Depth + 1);
    return advance(Base, Idx, Ctx.getTypeSizeInChars(Elem).getQuantity());
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Deref)
      return evalPtrW(UO->getSubExpr(), Fr, En, Active, Depth + 1);
    return None;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD || FD->isBitField() || FD->getParent()->isInvalidDecl() ||
        FD->getParent()->isDependentType())
      return None;
    Addrs Base = ME->isArrow()
                     ? evalPtrW(ME->getBase(), Fr, En, Active, Depth + 1)
                     : evalObjW(ME->getBase(), Fr, En, Active, Depth + 1);
    if (!Base.Valid)
      return Base;
    const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(FD->getParent());
    const int64_t Offset =
        int64_t(Layout.getFieldOffset(FD->getFieldIndex()) / 8);
    allLanes([&](unsigned L) { Base.Byte[L] += Offset; });
    return Base;
  }
  return None;
}

/// Lane 0 of a batch: the thread En.Tid on its own.
static std::optional<Address> firstLane(const Addrs &A) {
  if (!(A.Valid & 1))
    return std::nullopt;
  return Address{A.Key, A.Var, A.Byte[0]};
}

std::optional<Address> LaneAccessAnalysis::Impl::evalObj(const Expr *E,
                                                         const Frame &Fr,
                                                         const Env &En) {
  return firstLane(evalObjW(E, Fr, En, 1, 0));
}

std::optional<Address> LaneAccessAnalysis::Impl::evalPtrVar(const VarDecl *V,
                                                            const Frame &Fr,
                                                            const Env &En) {
  return firstLane(evalPtrVarW(V, Fr, En, 1, 0));
}

bool LaneAccessAnalysis::Impl::isVarying(const Expr *E, const Frame &Fr,
                                         unsigned Depth) {
  if (!E)
    return false;
  if (Depth > MaxDepth)
    return true;
  if (auto Ref = getBuiltinVarRef(E))
    return Ref->Var == BuiltinVar::ThreadIdx;
  E = E->IgnoreParenImpCasts();
  if (isa<CallExpr, ArraySubscriptExpr, MemberExpr, StmtExpr, LambdaExpr>(E))
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_Deref || UO->isIncrementDecrementOp())
      return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    if (BO->isAssignmentOp())
      return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return false; // enumerators, functions
    if (const auto *PV = dyn_cast<ParmVarDecl>(V)) {
      if (Fr.Call && Fr.Parent && PV->getDeclContext() == Fr.F &&
          PV->getFunctionScopeIndex() < Fr.Call->getNumArgs())
        return isVarying(Fr.Call->getArg(PV->getFunctionScopeIndex()),
                         *Fr.Parent, Depth + 1);
      // A kernel's by-value parameters are the same for every thread.
      return !(isKernel(Fr.F) && !PV->getType()->isReferenceType() &&
               !isModified(info(Fr.F), PV));
    }
    if (V->hasLocalStorage()) {
      if (V->getDeclContext() != Fr.F || V->getType()->isReferenceType())
        return true;
      FunctionInfo &I = info(Fr.F);
      if (isModified(I, V)) {
        // The variable of a counted loop with uniform bounds is uniform.
        for (auto &[L, C] : I.Counted) {
          if (C.Var != V)
            continue;
          if (llvm::is_contained(AssumeUniform, V))
            return false;
          AssumeUniform.push_back(V);
          bool Varying = isVarying(C.Init, Fr, Depth + 1) ||
                         isVarying(L->getCond(), Fr, Depth + 1) ||
                         isVaryingStep(L->getInc(), Fr, Depth + 1);
          AssumeUniform.pop_back();
          return Varying;
        }
        return true;
      }
      // No initialiser and no write the model sees: set by inline asm.
      if (!V->getInit() || I.AsmWrites.count(V))
        return true;
      return isVarying(V->getInit(), Fr, Depth + 1);
    }
    return !V->getType().isConstQualified();
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return isVarying(CO->getCond(), Fr, Depth + 1) ||
           isVarying(CO->getTrueExpr(), Fr, Depth + 1) ||
           isVarying(CO->getFalseExpr(), Fr, Depth + 1);
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (isVarying(CE, Fr, Depth + 1))
        return true;
  return false;
}

//===----------------------------------------------------------------------===//
// Guards, loops, statements.
//===----------------------------------------------------------------------===//

const Stmt *LaneAccessAnalysis::Impl::statementOf(const Stmt *E,
                                                  FunctionInfo &I) {
  const Stmt *S = E;
  while (const Stmt *Parent = I.PM->getParent(S)) {
    if (isa<CompoundStmt, SwitchCase, LabelStmt>(Parent))
      return S;
    if (const auto *If = dyn_cast<IfStmt>(Parent))
      if (S == If->getThen() || S == If->getElse())
        return S;
    if (const auto *For = dyn_cast<ForStmt>(Parent))
      if (S == For->getBody())
        return S;
    if (const auto *While = dyn_cast<WhileStmt>(Parent))
      if (S == While->getBody())
        return S;
    if (const auto *Do = dyn_cast<DoStmt>(Parent))
      if (S == Do->getBody())
        return S;
    S = Parent;
  }
  return S;
}

/// The early exit `if (c) return;` (or `{ return; }`).
static const Expr *earlyReturnCond(const Stmt *S) {
  const auto *If = dyn_cast<IfStmt>(S);
  if (!If || If->getElse() || If->getInit() || If->getConditionVariable())
    return nullptr;
  const Stmt *Then = If->getThen();
  if (const auto *CS = dyn_cast<CompoundStmt>(Then))
    Then = CS->size() == 1 ? CS->body_front() : nullptr;
  if (const auto *R = dyn_cast_or_null<ReturnStmt>(Then))
    return R->getRetValue() ? nullptr : If->getCond();
  return nullptr;
}

static bool containsJump(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt, BreakStmt, ContinueStmt,
          CXXThrowExpr>(S))
    return true;
  if (isa<LambdaExpr>(S))
    return false;
  for (const Stmt *Child : S->children())
    if (containsJump(Child))
      return true;
  return false;
}

void LaneAccessAnalysis::Impl::guardOf(
    const Stmt *From, const Stmt *Stop, FunctionInfo &I, const Frame &Fr,
    llvm::SmallVectorImpl<Cond> &Guard,
    llvm::SmallVectorImpl<const ForStmt *> &Loops, bool &Opaque) {
  auto Add = [&](const Expr *C, bool Taken) {
    if (C)
      Guard.push_back(Cond{C, Taken, isVarying(C, Fr)});
  };
  const Stmt *S = From;
  while (S != Stop) {
    const Stmt *Parent = I.PM->getParent(S);
    if (!Parent)
      break;
    if (const auto *If = dyn_cast<IfStmt>(Parent)) {
      if (If->getConditionVariable() || If->isConsteval())
        Opaque = true;
      else if (S == If->getThen())
        Add(If->getCond(), true);
      else if (S == If->getElse())
        Add(If->getCond(), false);
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(Parent)) {
      if (S == CO->getTrueExpr())
        Add(CO->getCond(), true);
      else if (S == CO->getFalseExpr())
        Add(CO->getCond(), false);
    } else if (const auto *BO = dyn_cast<BinaryOperator>(Parent)) {
      if (BO->getOpcode() == BO_LAnd && S == BO->getRHS())
        Add(BO->getLHS(), true);
      else if (BO->getOpcode() == BO_LOr && S == BO->getRHS())
        Add(BO->getLHS(), false);
    } else if (const auto *For = dyn_cast<ForStmt>(Parent)) {
      if (S == For->getBody() || S == For->getInc() || S == For->getCond()) {
        auto It = I.Counted.find(For);
        bool Jumps = containsJump(For->getBody());
        // A stride loop: enumerated by iteration, its test a condition on
        // the lanes that run each one.
        if (const StrideLoop *SL = strideIn(For, Fr);
            SL && !Jumps && !isVarying(SL->Bound, Fr)) {
          Loops.push_back(For);
          Cond C{For->getCond(), true, true};
          C.LoopBound = true;
          Guard.push_back(C);
          S = Parent;
          continue;
        }
        // A loop the whole warp runs the same number of times (the
        // uniformity analysis knows `for (; it < iters; ++it)` is).
        bool Varying =
            (isVarying(For->getCond(), Fr) &&
             !provenWarpUniform(For->getCond(), Fr)) ||
            (It != I.Counted.end() && isVarying(It->second.Init, Fr));
        if (It != I.Counted.end() && !Varying && !Jumps)
          Loops.push_back(For);
        else if (Varying || Jumps)
          Opaque = true;
      }
    } else if (const auto *While = dyn_cast<WhileStmt>(Parent)) {
      if (S == While->getBody() &&
          ((isVarying(While->getCond(), Fr) &&
            !provenWarpUniform(While->getCond(), Fr)) ||
           containsJump(While->getBody())))
        Opaque = true;
    } else if (const auto *Do = dyn_cast<DoStmt>(Parent)) {
      if (S == Do->getBody() && ((isVarying(Do->getCond(), Fr) &&
                                  !provenWarpUniform(Do->getCond(), Fr)) ||
                                 containsJump(Do->getBody())))
        Opaque = true;
    } else if (isa<SwitchStmt, SwitchCase, LabelStmt, CXXTryStmt, CXXCatchStmt>(
                   Parent)) {
      Opaque = true;
    } else if (const auto *CS = dyn_cast<CompoundStmt>(Parent)) {
      // Earlier siblings: `if (c) return;` narrows the lanes; any other
      // jump makes them unknown.
      for (const Stmt *Sib : CS->body()) {
        if (Sib == S)
          break;
        if (const Expr *C = earlyReturnCond(Sib))
          Add(C, false);
        else if (containsJump(Sib))
          Opaque = true;
      }
    }
    S = Parent;
  }
}

/// Appends the bytes of X to Key.
template <typename T> static void appendKey(std::string &Key, const T &X) {
  Key.append(reinterpret_cast<const char *>(&X), sizeof(X));
}

/// Appends the (variable, value) pairs of a loop valuation in a fixed order.
template <typename MapT>
static void appendValuation(std::string &Key, const MapT &M) {
  llvm::SmallVector<std::pair<intptr_t, int64_t>, 4> Sorted;
  for (const auto &[V, X] : M)
    Sorted.push_back({intptr_t(V), X});
  llvm::sort(Sorted);
  appendKey(Key, Sorted.size());
  for (const auto &P : Sorted)
    appendKey(Key, P);
}

uint32_t LaneAccessAnalysis::Impl::evalGuard(
    llvm::ArrayRef<Cond> Guard, const Frame &Fr, const Env &En,
    uint32_t Active, uint32_t &Unknown,
    llvm::SmallPtrSetImpl<const Expr *> *Unknowns) {
  for (const Cond &C : Guard) {
    if (!Active)
      break;
    if (!C.Varying)
      continue; // the whole warp agrees; analysed as taken
    Vals V = evalW(C.E, Fr, En, Active);
    if (uint32_t Lost = Active & ~V.Valid; Lost && C.LoopBound) {
      Unknown |= Lost; // they run it, sampled; their lanes are unknown
    } else if (Lost) {
      // A condition the whole warp agrees on (`((tid >> 5) & 1) == 0` with
      // a grid-stride `tid`): taken by every lane of a warp or by none.
      if (!C.WarpUniform)
        C.WarpUniform = provenWarpUniform(C.E, Fr) ? 1 : 2;
      if (C.WarpUniform != 1) {
        Unknown |= Lost;
        if (Unknowns)
          Unknowns->insert(C.E);
      }
    }
    uint32_t Fails = 0;
    allLanes([&](unsigned L) {
      Fails |= uint32_t((V.V[L] != 0) != C.Taken) << L;
    });
    Active &= ~(Fails & V.Valid);
  }
  return Active;
}

//===----------------------------------------------------------------------===//
// A block at once.
//===----------------------------------------------------------------------===//

/// The warps of a block of NW warps.
static uint32_t allWarps(unsigned NW) {
  return NW >= 32 ? FullLaneMask : (uint32_t(1) << NW) - 1;
}

/// The warps W in [0, NW) with P + Q * W < 0.
static uint32_t warpsBelowZero(int64_t P, int64_t Q, unsigned NW) {
  const uint32_t All = allWarps(NW);
  if (Q == 0)
    return P < 0 ? All : 0;
  if (Q > 0) {
    // Increasing: the first N warps, N = ceil(-P / Q).
    if (P >= 0)
      return 0;
    int64_t N = (-P + Q - 1) / Q;
    return N >= int64_t(NW) ? All : (uint32_t(1) << N) - 1;
  }
  // Decreasing: P + Q W < 0 for W > P / -Q, from the first W past it.
  if (P < 0)
    return All;
  int64_t First = P / -Q + 1;
  return First >= int64_t(NW) ? 0 : All & ~((uint32_t(1) << First) - 1);
}

/// The warps W with P + Q * W == 0.
static uint32_t warpsAtZero(int64_t P, int64_t Q, unsigned NW) {
  if (Q == 0)
    return P == 0 ? allWarps(NW) : 0;
  if (P % Q != 0)
    return 0;
  int64_t W = -P / Q;
  return W >= 0 && W < int64_t(NW) ? uint32_t(1) << W : 0;
}

bool LaneAccessAnalysis::Impl::evalBlock(const Expr *E, const Frame &Fr,
                                         const Env &En, unsigned NW,
                                         WarpVal &R, bool &ReadBD,
                                         unsigned Depth) {
  if (!E || Depth > MaxDepth || E->isValueDependent() ||
      E->isTypeDependent() || En.ShapeKnown || NW == 0 || NW > 32)
    return false;
  Budget += 32;
  const uint32_t All = allWarps(NW);
  const int64_t Last = int64_t(NW) - 1;
  auto Splat = [&](int64_t X) {
    R = WarpVal();
    for (int64_t &A : R.A)
      A = X;
    return true;
  };
  // Truth values from integers and back.
  auto ToBool = [&](WarpVal &V) {
    if (V.Bool)
      return;
    for (unsigned L = 0; L < 32; ++L)
      V.M[L] = All & ~warpsAtZero(V.A[L], V.C, NW);
    V.Bool = true;
  };
  auto ToInt = [&](WarpVal &V) {
    if (!V.Bool)
      return true;
    for (unsigned L = 0; L < 32; ++L) {
      if (V.M[L] != 0 && V.M[L] != All)
        return false; // differs between warps: not A + C * W
      V.A[L] = V.M[L] != 0;
    }
    V.C = 0;
    V.Bool = false;
    return true;
  };
  // An integer of type T in every thread: the values evalW would give
  // (normalised to T) only if none wraps; with A + C * W monotone in W,
  // the first and last warps bound it.
  auto Fits = [&](WarpVal &V, QualType T) {
    if (T.isNull() || !T->isIntegerType())
      return !V.Bool;
    if (T->isBooleanType()) {
      ToBool(V);
      return true;
    }
    if (!ToInt(V))
      return false;
    unsigned Width = Ctx.getIntWidth(T);
    int64_t Lo, Hi;
    if (Width >= 64) {
      Lo = -(int64_t(1) << 61);
      Hi = int64_t(1) << 61;
    } else if (T->isSignedIntegerOrEnumerationType()) {
      Lo = -(int64_t(1) << (Width - 1));
      Hi = (int64_t(1) << (Width - 1)) - 1;
    } else {
      Lo = 0;
      Hi = int64_t((uint64_t(1) << Width) - 1);
    }
    if (V.C > (int64_t(1) << 40) || V.C < -(int64_t(1) << 40))
      return false;
    for (int64_t A : V.A) {
      if (A < Lo || A > Hi)
        return false;
      int64_t End = A + V.C * Last;
      if (End < Lo || End > Hi)
        return false;
    }
    return true;
  };
  E = E->IgnoreParens();
  if (std::optional<BuiltinVarRef> Ref =
          isa<PseudoObjectExpr, MSPropertyRefExpr, MemberExpr>(E)
              ? getBuiltinVarRef(E)
              : std::nullopt) {
    if (Ref->Dim != 0)
      return false; // .y and .z: only with a known shape
    if (Ref->Var == BuiltinVar::ThreadIdx) {
      R = WarpVal();
      for (unsigned L = 0; L < 32; ++L)
        R.A[L] = L;
      R.C = 32;
      return true;
    }
    if (Ref->Var == BuiltinVar::BlockDim) {
      ReadBD = true;
      return Splat(En.BlockDim);
    }
    if (Ref->Var == BuiltinVar::BlockIdx)
      return Splat(0);
    return false;
  }
  QualType T = E->getType();
  if (const auto *IL = dyn_cast<IntegerLiteral>(E))
    return Splat(normalize(int64_t(IL->getValue().getZExtValue()), T));
  if (const auto *CL = dyn_cast<CharacterLiteral>(E))
    return Splat(int64_t(CL->getValue()));
  if (const auto *BL = dyn_cast<CXXBoolLiteralExpr>(E))
    return Splat(int64_t(BL->getValue()));
  if (isa<SubstNonTypeTemplateParmExpr, UnaryExprOrTypeTraitExpr>(E)) {
    if (auto C = constantOf(E))
      return Splat(*C);
    return false;
  }
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    switch (CE->getCastKind()) {
    case CK_LValueToRValue:
    case CK_NoOp:
    case CK_IntegralCast:
    case CK_IntegralToBoolean:
      return evalBlock(CE->getSubExpr(), Fr, En, NW, R, ReadBD, Depth + 1) &&
             Fits(R, T);
    default:
      return false;
    }
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
      return Splat(EC->getInitVal().getExtValue());
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V || !V->getType()->isIntegerType())
      return false;
    if (auto L = En.Loop.find(V); L != En.Loop.end())
      return Splat(L->second);
    if (auto Trip = En.Trips.find(V); Trip != En.Trips.end()) {
      // A stride loop's variable: its start plus the trips' steps.
      const StrideLoop *SL = info(Fr.F).StrideOfVar.lookup(V);
      if (!SL || V->getDeclContext() != Fr.F ||
          !evalBlock(SL->Init, Fr, En, NW, R, ReadBD, Depth + 1) ||
          !ToInt(R))
        return false;
      int64_t Step = 1;
      if (SL->Step) {
        WarpVal S;
        if (!evalBlock(SL->Step, Fr, En, NW, S, ReadBD, Depth + 1) ||
            !ToInt(S) || S.C != 0 ||
            llvm::any_of(S.A, [&](int64_t X) { return X != S.A[0]; }))
          return false;
        Step = S.A[0];
      }
      const int64_t Times = SL->Down ? -Trip->second : Trip->second;
      if (Times > (int64_t(1) << 20) || Times < -(int64_t(1) << 20) ||
          Step > (int64_t(1) << 30) || Step < -(int64_t(1) << 30))
        return false;
      for (int64_t &A : R.A)
        A += Times * Step;
      return Fits(R, V->getType());
    }
    if (const auto *PV = dyn_cast<ParmVarDecl>(V)) {
      if (!Fr.Call || !Fr.Parent || Fr.F != PV->getDeclContext())
        return false;
      unsigned Idx = PV->getFunctionScopeIndex();
      if (Idx >= Fr.Call->getNumArgs())
        return false;
      return evalBlock(Fr.Call->getArg(Idx), *Fr.Parent, En, NW, R, ReadBD,
                       Depth + 1) &&
             Fits(R, V->getType());
    }
    if (V->hasLocalStorage()) {
      if (V->getDeclContext() != Fr.F || V->getType()->isReferenceType())
        return false;
      FunctionInfo &FI = info(Fr.F);
      if (!V->getInit()) {
        // `asm("mov.u32 %0, %%laneid;" : "=r"(lane));`, the only write.
        if (!FI.LaneIdAsm.contains(V) || FI.AsmWrites.lookup(V) != 1 ||
            isModified(FI, V))
          return false;
        R = WarpVal();
        for (unsigned L = 0; L < 32; ++L)
          R.A[L] = L;
        return Fits(R, V->getType());
      }
      if (isModified(FI, V))
        return false; // straight-line values: warp by warp
      return evalBlock(V->getInit(), Fr, En, NW, R, ReadBD, Depth + 1) &&
             Fits(R, V->getType());
    }
    if (V->getType().isConstQualified() && V->getInit())
      if (auto C = constantOf(V->getInit()))
        return Splat(normalize(*C, V->getType()));
    return false;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    UnaryOperatorKind Op = UO->getOpcode();
    if (Op != UO_Plus && Op != UO_Minus && Op != UO_Not && Op != UO_LNot)
      return false;
    if (!evalBlock(UO->getSubExpr(), Fr, En, NW, R, ReadBD, Depth + 1))
      return false;
    if (Op == UO_LNot) {
      ToBool(R);
      for (uint32_t &M : R.M)
        M = All & ~M;
      return true;
    }
    if (!ToInt(R))
      return false;
    if (Op == UO_Minus || Op == UO_Not) {
      // -x = -A - C W; ~x = -x - 1.
      for (int64_t &A : R.A)
        A = Op == UO_Minus ? -A : -A - 1;
      R.C = -R.C;
    }
    return Fits(R, T);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    BinaryOperatorKind Op = BO->getOpcode();
    if (Op == BO_LAnd || Op == BO_LOr) {
      WarpVal Rhs;
      if (!evalBlock(BO->getLHS(), Fr, En, NW, R, ReadBD, Depth + 1) ||
          !evalBlock(BO->getRHS(), Fr, En, NW, Rhs, ReadBD, Depth + 1))
        return false;
      ToBool(R);
      ToBool(Rhs);
      for (unsigned L = 0; L < 32; ++L)
        R.M[L] = Op == BO_LAnd ? R.M[L] & Rhs.M[L] : R.M[L] | Rhs.M[L];
      return true;
    }
    if (!isEvaluatedBinary(Op))
      return false;
    WarpVal Y;
    if (!evalBlock(BO->getLHS(), Fr, En, NW, R, ReadBD, Depth + 1) ||
        !evalBlock(BO->getRHS(), Fr, En, NW, Y, ReadBD, Depth + 1) ||
        !ToInt(R) || !ToInt(Y))
      return false;
    WarpVal &X = R;
    const bool Unsigned = BO->getLHS()->getType()->isUnsignedIntegerType();
    if (BO->isComparisonOp()) {
      // X - Y = P + Q W, compared with 0 (no wrap: both fit their type,
      // the same one after the usual conversions).
      const int64_t Q = X.C - Y.C;
      for (unsigned L = 0; L < 32; ++L) {
        const int64_t P = X.A[L] - Y.A[L];
        uint32_t M = 0;
        switch (Op) {
        case BO_LT: M = warpsBelowZero(P, Q, NW); break;
        case BO_GE: M = All & ~warpsBelowZero(P, Q, NW); break;
        case BO_LE: M = warpsBelowZero(P - 1, Q, NW); break;
        case BO_GT: M = All & ~warpsBelowZero(P - 1, Q, NW); break;
        case BO_EQ: M = warpsAtZero(P, Q, NW); break;
        default: M = All & ~warpsAtZero(P, Q, NW); break;
        }
        X.M[L] = M;
      }
      X.Bool = true;
      return true;
    }
    // Both the same in every warp: lane by lane, as evalW.
    if (X.C == 0 && Y.C == 0) {
      for (unsigned L = 0; L < 32; ++L) {
        int64_t A = X.A[L], B = Y.A[L];
        switch (Op) {
        case BO_Add: X.A[L] = int64_t(uint64_t(A) + uint64_t(B)); break;
        case BO_Sub: X.A[L] = int64_t(uint64_t(A) - uint64_t(B)); break;
        case BO_Mul: X.A[L] = int64_t(uint64_t(A) * uint64_t(B)); break;
        case BO_And: X.A[L] = A & B; break;
        case BO_Or: X.A[L] = A | B; break;
        case BO_Xor: X.A[L] = A ^ B; break;
        case BO_Div:
        case BO_Rem:
          if (B == 0 || (A == INT64_MIN && B == -1))
            return false;
          if (Unsigned)
            X.A[L] = Op == BO_Div ? int64_t(uint64_t(A) / uint64_t(B))
                                  : int64_t(uint64_t(A) % uint64_t(B));
          else
            X.A[L] = Op == BO_Div ? A / B : A % B;
          break;
        default: // shifts
          if (B < 0 || B >= 64)
            return false;
          X.A[L] = Op == BO_Shl ? int64_t(uint64_t(A) << B)
                   : Unsigned   ? int64_t(uint64_t(A) >> B)
                                : A >> B;
          break;
        }
      }
      // evalW normalises the result to T; so does this, when every lane's
      // value is the same in all warps.
      for (int64_t &A : X.A)
        A = normalize(A, T);
      return true;
    }
    if (Op == BO_Add || Op == BO_Sub) {
      for (unsigned L = 0; L < 32; ++L)
        X.A[L] = Op == BO_Add ? X.A[L] + Y.A[L] : X.A[L] - Y.A[L];
      X.C = Op == BO_Add ? X.C + Y.C : X.C - Y.C;
      return Fits(X, T);
    }
    // The rest need one side the same in every warp: K (in each lane).
    if (Y.C != 0) {
      if (Op == BO_Mul || Op == BO_And || Op == BO_Or || Op == BO_Xor)
        std::swap(X, Y);
      else
        return false;
    }
    if (Y.C != 0)
      return false;
    const int64_t C = X.C;
    const bool UniformK =
        llvm::all_of(Y.A, [&](int64_t K) { return K == Y.A[0]; });
    const int64_t K0 = Y.A[0];
    // The low bits of A + C W are A's: C W is a multiple of 2^Tz.
    const unsigned Tz = unsigned(llvm::countr_zero(uint64_t(C)));
    const uint64_t Low = Tz >= 63 ? ~uint64_t(0) >> 1
                                  : (uint64_t(1) << Tz) - 1;
    // Values of one sign in every warp (division and remainder truncate).
    auto OneSign = [&](int Sign) {
      for (int64_t A : X.A) {
        int64_t End = A + C * Last;
        if (Sign > 0 ? (A < 0 || End < 0) : (A > 0 || End > 0))
          return false;
      }
      return true;
    };
    switch (Op) {
    case BO_Mul:
      if (!UniformK || K0 > (int64_t(1) << 20) || K0 < -(int64_t(1) << 20) ||
          llvm::any_of(X.A, [](int64_t A) {
            return A > (int64_t(1) << 40) || A < -(int64_t(1) << 40);
          }))
        return false;
      for (int64_t &A : X.A)
        A *= K0;
      X.C = C * K0;
      return Fits(X, T);
    case BO_Shl:
      if (!UniformK || K0 < 0 || K0 > 20 ||
          llvm::any_of(X.A, [](int64_t A) {
            return A > (int64_t(1) << 40) || A < -(int64_t(1) << 40);
          }))
        return false;
      for (int64_t &A : X.A)
        A *= int64_t(1) << K0;
      X.C = C * (int64_t(1) << K0);
      return Fits(X, T);
    case BO_Shr:
    case BO_Div:
    case BO_Rem: {
      int64_t D = K0;
      if (Op == BO_Shr) {
        if (!UniformK || K0 < 0 || K0 > 40)
          return false;
        D = int64_t(1) << K0;
        // A shift floors (an unsigned value is never negative), and
        // floor((A + C W) / D) = floor(A / D) + C / D W when D divides C.
        if (C % D != 0)
          return false;
        for (int64_t &A : X.A)
          A = A >= 0 ? A / D : -((-A + D - 1) / D);
        X.C = C / D;
        return Fits(X, T);
      }
      if (!UniformK || D <= 0 || C % D != 0)
        return false;
      // Truncation is floor for values never negative, and the mirror of
      // it for values never positive.
      int Sign = OneSign(+1) ? +1 : OneSign(-1) ? -1 : 0;
      if (!Sign)
        return false;
      for (int64_t &A : X.A)
        A = Op == BO_Div ? A / D : A % D;
      X.C = Op == BO_Div ? C / D : 0;
      return Fits(X, T);
    }
    default: { // &, |, ^ with K in each lane
      int64_t NewC = 0;
      for (unsigned L = 0; L < 32; ++L) {
        const uint64_t K = uint64_t(Y.A[L]);
        const bool KLow = (K & ~Low) == 0;          // K within the low bits
        const bool KHigh = (K | Low) == ~uint64_t(0); // every high bit set
        int64_t LaneC;
        if (Op == BO_And && KLow)
          LaneC = 0;
        else if (Op == BO_And && KHigh)
          LaneC = C;
        else if (Op == BO_Or && KLow)
          LaneC = C;
        else if (Op == BO_Or && KHigh)
          LaneC = 0;
        else if (Op == BO_Xor && KLow)
          LaneC = C;
        else
          return false;
        if (L == 0)
          NewC = LaneC;
        else if (LaneC != NewC)
          return false;
        X.A[L] = Op == BO_And ? int64_t(uint64_t(X.A[L]) & K)
                 : Op == BO_Or ? int64_t(uint64_t(X.A[L]) | K)
                               : int64_t(uint64_t(X.A[L]) ^ K);
      }
      X.C = NewC;
      return Fits(X, T);
    }
    }
  }
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    return evalBlock(EWC->getSubExpr(), Fr, En, NW, R, ReadBD, Depth + 1);
  return false;
}

const LaneAccessAnalysis::Impl::BlockGuard *
LaneAccessAnalysis::Impl::blockGuard(llvm::ArrayRef<Cond> Guard,
                                     const Frame &Fr, const Env &En) {
  if (En.ShapeKnown || En.BlockDim % 32 != 0 || En.BlockDim > 1024 ||
      En.BlockDim <= 0)
    return nullptr;
  const unsigned NW = unsigned(En.BlockDim / 32);
  std::string Key;
  Key.reserve(96);
  for (const Frame *Up = &Fr; Up; Up = Up->Parent) {
    appendKey(Key, Up->F);
    appendKey(Key, Up->Call);
  }
  appendKey(Key, En.BlockDim);
  appendValuation(Key, En.Loop);
  appendValuation(Key, En.Trips);
  for (const Cond &C : Guard)
    if (C.Varying) {
      appendKey(Key, C.E);
      appendKey(Key, C.Taken);
    }
  auto [It, New] = BlockGuards.try_emplace(std::move(Key));
  BlockGuard &G = It->second;
  if (New) {
    uint32_t Pass[32];
    std::fill(std::begin(Pass), std::end(Pass), allWarps(NW));
    G.Ok = true;
    for (const Cond &C : Guard) {
      if (!C.Varying)
        continue;
      WarpVal V;
      if (!evalBlock(C.E, Fr, En, NW, V, G.ReadBlockDim)) {
        G.Ok = false;
        break;
      }
      if (!V.Bool)
        for (unsigned L = 0; L < 32; ++L)
          V.M[L] = allWarps(NW) & ~warpsAtZero(V.A[L], V.C, NW);
      for (unsigned L = 0; L < 32; ++L)
        Pass[L] &= C.Taken ? V.M[L] : allWarps(NW) & ~V.M[L];
    }
    if (G.Ok)
      for (unsigned W = 0; W < NW; ++W)
        for (unsigned L = 0; L < 32; ++L)
          G.Lanes[W] |= ((Pass[L] >> W) & 1) << L;
  }
  if (!G.Ok)
    return nullptr;
  if (G.ReadBlockDim)
    noteBlockDim(En);
  return &G;
}

bool LaneAccessAnalysis::Impl::blockAddress(const Expr *E, const Frame &Fr,
                                            const Env &En, unsigned NW,
                                            BlockAddress &Out) {
  if (!E || En.ShapeKnown || E->isTypeDependent() || E->isValueDependent())
    return false;
  const auto *ASE = dyn_cast<ArraySubscriptExpr>(E->IgnoreParens());
  if (!ASE || ASE->getType()->isIncompleteType())
    return false;
  // A shared array's address is the same in every thread of the block
  // (isVarying asks about a value: a shared variable's may differ).
  const VarDecl *Array = refVar(ASE->getBase()->IgnoreParenImpCasts());
  if (!(Array && Array->getType()->isArrayType() &&
        Array->hasAttr<CUDASharedAttr>()) &&
      isVarying(ASE->getBase(), Fr))
    return false;
  // The base, the same in every thread: one warp's is all of them.
  Addrs Base = evalPtrW(ASE->getBase(), Fr, En, FullLaneMask);
  if (Base.Valid != FullLaneMask ||
      llvm::any_of(Base.Byte, [&](int64_t B) { return B != Base.Byte[0]; }))
    return false;
  bool ReadBD = false;
  if (!evalBlock(ASE->getIdx(), Fr, En, NW, Out.Index, ReadBD) ||
      Out.Index.Bool)
    return false;
  if (ReadBD)
    noteBlockDim(En);
  Out.Key = Base.Key;
  Out.Var = Base.Var;
  Out.Byte = Base.Byte[0];
  Out.Size = Ctx.getTypeSizeInChars(ASE->getType()).getQuantity();
  return true;
}

bool LaneAccessAnalysis::Impl::blockLanes(
    const CallChain &Chain,
    llvm::ArrayRef<std::pair<llvm::ArrayRef<Cond>, const Frame *>> Rest,
    const Env &En, unsigned Threads, llvm::SmallVectorImpl<uint32_t> &Lanes) {
  if (Threads % 32 != 0 || Threads != En.BlockDim)
    return false;
  Lanes.assign(Threads / 32, FullLaneMask);
  auto Apply = [&](llvm::ArrayRef<Cond> G, const Frame &F) {
    if (llvm::none_of(G, [](const Cond &C) { return C.Varying; }))
      return true;
    const BlockGuard *B = blockGuard(G, F, En);
    if (!B)
      return false;
    for (unsigned W = 0; W < Lanes.size(); ++W)
      Lanes[W] &= B->Lanes[W];
    return true;
  };
  for (const CallLevel &L : Chain)
    if (!Apply(L.Guard, *L.Fr))
      return false;
  for (const auto &[G, F] : Rest)
    if (!Apply(G, *F))
      return false;
  return true;
}

bool LaneAccessAnalysis::Impl::chainOf(const Frame &Fr, CallChain &Out) {
  Out.clear();
  for (const Frame *Cur = &Fr; Cur->Call && Cur->Parent; Cur = Cur->Parent) {
    FunctionInfo &PI = info(Cur->Parent->F);
    if (!PI.Ok)
      return false;
    CallLevel L;
    L.Fr = Cur->Parent;
    guardOf(Cur->Call, Cur->Parent->F->getBody(), PI, *Cur->Parent, L.Guard,
            L.Loops, L.Opaque);
    std::reverse(L.Loops.begin(), L.Loops.end());
    Out.push_back(std::move(L));
  }
  std::reverse(Out.begin(), Out.end());
  return true;
}

void LaneAccessAnalysis::Impl::enumerateChain(
    const CallChain &C, Env &En, llvm::function_ref<bool(Env &)> Fn,
    unsigned Idx) {
  if (Idx == C.size()) {
    Fn(En);
    return;
  }
  if (C[Idx].Loops.empty()) {
    enumerateChain(C, En, Fn, Idx + 1);
    return;
  }
  enumerate(C[Idx].Loops, *C[Idx].Fr, En, [&](Env &E) {
    enumerateChain(C, E, Fn, Idx + 1);
    return true;
  });
}

static bool isWarpUniformShape(LaneAccessAnalysis::Impl::Shape S) {
  using Shape = LaneAccessAnalysis::Impl::Shape;
  return S == Shape::Uniform || S == Shape::Aligned || S == Shape::Warp;
}

LaneAccessAnalysis::Impl::Shape
LaneAccessAnalysis::Impl::shapeOf(const Expr *E, const Frame &Fr,
                                  unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return Shape::Varying;
  if (auto Ref = getBuiltinVarRef(E)) {
    if (Ref->Var == BuiltinVar::ThreadIdx)
      return Ref->Dim == 0 ? Shape::Linear : Shape::Varying;
    if (Ref->Var == BuiltinVar::BlockDim && Ref->Dim == 0)
      return Shape::Aligned;
    return Shape::Uniform;
  }
  E = E->IgnoreParenImpCasts();
  if (const auto *IL = dyn_cast<IntegerLiteral>(E))
    return IL->getValue().getZExtValue() % 32 == 0 ? Shape::Aligned
                                                   : Shape::Uniform;
  if (const VarDecl *V = refVar(E)) {
    if (const auto *PV = dyn_cast<ParmVarDecl>(V))
      if (Fr.Call && Fr.Parent && PV->getDeclContext() == Fr.F &&
          PV->getFunctionScopeIndex() < Fr.Call->getNumArgs())
        return shapeOf(Fr.Call->getArg(PV->getFunctionScopeIndex()), *Fr.Parent,
                       Depth + 1);
    if (!isVarying(E, Fr))
      return Shape::Uniform;
    if (!V->hasLocalStorage() || V->getDeclContext() != Fr.F ||
        !V->getType()->isIntegerType() || llvm::is_contained(ShapeVisiting, V))
      return Shape::Varying;
    if (isGridStride(V, Fr, Depth + 1))
      return Shape::Linear;
    if (!isModified(info(Fr.F), V) && V->getInit()) {
      ShapeVisiting.push_back(V);
      Shape S = shapeOf(V->getInit(), Fr, Depth + 1);
      ShapeVisiting.pop_back();
      return S;
    }
    return Shape::Varying;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() != UO_LNot && UO->getOpcode() != UO_Minus &&
        UO->getOpcode() != UO_Not && UO->getOpcode() != UO_Plus)
      return Shape::Varying;
    Shape S = shapeOf(UO->getSubExpr(), Fr, Depth + 1);
    return S == Shape::Aligned ? Shape::Uniform
                               : (isWarpUniformShape(S) ? S : Shape::Varying);
  }
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO || BO->isAssignmentOp() || BO->getOpcode() == BO_Comma) {
    return isVarying(E, Fr) ? Shape::Varying : Shape::Uniform;
  }
  Shape L = shapeOf(BO->getLHS(), Fr, Depth + 1);
  Shape R = shapeOf(BO->getRHS(), Fr, Depth + 1);
  auto Const = [&](const Expr *X) -> std::optional<int64_t> {
    Expr::EvalResult Res;
    if (!X->isValueDependent() && X->EvaluateAsInt(Res, Ctx))
      return Res.Val.getInt().getExtValue();
    return std::nullopt;
  };
  bool BothUniform = (L == Shape::Uniform || L == Shape::Aligned) &&
                     (R == Shape::Uniform || R == Shape::Aligned);
  switch (BO->getOpcode()) {
  case BO_Add:
    if ((L == Shape::Linear && R == Shape::Aligned) ||
        (L == Shape::Aligned && R == Shape::Linear))
      return Shape::Linear;
    if (L == Shape::Aligned && R == Shape::Aligned)
      return Shape::Aligned;
    break;
  case BO_Sub:
    if (L == Shape::Linear && R == Shape::Aligned)
      return Shape::Linear;
    if (L == Shape::Aligned && R == Shape::Aligned)
      return Shape::Aligned;
    break;
  case BO_Mul:
    if ((L == Shape::Aligned && R == Shape::Uniform) ||
        (L == Shape::Uniform && R == Shape::Aligned) ||
        (L == Shape::Aligned && R == Shape::Aligned))
      return Shape::Aligned;
    break;
  case BO_Shr:
    if (L == Shape::Linear)
      if (auto C = Const(BO->getRHS()); C && *C >= 5 && *C < 64)
        return Shape::Warp;
    break;
  case BO_Div:
    if (L == Shape::Linear)
      if (auto C = Const(BO->getRHS()); C && *C > 0 && *C % 32 == 0)
        return Shape::Warp;
    break;
  case BO_And:
    if (L == Shape::Linear)
      if (auto C = Const(BO->getRHS()); C && (*C & 31) == 0)
        return Shape::Warp;
    break;
  default:
    break;
  }
  if (BothUniform)
    return Shape::Uniform;
  if (isWarpUniformShape(L) && isWarpUniformShape(R))
    return Shape::Warp;
  return Shape::Varying;
}

bool LaneAccessAnalysis::Impl::isGridStride(const VarDecl *V, const Frame &Fr,
                                            unsigned Depth) {
  FunctionInfo &I = info(Fr.F);
  if (!V->getInit() || I.AsmWrites.count(V))
    return false;
  ShapeVisiting.push_back(V);
  bool Ok = shapeOf(V->getInit(), Fr, Depth + 1) == Shape::Linear;
  for (const Stmt *M : I.Mods.lookup(V)) {
    if (!Ok)
      break;
    const auto *BO = dyn_cast<BinaryOperator>(M);
    Ok = BO &&
         (BO->getOpcode() == BO_AddAssign || BO->getOpcode() == BO_SubAssign) &&
         shapeOf(BO->getRHS(), Fr, Depth + 1) == Shape::Aligned;
  }
  ShapeVisiting.pop_back();
  return Ok;
}

bool LaneAccessAnalysis::Impl::provenWarpUniform(const Expr *E,
                                                 const Frame &Fr) {
  // The lane model's own proof, for what the uniformity analysis may not
  // see (a grid-stride index advanced by `tid += blockDim.x * gridDim.x`).
  if (isWarpUniformShape(shapeOf(E, Fr)))
    return true;
  // A value the plain analysis (opaque calls joined, not varying) finds
  // thread-varying is thread-varying for the proof too, which treats more
  // values as varying, in every context: the plain analysis is the one the
  // divergent-barrier check computes for every device function anyway, and
  // it settles most conditions (`i < n` on a thread index) without a
  // second analysis of the function.
  if (!Plain)
    Plain = &AnalysisContext::get(Ctx).uniformity(UniformityOptions());
  if (const FunctionUniformity *PU = Plain->analyze(Fr.F))
    if (PU->valueOf(E).Base == Uniformity::Thread)
      return false;
  if (!Uniform) {
    // A proof: opaque calls vary.
    UniformityOptions Opts;
    Opts.OpaqueCallsVary = true;
    Uniform = &AnalysisContext::get(Ctx).uniformity(Opts);
  }
  const FunctionUniformity *FU = Uniform->analyze(Fr.F);
  if (!FU)
    return false;
  UniformValue V = FU->valueOf(E);
  // Bind the function's parameters at each call of the context.
  for (const Frame *Cur = &Fr; V.Params && Cur->Call && Cur->Parent;
       Cur = Cur->Parent) {
    const FunctionUniformity *PU = Uniform->analyze(Cur->Parent->F);
    if (!PU)
      return false;
    V = PU->substitute(V, Cur->Call);
  }
  return V.Params == 0 && V.Base != Uniformity::Thread;
}

/// The next value of a counted loop's variable.
static std::optional<int64_t> stepLoop(LaneAccessAnalysis::Impl &A,
                                       const ForStmt *L, const VarDecl *V,
                                       const Frame &Fr, Env &En) {
  const Expr *Inc = L->getInc()->IgnoreParens();
  int64_t Cur = En.Loop[V];
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc)) {
    if (!UO->isIncrementDecrementOp() || refVar(UO->getSubExpr()) != V)
      return std::nullopt;
    return A.normalize(Cur + (UO->isIncrementOp() ? 1 : -1), V->getType());
  }
  const auto *BO = dyn_cast<BinaryOperator>(Inc);
  if (!BO || refVar(BO->getLHS()) != V)
    return std::nullopt;
  if (BO->getOpcode() == BO_Assign)
    return A.eval(BO->getRHS(), Fr, En);
  auto R = A.eval(BO->getRHS(), Fr, En);
  if (!R)
    return std::nullopt;
  int64_t B = *R;
  switch (BO->getOpcode()) {
  case BO_AddAssign:
    return A.normalize(Cur + B, V->getType());
  case BO_SubAssign:
    return A.normalize(Cur - B, V->getType());
  case BO_MulAssign:
    return A.normalize(Cur * B, V->getType());
  case BO_DivAssign:
    return B ? std::optional<int64_t>(A.normalize(Cur / B, V->getType()))
             : std::nullopt;
  case BO_ShlAssign:
    return B >= 0 && B < 63
               ? std::optional<int64_t>(A.normalize(Cur << B, V->getType()))
               : std::nullopt;
  case BO_ShrAssign:
    return B >= 0 && B < 63
               ? std::optional<int64_t>(A.normalize(Cur >> B, V->getType()))
               : std::nullopt;
  default:
    return std::nullopt;
  }
}

static constexpr unsigned MaxTrips = 64;
/// Stride loops: each iteration repeats the lanes' pattern one step on.
static constexpr unsigned MaxStrideTrips = 64;

void LaneAccessAnalysis::Impl::enumerate(llvm::ArrayRef<const ForStmt *> Loops,
                                         const Frame &Fr, Env &En,
                                         llvm::function_ref<bool(Env &)> Fn,
                                         unsigned Idx) {
  if (Idx == Loops.size()) {
    Fn(En);
    return;
  }
  const ForStmt *L = Loops[Idx];
  FunctionInfo &I = info(Fr.F);
  if (const StrideLoop *SL = strideIn(L, Fr)) {
    enumerateStride(*SL, Loops, Fr, En, Fn, Idx);
    return;
  }
  auto It = I.Counted.find(L);
  if (It == I.Counted.end())
    return;
  const VarDecl *V = It->second.Var;
  auto Start = eval(It->second.Init, Fr, En);
  if (!Start)
    return;
  std::optional<int64_t> Saved;
  if (auto Old = En.Loop.find(V); Old != En.Loop.end())
    Saved = Old->second;
  En.Loop[V] = normalize(*Start, V->getType());
  for (unsigned Trip = 0; Trip < MaxTrips; ++Trip) {
    // A bound the model cannot evaluate is the same for the whole warp
    // (the loop is uniform): take the first two iterations as samples.
    auto C = eval(L->getCond(), Fr, En);
    if (C ? !*C : Trip >= 2)
      break;
    enumerate(Loops, Fr, En, Fn, Idx + 1);
    auto Next = stepLoop(*this, L, V, Fr, En);
    if (!Next)
      break;
    En.Loop[V] = *Next;
  }
  if (Saved)
    En.Loop[V] = *Saved;
  else
    En.Loop.erase(V);
}

void LaneAccessAnalysis::Impl::enumerateStride(
    const StrideLoop &SL, llvm::ArrayRef<const ForStmt *> Loops,
    const Frame &Fr, Env &En, llvm::function_ref<bool(Env &)> Fn,
    unsigned Idx) {
  const VarDecl *V = SL.Var;
  std::optional<int64_t> Saved;
  if (auto Old = En.Trips.find(V); Old != En.Trips.end())
    Saved = Old->second;
  // The variable must move towards the bound, the same way in every thread
  // (the step is the same for all: it does not depend on the thread).
  auto Step = SL.Step ? eval(SL.Step, Fr, En) : std::optional<int64_t>(1);
  bool Ok = Step && *Step != 0 && ((*Step > 0) != SL.Down) == SL.Below &&
            !(SL.Step && isVarying(SL.Step, Fr));
  if (!Ok && En.StrideCut)
    *En.StrideCut = true;
  unsigned Trip = 0;
  for (; Ok && Trip < MaxStrideTrips; ++Trip) {
    En.Trips[V] = Trip;
    // Iterations are enumerated while the first thread of the block runs
    // them; a test it cannot evaluate is sampled on two iterations.
    Env First = En;
    First.Tid = 0;
    auto C = eval(SL.Loop->getCond(), Fr, First);
    if (C ? !*C : Trip >= 2)
      break;
    enumerate(Loops, Fr, En, Fn, Idx + 1);
  }
  // Did any thread of the block run an iteration left out?
  if (Ok && En.StrideCut && !*En.StrideCut) {
    En.Trips[V] = Trip;
    const unsigned Threads = unsigned(
        En.ShapeKnown ? En.BlockDim * En.DimY * En.DimZ : En.BlockDim);
    Env Probe = En;
    for (unsigned Base = 0; Base < Threads && !*En.StrideCut; Base += 32) {
      Probe.Tid = Base;
      uint32_t Lanes = batchOf(Base, Threads);
      Vals T = evalW(SL.Loop->getCond(), Fr, Probe, Lanes);
      bool Runs = T.Valid != Lanes;
      forLanes(T.Valid, [&](unsigned K) { Runs |= T.V[K] != 0; });
      if (Runs)
        *En.StrideCut = true;
    }
  }
  if (Saved)
    En.Trips[V] = *Saved;
  else
    En.Trips.erase(V);
}

ReachSet LaneAccessAnalysis::Impl::reach(FunctionInfo &I, Pos Target) {
  ReachSet Out;
  // The target's own block, before the target.
  unsigned Lo = Target.Index;
  bool Blocked = false;
  while (Lo > 0) {
    if (I.Barrier[Target.Block][Lo - 1]) {
      Blocked = true;
      break;
    }
    --Lo;
  }
  Out.Ranges.push_back({Target.Block, Lo, Target.Index + 1, false});
  if (Blocked)
    return Out;
  llvm::DenseSet<std::pair<unsigned, unsigned>> Seen;
  // Work items: block, and flags 1 (a back edge was taken) and 2 (the path
  // leaves a loop that runs at least once through its first test: it can
  // only have come round the loop).
  llvm::SmallVector<std::pair<unsigned, unsigned>, 16> Work;
  auto PushPreds = [&](unsigned Block, bool Crossed, bool OnlyBack) {
    const CFGBlock *B = I.Blocks[Block];
    for (const CFGBlock::AdjacentBlock &P : B->preds()) {
      const CFGBlock *PB = P.getReachableBlock();
      if (!PB)
        continue;
      bool Back = I.Dom->dominates(B, PB);
      if (OnlyBack && !Back)
        continue;
      bool Exit = I.Entered.contains(PB->getBlockID()) &&
                  PB->succ_begin()[1].getReachableBlock() == B;
      Work.push_back(
          {PB->getBlockID(), unsigned(Crossed || Back) | (Exit ? 2u : 0u)});
    }
  };
  PushPreds(Target.Block, false, false);
  while (!Work.empty()) {
    auto [Block, Flags] = Work.pop_back_val();
    bool Crossed = Flags & 1, OnlyBack = Flags & 2;
    if (!Seen.insert({Block, Flags}).second)
      continue;
    const auto &Bar = I.Barrier[Block];
    unsigned Size = Bar.size();
    unsigned L = Size;
    bool Stop = false;
    while (L > 0) {
      if (Bar[L - 1]) {
        Stop = true;
        break;
      }
      --L;
    }
    Out.Ranges.push_back({Block, L, Size, Crossed});
    if (!Stop)
      PushPreds(Block, Crossed, OnlyBack);
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// Exchanges.
//===----------------------------------------------------------------------===//

static constexpr unsigned BlockSizes[] = {32, 64, 128, 256, 512, 1024};

static const Frame &rootOf(const Frame &Fr);

llvm::ArrayRef<LaneAccessAnalysis::Impl::BlockShape>
LaneAccessAnalysis::Impl::blockShapes(const Frame &Fr) {
  const FunctionDecl *Root = rootOf(Fr).F;
  auto [It, New] = ShapeCache.try_emplace(Root);
  if (!New)
    return It->second;
  llvm::SmallVector<BlockShape, 6> Shapes;
  // What the code says: the blocks of its launches in this translation
  // unit, else the option.
  uint64_t MaxThreads = 1024;
  if (isKernel(Root)) {
    for (const LaunchSite &L : AnalysisContext::get(Ctx).launches().launches())
      if (L.Kernel && L.Block &&
          L.Kernel->getCanonicalDecl() == Root->getCanonicalDecl() &&
          L.Block->product() > 0 && L.Block->product() <= 1024 &&
          !llvm::any_of(Shapes,
                        [&](const BlockShape &S) { return S.D == *L.Block; }))
        Shapes.push_back({*L.Block, true});
    if (Shapes.empty() && DefaultShape)
      Shapes.push_back({*DefaultShape, true});
    // __launch_bounds__(N): no block of the kernel has more threads.
    if (const auto *LB = Root->getAttr<CUDALaunchBoundsAttr>()) {
      Expr::EvalResult R;
      if (LB->getMaxThreads() &&
          LB->getMaxThreads()->EvaluateAsInt(R, Ctx) &&
          R.Val.getInt().getExtValue() > 0)
        MaxThreads = std::min<uint64_t>(MaxThreads,
                                        R.Val.getInt().getExtValue());
    }
  }
  // A one-dimensional shape says no more than the model's own enumeration
  // of block sizes, which it keeps (a launch seen here may not be the only
  // one).
  if (llvm::none_of(Shapes, [](const BlockShape &S) {
        return S.D.Y > 1 || S.D.Z > 1;
      })) {
    Shapes.clear();
    for (unsigned BD : BlockSizes)
      if (BD <= MaxThreads || BD == BlockSizes[0])
        Shapes.push_back({Dim3{BD, 1, 1}, false});
  }
  It = ShapeCache.find(Root);
  It->second = std::move(Shapes);
  return It->second;
}

const StrideLoop *LaneAccessAnalysis::Impl::strideIn(const ForStmt *L,
                                                     const Frame &Fr) {
  FunctionInfo &I = info(Fr.F);
  auto It = I.Strides.find(L);
  if (It == I.Strides.end())
    return nullptr;
  auto [Known, New] = StrideIn.try_emplace({L, &Fr}, false);
  if (New)
    Known->second = isVarying(It->second.Init, Fr);
  return Known->second ? &It->second : nullptr;
}

bool LaneAccessAnalysis::Impl::entersLoop(const ForStmt *L, FunctionInfo &I) {
  auto It = I.Counted.find(L);
  if (It == I.Counted.end())
    return false;
  Frame Fr{I.F, nullptr, nullptr};
  if (isVarying(It->second.Init, Fr) || isVarying(L->getCond(), Fr))
    return false;
  const VarDecl *V = It->second.Var;
  for (unsigned BD : BlockSizes) {
    Env En;
    En.BlockDim = BD;
    auto Start = eval(It->second.Init, Fr, En);
    if (!Start)
      return false;
    En.Loop[V] = normalize(*Start, V->getType());
    auto C = eval(L->getCond(), Fr, En);
    if (!C || !*C)
      return false;
  }
  return true;
}

/// Collects the candidate accesses of a function (syntactically).
static void collectAccesses(const Stmt *S, FunctionInfo &I,
                            LaneAccessAnalysis::Impl &A) {
  if (!S || isa<LambdaExpr>(S))
    return;
  for (const Stmt *Child : S->children())
    collectAccesses(Child, I, A);
  const auto *E = dyn_cast<Expr>(S);
  if (!E || !isa<ArraySubscriptExpr, MemberExpr, UnaryOperator>(E))
    return;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() != UO_Deref)
      return;
  QualType T = E->getType();
  if (T.isNull() || !E->isGLValue() || T->isArrayType() || T->isRecordType() ||
      T->isDependentType() || !T->isScalarType())
    return;
  const Stmt *Child = E;
  const Stmt *Parent = I.PM->getParent(Child);
  while (Parent && isa<ParenExpr>(Parent)) {
    Child = Parent;
    Parent = I.PM->getParent(Parent);
  }
  if (!Parent)
    return;
  std::optional<Role> R;
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(Parent)) {
    if (IC->getCastKind() == CK_LValueToRValue)
      R = Role::Read;
  } else if (const auto *BO = dyn_cast<BinaryOperator>(Parent)) {
    if (BO->isAssignmentOp() && BO->getLHS()->IgnoreParens() == E)
      R = BO->getOpcode() == BO_Assign ? Role::Write : Role::ReadWrite;
  } else if (const auto *UO = dyn_cast<UnaryOperator>(Parent)) {
    if (UO->isIncrementDecrementOp())
      R = Role::ReadWrite;
  }
  if (!R)
    return;
  // The position: the nearest enclosing CFG element.
  const Stmt *P = E;
  auto Found = I.Positions.end();
  while (P) {
    Found = I.Positions.find(P);
    if (Found != I.Positions.end())
      break;
    P = I.PM->getParent(P);
  }
  if (!P)
    return;
  Access Acc{E, *R, A.statementOf(E, I), Found->second, {}, {}, false};
  I.Accesses.push_back(std::move(Acc));
}

llvm::ArrayRef<std::pair<const CallExpr *, Pos>>
LaneAccessAnalysis::Impl::callsOf(FunctionInfo &I) {
  if (I.CallsFilled || !I.PM)
    return I.Calls;
  I.CallsFilled = true;
  llvm::SmallVector<const Stmt *, 32> Work{I.F->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call || isa<CXXOperatorCallExpr, CUDAKernelCallExpr>(Call))
      continue;
    // Its position: the nearest enclosing CFG element.
    for (const Stmt *P = Call; P; P = I.PM->getParent(P))
      if (auto Found = I.Positions.find(P); Found != I.Positions.end()) {
        I.Calls.push_back({Call, Found->second});
        break;
      }
  }
  // In source order, as the accesses are.
  llvm::sort(I.Calls, [&](const auto &A, const auto &B) {
    return Ctx.getSourceManager().isBeforeInTranslationUnit(
        A.first->getBeginLoc(), B.first->getBeginLoc());
  });
  return I.Calls;
}

void LaneAccessAnalysis::Impl::analyzeFrame(
    const Frame &Fr, bool EntryKnown,
    llvm::SmallVectorImpl<WarpExchange> &Out) {
  FunctionInfo &I = info(Fr.F);
  if (!I.Ok)
    return;
  if (I.Accesses.empty())
    collectAccesses(Fr.F->getBody(), I, *this);
  if (I.Accesses.empty() && callsOf(I).empty())
    return;

  // The callers' side: the lanes that make each call of the context, and
  // the loops around the calls.
  CallChain Chain;
  if (!chainOf(Fr, Chain))
    return;
  bool CallOpaque =
      llvm::any_of(Chain, [](const CallLevel &L) { return L.Opaque; });

  // Per access in this frame: its guard and loops; the accesses that
  // resolve to shared memory for some thread.
  struct FrameAccess {
    Access *A;
    llvm::SmallVector<Cond, 4> Guard;
    llvm::SmallVector<const ForStmt *, 2> Loops;
    bool Opaque;
    /// The memory it reaches (a shared variable, dynamic shared memory or a
    /// kernel's pointer parameter): accesses to different ones never meet.
    const void *Key = nullptr;
    /// Its place in this frame's function: its own, or for an access of a
    /// helper called here, the call's.
    Pos Where;
    const Stmt *Statement = nullptr;
    /// For an access of a helper: the call (Site), the helper's frame the
    /// access and Guard are evaluated in (In), and the conditions around the
    /// call in this frame (CallGuard). Loops are then the loops around the
    /// call.
    const CallExpr *Site = nullptr;
    const Frame *In = nullptr;
    llvm::SmallVector<Cond, 2> CallGuard;
    const Frame &frame(const Frame &Own) const { return In ? *In : Own; }
    /// What stands for it in this frame's function.
    const Stmt *anchor() const { return Site ? Site : A->E; }
  };
  llvm::SmallVector<FrameAccess, 16> Acc;
  // Keeps FA when it reaches memory an exchange can go through.
  auto AddAccess = [&](FrameAccess FA) {
    Access &A = *FA.A;
    const Frame &AF = FA.frame(Fr);
    // Does its base reach shared memory? (Indices are not needed.)
    const Expr *Base = A.E->IgnoreParens();
    while (true) {
      if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Base))
        Base = ASE->getBase()->IgnoreParenCasts();
      else if (const auto *ME = dyn_cast<MemberExpr>(Base))
        Base = ME->getBase()->IgnoreParenCasts();
      else if (const auto *UO = dyn_cast<UnaryOperator>(Base);
               UO &&
               (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf))
        Base = UO->getSubExpr()->IgnoreParenCasts();
      else if (const auto *BO = dyn_cast<BinaryOperator>(Base);
               BO && BO->isAdditiveOp())
        Base = (BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                         : BO->getRHS())
                   ->IgnoreParenCasts();
      else
        break;
    }
    bool Global = false;
    if (const VarDecl *V = refVar(Base)) {
      if (V->hasAttr<CUDASharedAttr>()) {
        FA.Key = sharedKey(V);
      } else {
        Env En;
        if (auto Ad = evalPtrVar(V, AF, En)) {
          FA.Key = Ad->Key;
          Global = isa_and_nonnull<ParmVarDecl>(Ad->Var);
        }
      }
    }
    // Global memory: only accesses indexed by the thread's position (every
    // lane reading `out[0]` while lane 0 writes it is a data race across the
    // block, not a warp exchange a `__syncwarp` orders).
    if (FA.Key && Global) {
      Env E0, E1;
      E1.Tid = 1;
      auto A0 = evalObj(A.E, AF, E0), A1 = evalObj(A.E, AF, E1);
      if (A0 && A1 && A0->Byte == A1->Byte)
        FA.Key = nullptr;
    }
    if (FA.Key)
      Acc.push_back(std::move(FA));
  };
  for (Access &A : I.Accesses) {
    FrameAccess FA{&A, {}, {}, CallOpaque};
    FA.Where = A.Where;
    FA.Statement = A.Statement;
    guardOf(A.E, Fr.F->getBody(), I, Fr, FA.Guard, FA.Loops, FA.Opaque);
    AddAccess(std::move(FA));
  }
  // The accesses of the helpers this context calls, each at its call: a
  // write made in one call and a read made in another, with no barrier
  // between the calls, are an exchange too (`f(&s[t], 32); f(&s[(2 * t) &
  // 63], 1);`). A helper that reaches a barrier is a barrier itself;
  // accesses under a loop of the helper are left out.
  // Only pairs from two different calls are looked at: with fewer than two
  // such calls there is nothing to add.
  struct HelperCall {
    const CallExpr *Call;
    Pos Where;
    const FunctionDecl *Def;
    FunctionInfo *CI;
  };
  llvm::SmallVector<HelperCall, 4> Helpers;
  for (const auto &[Call, Where] : callsOf(I)) {
    const FunctionDecl *Def = followable(resolveCallee(Call), Fr);
    if (!Def || reachesBarrier(Def, 0))
      continue;
    FunctionInfo &CI = info(Def);
    if (!CI.Ok)
      continue;
    if (CI.Accesses.empty())
      collectAccesses(Def->getBody(), CI, *this);
    if (!CI.Accesses.empty())
      Helpers.push_back({Call, Where, Def, &CI});
  }
  if (Helpers.size() < 2)
    Helpers.clear();
  for (const HelperCall &H : Helpers) {
    const Frame *In = callFrame(H.Def, H.Call, Fr);
    llvm::SmallVector<Cond, 2> CallGuard;
    llvm::SmallVector<const ForStmt *, 2> CallLoops;
    bool Opaque = CallOpaque;
    guardOf(H.Call, Fr.F->getBody(), I, Fr, CallGuard, CallLoops, Opaque);
    const Stmt *CallStmt = statementOf(H.Call, I);
    for (Access &A : H.CI->Accesses) {
      FrameAccess FA{&A, {}, CallLoops, Opaque};
      llvm::SmallVector<const ForStmt *, 2> Inner;
      guardOf(A.E, H.Def->getBody(), *H.CI, *In, FA.Guard, Inner, FA.Opaque);
      if (!Inner.empty())
        continue;
      FA.Where = H.Where;
      FA.Statement = CallStmt;
      FA.Site = H.Call;
      FA.In = In;
      FA.CallGuard = CallGuard;
      AddAccess(std::move(FA));
    }
  }
  if (Acc.size() < 1)
    return;

  // Reach sets, by access.
  llvm::SmallVector<std::optional<ReachSet>, 16> Reach(Acc.size());
  auto ReachOf = [&](unsigned K) -> const ReachSet & {
    if (!Reach[K])
      Reach[K] = reach(I, Acc[K].Where);
    return *Reach[K];
  };

  // The threads that run an access and the element each touches depend on
  // the access, the block shape and the values of the enumerated loop
  // variables only: computed once for each, not once per pair (an unrolled
  // kernel has hundreds of accesses, a reduction loop's accesses pair with
  // each other in every iteration).
  const bool ChainLoops = llvm::any_of(
      Chain, [](const CallLevel &L) { return !L.Loops.empty(); });
  // The elements a warp writes: byte -> (object, lanes). Filled in thread
  // order (the first object seen at a byte keeps it), then sorted once.
  struct WarpWriters {
    struct Entry {
      int64_t Byte;
      const void *Key;
      uint32_t Lanes;
    };
    std::vector<Entry> Entries;
    bool Sorted = true;
    void add(int64_t Byte, const void *Key, unsigned Lane) {
      Entries.push_back({Byte, Key, 1u << Lane});
      Sorted = false;
    }
    /// Sorts by byte and merges: per byte, the first object added and the
    /// lanes that wrote it.
    void finish() {
      if (Sorted)
        return;
      Sorted = true;
      auto ByByte = [](const Entry &A, const Entry &B) {
        return A.Byte < B.Byte;
      };
      // Lanes mostly write ascending elements: often sorted already.
      if (!std::is_sorted(Entries.begin(), Entries.end(), ByByte))
        std::stable_sort(Entries.begin(), Entries.end(), ByByte);
      unsigned Out = 0;
      for (unsigned K = 0; K < Entries.size();) {
        Entry E = Entries[K];
        unsigned J = K + 1;
        for (; J < Entries.size() && Entries[J].Byte == E.Byte; ++J)
          if (Entries[J].Key == E.Key)
            E.Lanes |= Entries[J].Lanes;
        Entries[Out++] = E;
        K = J;
      }
      Entries.resize(Out);
    }
    /// The first entry at or after Byte (after finish()).
    const Entry *lowerBound(int64_t Byte) const {
      return std::lower_bound(Entries.data(), end(), Byte,
                              [](const Entry &E, int64_t B) {
                                return E.Byte < B;
                              });
    }
    const Entry *end() const { return Entries.data() + Entries.size(); }
  };
  struct AccessCache {
    bool Filled = false;
    bool ReadBD = false;
    std::vector<std::pair<unsigned, Address>> Threads;
    llvm::SmallPtrSet<const Expr *, 4> Unknown;
    bool WritersFilled = false;
    std::vector<WarpWriters> Writers;
    /// Where each warp's threads start in Threads (filled in thread order),
    /// and their end: made when first asked.
    std::vector<uint32_t> WarpStart;
    llvm::ArrayRef<std::pair<unsigned, Address>> warp(unsigned Wp) {
      if (WarpStart.empty()) {
        unsigned Warps = Threads.empty() ? 0 : Threads.back().first / 32 + 1;
        WarpStart.assign(Warps + 1, 0);
        for (const auto &T : Threads)
          ++WarpStart[T.first / 32 + 1];
        for (unsigned K = 1; K <= Warps; ++K)
          WarpStart[K] += WarpStart[K - 1];
      }
      if (Wp + 1 >= WarpStart.size())
        return {};
      return llvm::ArrayRef(Threads).slice(WarpStart[Wp],
                                           WarpStart[Wp + 1] - WarpStart[Wp]);
    }
  };
  // Keyed by access, shape, then each loop variable and its value.
  struct KeyHash {
    size_t operator()(const llvm::SmallVector<int64_t, 8> &K) const {
      return llvm::hash_combine_range(K.begin(), K.end());
    }
  };
  std::unordered_map<llvm::SmallVector<int64_t, 8>, AccessCache, KeyHash>
      Cache;

  llvm::SmallPtrSet<const Stmt *, 16> MaskDone;
  const uint64_t StartBudget = Budget;
  // Past the budget the rest of this context is not analysed, and the
  // function is recorded so that the check says so.
  auto OverBudget = [&] {
    if (!MaxWork || Budget - StartBudget <= MaxWork)
      return false;
    CutShort.insert(rootOf(Fr).F);
    return true;
  };
  for (unsigned RI = 0; RI < Acc.size(); ++RI) {
    FrameAccess &R = Acc[RI];
    if (R.A->R == Role::Write)
      continue;
    for (unsigned WI = 0; WI < Acc.size(); ++WI) {
      FrameAccess &W = Acc[WI];
      if (W.A->R == Role::Read || W.Key != R.Key)
        continue;
      if (OverBudget())
        return;
      // Can they run concurrently, and in which iterations?
      bool SameIter = false, Crossed = false, WToR = false, RToW = false;
      // Through a back edge: from the write to the read, from the read to
      // the write.
      bool CrossWR = false, CrossRW = false;
      // An access of a helper pairs with one of another call only; the
      // helper's own frame pairs those of one call.
      if ((R.Site || W.Site) && (!R.Site || !W.Site || R.Site == W.Site))
        continue;
      if (RI == WI || (R.Where.Block == W.Where.Block &&
                       R.Where.Index == W.Where.Index)) {
        SameIter = true;
      } else {
        const ReachSet &RR = ReachOf(RI);
        const ReachSet &WR = ReachOf(WI);
        auto Note = [&](bool C) { (C ? Crossed : SameIter) = true; };
        // One reaches the other with no barrier in between.
        for (const auto &X : RR.Ranges)
          if (X.Block == W.Where.Block && X.Lo <= W.Where.Index &&
              W.Where.Index < X.Hi) {
            Note(X.Crossed);
            WToR = true;
            CrossWR |= X.Crossed;
          }
        for (const auto &X : WR.Ranges)
          if (X.Block == R.Where.Block && X.Lo <= R.Where.Index &&
              R.Where.Index < X.Hi) {
            Note(X.Crossed);
            RToW = true;
            CrossRW |= X.Crossed;
          }
        // Or a branch that splits the warp leads to both (which adds
        // nothing when they already meet in one iteration and no loop is
        // around either).
        const bool Settled =
            SameIter && W.Loops.empty() && R.Loops.empty() && !ChainLoops;
        for (const auto &X : Settled ? llvm::ArrayRef<ReachSet::Range>()
                                     : llvm::ArrayRef(RR.Ranges))
          for (const auto &Y : WR.Ranges)
            if (X.Block == Y.Block && X.Hi == I.Barrier[X.Block].size() &&
                Y.Hi == X.Hi && divergentBranch(I, X.Block, Fr) &&
                oppositeArms(I, X.Block, W.anchor(), R.anchor()))
              Note(X.Crossed || Y.Crossed);
      }
      if (!SameIter && !Crossed)
        continue;

      // Loops: the caller's and those around both (when in one iteration)
      // are shared; the rest vary independently.
      llvm::SmallVector<const ForStmt *, 4> Common, WOnly, ROnly;
      for (const ForStmt *L : W.Loops)
        if (!Crossed && llvm::is_contained(R.Loops, L))
          Common.push_back(L);
        else
          WOnly.push_back(L);
      for (const ForStmt *L : R.Loops)
        if (!llvm::is_contained(Common, L))
          ROnly.push_back(L);
      // A stride loop around both is enumerated once for the two: in one
      // iteration the sides run the same one, and through the loop's back
      // edge the later side runs the next (with a barrier in the loop, no
      // other iteration runs between the same two barriers; without one,
      // the pair also meets within an iteration). Each iteration moves the
      // lanes' elements on by a step, so iterations further apart are left
      // out.
      llvm::SmallVector<const VarDecl *, 2> SharedStrides;
      if (Crossed)
        for (const ForStmt *L : W.Loops)
          if (const StrideLoop *SL = strideIn(L, Fr);
              SL && llvm::is_contained(R.Loops, L)) {
            llvm::erase(WOnly, L);
            llvm::erase(ROnly, L);
            Common.insert(Common.begin(), L);
            SharedStrides.push_back(SL->Var);
          }
      struct TripShift {
        int64_t W = 0, R = 0;
      };
      llvm::SmallVector<TripShift, 3> Shifts;
      if (SharedStrides.empty() || SameIter)
        Shifts.push_back({0, 0});
      if (!SharedStrides.empty() && CrossWR)
        Shifts.push_back({0, 1});
      if (!SharedStrides.empty() && CrossRW)
        Shifts.push_back({1, 0});
      TripShift Shift;
      auto ShiftTrips = [&](Env &E, int64_t By) {
        for (const VarDecl *V : SharedStrides)
          if (auto It = E.Trips.find(V); It != E.Trips.end())
            It->second += By;
      };
      // Common loops are enumerated outermost first.
      std::reverse(Common.begin(), Common.end());
      std::reverse(WOnly.begin(), WOnly.end());
      std::reverse(ROnly.begin(), ROnly.end());

      // The first exchange found: the reader's and a writer's lane and the
      // shared variable.
      struct First {
        bool Found = false;
        unsigned ReaderLane = 0, WriterLane = 0;
        const VarDecl *Var = nullptr;
      };
      First Chosen;
      // Of the block size being evaluated: the first in enumeration order,
      // and the first of each warp.
      First PassFirst;
      First WarpFirst[32];
      uint32_t Lanes = 0;
      // Conditions that could not be evaluated for some lane, per side.
      llvm::SmallPtrSet<const Expr *, 4> UnknownW, UnknownR;
      // Evaluates one block size; returns false when the budget ran out.
      bool ReadBlockDim = false;
      llvm::ArrayRef<BlockShape> Shapes = blockShapes(Fr);
      auto RunBlock = [&](const BlockShape &Shape) {
        PassFirst = First();
        for (First &F : WarpFirst)
          F = First();
        const unsigned BD = unsigned(Shape.D.product());
        const unsigned ShapeIdx = unsigned(&Shape - Shapes.data());
        Env Base;
        setShape(Base, Shape);
        Base.ReadBlockDim = &ReadBlockDim;
        auto Outer = [&](Env &E0) {
          auto Inner = [&](Env &E1) {
            // Writers of this valuation, per warp: byte -> (size, lanes).
            std::vector<WarpWriters> LocalWriters;
            const std::vector<WarpWriters> *Writers = &LocalWriters;
            int64_t WSize =
                Ctx.getTypeSizeInChars(W.A->E->getType()).getQuantity();
            int64_t RSize =
                Ctx.getTypeSizeInChars(R.A->E->getType()).getQuantity();
            // Calls Visit(Tid, Address) for each thread of the block that
            // passes the caller's and the access's guards, with the element
            // it touches.
            auto CacheKey = [&](const FrameAccess &FA, const Env &E,
                                unsigned ForShape) {
              llvm::SmallVector<int64_t, 8> Key{int64_t(&FA - Acc.data()),
                                                int64_t(ForShape)};
              llvm::SmallVector<std::pair<intptr_t, int64_t>, 4> Loops;
              for (const auto &[V, X] : E.Loop)
                Loops.push_back({intptr_t(V), X});
              // A stride loop's iteration: its variable's address plus one
              // (declarations are aligned), apart from a loop value.
              for (const auto &[V, X] : E.Trips)
                Loops.push_back({intptr_t(V) + 1, X});
              llvm::sort(Loops);
              for (const auto &[V, X] : Loops) {
                Key.push_back(int64_t(V));
                Key.push_back(X);
              }
              return Key;
            };
            auto Cached = [&](const FrameAccess &FA,
                              const Env &E) -> AccessCache * {
              return &Cache[CacheKey(FA, E, ShapeIdx)];
            };
            // The same access and loop values in the largest of the block
            // sizes tried, already evaluated, when no evaluation read
            // blockDim and no condition was unknown: a smaller block is its
            // first threads, which behave alike.
            auto Larger = [&](const FrameAccess &FA,
                              const Env &E) -> const AccessCache * {
              const unsigned Largest = unsigned(Shapes.size() - 1);
              if (Shape.Known || ShapeIdx == Largest)
                return nullptr;
              auto It = Cache.find(CacheKey(FA, E, Largest));
              if (It == Cache.end() || !It->second.Filled ||
                  It->second.ReadBD || !It->second.Unknown.empty())
                return nullptr;
              return &It->second;
            };
            // Calls Visit for the threads of the batch at Base that pass
            // the caller's and the access's guards.
            auto eachThreadOf = [&](const FrameAccess &Acc, Env &E2,
                                    unsigned Base,
                                    llvm::SmallPtrSetImpl<const Expr *> &Unk,
                                    auto &&Visit) {
              E2.Tid = Base;
              uint32_t Unknown = 0;
              uint32_t Lanes = passesChain(Chain, E2, batchOf(Base, BD),
                                           Unknown, &Unk);
              if (!Acc.CallGuard.empty())
                Lanes = evalGuard(Acc.CallGuard, Fr, E2, Lanes, Unknown, &Unk);
              const Frame &AF = Acc.frame(Fr);
              Lanes = evalGuard(Acc.Guard, AF, E2, Lanes, Unknown, &Unk);
              Addrs Ad = evalObjW(Acc.A->E, AF, E2, Lanes);
              forLanes(Ad.Valid, [&](unsigned L) {
                Visit(Base + L, Address{Ad.Key, Ad.Var, Ad.Byte[L]});
              });
            };
            // Calls Visit for each thread of the block that runs Acc, with
            // the element it touches; with Only, for the threads of the
            // warps that have writers in it.
            auto ForEachThread = [&](const FrameAccess &Acc, Env &E2,
                                     llvm::SmallPtrSetImpl<const Expr *> &Unk,
                                     auto &&Visit,
                                     const std::vector<WarpWriters> *Only =
                                         nullptr) {
              AccessCache *C = Cached(Acc, E2);
              if (!C->Filled)
                if (const AccessCache *L = Larger(Acc, E2)) {
                  C->Filled = true;
                  for (const auto &T : L->Threads)
                    if (T.first < BD)
                      C->Threads.push_back(T);
                }
              if (!C->Filled) {
                C->Filled = true;
                bool *Outer = E2.ReadBlockDim;
                E2.ReadBlockDim = &C->ReadBD;
                auto Record = [&](unsigned Tid, const Address &Ad) {
                  C->Threads.push_back({Tid, Ad});
                };
                // The guards of the whole block at once where they allow,
                // then the elements of the warps that run the access.
                const Frame &AF = Acc.frame(Fr);
                const std::pair<llvm::ArrayRef<Cond>, const Frame *> Rest[] =
                    {{Acc.CallGuard, &Fr}, {Acc.Guard, &AF}};
                llvm::SmallVector<uint32_t, 32> Pass;
                if (blockLanes(Chain, Rest, E2, BD, Pass)) {
                  // `base[index]` with a base every thread shares: the
                  // index for the whole block at once too.
                  BlockAddress BA;
                  const bool Whole =
                      llvm::any_of(Pass, [](uint32_t M) { return M != 0; }) &&
                      blockAddress(Acc.A->E, AF, E2, unsigned(Pass.size()),
                                   BA);
                  for (unsigned Wp = 0; Wp < Pass.size(); ++Wp) {
                    if (!Pass[Wp])
                      continue;
                    if (Whole) {
                      forLanes(Pass[Wp], [&](unsigned L) {
                        Record(Wp * 32 + L, Address{BA.Key, BA.Var,
                                                    BA.byteAt(Wp, L)});
                      });
                      continue;
                    }
                    E2.Tid = Wp * 32;
                    Addrs Ad = evalObjW(Acc.A->E, AF, E2, Pass[Wp]);
                    forLanes(Ad.Valid, [&](unsigned L) {
                      Record(Wp * 32 + L, Address{Ad.Key, Ad.Var, Ad.Byte[L]});
                    });
                  }
                } else {
                  for (unsigned Base = 0; Base < BD; Base += 32)
                    eachThreadOf(Acc, E2, Base, C->Unknown, Record);
                }
                E2.ReadBlockDim = Outer;
              }
              if (C->ReadBD && E2.ReadBlockDim)
                *E2.ReadBlockDim = true;
              Unk.insert(C->Unknown.begin(), C->Unknown.end());
              if (!Only) {
                for (const auto &[Tid, Ad] : C->Threads)
                  Visit(Tid, Ad);
                return;
              }
              for (unsigned Wp = 0; Wp < Only->size(); ++Wp)
                if (!(*Only)[Wp].Entries.empty())
                  for (const auto &[Tid, Ad] : C->warp(Wp))
                    Visit(Tid, Ad);
            };
            auto AddWriters = [&](std::vector<WarpWriters> &Into, Env &E2) {
              ForEachThread(W, E2, UnknownW, [&](unsigned Tid, const auto &Ad) {
                Into[Tid / 32].add(Ad.Byte, Ad.Key, Tid % 32);
              });
            };
            Env EW = E1;
            ShiftTrips(EW, Shift.W);
            if (AccessCache *C = WOnly.empty() ? Cached(W, EW) : nullptr) {
              if (!C->WritersFilled) {
                C->WritersFilled = true;
                C->Writers.resize((BD + 31) / 32);
                AddWriters(C->Writers, EW);
                for (WarpWriters &WW : C->Writers)
                  WW.finish();
              } else {
                // The writer's unknown conditions and blockDim reads.
                ForEachThread(W, EW, UnknownW, [](unsigned, const auto &) {});
              }
              Writers = &C->Writers;
            } else {
              LocalWriters.resize((BD + 31) / 32);
              enumerate(WOnly, Fr, EW, [&](Env &E2) {
                AddWriters(LocalWriters, E2);
                return !OverBudget();
              });
              for (WarpWriters &WW : LocalWriters)
                WW.finish();
            }
            Env ER = E1;
            ShiftTrips(ER, Shift.R);
            enumerate(ROnly, Fr, ER, [&](Env &E2) {
              ForEachThread(R, E2, UnknownR, [&](unsigned Tid, const auto &Ad) {
                const WarpWriters &WarpW = (*Writers)[Tid / 32];
                if (WarpW.Entries.empty())
                  return;
                for (auto *It = WarpW.lowerBound(Ad.Byte - WSize + 1);
                     It != WarpW.end() && It->Byte < Ad.Byte + RSize; ++It) {
                  if (It->Key != Ad.Key)
                    continue;
                  uint32_t Others = It->Lanes & ~(1u << (Tid % 32));
                  if (!Others)
                    continue;
                  First &F = WarpFirst[Tid / 32];
                  if (!F.Found) {
                    F.Found = true;
                    F.ReaderLane = Tid % 32;
                    F.WriterLane = llvm::countr_zero(Others);
                    F.Var = Ad.Var;
                    if (!PassFirst.Found)
                      PassFirst = F;
                  }
                  Lanes |= Others | (1u << (Tid % 32));
                }
              }, Writers);
              return !OverBudget();
            });
            return true;
          };
          Env E1 = E0;
          enumerate(Common, Fr, E1, [&](Env &E) {
            for (const TripShift &S : Shifts) {
              Shift = S;
              Inner(E);
            }
            return true;
          });
          return true;
        };
        enumerateChain(Chain, Base, Outer);
        return !OverBudget();
      };
      // The largest block first. When no evaluation read blockDim, each
      // thread's guards and addresses do not depend on the block size and a
      // smaller block is the first warps of this one: the first exchange of
      // the smallest block that has one is the first of the lowest warp
      // that has one, and the lanes of all sizes are this block's.
      if (Shapes.front().Known) {
        // The shapes the code launches: each is evaluated.
        for (const BlockShape &S : Shapes) {
          if (!RunBlock(S))
            return;
          if (!Chosen.Found)
            Chosen = PassFirst;
        }
      } else if (const unsigned Largest = Shapes.size() - 1;
                 !RunBlock(Shapes[Largest])) {
        return;
      } else if (!ReadBlockDim) {
        for (const First &F : WarpFirst)
          if (F.Found) {
            Chosen = F;
            break;
          }
      } else {
        // Otherwise each smaller size is evaluated, smallest first.
        First LargestFirst = PassFirst;
        for (unsigned K = 0; K < Largest; ++K) {
          if (!RunBlock(Shapes[K]))
            return;
          if (!Chosen.Found)
            Chosen = PassFirst;
        }
        if (!Chosen.Found)
          Chosen = LargestFirst;
      }
      if (!Chosen.Found)
        continue;
      unsigned ReaderLane = Chosen.ReaderLane, WriterLane = Chosen.WriterLane;
      const VarDecl *SharedVar = Chosen.Var;
      // A condition the model cannot evaluate that guards both accesses
      // (`if (cta.thread_rank() == 0)` were it not understood, or a loaded
      // flag) may let a single lane through: silent for what it guards.
      if (llvm::any_of(UnknownR,
                       [&](const Expr *C) { return UnknownW.contains(C); }))
        continue;
      WarpExchange X;
      X.Func = Fr.F;
      X.Read = R.A->E;
      X.Write = W.A->E;
      X.ReadStmt = R.Statement;
      X.WriteStmt = W.Statement;
      X.ReadCall = R.Site;
      X.WriteCall = W.Site;
      X.Shared = SharedVar;
      X.Global = SharedVar && isa<ParmVarDecl>(SharedVar);
      X.Via = Fr.Call;
      if (Fr.Parent)
        for (const Frame *Up = Fr.Parent; Up->Call && Up->Parent;
             Up = Up->Parent)
          X.Callers.push_back(Up->Call);
      X.ReaderLane = ReaderLane;
      X.WriterLane = WriterLane;
      X.Lanes = Lanes;
      X.WriteReachesRead = WToR;
      X.ReadReachesWrite = RToW;
      if (WToR)
        X.WriteMeet = meetOf(W.Statement, R.Statement, I);
      if (RToW)
        X.ReadMeet = meetOf(R.Statement, W.Statement, I);
      Out.push_back(X);
      // The statements' lane masks in this context.
      // (Once per statement: the mask depends on the statement and this
      // frame only, and a statement takes part in many exchanges.)
      for (const Stmt *S :
           {R.Statement, W.Statement, X.WriteMeet, X.ReadMeet})
        if (S && MaskDone.insert(S).second)
          mergeMask(S, frameMask(S, Fr, EntryKnown));
    }
  }
}

std::optional<uint32_t> LaneAccessAnalysis::Impl::frameMask(const Stmt *S,
                                                            const Frame &Fr,
                                                            bool EntryKnown) {
  if (!EntryKnown)
    return std::nullopt;
  FunctionInfo &I = info(Fr.F);
  llvm::SmallVector<Cond, 4> Guard;
  llvm::SmallVector<const ForStmt *, 2> Loops;
  bool Opaque = false;
  guardOf(S, Fr.F->getBody(), I, Fr, Guard, Loops, Opaque);
  CallChain Chain;
  if (!chainOf(Fr, Chain))
    return std::nullopt;
  for (const CallLevel &L : Chain)
    Opaque |= L.Opaque;
  if (Opaque)
    return std::nullopt;
  std::optional<uint32_t> Mask;
  bool Consistent = true;
  bool Ran = false;
  std::reverse(Loops.begin(), Loops.end());
  bool ReadBlockDim = false;
  // A stride loop whose iterations were not all seen: unknown lanes.
  bool StrideCut = false;
  auto RunBlock = [&](const BlockShape &Shape) {
    const unsigned BD = unsigned(Shape.D.product());
    Env Base;
    setShape(Base, Shape);
    Base.ReadBlockDim = &ReadBlockDim;
    Base.StrideCut = &StrideCut;
    auto Inner = [&](Env &E1) {
      Ran = true;
      llvm::SmallVector<uint32_t, 32> PerWarp((BD + 31) / 32, 0);
      const std::pair<llvm::ArrayRef<Cond>, const Frame *> Rest[] = {
          {Guard, &Fr}};
      // The whole block at once where the guards allow (no lane unknown),
      // else warp by warp.
      const bool AtOnce = blockLanes(Chain, Rest, E1, BD, PerWarp);
      if (!AtOnce)
        PerWarp.assign((BD + 31) / 32, 0);
      for (unsigned Base = 0; !AtOnce && Base < BD; Base += 32) {
        E1.Tid = Base;
        uint32_t Unknown = 0;
        uint32_t Lanes = passesChain(Chain, E1, batchOf(Base, BD), Unknown);
        Lanes = evalGuard(Guard, Fr, E1, Lanes, Unknown);
        if (Lanes & Unknown) {
          Consistent = false;
          break;
        }
        PerWarp[Base / 32] |= Lanes;
      }
      for (uint32_t M : PerWarp) {
        if (!M)
          continue;
        if (Mask && *Mask != M)
          Consistent = false;
        Mask = M;
      }
      return Consistent;
    };
    auto Outer = [&](Env &E0) {
      Env E1 = E0;
      enumerate(Loops, Fr, E1, Inner);
      return Consistent;
    };
    enumerateChain(Chain, Base, Outer);
    return Consistent;
  };
  // The largest block first; when no evaluation read blockDim, a smaller
  // block is the first warps of this one and adds nothing (as in
  // analyzeFrame).
  llvm::ArrayRef<BlockShape> Shapes = blockShapes(Fr);
  const unsigned Largest = Shapes.size() - 1;
  if (!RunBlock(Shapes[Largest]))
    return std::nullopt;
  if (ReadBlockDim || Shapes.front().Known)
    for (unsigned K = 0; K < Largest; ++K)
      if (!RunBlock(Shapes[K]))
        return std::nullopt;
  if (!Consistent || !Ran || StrideCut)
    return std::nullopt;
  return Mask.value_or(0);
}

//===----------------------------------------------------------------------===//
// The driver.
//===----------------------------------------------------------------------===//

const FunctionDecl *
LaneAccessAnalysis::Impl::resolveCallee(const CallExpr *CE) const {
  return cuda_tidy::resolveCallee(CE);
}

namespace {
class DeviceCallCollector : public UserCodeVisitor<DeviceCallCollector> {
public:
  explicit DeviceCallCollector(LaneAccessAnalysis::Impl &A) : A(A) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseFunctionDecl(FunctionDecl *FD) { return traverseFn(FD); }
  bool TraverseCXXMethodDecl(CXXMethodDecl *FD) { return traverseFn(FD); }
  bool TraverseCXXConversionDecl(CXXConversionDecl *FD) {
    return traverseFn(FD);
  }

  bool traverseFn(FunctionDecl *FD) {
    const FunctionDecl *Saved = Current;
    bool Device = FD->doesThisDeclarationHaveABody() && isDeviceCode(FD) &&
                  isAnalysedBody(FD) && !FD->isInvalidDecl();
    if (Device) {
      A.Functions.push_back(FD);
      Current = FD->isDependentContext() ? FD : nullptr;
    } else {
      Current = nullptr;
    }
    bool Result;
    if (auto *CD = dyn_cast<CXXConversionDecl>(FD))
      Result = RecursiveASTVisitor::TraverseCXXConversionDecl(CD);
    else if (isa<CXXMethodDecl>(FD))
      Result =
          RecursiveASTVisitor::TraverseCXXMethodDecl(cast<CXXMethodDecl>(FD));
    else
      Result = RecursiveASTVisitor::TraverseFunctionDecl(FD);
    Current = Saved;
    return Result;
  }

  /// Dependent calls of a pattern, which the call graph has no edge for.
  bool VisitCallExpr(CallExpr *CE) {
    if (!Current || CE->getDirectCallee())
      return true;
    const FunctionDecl *Callee = A.resolveCallee(CE);
    const FunctionDecl *Def = nullptr;
    if (Callee && Callee->hasBody(Def) && Def && isDeviceCode(Def) &&
        Def != Current && isAnalysedBody(Def))
      A.PatternCallers[Def].push_back({CE, Current});
    return true;
  }

private:
  LaneAccessAnalysis::Impl &A;
  const FunctionDecl *Current = nullptr;
};
} // namespace

void LaneAccessAnalysis::Impl::collect() {
  if (Collected)
    return;
  Collected = true;
  DeviceCallCollector(*this).TraverseDecl(Ctx.getTranslationUnitDecl());
}

llvm::SmallVector<std::pair<const CallExpr *, const FunctionDecl *>, 4>
LaneAccessAnalysis::Impl::callersOf(const FunctionDecl *F) {
  collect();
  llvm::SmallVector<std::pair<const CallExpr *, const FunctionDecl *>, 4> Out;
  const SourceManager &SM = Ctx.getSourceManager();
  for (const CallSite &Site :
       AnalysisContext::get(Ctx).callGraph().callersOf(F)) {
    const FunctionDecl *Caller = Site.Caller;
    if (!Caller || Caller->getCanonicalDecl() == F->getCanonicalDecl() ||
        !Caller->hasBody() || !isDeviceCode(Caller) ||
        !isAnalysedBody(Caller) ||
        SM.isInSystemHeader(SM.getExpansionLoc(Caller->getLocation())))
      continue;
    // A lambda's calls are attributed to the function it is written in; the
    // model does not bind lambda parameters.
    if (Caller->getBody() && !info(Caller).PM->hasParent(Site.Call))
      continue;
    Out.push_back({Site.Call, Caller});
  }
  auto It = PatternCallers.find(F);
  if (It != PatternCallers.end())
    Out.append(It->second.begin(), It->second.end());
  return Out;
}

static constexpr unsigned MaxContexts = 16;
static constexpr unsigned MaxCallDepth = 8;

llvm::ArrayRef<const Frame *>
LaneAccessAnalysis::Impl::contextsOf(const FunctionDecl *F, unsigned Depth) {
  auto Found = Contexts.find(F);
  if (Found != Contexts.end())
    return Found->second;
  // Recursion or a deep chain: cut here, with F as a root of unknown entry.
  Contexts[F]; // marks F in progress: a recursive call sees no context
  llvm::SmallVector<const Frame *, 4> Out;
  auto Callers = callersOf(F);
  if (isKernel(F) || Callers.empty() || Depth >= MaxCallDepth) {
    FrameStore.push_back(Frame{F, nullptr, nullptr});
    Out.push_back(&FrameStore.back());
  } else {
    for (auto &[Call, Caller] : Callers) {
      for (const Frame *Parent : contextsOf(Caller, Depth + 1)) {
        if (Out.size() >= MaxContexts)
          break;
        FrameStore.push_back(Frame{F, Call, Parent});
        Out.push_back(&FrameStore.back());
      }
    }
  }
  auto &Slot = Contexts[F];
  Slot = std::move(Out);
  return Slot;
}

/// The root of a context: the kernel or the function whose callers are not
/// known.
static const Frame &rootOf(const Frame &Fr) {
  const Frame *Cur = &Fr;
  while (Cur->Parent)
    Cur = Cur->Parent;
  return *Cur;
}

LaneAccessAnalysis::LaneAccessAnalysis(ASTContext &Ctx)
    : P(std::make_unique<Impl>(Ctx)) {}

LaneAccessAnalysis::~LaneAccessAnalysis() = default;

void LaneAccessAnalysis::setDefaultBlockShape(unsigned X, unsigned Y,
                                              unsigned Z) {
  Dim3 D{X, Y, Z};
  if (P->DefaultShape && *P->DefaultShape == D)
    return;
  P->DefaultShape = D;
  P->ShapeCache.clear();
}

std::optional<std::array<unsigned, 3>> parseBlockDim(llvm::StringRef Text,
                                                     std::string &Error) {
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  Text.trim().split(Parts, ',');
  std::array<unsigned, 3> D = {1, 1, 1};
  if (Parts.empty() || Parts.size() > 3) {
    Error = "expected 'X', 'X,Y' or 'X,Y,Z'";
    return std::nullopt;
  }
  uint64_t Product = 1;
  for (unsigned K = 0; K < Parts.size(); ++K) {
    unsigned V;
    if (Parts[K].trim().getAsInteger(10, V) || V == 0 || V > 1024) {
      Error = "'" + Parts[K].trim().str() +
              "' is not a block dimension from 1 to 1024";
      return std::nullopt;
    }
    D[K] = V;
    Product *= V;
  }
  if (Product > 1024) {
    Error = "a block has at most 1024 threads, not " + std::to_string(Product);
    return std::nullopt;
  }
  return D;
}

BlockDimOption::BlockDimOption(clang::tidy::ClangTidyContext &Context) {
  readBudget(Context);
  const auto &Options = Context.getOptions().CheckOptions;
  auto It = Options.find(BlockDimOptionName);
  if (It == Options.end() || llvm::StringRef(It->second.Value).trim().empty())
    return;
  Raw = It->second.Value;
  std::string Why;
  Shape = parseBlockDim(Raw, Why);
  if (!Shape)
    Error = "invalid value for option '" + std::string(BlockDimOptionName) +
            "': " + Why;
}

void BlockDimOption::readBudget(clang::tidy::ClangTidyContext &Context) {
  const auto &Options = Context.getOptions().CheckOptions;
  auto It = Options.find(LaneModelBudgetOptionName);
  if (It == Options.end())
    return;
  llvm::StringRef Text = llvm::StringRef(It->second.Value).trim();
  uint64_t V = 0;
  if (Text.getAsInteger(10, V)) {
    if (Error.empty()) {
      Error = "invalid value for option '" +
              std::string(LaneModelBudgetOptionName) + "': '" +
              It->second.Value +
              "' is not a non-negative integer (0 means no limit)";
    }
    return;
  }
  Budget = V;
}

std::string BlockDimOption::takeError() const {
  if (Error.empty())
    return "";
  static std::mutex Mutex;
  static llvm::StringSet<> Reported;
  std::lock_guard<std::mutex> Lock(Mutex);
  return Reported.insert(Error).second ? Error : "";
}

void BlockDimOption::applyTo(LaneAccessAnalysis &Lanes) const {
  if (Shape)
    Lanes.setDefaultBlockShape((*Shape)[0], (*Shape)[1], (*Shape)[2]);
  Lanes.setWorkBudget(Budget);
}

void LaneAccessAnalysis::setWorkBudget(uint64_t Units) {
  P->MaxWork = Units;
}

llvm::ArrayRef<const FunctionDecl *> LaneAccessAnalysis::cutShort() const {
  return P->CutShort.getArrayRef();
}

void LaneAccessAnalysis::run() {
  if (Ran)
    return;
  Ran = true;
  Impl &A = *P;
  A.collect();
  const SourceManager &SM = A.Ctx.getSourceManager();
  llvm::SmallVector<WarpExchange, 8> Found;
  for (const FunctionDecl *F : A.Functions) {
    if (SM.isInSystemHeader(SM.getExpansionLoc(F->getLocation())))
      continue;
    for (const Frame *Fr : A.contextsOf(F))
      A.analyzeFrame(*Fr, isKernel(rootOf(*Fr).F), Found);
  }
  // One exchange per (read, write) pair; the first context's witness.
  llvm::SmallVector<WarpExchange, 8> Merged;
  llvm::DenseMap<std::pair<const Expr *, const Expr *>, unsigned> Index;
  for (const WarpExchange &X : Found) {
    auto [Slot, New] = Index.try_emplace({X.Read, X.Write}, Merged.size());
    if (New)
      Merged.push_back(X);
    else {
      WarpExchange *It = &Merged[Slot->second];
      It->Lanes |= X.Lanes;
      It->WriteReachesRead |= X.WriteReachesRead;
      It->ReadReachesWrite |= X.ReadReachesWrite;
    }
  }
  llvm::stable_sort(Merged, [&](const WarpExchange &L, const WarpExchange &R) {
    return SM.isBeforeInTranslationUnit(L.Read->getExprLoc(),
                                        R.Read->getExprLoc());
  });
  Exchanges = std::move(Merged);
}

std::optional<uint32_t>
LaneAccessAnalysis::statementMask(const clang::Stmt *S) const {
  auto It = P->Masks.find(S);
  if (It == P->Masks.end())
    return std::nullopt;
  return It->second;
}

const Stmt *LaneAccessAnalysis::statementOf(const Expr *E,
                                            const FunctionDecl *F) {
  FunctionInfo &I = P->info(F);
  if (!I.PM)
    return nullptr;
  return P->statementOf(E, I);
}

std::optional<int64_t> LaneAccessAnalysis::evaluateAt(const Expr *E,
                                                      const FunctionDecl *F,
                                                      unsigned ThreadIdxX,
                                                      unsigned BlockDimX) {
  Frame Fr{F, nullptr, nullptr};
  Env En;
  En.Tid = ThreadIdxX;
  En.BlockDim = BlockDimX;
  if (!P->info(F).Ok)
    return std::nullopt;
  return P->eval(E, Fr, En);
}

/// For the test entry points: F can be analysed and BlockDimX is a
/// one-dimensional block of whole warps, which En is set to.
static bool testBlock(LaneAccessAnalysis::Impl &P, const FunctionDecl *F,
                      unsigned BlockDimX, Env &En) {
  if (!P.info(F).Ok || BlockDimX % 32 != 0 || BlockDimX == 0 ||
      BlockDimX > 1024)
    return false;
  En.BlockDim = BlockDimX;
  return true;
}

std::optional<std::vector<uint32_t>>
LaneAccessAnalysis::conditionLanes(const Expr *E, const FunctionDecl *F,
                                   unsigned BlockDimX, bool AtOnce) {
  Frame Fr{F, nullptr, nullptr};
  Env En;
  if (!E || !testBlock(*P, F, BlockDimX, En))
    return std::nullopt;
  const Cond C[] = {{E, /*Taken=*/true, /*Varying=*/true}};
  std::vector<uint32_t> Lanes(BlockDimX / 32);
  if (AtOnce) {
    const Impl::BlockGuard *G = P->blockGuard(C, Fr, En);
    if (!G)
      return std::nullopt;
    std::copy(G->Lanes, G->Lanes + Lanes.size(), Lanes.begin());
    return Lanes;
  }
  for (unsigned W = 0; W < Lanes.size(); ++W) {
    En.Tid = W * 32;
    uint32_t Unknown = 0;
    Lanes[W] =
        P->evalGuard(C, Fr, En, FullLaneMask, Unknown, nullptr);
    if (Unknown)
      return std::nullopt;
  }
  return Lanes;
}

std::optional<std::vector<int64_t>>
LaneAccessAnalysis::elementBytes(const Expr *E, const FunctionDecl *F,
                                 unsigned BlockDimX, bool AtOnce) {
  Frame Fr{F, nullptr, nullptr};
  Env En;
  if (!E || !testBlock(*P, F, BlockDimX, En))
    return std::nullopt;
  std::vector<int64_t> Bytes(BlockDimX);
  const unsigned NW = BlockDimX / 32;
  if (AtOnce) {
    Impl::BlockAddress BA;
    if (!P->blockAddress(E, Fr, En, NW, BA))
      return std::nullopt;
    for (unsigned T = 0; T < BlockDimX; ++T)
      Bytes[T] = BA.byteAt(T / 32, T % 32);
    return Bytes;
  }
  for (unsigned W = 0; W < NW; ++W) {
    En.Tid = W * 32;
    Addrs A = P->evalObjW(E, Fr, En, FullLaneMask);
    if (A.Valid != FullLaneMask)
      return std::nullopt;
    for (unsigned L = 0; L < 32; ++L)
      Bytes[W * 32 + L] = A.Byte[L];
  }
  return Bytes;
}

std::optional<uint32_t> LaneAccessAnalysis::guardMask(const Stmt *S,
                                                      const FunctionDecl *F) {
  if (!P->info(F).Ok)
    return std::nullopt;
  P->collect();
  if (isKernel(F))
    return P->frameMask(S, Frame{F, nullptr, nullptr}, true);
  if (P->callersOf(F).empty())
    return std::nullopt;
  std::optional<uint32_t> Mask;
  for (const Frame *Fr : P->contextsOf(F)) {
    auto M = P->frameMask(S, *Fr, isKernel(rootOf(*Fr).F));
    if (!M || (Mask && *M && *Mask && *M != *Mask))
      return std::nullopt;
    if (!Mask || !*Mask)
      Mask = M;
  }
  return Mask;
}

} // namespace cuda_tidy
