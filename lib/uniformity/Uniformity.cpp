//===--- Uniformity.cpp - Which values and branches differ by thread ------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/uniformity/Uniformity.h"
#include "lib/ast/CudaAST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/CFGStmtMap.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include <array>

using namespace clang;

namespace cuda_tidy {

// Bounds on the work done for one translation unit and one function.
static constexpr unsigned MaxBlocks = 3000;
static constexpr unsigned MaxRounds = 64;
static constexpr unsigned MaxOuterRounds = 8;
static constexpr unsigned MaxSummaryDepth = 12;
static constexpr unsigned long long MaxWork = 20000000;

StringRef uniformityName(Uniformity U) {
  switch (U) {
  case Uniformity::Block:
    return "block-uniform";
  case Uniformity::Warp:
    return "warp-uniform";
  case Uniformity::Thread:
    return "thread-varying";
  }
  return "";
}

StringRef barrierScopeName(BarrierScope S) {
  switch (S) {
  case BarrierScope::Block:
    return "block";
  case BarrierScope::Cluster:
    return "cluster";
  case BarrierScope::Grid:
    return "grid";
  }
  return "block";
}

UniformValue join(UniformValue A, UniformValue B) {
  UniformValue R;
  R.Base = std::max(A.Base, B.Base);
  R.Params = A.Params | B.Params;
  R.Shape = A.Shape == B.Shape ? A.Shape : UniformValue::None;
  return R;
}

/// Drops the shape: what control and opaque results carry.
static UniformValue plain(UniformValue V) {
  V.Shape = UniformValue::None;
  return V;
}

//===----------------------------------------------------------------------===//
// Recognising CUDA's sources of (non-)uniformity.
//===----------------------------------------------------------------------===//

static bool isHeaderFunction(const FunctionDecl *FD, const SourceManager &SM) {
  return FD->getBuiltinID() != 0 || isCudaHeaderDecl(FD, SM);
}

static bool inCooperativeGroups(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "cooperative_groups")
        return true;
  return false;
}

static std::optional<llvm::APSInt> constantOf(const Expr *E,
                                              const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent() ||
      !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt();
}

/// The record a cooperative groups call is made on: the object's type, or
/// the method's class.
static const CXXRecordDecl *groupRecord(const CallExpr *Call,
                                        const FunctionDecl *FD) {
  QualType T;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    if (const Expr *Obj = MC->getImplicitObjectArgument())
      T = Obj->getType();
  } else if (const auto *ME = dyn_cast<MemberExpr>(
                 Call->getCallee()->IgnoreParenImpCasts())) {
    T = ME->getBase()->getType();
  } else if (Call->getNumArgs() > 0) {
    // A free function: its group argument.
    T = Call->getArg(0)->getType();
  }
  if (!T.isNull()) {
    T = T.getNonReferenceType();
    if (const auto *PT = T->getAs<PointerType>())
      T = PT->getPointeeType();
    if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl())
      return RD;
  }
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    return MD->getParent();
  return nullptr;
}

/// The size of a cooperative groups tile type (`thread_block_tile<32>`), or
/// 0 when the group is not a tile of known size.
static unsigned tileSize(const CXXRecordDecl *RD) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || Spec->getName() != "thread_block_tile")
    return 0;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() == 0 || Args[0].getKind() != TemplateArgument::Integral)
    return 0;
  return static_cast<unsigned>(Args[0].getAsIntegral().getZExtValue());
}

static bool isWholeWarpTile(unsigned Size) {
  return Size >= 32 && Size % 32 == 0;
}

/// True when Arg is absent (a default argument) or the constant 0xffffffff.
static bool isFullMaskArg(const CallExpr *Call, unsigned I,
                          const ASTContext &Ctx) {
  if (I >= Call->getNumArgs() || isa<CXXDefaultArgExpr>(Call->getArg(I)))
    return true;
  auto V = constantOf(Call->getArg(I), Ctx);
  return V && V->getZExtValue() == 0xffffffffu;
}

/// The operands of the first `Mnemonic` instruction in an asm string, up to
/// its ';', or std::nullopt when there is none.
static std::optional<StringRef> asmOperands(StringRef Asm, StringRef Mnemonic) {
  size_t Pos = Asm.find(Mnemonic);
  if (Pos == StringRef::npos)
    return std::nullopt;
  StringRef Rest = Asm.drop_front(Pos + Mnemonic.size());
  // Skip qualifiers such as ".aligned".
  size_t Space = Rest.find_first_of(" \t");
  if (Space == StringRef::npos)
    return StringRef();
  Rest = Rest.drop_front(Space);
  return Rest.take_until([](char C) { return C == ';' || C == '\n'; }).trim();
}

std::optional<BarrierSite> recognizeBarrier(const Stmt *S, ASTContext &Ctx) {
  if (!S)
    return std::nullopt;
  BarrierSite B;
  B.Site = S;
  B.Barrier = S;
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
    std::string Str = Asm->getAsmString();
    // The arrive half of a split cluster barrier is not a wait; the wait
    // is where every thread of the cluster must have arrived.
    if (asmOperands(Str, "barrier.cluster.wait")) {
      B.Name = "barrier.cluster.wait";
      B.Scope = BarrierScope::Cluster;
      return B;
    }
    for (StringRef M :
         {"barrier.cta.sync", "bar.cta.sync", "barrier.sync", "bar.sync"}) {
      std::optional<StringRef> Ops = asmOperands(Str, M);
      if (!Ops)
        continue;
      // With a thread count the barrier is for part of the block only.
      if (Ops->contains(','))
        return std::nullopt;
      B.Name = M.str();
      return B;
    }
    return std::nullopt;
  }
  const auto *Call = dyn_cast<CallExpr>(S);
  if (!Call)
    return std::nullopt;
  const FunctionDecl *FD = resolveCallee(Call);
  if (!FD || !FD->getIdentifier())
    return std::nullopt;
  StringRef Name = FD->getName();
  const SourceManager &SM = Ctx.getSourceManager();
  if (isHeaderFunction(FD, SM)) {
    if (Name == "__syncthreads" || Name == "__syncthreads_count" ||
        Name == "__syncthreads_and" || Name == "__syncthreads_or" ||
        Name == "__nvvm_bar_sync" || Name == "__nvvm_barrier_sync" ||
        Name == "__barrier_sync" || Name == "__nvvm_bar0_popc" ||
        Name == "__nvvm_bar0_and" || Name == "__nvvm_bar0_or") {
      B.Name = Name.str();
      return B;
    }
    if (Name == "__cluster_barrier_wait") {
      B.Name = Name.str();
      B.Scope = BarrierScope::Cluster;
      return B;
    }
    if (Name == "__syncwarp" && isFullMaskArg(Call, 0, Ctx)) {
      B.Name = Name.str();
      B.WarpBarrier = true;
      return B;
    }
    return std::nullopt;
  }
  if (Name != "sync" || !inCooperativeGroups(FD))
    return std::nullopt;
  const CXXRecordDecl *RD = groupRecord(Call, FD);
  if (!RD || !RD->getIdentifier())
    return std::nullopt;
  StringRef Group = RD->getName();
  if (Group == "grid_group")
    B.Scope = BarrierScope::Grid;
  else if (Group == "cluster_group")
    B.Scope = BarrierScope::Cluster;
  else if (Group != "thread_block")
    return std::nullopt;
  B.Name = isa<CXXMethodDecl>(FD) ? (Group + "::sync").str()
                                  : "cooperative_groups::sync";
  return B;
}

//===----------------------------------------------------------------------===//
// The analysis of one function.
//===----------------------------------------------------------------------===//

class FunctionUniformityImpl {
public:
  FunctionUniformityImpl(UniformityAnalysis &A, const FunctionDecl *F)
      : A(A), Ctx(A.Ctx), SM(Ctx.getSourceManager()), F(F),
        Kernel(isKernel(F)) {}

  bool run();

  UniformityAnalysis &A;
  ASTContext &Ctx;
  const SourceManager &SM;
  const FunctionDecl *F;
  bool Kernel;

  std::unique_ptr<CFG> Cfg;
  std::unique_ptr<ParentMap> PM;
  std::unique_ptr<CFGStmtMap> StmtMap;
  std::vector<const CFGBlock *> RPO;
  std::vector<const CFGBlock *> ById;
  std::vector<bool> Reachable;

  using State = llvm::DenseMap<const VarDecl *, UniformValue>;
  std::vector<State> In, Out;
  std::vector<UniformValue> CondLevel, CtlLive, CtlFull;
  std::vector<llvm::SmallVector<unsigned, 4>> CD;
  std::vector<bool> ExitOnly, ExitBranch;
  /// The block reaches a block barrier (itself or through a call).
  std::vector<bool> HasBarrier;

