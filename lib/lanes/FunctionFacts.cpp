//===--- FunctionFacts.cpp - What the lane model knows of a body ----------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/lanes/FunctionFacts.h"
#include "lib/ast/CudaAST.h"
#include "lib/ast/FunctionCfgs.h"
#include "lib/uniformity/Uniformity.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_tidy::lanes {

FunctionFacts::FunctionFacts(ASTContext &Ctx, FunctionCfgs *Cfgs)
    : Ctx(Ctx), Cfgs(Cfgs) {}

const void *sharedKey(const VarDecl *V) {
  // Every extern __shared__ array starts at the same address.
  static const char DynamicShared = 0;
  if (V->hasExternalStorage())
    return &DynamicShared;
  return V->getCanonicalDecl();
}

const Type *dependentElementType(const ArraySubscriptExpr *ASE) {
  if (!ASE->getType()->isDependentType())
    return nullptr;
  QualType Base = ASE->getBase()->IgnoreParens()->getType();
  QualType Elem;
  if (const auto *PT = Base->getAs<PointerType>())
    Elem = PT->getPointeeType();
  else if (const ArrayType *AT = Base->getAsArrayTypeUnsafe())
    Elem = AT->getElementType();
  if (Elem.isNull() || !Elem->isDependentType() || Elem->isArrayType() ||
      Elem->isPointerType() || Elem->isReferenceType())
    return nullptr;
  return Elem.getCanonicalType().getUnqualifiedType().getTypePtr();
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

bool FunctionFacts::isModified(FunctionInfo &I, const VarDecl *V) {
  return I.Mods.count(V) != 0;
}

bool FunctionFacts::isBarrierStmt(const Stmt *S) {
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

bool FunctionFacts::reachesBarrier(const FunctionDecl *F,
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

FunctionInfo &FunctionFacts::info(const FunctionDecl *F) {
  std::unique_ptr<FunctionInfo> &Slot = Infos[F];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<FunctionInfo>();
  FunctionInfo &I = *Slot;
  I.F = F;
  Stmt *Body = F->getBody();
  if (!Body)
    return I;
  FunctionCfg Built = Cfgs ? Cfgs->of(F, Body) : buildFunctionCfg(F, Body, Ctx);
  I.PM = std::move(Built.PM);
  I.Cfg = std::move(Built.Cfg);
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
  for (const auto &[For, SL] : I.Strides)
    I.StrideOfVar[SL.Var] = &SL;
  I.Ok = true;
  return I;
}

llvm::ArrayRef<const Expr *>
FunctionFacts::returnsOf(const FunctionDecl *F) {
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

const Stmt *FunctionFacts::statementOf(const Stmt *E,
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

/// Collects the candidate accesses of a function (syntactically).
/// `&x` is the address an atomic function of the CUDA headers (`atomicAdd`,
/// `atomicCAS`, their `_block` and `_system` forms, ...) operates on.
static bool isAtomicTarget(const UnaryOperator *AddrOf, FunctionInfo &I) {
  const Stmt *Child = AddrOf;
  const Stmt *Parent = I.PM->getParent(Child);
  while (Parent && isa<ParenExpr, ImplicitCastExpr>(Parent)) {
    Child = Parent;
    Parent = I.PM->getParent(Parent);
  }
  const auto *Call = dyn_cast_or_null<CallExpr>(Parent);
  if (!Call || Call->getNumArgs() < 1 || Call->getArg(0) != Child)
    return false;
  const FunctionDecl *Callee = Call->getDirectCallee();
  return Callee && Callee->getDeclName().isIdentifier() &&
         Callee->getName().starts_with("atomic");
}

/// How an element of dependent type (Child, E with its parentheses) is used
/// by its parent in a template pattern, where no lvalue-to-rvalue
/// conversion is spelled: written on the left of an assignment, read as an
/// operand, an initialiser or return value that is not a reference, or an
/// argument of a call whose callee is not resolved (a functor of dependent
/// type, `op(t, s[i - 1])`).
static std::optional<Role> dependentRole(const Stmt *Child,
                                         const Stmt *Parent,
                                         const FunctionInfo &I) {
  if (const auto *BO = dyn_cast<BinaryOperator>(Parent)) {
    if (BO->getOpcode() == BO_Comma)
      return std::nullopt;
    if (BO->isAssignmentOp() && BO->getLHS() == Child)
      return BO->getOpcode() == BO_Assign ? Role::Write : Role::ReadWrite;
    return Role::Read;
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Parent)) {
    const OverloadedOperatorKind Op = OC->getOperator();
    if (OC->getNumArgs() < 1 || OC->getCallee() == Child)
      return std::nullopt;
    if (Op == OO_PlusPlus || Op == OO_MinusMinus)
      return Role::ReadWrite;
    if (OC->isAssignmentOp() && OC->getArg(0) == Child)
      return Op == OO_Equal ? Role::Write : Role::ReadWrite;
    switch (Op) {
    case OO_Plus: case OO_Minus: case OO_Star: case OO_Slash:
    case OO_Percent: case OO_Caret: case OO_Amp: case OO_Pipe:
    case OO_Tilde: case OO_Exclaim: case OO_Less: case OO_Greater:
    case OO_LessEqual: case OO_GreaterEqual: case OO_EqualEqual:
    case OO_ExclaimEqual: case OO_LessLess: case OO_GreaterGreater:
    case OO_AmpAmp: case OO_PipePipe:
      return Role::Read;
    default:
      return OC->isAssignmentOp() ? std::optional<Role>(Role::Read)
                                  : std::nullopt;
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(Parent)) {
    switch (UO->getOpcode()) {
    case UO_Plus: case UO_Minus: case UO_Not: case UO_LNot:
      return Role::Read;
    default:
      return std::nullopt;
    }
  }
  if (const auto *DS = dyn_cast<DeclStmt>(Parent)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D);
          VD && VD->getInit() == Child && !VD->getType()->isReferenceType())
        return Role::Read;
    return std::nullopt;
  }
  if (isa<ReturnStmt>(Parent))
    return I.F->getReturnType()->isReferenceType()
               ? std::nullopt
               : std::optional<Role>(Role::Read);
  if (const auto *CE = dyn_cast<CallExpr>(Parent);
      CE && !isa<CXXOperatorCallExpr>(CE) && CE->getCallee() != Child &&
      !CE->getDirectCallee() && CE->getCallee()->isTypeDependent())
    return Role::Read;
  return std::nullopt;
}

static void collectAccesses(const Stmt *S, FunctionInfo &I,
                            FunctionFacts &A) {
  if (!S || isa<LambdaExpr>(S))
    return;
  for (const Stmt *Child : S->children())
    collectAccesses(Child, I, A);
  const auto *E = dyn_cast<Expr>(S);
  // A `__shared__` scalar named directly (`__shared__ float v;`): for the
  // block-level race finder only (Access::SharedScalar).
  bool SharedScalar = false;
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V || !V->hasAttr<CUDASharedAttr>())
      return;
    SharedScalar = true;
  } else if (!E || !isa<ArraySubscriptExpr, MemberExpr, UnaryOperator>(E)) {
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() != UO_Deref)
      return;
  QualType T = E->getType();
  // An element of dependent type in a template pattern (its type is
  // unknown: no lvalue-to-rvalue conversion is spelled).
  const auto *ASE = dyn_cast<ArraySubscriptExpr>(E);
  const bool Dependent = ASE && I.F->isDependentContext() &&
                         dependentElementType(ASE) != nullptr;
  if (T.isNull() || !E->isGLValue() || T->isArrayType() || T->isRecordType() ||
      (!Dependent && (T->isDependentType() || !T->isScalarType())))
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
    else if (UO->getOpcode() == UO_AddrOf && isAtomicTarget(UO, I))
      R = Role::Atomic;
  }
  if (!R && Dependent)
    R = dependentRole(Child, Parent, I);
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
  Access Acc{E,  *R,         A.statementOf(E, I), Found->second, {},
             {}, false,      SharedScalar, Dependent};
  I.Accesses.push_back(std::move(Acc));
}

llvm::SmallVectorImpl<Access> &FunctionFacts::accessesOf(FunctionInfo &I) {
  if (I.Accesses.empty())
    collectAccesses(I.F->getBody(), I, *this);
  return I.Accesses;
}

llvm::ArrayRef<std::pair<const CallExpr *, Pos>>
FunctionFacts::callsOf(FunctionInfo &I) {
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

ReachSet FunctionFacts::reach(FunctionInfo &I, Pos Target,
                              const llvm::DenseSet<unsigned> &Entered) {
  return reach(I, Target, Entered, I.Barrier);
}

ReachSet FunctionFacts::reach(
    FunctionInfo &I, Pos Target, const llvm::DenseSet<unsigned> &Entered,
    const BarrierTable &Barrier, llvm::ArrayRef<unsigned> SkipFrom,
    llvm::ArrayRef<std::pair<unsigned, unsigned>> DeadEdges) {
  ReachSet Out;
  // The target's own block, before the target.
  unsigned Lo = Target.Index;
  bool Blocked = false;
  while (Lo > 0) {
    if (Barrier[Target.Block][Lo - 1]) {
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
      if (!PB || llvm::is_contained(SkipFrom, PB->getBlockID()) ||
          llvm::is_contained(DeadEdges, std::pair(PB->getBlockID(), Block)))
        continue;
      bool Back = I.Dom->dominates(B, PB);
      if (OnlyBack && !Back)
        continue;
      bool Exit = Entered.contains(PB->getBlockID()) &&
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
    const auto &Bar = Barrier[Block];
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

} // namespace cuda_tidy::lanes