  /// Recorded by the last pass, once the levels are stable.
  bool Recording = false;
  /// The values of the expressions of the block being replayed.
  llvm::DenseMap<const Expr *, UniformValue> Seen;
  llvm::DenseMap<const Expr *, UniformValue> ExprLevels;
  struct VarReason {
    const Stmt *Where = nullptr;
    const Expr *From = nullptr;
    bool UnderControl = false;
  };
  llvm::DenseMap<const VarDecl *, std::array<VarReason, 3>> Reasons;
  llvm::SmallVector<BarrierSite, 4> Barriers;
  llvm::DenseSet<const Stmt *> BarrierSeen;
  UniformValue ReturnLevel, StoreLevel;
  llvm::DenseSet<const VarDecl *> Escaped;

  State *Cur = nullptr;
  unsigned CurBlock = 0;

  UniformValue ctlOf(unsigned Block) const {
    return Kernel ? CtlLive[Block] : CtlFull[Block];
  }
  UniformValue curCtl() const { return ctlOf(CurBlock); }

  bool tracked(const VarDecl *V) const {
    return V->hasLocalStorage() &&
           dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod()) == F;
  }
  UniformValue initial(const VarDecl *V) const;
  UniformValue opaque(UniformValue FromArgs) const {
    return A.Opts.OpaqueCallsVary ? UniformValue::of(Uniformity::Thread)
                                  : plain(FromArgs);
  }

  UniformValue eval(const Expr *E);
  UniformValue evalUncached(const Expr *E);
  UniformValue evalBinary(const BinaryOperator *BO);
  /// The level of `L Op R` from the levels of its operands.
  UniformValue combine(clang::BinaryOperatorKind Op, const Expr *LE,
                       UniformValue L, const Expr *RE, UniformValue R);
  UniformValue evalCall(const CallExpr *Call);
  std::optional<UniformValue> evalIntrinsic(const CallExpr *Call,
                                            const FunctionDecl *FD,
                                            llvm::ArrayRef<UniformValue> Args);
  void transfer(const Stmt *S);
  void transferAsm(const GCCAsmStmt *Asm);
  /// Own, when given, is the level the write brings in itself (the
  /// right-hand side of `x += y`), for the explanation of where a variable
  /// got its level; Value is what the target holds afterwards.
  void write(const Expr *Target, UniformValue Value, bool Compound,
             const Stmt *Where, const Expr *From,
             std::optional<UniformValue> Own = std::nullopt);
  void setVar(const VarDecl *V, UniformValue Value, bool Strong,
              const Stmt *Where, const Expr *From,
              std::optional<UniformValue> Own = std::nullopt);
  void recordBarrier(const BarrierSite &B);
  const VarDecl *rootVar(const Expr *E, bool &Exact) const;
  bool isAligned(const Expr *E, UniformValue V) const;

  void replay(unsigned Block);
  bool dataflow();
  bool updateControl();
  void computeExitOnly();
  bool allowed(unsigned D, unsigned X, bool CountExits) const {
    return !(Kernel && !CountExits && ExitBranch[D] && !ExitOnly[X]);
  }
  const CFGBlock *blockOf(const Stmt *S) const {
    return StmtMap ? StmtMap->getBlock(S) : nullptr;
  }
  std::pair<const Expr *, unsigned> objectOf(const CallExpr *Call) const;
  /// V, computed in a callee, with the levels of the call's arguments after
  /// the analysis (for clients).
  UniformValue substitute(UniformValue V, const CallExpr *Call) const;
  /// V with the levels of the object and the arguments as evaluated now
  /// (during the fixed point, where levelOf does not know them yet).
  static UniformValue bind(UniformValue V, UniformValue Obj,
                           ArrayRef<UniformValue> Args);
  UniformValue levelOf(const Expr *E) const {
    auto It = ExprLevels.find(E);
    return It == ExprLevels.end() ? UniformValue() : It->second;
  }
  std::string describe(const Expr *E, Uniformity L,
                       llvm::SmallVectorImpl<TraceStep> *Trace, unsigned &Steps,
                       llvm::SmallPtrSetImpl<const VarDecl *> &Seen) const;
  std::optional<DivergenceCause> causeAt(const Stmt *S, Uniformity L,
                                         uint64_t Mask, bool CountExits) const;
  /// E reaches L through a value (the thread index, a load, a call) rather
  /// than only through variables set under a varying condition.
  bool byData(const Expr *E, Uniformity L, unsigned Depth = 0) const;
  /// S (a statement of the CFG) changes memory or waits: a store that is not
  /// to a local, an atomic, a call to a user function, inline asm, a barrier.
  bool isWork(const Stmt *S) const;
  /// Whether no work is done from the elements of B after index First, nor in
  /// any block reachable from there.
  bool quietFrom(const CFGBlock *B, unsigned First) const;
  bool skippersOnlyLeave(const Stmt *S, Uniformity L, uint64_t Mask) const;
  bool quietAfter(const Stmt *S) const;
  bool exitAvoiding(const Stmt *From,
                    llvm::function_ref<bool(const Stmt *)> Stop) const;
  std::optional<LoopExit> earlyLoopExit(const Stmt *Barrier,
                                        Uniformity L) const;
};

UniformValue FunctionUniformityImpl::initial(const VarDecl *V) const {
  if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
    if (P->getDeclContext() == F && !Kernel) {
      unsigned Index = P->getFunctionScopeIndex();
      if (Index < UniformValue::ThisParam)
        return UniformValue::param(Index);
      return opaque(UniformValue());
    }
  }
  return UniformValue();
}

/// The local variable that E names or is part of (a member, an element of a
/// local array); Exact when E is the whole variable.
const VarDecl *FunctionUniformityImpl::rootVar(const Expr *E,
                                               bool &Exact) const {
  Exact = true;
  for (unsigned Steps = 0; E && Steps < 32; ++Steps) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (V && tracked(V) && !V->getType()->isReferenceType())
        return V;
      return nullptr;
    }
    Exact = false;
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        return nullptr;
      E = ME->getBase();
      continue;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *Base = AS->getBase()->IgnoreParenImpCasts();
      if (!Base->getType()->isArrayType())
        return nullptr;
      E = Base;
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

void FunctionUniformityImpl::setVar(const VarDecl *V, UniformValue Value,
                                    bool Strong, const Stmt *Where,
                                    const Expr *From,
                                    std::optional<UniformValue> Own) {
  UniformValue Ctl = curCtl();
  UniformValue Contribution = join(Value, Ctl);
  // Control that is the same in every lane of a warp keeps the value's
  // shape: a warp runs the write with all of its lanes or with none, so in
  // each warp the variable holds the old value or the new one in every lane
  // (`for (int c = threadIdx.x; c < 1024; c += blockDim.x)`: `c` stays
  // lane-linear, and the loop test warp-uniform).
  Contribution.Shape = Ctl.Params == 0 && Ctl.Base != Uniformity::Thread
                           ? Value.Shape
                           : UniformValue::None;
  if (Recording) {
    auto &R = Reasons[V];
    for (unsigned L = 1; L <= 2; ++L) {
      if (static_cast<unsigned>(Contribution.Base) < L || R[L].Where)
        continue;
      R[L].Where = Where;
      R[L].From = From;
      R[L].UnderControl = static_cast<unsigned>(Own.value_or(Value).Base) < L;
    }
  }
  auto [It, Inserted] = Cur->try_emplace(V, Contribution);
  if (Inserted) {
    if (!Strong)
      It->second = join(initial(V), Contribution);
    return;
  }
  It->second = Strong ? Contribution : join(It->second, Contribution);
}

void FunctionUniformityImpl::write(const Expr *Target, UniformValue Value,
                                   bool Compound, const Stmt *Where,
                                   const Expr *From,
                                   std::optional<UniformValue> Own) {
  bool Exact = false;
  if (const VarDecl *V = rootVar(Target, Exact)) {
    // Writing element a[i] of a local array makes the array as varying as i.
    const Expr *Path = Target->IgnoreParenImpCasts();
    for (unsigned Steps = 0; !Exact && Steps < 32; ++Steps) {
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Path)) {
        Value = plain(join(Value, eval(AS->getIdx())));
        Path = AS->getBase()->IgnoreParenImpCasts();
      } else if (const auto *ME = dyn_cast<MemberExpr>(Path)) {
        Path = ME->getBase()->IgnoreParenImpCasts();
      } else {
        break;
      }
    }
    setVar(V, Value, Exact && !Compound, Where, From, Own);
    return;
  }
  // A store to memory (through a pointer, a reference or a global).
  if (Recording)
    StoreLevel = join(StoreLevel, plain(join(Value, curCtl())));
}

void FunctionUniformityImpl::recordBarrier(const BarrierSite &B) {
  if (Recording && BarrierSeen.insert(B.Site).second)
    Barriers.push_back(B);
}

bool FunctionUniformityImpl::isAligned(const Expr *E, UniformValue V) const {
  if (V.Params || V.Base == Uniformity::Thread)
    return false;
  if (V.Shape == UniformValue::Aligned)
    return true;
  auto C = constantOf(E, Ctx);
  return C && C->getExtValue() % 32 == 0;
}

UniformValue FunctionUniformityImpl::eval(const Expr *E) {
  if (!E)
    return UniformValue();
  UniformValue V;
  if (Cur) {
    // While a block is replayed its elements come in evaluation order,
    // subexpressions first: a parent takes its children's values from
    // there instead of walking them again (which made a replay quadratic
    // in the depth of an expression).
    if (auto It = Seen.find(E); It != Seen.end()) {
      V = It->second;
    } else {
      V = evalUncached(E);
      Seen[E] = V;
    }
  } else {
    V = evalUncached(E);
  }
  if (Recording)
    ExprLevels[E] = V;
  return V;
}

UniformValue FunctionUniformityImpl::evalUncached(const Expr *E) {
  if (auto Ref = getBuiltinVarRef(E)) {
    bool Linear = A.Opts.BlockSizeMultipleOf32;
    switch (Ref->Var) {
    case BuiltinVar::ThreadIdx:
      return UniformValue::of(Uniformity::Thread, Ref->Dim == 0 && Linear
                                                      ? UniformValue::LaneLinear
                                                      : UniformValue::None);
    case BuiltinVar::BlockDim:
      return UniformValue::of(Uniformity::Block, Ref->Dim == 0 && Linear
                                                     ? UniformValue::Aligned
                                                     : UniformValue::None);
    case BuiltinVar::BlockIdx:
      return A.Opts.Scope == BarrierScope::Block
                 ? UniformValue()
                 : UniformValue::of(Uniformity::Thread);
    default:
      return UniformValue();
    }
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    // Each block has its own copy of a __shared__ variable.
    if (V && A.Opts.Scope != BarrierScope::Block &&
        V->hasAttr<CUDASharedAttr>())
      return UniformValue::of(Uniformity::Thread);
    if (!V || V->hasGlobalStorage() || V->isConstexpr())
      return UniformValue();
    if (!tracked(V)) // A capture: part of the closure object.
      return UniformValue::param(UniformValue::ThisParam);
    if (Escaped.contains(V))
      return UniformValue::of(Uniformity::Thread);
    if (V->getType()->isReferenceType() && !isa<ParmVarDecl>(V)) {
      // A local reference: as uniform as what it was bound to.
      auto It = Cur->find(V);
      return It == Cur->end() ? UniformValue() : It->second;
    }
    auto It = Cur->find(V);
    return It == Cur->end() ? initial(V) : It->second;
  }
  if (isa<CXXThisExpr>(E))
    return UniformValue::param(UniformValue::ThisParam);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return evalBinary(BO);
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    UniformValue Sub = eval(UO->getSubExpr());
    if (UO->isIncrementDecrementOp()) {
      write(UO->getSubExpr(), UniformValue(), /*Compound=*/true, UO, nullptr);
      return plain(Sub);
    }
    if (UO->getOpcode() == UO_Plus || UO->getOpcode() == UO_Extension)
      return Sub;
    return plain(Sub);
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return evalCall(Call);
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    UniformValue C = eval(CO->getCond());
    UniformValue T = eval(CO->getTrueExpr());
    UniformValue Fv = eval(CO->getFalseExpr());
    UniformValue R = join(T, Fv);
    if (!C.isBlockUniform())
      R = plain(join(R, C));
    return R;
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    return eval(Cast->getSubExpr());
  if (const auto *P = dyn_cast<ParenExpr>(E))
    return eval(P->getSubExpr());
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(E))
    return OVE->getSourceExpr() ? eval(OVE->getSourceExpr()) : UniformValue();
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E))
    return eval(POE->getResultExpr() ? POE->getResultExpr()
                                     : POE->getSyntacticForm());
  if (const auto *Lambda = dyn_cast<LambdaExpr>(E)) {
    UniformValue R;
    for (const Expr *Init : Lambda->capture_inits())
      R = join(R, eval(Init));
    return plain(R);
  }
  if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
    return eval(DA->getExpr());
  if (const auto *DI = dyn_cast<CXXDefaultInitExpr>(E))
    return eval(DI->getExpr());
  if (isa<StmtExpr, BlockExpr>(E))
    return opaque(UniformValue());
  // Loads, constructors, initialiser lists and the rest: as uniform as what
  // they are made of.
  UniformValue R;
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      R = join(R, eval(CE));
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    const FunctionDecl *Def = nullptr;
    if (Ctor && Ctor->hasBody(Def) && Def && !Ctor->isTrivial())
      if (const FunctionSummary *S = A.summary(Def))
        R = join(R, plain(S->Store));
  }
  return plain(R);
}

UniformValue FunctionUniformityImpl::evalBinary(const BinaryOperator *BO) {
  if (BO->isAssignmentOp()) {
    UniformValue R = eval(BO->getRHS());
    UniformValue L = eval(BO->getLHS());
    if (!BO->isCompoundAssignmentOp()) {
      write(BO->getLHS(), R, /*Compound=*/false, BO, BO->getRHS());
      return R;
    }
    // `x op= y` stores what `x op y` computes: `tid += blockDim.x *
    // gridDim.x` keeps a lane-linear index lane-linear.
    UniformValue New = combine(BO->getOpcode() == BO_AddAssign   ? BO_Add
                               : BO->getOpcode() == BO_SubAssign ? BO_Sub
                               : BO->getOpcode() == BO_MulAssign ? BO_Mul
                               : BO->getOpcode() == BO_ShlAssign ? BO_Shl
                                                                 : BO_Comma,
                               BO->getLHS(), L, BO->getRHS(), R);
    write(BO->getLHS(), New, /*Compound=*/false, BO, BO->getRHS(), R);
    return New;
  }
  if (BO->getOpcode() == BO_Comma) {
    eval(BO->getLHS());
    return eval(BO->getRHS());
  }
  const Expr *LE = BO->getLHS(), *RE = BO->getRHS();
  UniformValue L = eval(LE);
  UniformValue R = eval(RE);
  if (BO->isLogicalOp())
    return plain(join(L, R));
  return combine(BO->getOpcode(), LE, L, RE, R);
}

UniformValue FunctionUniformityImpl::combine(BinaryOperatorKind Op,
                                             const Expr *LE, UniformValue L,
                                             const Expr *RE, UniformValue R) {
  UniformValue J = plain(join(L, R));

  auto LinearOverAligned = [&](UniformValue X, UniformValue Y, const Expr *YE) {
    return X.Base == Uniformity::Thread && X.Params == 0 &&
           X.Shape == UniformValue::LaneLinear && isAligned(YE, Y);
  };
  auto Warp = UniformValue::of(Uniformity::Warp);
  switch (Op) {
  case BO_Add:
    if (LinearOverAligned(L, R, RE) || LinearOverAligned(R, L, LE))
      return UniformValue::of(Uniformity::Thread, UniformValue::LaneLinear);
    if (isAligned(LE, L) && isAligned(RE, R))
      return UniformValue::of(J.Base, UniformValue::Aligned);
    return J;
  case BO_Sub:
    if (LinearOverAligned(L, R, RE))
      return UniformValue::of(Uniformity::Thread, UniformValue::LaneLinear);
    if (isAligned(LE, L) && isAligned(RE, R))
      return UniformValue::of(J.Base, UniformValue::Aligned);
    return J;
  case BO_Mul:
    if (J.Base != Uniformity::Thread && J.Params == 0 &&
        (isAligned(LE, L) || isAligned(RE, R)))
      return UniformValue::of(J.Base, UniformValue::Aligned);
    return J;
  case BO_Div:
    if (LinearOverAligned(L, R, RE))
      return Warp;
    return J;
  case BO_Shr:
    if (L.Shape == UniformValue::LaneLinear && L.Params == 0 && R.Params == 0)
      if (auto C = constantOf(RE, Ctx); C && C->getExtValue() >= 5)
        return Warp;
    return J;
  case BO_Shl:
    if (J.Base != Uniformity::Thread && J.Params == 0)
      if (auto C = constantOf(RE, Ctx); C && C->getExtValue() >= 5)
        return UniformValue::of(J.Base, UniformValue::Aligned);
    return J;
  case BO_And:
    if (L.Shape == UniformValue::LaneLinear && L.Params == 0)
      if (auto C = constantOf(RE, Ctx); C && (C->getZExtValue() & 31) == 0)
        return Warp;
    return J;
  case BO_LT:
  case BO_GE:
  case BO_GT:
  case BO_LE: {
    // threadIdx.x < 64 holds for whole warps; threadIdx.x <= 63 too.
    bool LinearLeft = L.Shape == UniformValue::LaneLinear;
    const Expr *OtherE = LinearLeft ? RE : LE;
    UniformValue Lin = LinearLeft ? L : R, Other = LinearLeft ? R : L;
    if (Lin.Shape != UniformValue::LaneLinear || Lin.Params)
      return J;
    // Normalise to "linear OP other".
    bool Strict = LinearLeft ? (Op == BO_LT || Op == BO_GE)
                             : (Op == BO_GT || Op == BO_LE);
    if (Strict && isAligned(OtherE, Other))
      return Warp;
    if (!Strict && !Other.Params && Other.Base != Uniformity::Thread)
      if (auto C = constantOf(OtherE, Ctx);
          C && (C->getExtValue() + 1) % 32 == 0)
        return Warp;
    return J;
  }
  default:
    return J;
  }
}

std::pair<const Expr *, unsigned>
FunctionUniformityImpl::objectOf(const CallExpr *Call) const {
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    return {MC->getImplicitObjectArgument(), 0};
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
    if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee()))
      if (!MD->isStatic() && Op->getNumArgs() > 0)
        return {Op->getArg(0), 1};
  return {nullptr, 0};
}

UniformValue FunctionUniformityImpl::substitute(UniformValue V,
                                                const CallExpr *Call) const {
  if (!V.Params)
    return bind(V, UniformValue(), {});
  auto [Obj, Offset] = objectOf(Call);
  UniformValue ObjLevel;
  if (Obj)
    ObjLevel = levelOf(Obj);
  else if (const Expr *Base = memberCallBase(Call))
    ObjLevel = levelOf(Base);
  llvm::SmallVector<UniformValue, 8> Args;
  for (unsigned I = Offset, N = Call->getNumArgs(); I < N; ++I)
    Args.push_back(levelOf(Call->getArg(I)));
  return bind(V, ObjLevel, Args);
}

UniformValue FunctionUniformityImpl::bind(UniformValue V, UniformValue Obj,
                                          ArrayRef<UniformValue> Args) {
  UniformValue R =
      UniformValue::of(V.Base, V.Params ? UniformValue::None : V.Shape);
  if (!V.Params)
    return R;
  for (unsigned I = 0; I < 64; ++I) {
    if (!(V.Params & (uint64_t(1) << I)))
      continue;
    if (I == UniformValue::ThisParam)
      R = join(R, plain(Obj));
    else if (I < Args.size())
      R = join(R, plain(Args[I]));
  }
  R.Shape = UniformValue::None;
  return R;
}

std::optional<UniformValue>
FunctionUniformityImpl::evalIntrinsic(const CallExpr *Call,
                                      const FunctionDecl *FD,
                                      llvm::ArrayRef<UniformValue> Args) {
  if (!FD->getIdentifier())
    return std::nullopt;
  StringRef Name = FD->getName();
  auto Thread = UniformValue::of(Uniformity::Thread);
  auto Warp = UniformValue::of(Uniformity::Warp);
  if (isHeaderFunction(FD, SM)) {
    if (Name == "clock" || Name == "clock64" || Name == "__globaltimer" ||
        Name.starts_with("atomic") || Name.starts_with("__nvvm_atom") ||
        Name.starts_with("__atomic_") || Name.starts_with("__c11_atomic") ||
        Name.starts_with("__hip_atomic") || Name.starts_with("__nvvm_shfl") ||
        Name.starts_with("__lanemask") || Name == "__match_any_sync" ||
        Name == "__shfl" || Name == "__shfl_up" || Name == "__shfl_down" ||
        Name == "__shfl_xor" || Name == "__shfl_up_sync" ||
        Name == "__shfl_down_sync" || Name == "__shfl_xor_sync" ||
        Name.contains("sreg_tid") || Name.contains("sreg_laneid") ||
        Name.contains("sreg_clock") || Name.contains("sreg_globaltimer") ||
        Name.contains("sreg_lanemask") || Name.contains("sreg_warpid") ||
        Name.contains("sreg_smid"))
      return Thread;
    if (A.Opts.Scope != BarrierScope::Block &&
        (Name.contains("sreg_ctaid") || Name.contains("sreg_cluster_ctarank") ||
         Name.contains("sreg_cluster_ctaid") ||
         (A.Opts.Scope == BarrierScope::Grid &&
          Name.contains("sreg_clusterid")) ||
         Name == "__clusterRelativeBlockRank" ||
         Name == "__clusterRelativeBlockIdx" ||
         Name == "__cluster_map_shared_rank"))
      return Thread;
    if (Name == "__shfl_sync") {
      // A broadcast from a uniform lane across the whole warp.
      bool UniformLane = Args.size() > 2 && Args[2].Params == 0 &&
                         Args[2].Base != Uniformity::Thread;
      bool FullWidth = true;
      if (Call->getNumArgs() > 3 && !isa<CXXDefaultArgExpr>(Call->getArg(3))) {
        auto W = constantOf(Call->getArg(3), Ctx);
        FullWidth = W && W->getExtValue() == 32;
      }
      return UniformLane && FullWidth ? Warp : Thread;
    }
    if (Name == "__ballot_sync" || Name == "__any_sync" ||
        Name == "__all_sync" || Name == "__activemask" ||
        Name == "__match_all_sync" || Name == "__ballot" || Name == "__any" ||
        Name == "__all" || Name.starts_with("__nvvm_vote") ||
        (Name.starts_with("__reduce_") && Name.ends_with("_sync")))
      return Warp;
    if (Name == "__syncthreads_count" || Name == "__syncthreads_and" ||
        Name == "__syncthreads_or" || Name.starts_with("__nvvm_bar0_"))
      return UniformValue();
    return std::nullopt;
  }
  if (!inCooperativeGroups(FD))
    return std::nullopt;
  const CXXRecordDecl *RD = groupRecord(Call, FD);
  StringRef Group = RD && RD->getIdentifier() ? RD->getName() : "";
  unsigned Tile = tileSize(RD);
  bool BlockLike = Group == "thread_block" || Group == "grid_group" ||
                   Group == "cluster_group";
  if (isa<CXXMethodDecl>(FD)) {
    if (Name == "thread_rank")
      return BlockLike && A.Opts.BlockSizeMultipleOf32
                 ? UniformValue::of(Uniformity::Thread,
                                    UniformValue::LaneLinear)
                 : Thread;
    if (Name == "thread_index" || Name.starts_with("shfl") ||
        Name.starts_with("match"))
      return Thread;
    if (Name == "meta_group_rank")
      return isWholeWarpTile(Tile) ? Warp : Thread;
    if (Name == "any" || Name == "all" || Name == "ballot")
      return Tile == 32 ? Warp : Thread;
    if ((Name == "group_index" || Name == "block_index" ||
         Name == "block_rank") &&
        A.Opts.Scope != BarrierScope::Block)
      return Thread;
    if (Name == "group_index" || Name == "block_index" ||
        Name == "block_rank" || Name == "num_threads" || Name == "size" ||
        Name == "group_dim" || Name == "dim_threads" || Name == "dim_blocks" ||
        Name == "num_blocks" || Name == "meta_group_size" ||
        Name == "is_valid" || Name == "sync")
      return UniformValue();
    return std::nullopt;
  }
  if (Name == "this_thread_block" || Name == "this_grid" ||
      Name == "this_cluster" || Name == "tiled_partition" || Name == "sync" ||
      Name == "wait" || Name == "wait_prior" || Name == "memcpy_async")
    return UniformValue();
  if (Name == "reduce")
    return isWholeWarpTile(Tile) ? Warp : Thread;
  if (Name == "inclusive_scan" || Name == "exclusive_scan" ||
      Name == "coalesced_threads" || Name == "labeled_partition" ||
      Name == "binary_partition")
    return Thread;
  return std::nullopt;
}

UniformValue FunctionUniformityImpl::evalCall(const CallExpr *Call) {
  // In a template pattern a dependent call names its callee without
  // resolving it; the one function its name finds is the callee.
  const FunctionDecl *FD = resolveCallee(Call);
  auto [Obj, Offset] = objectOf(Call);
  UniformValue ObjLevel;
  if (Obj)
    ObjLevel = eval(Obj);
  if (const Expr *Base = memberCallBase(Call); Base && !Obj)
    ObjLevel = eval(Base);
  UniformValue AllArgs = plain(ObjLevel);
  llvm::SmallVector<UniformValue, 8> Args;
  for (unsigned I = Offset, N = Call->getNumArgs(); I < N; ++I) {
    Args.push_back(eval(Call->getArg(I)));
    AllArgs = join(AllArgs, plain(Args.back()));
  }
  if (!FD) {
    AllArgs = join(AllArgs, plain(eval(Call->getCallee())));
    return opaque(AllArgs);
  }

  if (auto B = recognizeBarrier(Call, Ctx))
    recordBarrier(*B);

  std::optional<UniformValue> Result = evalIntrinsic(Call, FD, Args);
  const FunctionSummary *Summary = nullptr;
  const FunctionDecl *Def = nullptr;
  if (!Result && FD->hasBody(Def) && Def)
    Summary = A.summary(Def);

  // What the callee may store through references, pointers to locals and
  // its object.
  UniformValue Stored;
  if (Result)
    Stored = AllArgs;
  else if (Summary)
    Stored = join(AllArgs, bind(Summary->Store, ObjLevel, Args));
  else if (isHeaderFunction(FD, SM))
    Stored = AllArgs;
  else
    Stored = opaque(AllArgs);
  for (unsigned I = Offset, N = Call->getNumArgs(); I < N; ++I) {
    const Expr *Arg = Call->getArg(I);
    unsigned P = I - Offset;
    bool ByRef = P < FD->getNumParams() &&
                 FD->getParamDecl(P)->getType()->isLValueReferenceType() &&
                 !FD->getParamDecl(P)
                      ->getType()
                      .getNonReferenceType()
                      .isConstQualified();
    const Expr *Stripped = Arg->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(Stripped);
        UO && UO->getOpcode() == UO_AddrOf)
      write(UO->getSubExpr(), Stored, /*Compound=*/true, Call, nullptr);
    else if (ByRef || Stripped->getType()->isArrayType())
      write(Stripped, Stored, /*Compound=*/true, Call, nullptr);
  }
  if (Obj) {
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    if (MD && !MD->isConst() && !Obj->getType()->isPointerType())
      write(Obj, Stored, /*Compound=*/true, Call, nullptr);
  }

  if (Result)
    return *Result;
  if (Summary) {
    if (Summary->ReachesBarrier && Recording && !BarrierSeen.contains(Call)) {
      BarrierSite B = Summary->FirstBarrier;
      B.Site = Call;
      B.Callee = Def;
      recordBarrier(B);
    }
    return bind(Summary->Return, ObjLevel, Args);
  }
  if (isHeaderFunction(FD, SM))
    return AllArgs;
  return opaque(AllArgs);
}

void FunctionUniformityImpl::transferAsm(const GCCAsmStmt *Asm) {
  if (auto B = recognizeBarrier(Asm, Ctx))
    recordBarrier(*B);
  UniformValue Inputs;
  for (unsigned I = 0, N = Asm->getNumInputs(); I < N; ++I)
    Inputs = join(Inputs, plain(eval(Asm->getInputExpr(I))));
  std::string Str = Asm->getAsmString();
  StringRef S(Str);
  UniformValue Level = Inputs;
  for (StringRef Varying :
       {"%laneid", "%tid", "%clock", "%globaltimer", "%lanemask", "%warpid",
        "%smid", "atom.", "red.", "shfl", "match.any"})
    if (S.contains(Varying))
      Level = UniformValue::of(Uniformity::Thread);
  if (Level.Base != Uniformity::Thread && S.contains("vote"))
    Level = join(Level, UniformValue::of(Uniformity::Warp));
  for (unsigned I = 0, N = Asm->getNumOutputs(); I < N; ++I) {
    eval(Asm->getOutputExpr(I));
    write(Asm->getOutputExpr(I), Level, /*Compound=*/false, Asm, nullptr);
  }
}

void FunctionUniformityImpl::transfer(const Stmt *S) {
  if (const auto *E = dyn_cast<Expr>(S)) {
    eval(E);
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      const auto *V = dyn_cast<VarDecl>(D);
      if (!V)
        continue;
      UniformValue Init = V->getInit() ? eval(V->getInit()) : UniformValue();
      if (tracked(V))
        setVar(V, Init, /*Strong=*/true, DS, V->getInit());
    }
    return;
  }
  if (const auto *Ret = dyn_cast<ReturnStmt>(S)) {
    UniformValue V = eval(Ret->getRetValue());
    if (Recording)
      ReturnLevel = join(ReturnLevel, plain(join(V, CtlFull[CurBlock])));
    return;
  }
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S))
    transferAsm(Asm);
}

void FunctionUniformityImpl::replay(unsigned Block) {
  const CFGBlock *B = ById[Block];
  State S = In[Block];
  Seen.clear();
  Cur = &S;
  CurBlock = Block;
  for (const CFGElement &El : *B)
    if (auto CS = El.getAs<CFGStmt>())
      transfer(CS->getStmt());
  CondLevel[Block] =
      plain(eval(dyn_cast_or_null<Expr>(B->getTerminatorCondition(false))));
  Out[Block] = std::move(S);
  Cur = nullptr;
}

static bool sameState(const llvm::DenseMap<const VarDecl *, UniformValue> &A,
                      const llvm::DenseMap<const VarDecl *, UniformValue> &B) {
  if (A.size() != B.size())
    return false;
  for (const auto &[V, U] : A) {
    auto It = B.find(V);
    if (It == B.end() || It->second != U)
      return false;
  }
  return true;
}

bool FunctionUniformityImpl::dataflow() {
  for (unsigned Round = 0; Round < MaxRounds; ++Round) {
    bool Changed = false;
    for (const CFGBlock *B : RPO) {
      unsigned ID = B->getBlockID();
      State S;
      for (const CFGBlock *P : B->preds()) {
        if (!P || !Reachable[P->getBlockID()])
          continue;
        for (const auto &[V, U] : Out[P->getBlockID()]) {
          auto [It, Inserted] = S.try_emplace(V, U);
          if (!Inserted)
            It->second = join(It->second, U);
        }
      }
      // A block whose entry state is what it was in the last round gives
      // the same exit state (the control levels do not change within one
      // call): it is replayed in the first round only.
      if (Round > 0 && sameState(S, In[ID]))
        continue;
      In[ID] = std::move(S);
      State Before = Out[ID];
      replay(ID);
      if (!sameState(Before, Out[ID]))
        Changed = true;
    }
    A.Work += RPO.size();
    if (!Changed)
      return true;
    if (A.Work > MaxWork)
      return false;
  }
  return false;
}

bool FunctionUniformityImpl::updateControl() {
  bool Changed = false;
  for (unsigned Round = 0; Round < RPO.size() + 2; ++Round) {
    bool RoundChanged = false;
    for (const CFGBlock *B : RPO) {
      unsigned X = B->getBlockID();
      UniformValue Full, Live;
      for (unsigned D : CD[X]) {
        UniformValue Via = join(CondLevel[D], CtlFull[D]);
        Full = join(Full, Via);
        if (allowed(D, X, /*CountExits=*/false))
          Live = join(Live, join(CondLevel[D], CtlLive[D]));
      }
      Full = plain(join(CtlFull[X], Full));
      Live = plain(join(CtlLive[X], Live));
      if (Full != CtlFull[X] || Live != CtlLive[X]) {
        CtlFull[X] = Full;
        CtlLive[X] = Live;
        RoundChanged = true;
      }
    }
    if (!RoundChanged)
      break;
    Changed = true;
  }
  return Changed;
}

void FunctionUniformityImpl::computeExitOnly() {
  unsigned N = Cfg->getNumBlockIDs();
  ExitOnly.assign(N, false);
  ExitBranch.assign(N, false);
  HasBarrier.assign(N, false);
  const CFGBlock *Exit = &Cfg->getExit();
  std::vector<bool> Returns(N, false);
  std::vector<bool> &Barrier = HasBarrier;
  for (const CFGBlock *B : RPO) {
    for (const CFGElement &El : *B) {
      auto CS = El.getAs<CFGStmt>();
      if (!CS)
        continue;
      const Stmt *S = CS->getStmt();
      if (isa<ReturnStmt>(S))
        Returns[B->getBlockID()] = true;
      if (recognizeBarrier(S, Ctx))
        Barrier[B->getBlockID()] = true;
      if (const auto *Call = dyn_cast<CallExpr>(S)) {
        const FunctionDecl *Def = nullptr;
        if (const FunctionDecl *FD = resolveCallee(Call))
          if (FD->hasBody(Def) && Def)
            if (const FunctionSummary *Sum = A.summary(Def))
              if (Sum->ReachesBarrier)
                Barrier[B->getBlockID()] = true;
      }
    }
    if (B->hasNoReturnElement())
      Returns[B->getBlockID()] = true;
  }
  if (!Kernel)
    return;
  // The greatest fixed point, so that a loop whose every exit returns (`for
  // (...) s[...] = ...; return;`) is exit-only too: start from every block
  // without a barrier and drop those with a way to fall off the end of the
  // kernel or to reach a barrier. Post order: successors first.
  for (const CFGBlock *B : RPO)
    ExitOnly[B->getBlockID()] = !Barrier[B->getBlockID()] && B != Exit;
  for (unsigned Round = 0; Round <= N; ++Round) {
    bool Changed = false;
    for (auto It = RPO.rbegin(); It != RPO.rend(); ++It) {
      const CFGBlock *B = *It;
      unsigned ID = B->getBlockID();
      if (!ExitOnly[ID] || Returns[ID])
        continue;
      unsigned Succs = 0;
      bool All = true;
      for (const CFGBlock *S : B->succs()) {
        if (!S)
          continue;
        ++Succs;
        if (S == Exit || !ExitOnly[S->getBlockID()])
          All = false;
      }
      if (!All || Succs == 0) {
        ExitOnly[ID] = false;
        Changed = true;
      }
    }
    if (!Changed)
      break;
  }
  for (const CFGBlock *B : RPO) {
    unsigned Succs = 0, Exits = 0;
    for (const CFGBlock *S : B->succs()) {
      if (!S)
        continue;
      ++Succs;
      if (ExitOnly[S->getBlockID()])
        ++Exits;
    }
    ExitBranch[B->getBlockID()] = Succs == 2 && Exits == 1;
  }
}

/// Locals whose address escapes; with OpaqueCallsVary they are varying.
static void collectEscaped(const Stmt *S,
                           llvm::DenseSet<const VarDecl *> &Out) {
  if (!S)
    return;
  auto LocalOf = [](const Expr *E) -> const VarDecl * {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        if (V->hasLocalStorage())
          return V;
    return nullptr;
  };
  if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->getOpcode() == UO_AddrOf)
      if (const VarDecl *V = LocalOf(UO->getSubExpr()))
        Out.insert(V);
  } else if (const auto *VD = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : VD->decls())
      if (const auto *Ref = dyn_cast<VarDecl>(D))
        if (Ref->getType()->isReferenceType() && Ref->getInit() &&
            !Ref->getType().getNonReferenceType().isConstQualified())
          if (const VarDecl *V = LocalOf(Ref->getInit()))
            Out.insert(V);
  } else if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
    for (const LambdaCapture &C : Lambda->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
        if (const auto *V = dyn_cast<VarDecl>(C.getCapturedVar()))
          Out.insert(V);
  }
  for (const Stmt *Child : S->children())
    collectEscaped(Child, Out);
}

bool FunctionUniformityImpl::run() {
  Stmt *Body = F->getBody();
  // Template patterns are analysed as written (a dependent value every thread
  // shares is a template parameter; the rest is opaque); clients decide
  // whether to report in a pattern or in its instantiations.
  if (!Body || F->isInvalidDecl())
    return false;
  CFG::BuildOptions Opts;
  Opts.PruneTriviallyFalseEdges = true;
  Cfg = CFG::buildCFG(F, Body, &Ctx, Opts);
  if (!Cfg || Cfg->getNumBlockIDs() > MaxBlocks)
    return false;
  PM = std::make_unique<ParentMap>(Body);
  StmtMap = std::make_unique<CFGStmtMap>(*Cfg, *PM);

  unsigned N = Cfg->getNumBlockIDs();
  // Reverse post order from the entry.
  Reachable.assign(N, false);
  {
    llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 32> Stack;
    std::vector<const CFGBlock *> Post;
    const CFGBlock *Entry = &Cfg->getEntry();
    Stack.push_back({Entry, 0});
    Reachable[Entry->getBlockID()] = true;
    while (!Stack.empty()) {
      auto &[B, Next] = Stack.back();
      if (Next < B->succ_size()) {
        const CFGBlock *S = *(B->succ_begin() + Next);
        ++Next;
        if (S && !Reachable[S->getBlockID()]) {
          Reachable[S->getBlockID()] = true;
          Stack.push_back({S, 0});
        }
        continue;
      }
      Post.push_back(B);
      Stack.pop_back();
    }
    RPO.assign(Post.rbegin(), Post.rend());
  }
  ById.assign(N, nullptr);
  for (const CFGBlock *B : RPO)
    ById[B->getBlockID()] = B;

  In.assign(N, State());
  Out.assign(N, State());
  CondLevel.assign(N, UniformValue());
  CtlLive.assign(N, UniformValue());
  CtlFull.assign(N, UniformValue());
  CD.assign(N, {});
  {
    ControlDependencyCalculator Calc(Cfg.get());
    for (const CFGBlock *B : RPO) {
      for (CFGBlock *D : Calc.getControlDependencies(const_cast<CFGBlock *>(B)))
        if (D && Reachable[D->getBlockID()])
          CD[B->getBlockID()].push_back(D->getBlockID());
      llvm::sort(CD[B->getBlockID()]);
    }
  }
  if (A.Opts.OpaqueCallsVary)
    collectEscaped(Body, Escaped);
  computeExitOnly();

  unsigned Outer = 0;
  for (; Outer < MaxOuterRounds; ++Outer) {
    if (!dataflow())
      return false;
    if (!updateControl())
      break;
  }
  if (Outer == MaxOuterRounds)
    return false;

  Recording = true;
  for (const CFGBlock *B : RPO)
    replay(B->getBlockID());
  Recording = false;
  // The per-block variable states are only needed while solving; the
  // results are kept for every function of the translation unit, so free
  // them now.
  std::vector<State>().swap(In);
  std::vector<State>().swap(Out);
  llvm::sort(Barriers, [&](const BarrierSite &L, const BarrierSite &R) {
    return SM.isBeforeInTranslationUnit(L.Site->getBeginLoc(),
                                        R.Site->getBeginLoc());
  });
  return true;
}

//===----------------------------------------------------------------------===//
// Explanations.
//===----------------------------------------------------------------------===//

static bool reaches(UniformValue V, Uniformity L, uint64_t Mask) {
  return V.Base >= L || (V.Params & Mask);
}

/// A `break` or `goto` inside S that leaves the loop S is in (not one of a
/// loop or switch nested in S).
static const Stmt *findLoopExit(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return nullptr;
  if (isa<BreakStmt, GotoStmt>(S))
    return S;
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(S))
    return nullptr;
  for (const Stmt *Child : S->children())
    if (const Stmt *R = findLoopExit(Child))
      return R;
  return nullptr;
}

/// A `return` inside S that is not in a lambda.
static const Stmt *findReturn(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return nullptr;
  if (isa<ReturnStmt>(S))
    return S;
  for (const Stmt *Child : S->children())
    if (const Stmt *R = findReturn(Child))
      return R;
  return nullptr;
}

std::optional<DivergenceCause>
FunctionUniformityImpl::causeAt(const Stmt *S, Uniformity L, uint64_t Mask,
                                bool CountExits) const {
  const CFGBlock *B = blockOf(S);
  if (!B || !Reachable[B->getBlockID()])
    return std::nullopt;
  llvm::SmallVector<bool, 64> Seen(Cfg->getNumBlockIDs(), false);
  unsigned X = B->getBlockID();
  for (unsigned Steps = 0; Steps < 64; ++Steps) {
    Seen[X] = true;
    // The innermost (latest in the source) branch that diverges directly.
    const CFGBlock *Best = nullptr, *BestVia = nullptr, *Fallback = nullptr;
    for (unsigned D : CD[X]) {
      if (!allowed(D, X, CountExits))
        continue;
      const CFGBlock *DB = ById[D];
      if (!DB || !DB->getTerminatorStmt())
        continue;
      auto Later = [&](const CFGBlock *Old) {
        return !Old || SM.isBeforeInTranslationUnit(
                           Old->getTerminatorStmt()->getBeginLoc(),
                           DB->getTerminatorStmt()->getBeginLoc());
      };
      if (reaches(CondLevel[D], L, Mask)) {
        // A condition that varies only because its variables were set under
        // an outer varying branch (`k` of a nested loop inside a warp-strided
        // one) is not the cause; the outer branch is.
        const auto *Cond =
            dyn_cast_or_null<Expr>(DB->getTerminatorCondition(false));
        if (Mask || !Cond || byData(Cond, L)) {
          if (Later(Best))
            Best = DB;
        } else if (!Fallback) {
          Fallback = DB;
        }
      }
      const UniformValue &Ctl = CountExits || !Kernel ? CtlFull[D] : CtlLive[D];
      if (!Seen[D] && reaches(Ctl, L, Mask) && Later(BestVia))
        BestVia = DB;
    }
    if (!Best && !BestVia)
      Best = Fallback;
    if (Best) {
      DivergenceCause C;
      const Stmt *T = Best->getTerminatorStmt();
      C.Terminator = T;
      C.Condition = dyn_cast_or_null<Expr>(Best->getTerminatorCondition(false));
      C.Level = CondLevel[Best->getBlockID()];
      C.K = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(T)
                ? DivergenceCause::Loop
                : DivergenceCause::Branch;
      // A short-circuit operator in an if's condition decides for the if.
      const Stmt *Owner = T;
      if (const auto *BO = dyn_cast<BinaryOperator>(T); BO && BO->isLogicalOp())
        while (isa<Expr>(Owner) && PM->getParent(Owner))
          Owner = PM->getParent(Owner);
      if (const auto *If = dyn_cast_or_null<IfStmt>(Owner);
          If && (If == T || If->getCond()->getSourceRange().fullyContains(
                                T->getSourceRange()))) {
        SourceRange R = If->getSourceRange();
        bool Inside =
            !SM.isBeforeInTranslationUnit(S->getBeginLoc(), R.getBegin()) &&
            !SM.isBeforeInTranslationUnit(R.getEnd(), S->getBeginLoc());
        if (!Inside) {
          C.Return = findReturn(If);
          C.Exit = findLoopExit(If);
        }
      }
      return C;
    }
    if (!BestVia)
      return std::nullopt;
    X = BestVia->getBlockID();
  }
  return std::nullopt;
}

static std::string quoted(StringRef S) { return ("'" + S + "'").str(); }

std::string FunctionUniformityImpl::describe(
    const Expr *E, Uniformity L, llvm::SmallVectorImpl<TraceStep> *Trace,
    unsigned &Steps, llvm::SmallPtrSetImpl<const VarDecl *> &Seen) const {
  if (!E)
    return "a value that differs between threads";
  if (auto Ref = getBuiltinVarRef(E))
    return quoted(builtinVarSpelling(*Ref));
  const Expr *Stripped = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Stripped)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return quoted(DRE->getDecl()->getName());
    std::string Name = quoted(V->getName());
    if (!Trace || Steps == 0 || !Seen.insert(V).second)
      return Name;
    auto It = Reasons.find(V);
    if (It == Reasons.end())
      return Name;
    const VarReason &R = It->second[static_cast<unsigned>(L)];
    if (!R.Where)
      return Name;
    --Steps;
    size_t Slot = Trace->size();
    Trace->push_back({R.Where->getBeginLoc(), ""});
    if (R.UnderControl) {
      std::string On = "a condition that differs between threads";
      if (auto C = causeAt(R.Where, L, 0, false); C && C->Condition)
        On = "a condition on " + describe(C->Condition, L, Trace, Steps, Seen);
      else if (C)
        On = "a loop";
      (*Trace)[Slot].Message = Name + " is set under " + On + " here";
    } else if (R.From) {
      (*Trace)[Slot].Message = Name + " is set from " +
                               describe(R.From, L, Trace, Steps, Seen) +
                               " here";
    } else {
      (*Trace)[Slot].Message = Name + " is set here by a call or inline "
                                      "assembly whose result differs between "
                                      "threads";
    }
    return Name;
  }
  if (const auto *Call = dyn_cast<CallExpr>(Stripped)) {
    const FunctionDecl *FD = resolveCallee(Call);
    // The toolkit's math functions, operators and the unresolved calls of a
    // template pattern vary with their arguments: name those.
    if (!FD || isa<CXXOperatorCallExpr>(Call) || isHeaderFunction(FD, SM))
      for (const Expr *Arg : Call->arguments())
        if (levelOf(Arg).Base >= L && !isa<CXXDefaultArgExpr>(Arg))
          return describe(Arg, L, Trace, Steps, Seen);
    if (FD && FD->getIdentifier())
      return "the result of " + quoted(FD->getName());
    return "the result of a call";
  }
  if (isa<CXXThisExpr>(Stripped))
    return "the object";
  const Expr *First = nullptr;
  for (const Stmt *Child : Stripped->children()) {
    const auto *CE = dyn_cast_or_null<Expr>(Child);
    if (!CE || levelOf(CE).Base < L)
      continue;
    if (byData(CE, L))
      return describe(CE, L, Trace, Steps, Seen);
    if (!First)
      First = CE;
  }
  if (First)
    return describe(First, L, Trace, Steps, Seen);
  return "a value that differs between threads";
}

bool FunctionUniformityImpl::byData(const Expr *E, Uniformity L,
                                    unsigned Depth) const {
  if (!E || Depth > 16)
    return true;
  if (getBuiltinVarRef(E))
    return true;
  const Expr *Stripped = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Stripped)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return true;
    auto It = Reasons.find(V);
    if (It == Reasons.end())
      return true;
    const VarReason &R = It->second[static_cast<unsigned>(L)];
    return !R.Where || !R.UnderControl;
  }
  if (isa<CallExpr, CXXThisExpr>(Stripped))
    return true;
  bool Any = false;
  for (const Stmt *Child : Stripped->children()) {
    const auto *CE = dyn_cast_or_null<Expr>(Child);
    if (!CE || levelOf(CE).Base < L)
      continue;
    Any = true;
    if (byData(CE, L, Depth + 1))
      return true;
  }
  return !Any;
}

bool FunctionUniformityImpl::isWork(const Stmt *S) const {
  if (isa<GCCAsmStmt, MSAsmStmt>(S) || recognizeBarrier(S, Ctx))
    return true;
  auto ToLocal = [&](const Expr *Target) {
    bool Exact = false;
    return rootVar(Target, Exact) != nullptr;
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    return BO->isAssignmentOp() && !ToLocal(BO->getLHS());
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    return UO->isIncrementDecrementOp() && !ToLocal(UO->getSubExpr());
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S))
    if (Op->isAssignmentOp() && Op->getNumArgs() > 0)
      return !ToLocal(Op->getArg(0));
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *FD = resolveCallee(Call);
    if (!FD || !FD->getIdentifier() || !isHeaderFunction(FD, SM))
      return true;
    // The toolkit's math and conversion functions only compute; what
    // changes memory, orders it or waits is work.
    StringRef Name = FD->getName();
    return Name.starts_with("atomic") || Name.starts_with("__nvvm_atom") ||
           Name.starts_with("__st") || Name.starts_with("__threadfence") ||
           Name.starts_with("__sync") || Name.starts_with("__nanosleep") ||
           Name.starts_with("__trap") || Name == "printf" ||
           Name.starts_with("mem") || Name.contains("wait") ||
           Name.contains("arrive") || Name.contains("async");
  }
  return false;
}

bool FunctionUniformityImpl::quietFrom(const CFGBlock *Start,
                                       unsigned First) const {
  llvm::SmallVector<bool, 64> Seen(Cfg->getNumBlockIDs(), false);
  llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 16> Work;
  Work.push_back({Start, First});
  while (!Work.empty()) {
    auto [B, From] = Work.pop_back_val();
    unsigned I = 0;
    for (const CFGElement &El : *B) {
      if (I++ < From)
        continue;
      if (auto CS = El.getAs<CFGStmt>())
        if (isWork(CS->getStmt()))
          return false;
    }
    for (const CFGBlock *S : B->succs())
      if (S && !Seen[S->getBlockID()]) {
        Seen[S->getBlockID()] = true;
        Work.push_back({S, 0});
      }
  }
  return true;
}

bool FunctionUniformityImpl::skippersOnlyLeave(const Stmt *S, Uniformity L,
                                               uint64_t Mask) const {
  const CFGBlock *Target = blockOf(S);
  if (!Target || !Reachable[Target->getBlockID()])
    return false;
  unsigned N = Cfg->getNumBlockIDs();
  // The blocks from which S can still be reached.
  std::vector<bool> CanReach(N, false);
  llvm::SmallVector<const CFGBlock *, 32> Work{Target};
  CanReach[Target->getBlockID()] = true;
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    for (const CFGBlock *P : B->preds())
      if (P && Reachable[P->getBlockID()] && !CanReach[P->getBlockID()]) {
        CanReach[P->getBlockID()] = true;
        Work.push_back(P);
      }
  }
  // Every way a thread can lose S at a varying branch must lead to the end
  // of the function with no work and no other barrier on the way.
  bool Skips = false;
  for (const CFGBlock *B : RPO) {
    unsigned X = B->getBlockID();
    if (!CanReach[X] || !reaches(CondLevel[X], L, Mask))
      continue;
    for (const CFGBlock *Succ : B->succs()) {
      if (!Succ || CanReach[Succ->getBlockID()])
        continue;
      Skips = true;
      if (!quietFrom(Succ, 0))
        return false;
    }
  }
  return Skips;
}

bool FunctionUniformityImpl::quietAfter(const Stmt *S) const {
  const CFGBlock *B = blockOf(S);
  if (!B)
    return false;
  unsigned I = 0;
  for (const CFGElement &El : *B) {
    ++I;
    if (auto CS = El.getAs<CFGStmt>(); CS && CS->getStmt() == S)
      return quietFrom(B, I);
  }
  return false;
}

bool FunctionUniformityImpl::exitAvoiding(
    const Stmt *From, llvm::function_ref<bool(const Stmt *)> Stop) const {
  const CFGBlock *Start = blockOf(From);
  if (!Start || !Reachable[Start->getBlockID()])
    return false;
  // The element that evaluates From, or the statement that contains it.
  unsigned First = 0, I = 0;
  SourceRange R = From->getSourceRange();
  for (const CFGElement &El : *Start) {
    ++I;
    if (auto CS = El.getAs<CFGStmt>())
      if (CS->getStmt() == From ||
          CS->getStmt()->getSourceRange().fullyContains(R)) {
        First = I;
        break;
      }
  }
  const CFGBlock *Exit = &Cfg->getExit();
  llvm::SmallVector<bool, 64> Seen(Cfg->getNumBlockIDs(), false);
  llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 16> Work;
  Work.push_back({Start, First});
  while (!Work.empty()) {
    auto [B, Skip] = Work.pop_back_val();
    if (B == Exit)
      return true;
    bool Stopped = false;
    unsigned J = 0;
    for (const CFGElement &El : *B) {
      if (J++ < Skip)
        continue;
      if (auto CS = El.getAs<CFGStmt>(); CS && Stop(CS->getStmt())) {
        Stopped = true;
        break;
      }
    }
    if (Stopped)
      continue;
    for (const CFGBlock *S : B->succs())
      if (S && !Seen[S->getBlockID()]) {
        Seen[S->getBlockID()] = true;
        Work.push_back({S, 0});
      }
  }
  return false;
}

std::optional<LoopExit>
FunctionUniformityImpl::earlyLoopExit(const Stmt *Barrier,
                                      Uniformity L) const {
  const CFGBlock *Target = blockOf(Barrier);
  if (!Target)
    return std::nullopt;
  // A `break` (or `goto`) that some threads take while others stay in a loop
  // that holds a barrier: the leavers go on to the first barriers after the
  // loop while the others wait at the loop's.
  for (const CFGBlock *B : RPO) {
    const Stmt *T = B->getTerminatorStmt();
    if (!T || !isa<BreakStmt, GotoStmt>(T) ||
        CtlFull[B->getBlockID()].Base < L)
      continue;
    // The loop the break leaves, from the AST.
    const Stmt *Loop = nullptr;
    if (isa<BreakStmt>(T))
      for (const Stmt *P = PM->getParent(T); P; P = PM->getParent(P)) {
        if (isa<SwitchStmt>(P))
          break;
        if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P)) {
          Loop = P;
          break;
        }
      }
    if (!Loop)
      continue;
    // The loop holds a barrier.
    const Stmt *Inner = nullptr;
    for (const BarrierSite &Site : Barriers) {
      SourceRange R = Loop->getSourceRange();
      SourceLocation Loc = Site.Site->getBeginLoc();
      if (!SM.isBeforeInTranslationUnit(Loc, R.getBegin()) &&
          !SM.isBeforeInTranslationUnit(R.getEnd(), Loc)) {
        Inner = Site.Site;
        break;
      }
    }
    if (!Inner || Inner == Barrier)
      continue;
    // The first barriers on the way from the break.
    llvm::SmallVector<bool, 64> Seen(Cfg->getNumBlockIDs(), false);
    llvm::SmallVector<const CFGBlock *, 16> Work;
    for (const CFGBlock *S : B->succs())
      if (S) {
        Seen[S->getBlockID()] = true;
        Work.push_back(S);
      }
    while (!Work.empty()) {
      const CFGBlock *C = Work.pop_back_val();
      if (HasBarrier[C->getBlockID()]) {
        if (C == Target)
          return LoopExit{T, Loop, Inner};
        continue;
      }
      for (const CFGBlock *S : C->succs())
        if (S && !Seen[S->getBlockID()]) {
          Seen[S->getBlockID()] = true;
          Work.push_back(S);
        }
    }
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// The public interface.
//===----------------------------------------------------------------------===//

FunctionUniformity::FunctionUniformity(
    std::unique_ptr<FunctionUniformityImpl> Impl)
    : Impl(std::move(Impl)) {}
FunctionUniformity::~FunctionUniformity() = default;

const FunctionDecl *FunctionUniformity::function() const { return Impl->F; }

UniformValue FunctionUniformity::valueOf(const Expr *E) const {
  return Impl->levelOf(E);
}

UniformValue FunctionUniformity::controlAt(const Stmt *S,
                                           bool CountKernelExits) const {
  const CFGBlock *B = Impl->blockOf(S);
  if (!B || !Impl->Reachable[B->getBlockID()])
    return UniformValue();
  unsigned ID = B->getBlockID();
  return CountKernelExits || !Impl->Kernel ? Impl->CtlFull[ID]
                                           : Impl->CtlLive[ID];
}

std::optional<DivergenceCause>
FunctionUniformity::causeAt(const Stmt *S, Uniformity Level, uint64_t ParamMask,
                            bool CountKernelExits) const {
  return Impl->causeAt(S, Level, ParamMask, CountKernelExits);
}

std::string
FunctionUniformity::describe(const Expr *E, Uniformity Level,
                             llvm::SmallVectorImpl<TraceStep> *Trace,
                             unsigned MaxSteps) const {
  llvm::SmallPtrSet<const VarDecl *, 8> Seen;
  unsigned Steps = MaxSteps;
  return Impl->describe(E, Level, Trace, Steps, Seen);
}

std::optional<ValueOrigin> FunctionUniformity::origin(const VarDecl *V,
                                                      Uniformity Level) const {
  auto It = Impl->Reasons.find(V);
  if (It == Impl->Reasons.end())
    return std::nullopt;
  const auto &R = It->second[static_cast<unsigned>(Level)];
  if (!R.Where)
    return std::nullopt;
  return ValueOrigin{R.Where, R.From, R.UnderControl};
}

bool FunctionUniformity::skippersOnlyLeave(const Stmt *S, Uniformity Level,
                                           uint64_t ParamMask) const {
  return Impl->skippersOnlyLeave(S, Level, ParamMask);
}

bool FunctionUniformity::quietAfter(const Stmt *S) const {
  return Impl->quietAfter(S);
}

bool FunctionUniformity::exitAvoiding(
    const Stmt *From, llvm::function_ref<bool(const Stmt *)> Stop) const {
  return Impl->exitAvoiding(From, Stop);
}

std::optional<LoopExit>
FunctionUniformity::earlyLoopExit(const Stmt *Barrier,
                                  Uniformity Level) const {
  return Impl->earlyLoopExit(Barrier, Level);
}

llvm::ArrayRef<BarrierSite> FunctionUniformity::barriers() const {
  return Impl->Barriers;
}

UniformValue FunctionUniformity::substitute(UniformValue V,
                                            const CallExpr *Call) const {
  return Impl->substitute(V, Call);
}

UniformityAnalysis::UniformityAnalysis(ASTContext &Ctx, UniformityOptions Opts)
    : Ctx(Ctx), Opts(Opts) {}
UniformityAnalysis::~UniformityAnalysis() = default;

const FunctionUniformity *UniformityAnalysis::analyze(const FunctionDecl *F) {
  if (!F)
    return nullptr;
  const FunctionDecl *Def = nullptr;
  if (!F->hasBody(Def) || !Def)
    return nullptr;
  auto &Slot = Cache[Def];
  if (!Slot)
    Slot = std::make_unique<Entry>();
  Entry *E = Slot.get();
  if (E->Result || E->Failed)
    return E->Result.get();
  if (E->InProgress || Depth >= MaxSummaryDepth || Work > MaxWork)
    return nullptr;

  E->InProgress = true;
  ++Depth;
  auto Impl = std::make_unique<FunctionUniformityImpl>(*this, Def);
  bool Ok = Impl->run();
  --Depth;
  // The cache may have grown while analysing callees.
  E = Cache[Def].get();
  E->InProgress = false;
  if (!Ok) {
    E->Failed = true;
    return nullptr;
  }

  FunctionSummary &S = E->Summary;
  const SourceManager &SM = Ctx.getSourceManager();
  bool System = SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation()));
  for (const BarrierSite &B : Impl->Barriers) {
    if (B.WarpBarrier)
      continue;
    if (!S.ReachesBarrier) {
      S.ReachesBarrier = true;
      S.FirstBarrier = B;
    }
    UniformValue Ctl = Impl->CtlFull[Impl->blockOf(B.Site)->getBlockID()];
    if (const auto *Call = dyn_cast<CallExpr>(B.Site); Call && B.Callee)
      if (const FunctionSummary *CS = summary(B.Callee))
        Ctl = join(Ctl, Impl->substitute(CS->BarrierControl, Call));
    if (!System)
      S.BarrierControl.Params |= Ctl.Params;
  }
  S.Return = Impl->ReturnLevel;
  S.Store = Impl->StoreLevel;
  E->Result = std::make_unique<FunctionUniformity>(std::move(Impl));
  return E->Result.get();
}

const FunctionSummary *UniformityAnalysis::summary(const FunctionDecl *F) {
  if (!analyze(F))
    return nullptr;
  const FunctionDecl *Def = nullptr;
  F->hasBody(Def);
  return &Cache.find(Def)->second->Summary;
}

} // namespace cuda_tidy
