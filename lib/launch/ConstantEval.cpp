//===--- ConstantEval.cpp - Byte counts and dims proven constant ----------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/launch/ConstantEval.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace cuda_tidy {

static constexpr unsigned MaxDepth = 16;

std::string Dim3::str() const {
  return "(" + std::to_string(X) + ", " + std::to_string(Y) + ", " +
         std::to_string(Z) + ")";
}

static bool isUnusable(const Expr *E) {
  return !E || E->isValueDependent() || E->isTypeDependent() ||
         E->containsErrors();
}

/// Skips parentheses, temporaries and the implicit casts that do not change
/// a value's meaning for us.
static const Expr *skipTransparent(const Expr *E) {
  while (E) {
    const Expr *Next = nullptr;
    if (const auto *P = dyn_cast<ParenExpr>(E))
      Next = P->getSubExpr();
    else if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      Next = EWC->getSubExpr();
    else if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
      Next = MTE->getSubExpr();
    else if (const auto *BTE = dyn_cast<CXXBindTemporaryExpr>(E))
      Next = BTE->getSubExpr();
    else if (const auto *DAE = dyn_cast<CXXDefaultArgExpr>(E))
      Next = DAE->getExpr();
    else if (const auto *Cast = dyn_cast<CastExpr>(E))
      Next = Cast->getSubExpr();
    if (!Next)
      return E;
    E = Next;
  }
  return E;
}

/// The local variable E names, if any.
static const VarDecl *localVar(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E);
  if (!DRE)
    return nullptr;
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || isa<ParmVarDecl>(VD) || !VD->isLocalVarDecl() ||
      VD->getType().isVolatileQualified() || VD->getType()->isReferenceType())
    return nullptr;
  return VD;
}

const Expr *argumentFor(const CallFrame &Frame, const ParmVarDecl *P) {
  if (!Frame.Call || !Frame.Callee || P->isParameterPack())
    return nullptr;
  const auto *Owner = dyn_cast<FunctionDecl>(P->getDeclContext());
  if (!Owner ||
      Owner->getCanonicalDecl() != Frame.Callee->getCanonicalDecl())
    return nullptr;
  unsigned Index = P->getFunctionScopeIndex();
  // An operator call on an object passes the object as argument 0.
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Frame.Call))
    if (isa<CXXMethodDecl>(Owner) &&
        !cast<CXXMethodDecl>(Owner)->isStatic() && OC->getNumArgs() > 0)
      ++Index;
  if (Index >= Frame.Call->getNumArgs())
    return nullptr;
  return Frame.Call->getArg(Index);
}

std::optional<uint64_t> ConstantEvaluator::evaluateInt(const Expr *E,
                                                       const CallFrame *Frame) {
  return evaluateIntImpl(E, Frame, 0);
}

std::optional<Dim3> ConstantEvaluator::evaluateDim3(const Expr *E,
                                                    const CallFrame *Frame) {
  return evaluateDim3Impl(E, Frame, 0);
}

const Expr *ConstantEvaluator::boundArgument(const Expr *E,
                                             const CallFrame *Frame,
                                             const CallFrame *&ArgFrame) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E);
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  if (!P)
    return nullptr;
  const Expr *Arg = Frame ? argumentFor(*Frame, P) : nullptr;
  if (!Arg || !isReadOnlyParam(P)) {
    noteUnboundParam(P);
    return nullptr;
  }
  ArgFrame = Frame->Parent;
  // A defaulted argument is written in the callee's declaration and names
  // no parameter of it.
  if (const auto *DAE = dyn_cast<CXXDefaultArgExpr>(Arg)) {
    Arg = DAE->getExpr();
    ArgFrame = nullptr;
  }
  return Arg;
}

std::optional<uint64_t> ConstantEvaluator::evaluateIntImpl(
    const Expr *E, const CallFrame *Frame, unsigned Depth) {
  if (isUnusable(E) || Depth > MaxDepth)
    return std::nullopt;
  if (E->getType()->isIntegralOrEnumerationType()) {
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx)) {
      const llvm::APSInt &V = R.Val.getInt();
      if (V.isSigned() && V.isNegative())
        return std::nullopt;
      if (V.getActiveBits() > 64)
        return std::nullopt;
      return V.getZExtValue();
    }
  }
  E = E->IgnoreParens();
  if (const auto *DAE = dyn_cast<CXXDefaultArgExpr>(E))
    return evaluateIntImpl(DAE->getExpr(), Frame, Depth + 1);
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    const Expr *Sub = Cast->getSubExpr();
    if (Sub->getType()->isIntegralOrEnumerationType() ||
        Cast->getCastKind() == CK_LValueToRValue)
      return evaluateIntImpl(Sub, Frame, Depth + 1);
    return std::nullopt;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    std::optional<uint64_t> L = evaluateIntImpl(BO->getLHS(), Frame, Depth + 1);
    if (!L)
      return std::nullopt;
    std::optional<uint64_t> R = evaluateIntImpl(BO->getRHS(), Frame, Depth + 1);
    if (!R)
      return std::nullopt;
    uint64_t Out = 0;
    switch (BO->getOpcode()) {
    case BO_Add:
      if (__builtin_add_overflow(*L, *R, &Out))
        return std::nullopt;
      return Out;
    case BO_Sub:
      if (*L < *R)
        return std::nullopt;
      return *L - *R;
    case BO_Mul:
      if (__builtin_mul_overflow(*L, *R, &Out))
        return std::nullopt;
      return Out;
    case BO_Div:
      return *R ? std::optional<uint64_t>(*L / *R) : std::nullopt;
    case BO_Rem:
      return *R ? std::optional<uint64_t>(*L % *R) : std::nullopt;
    case BO_Shl:
      if (*R >= 64 || (*L >> (63 - *R)) > 1)
        return std::nullopt;
      return *L << *R;
    case BO_Shr:
      return *R >= 64 ? 0 : *L >> *R;
    case BO_And:
      return *L & *R;
    case BO_Or:
      return *L | *R;
    case BO_Xor:
      return *L ^ *R;
    default:
      return std::nullopt;
    }
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    std::optional<uint64_t> C = evaluateIntImpl(CO->getCond(), Frame, Depth + 1);
    if (!C)
      return std::nullopt;
    return evaluateIntImpl(*C ? CO->getTrueExpr() : CO->getFalseExpr(),
                           Frame, Depth + 1);
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    // grid.x of a known dim3.
    if (ME->isArrow())
      return std::nullopt;
    const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!Field)
      return std::nullopt;
    std::optional<Dim3> D = evaluateDim3Impl(ME->getBase(), Frame, Depth + 1);
    if (!D)
      return std::nullopt;
    return llvm::StringSwitch<std::optional<uint64_t>>(Field->getName())
        .Case("x", D->X)
        .Case("y", D->Y)
        .Case("z", D->Z)
        .Default(std::nullopt);
  }
  if (const VarDecl *VD = localVar(E))
    if (const Expr *Value = singleValue(VD))
      return evaluateIntImpl(Value, Frame, Depth + 1);
  const CallFrame *ArgFrame = nullptr;
  if (const Expr *Arg = boundArgument(E, Frame, ArgFrame))
    return evaluateIntImpl(Arg, ArgFrame, Depth + 1);
  return std::nullopt;
}

/// Whether RD is CUDA's dim3.
static bool isDim3(const CXXRecordDecl *RD) {
  return RD && RD->getIdentifier() && RD->getName() == "dim3";
}

std::optional<Dim3> ConstantEvaluator::evaluateDim3Impl(const Expr *E,
                                                        const CallFrame *Frame,
                                                        unsigned Depth) {
  if (isUnusable(E) || Depth > MaxDepth)
    return std::nullopt;
  if (E->getType()->isIntegralOrEnumerationType()) {
    if (std::optional<uint64_t> V = evaluateIntImpl(E, Frame, Depth + 1))
      return Dim3{*V, 1, 1};
    return std::nullopt;
  }
  // A constant dim3 (constexpr variables, constant constructor calls).
  if (E->isPRValue() || E->isGLValue()) {
    Expr::EvalResult R;
    if (E->getType()->isRecordType() && E->EvaluateAsRValue(R, Ctx) &&
        R.Val.isStruct() && R.Val.getStructNumFields() == 3 &&
        R.Val.getStructNumBases() == 0) {
      uint64_t V[3];
      bool Ok = true;
      for (unsigned I = 0; I < 3 && Ok; ++I) {
        const APValue &F = R.Val.getStructField(I);
        Ok = F.isInt() && !(F.getInt().isSigned() && F.getInt().isNegative());
        if (Ok)
          V[I] = F.getInt().getZExtValue();
      }
      if (Ok)
        return Dim3{V[0], V[1], V[2]};
    }
  }
  const Expr *S = skipTransparent(E);
  if (S != E)
    return evaluateDim3Impl(S, Frame, Depth + 1);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    if (Ctor->isCopyOrMoveConstructor() && CE->getNumArgs() >= 1)
      return evaluateDim3Impl(CE->getArg(0), Frame, Depth + 1);
    if (!isDim3(Ctor->getParent()) || CE->getNumArgs() > 3)
      return std::nullopt;
    uint64_t V[3] = {1, 1, 1};
    for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
      std::optional<uint64_t> A = evaluateIntImpl(CE->getArg(I), Frame, Depth + 1);
      if (!A)
        return std::nullopt;
      V[I] = *A;
    }
    return Dim3{V[0], V[1], V[2]};
  }
  if (const auto *ILE = dyn_cast<InitListExpr>(E)) {
    if (!isDim3(E->getType()->getAsCXXRecordDecl()))
      return std::nullopt;
    uint64_t V[3] = {1, 1, 1};
    for (unsigned I = 0; I < ILE->getNumInits() && I < 3; ++I) {
      std::optional<uint64_t> A = evaluateIntImpl(ILE->getInit(I), Frame, Depth + 1);
      if (!A)
        return std::nullopt;
      V[I] = *A;
    }
    return Dim3{V[0], V[1], V[2]};
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (VD && VD->getType().isConstQualified() && VD->getInit() &&
        !VD->getType().isVolatileQualified())
      return evaluateDim3Impl(VD->getInit(), Frame, Depth + 1);
    if (const VarDecl *Local = localVar(E))
      if (const Expr *Value = singleValue(Local))
        return evaluateDim3Impl(Value, Frame, Depth + 1);
    const CallFrame *ArgFrame = nullptr;
    if (const Expr *Arg = boundArgument(E, Frame, ArgFrame))
      return evaluateDim3Impl(Arg, ArgFrame, Depth + 1);
  }
  return std::nullopt;
}

/// Visits every statement under S, in source order.
template <typename Fn> static void forEachStmt(const Stmt *S, Fn &&F) {
  if (!S)
    return;
  F(S);
  for (const Stmt *Child : S->children())
    forEachStmt(Child, F);
}

LocalParents::LocalParents(const Stmt *Body) { index(Body); }

void LocalParents::index(const Stmt *S) {
  if (!S)
    return;
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      DeclParents[D] = DS;
      if (const auto *VD = dyn_cast<VarDecl>(D))
        if (const Expr *Init = VD->getInit()) {
          StmtParents[Init] = DynTypedNode::create(*VD);
          index(Init);
        }
    }
    return;
  }
  for (const Stmt *Child : S->children()) {
    if (!Child)
      continue;
    StmtParents[Child] = DynTypedNode::create(*S);
    index(Child);
  }
}

DynTypedNode LocalParents::parent(const DynTypedNode &N) const {
  if (const auto *S = N.get<Stmt>()) {
    auto It = StmtParents.find(S);
    return It == StmtParents.end() ? DynTypedNode() : It->second;
  }
  if (const auto *D = N.get<Decl>()) {
    auto It = DeclParents.find(D);
    if (It != DeclParents.end())
      return DynTypedNode::create(*It->second);
  }
  return DynTypedNode();
}

const LocalParents &ConstantEvaluator::parentsIn(const Stmt *Body) {
  std::unique_ptr<LocalParents> &Slot = Parents[Body];
  if (!Slot)
    Slot = std::make_unique<LocalParents>(Body);
  return *Slot;
}

/// The first parent of E that is not a parenthesis.
static DynTypedNode parentSkippingParens(const Expr *&E,
                                         const LocalParents &Index) {
  while (true) {
    DynTypedNode P = Index.parent(*E);
    if (const auto *Paren = P.get<ParenExpr>()) {
      E = Paren;
      continue;
    }
    return P;
  }
}

ConstantEvaluator::VarUses ConstantEvaluator::scanUses(const VarDecl *VD,
                                                      const Stmt *Body) {
  VarUses U;
  const LocalParents &Index = parentsIn(Body);
  forEachStmt(Body, [&](const Stmt *S) {
    const auto *DRE = dyn_cast<DeclRefExpr>(S);
    if (U.Escapes || !DRE || DRE->getDecl() != VD)
      return;
    const Expr *Use = DRE;
    DynTypedNode Parent = parentSkippingParens(Use, Index);
    if (const auto *Cast = Parent.get<ImplicitCastExpr>()) {
      if (Cast->getCastKind() == CK_LValueToRValue ||
          Cast->getCastKind() == CK_FunctionToPointerDecay)
        return;
      // A dim3 copied into a parameter or a config field.
      if (Cast->getCastKind() == CK_NoOp)
        if (const auto *CE = Index.parent(*Cast).get<CXXConstructExpr>())
          if (CE->getConstructor()->isCopyConstructor())
            return;
    }
    if (const auto *CE = Parent.get<CXXConstructExpr>())
      if (CE->getConstructor()->isCopyConstructor())
        return;
    if (Parent.get<UnaryExprOrTypeTraitExpr>())
      return;
    if (const auto *ME = Parent.get<MemberExpr>()) {
      // Reading grid.x is fine; anything else goes through the parent check.
      const Expr *MUse = ME;
      DynTypedNode MP = parentSkippingParens(MUse, Index);
      if (const auto *Cast = MP.get<ImplicitCastExpr>())
        if (Cast->getCastKind() == CK_LValueToRValue)
          return;
      U.Escapes = true;
      return;
    }
    if (const auto *BO = Parent.get<BinaryOperator>()) {
      if (BO->getOpcode() == BO_Assign && BO->getLHS()->IgnoreParens() == DRE) {
        ++U.Assignments;
        U.Assigned = BO->getRHS();
        return;
      }
    }
    U.Escapes = true;
  });
  return U;
}

const Expr *ConstantEvaluator::singleValue(const VarDecl *VD) {
  if (!VD)
    return nullptr;
  auto Cached = SingleValues.find(VD);
  if (Cached != SingleValues.end())
    return Cached->second;
  SingleValues[VD] = nullptr; // Breaks cycles (x = x + 1).

  const auto *FD =
      dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
  const Stmt *Body = FD ? FD->getBody() : nullptr;
  if (!Body)
    return nullptr;
  VarUses U = scanUses(VD, Body);
  const Expr *Result = nullptr;
  if (!U.Escapes) {
    if (VD->getInit() && U.Assignments == 0)
      Result = VD->getInit(); // Also dim3 grid(4, 2);
    else if (!VD->getInit() && U.Assignments == 1)
      Result = U.Assigned;
  }
  SingleValues[VD] = Result;
  return Result;
}

bool ConstantEvaluator::isReadOnlyParam(const ParmVarDecl *P) {
  auto Cached = ReadOnlyParams.find(P);
  if (Cached != ReadOnlyParams.end())
    return Cached->second;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(P->getDeclContext());
  const Stmt *Body = FD ? FD->getBody() : nullptr;
  bool ReadOnly = false;
  if (Body && !P->getType().isVolatileQualified() &&
      !P->getType()->isReferenceType()) {
    VarUses U = scanUses(P, Body);
    ReadOnly = !U.Escapes && U.Assignments == 0;
  }
  ReadOnlyParams[P] = ReadOnly;
  return ReadOnly;
}

//===----------------------------------------------------------------------===//
// FieldWrites
//===----------------------------------------------------------------------===//

static bool isLaunchConfigCallee(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier())
    return false;
  return llvm::StringSwitch<bool>(FD->getName())
      .Cases({"cudaLaunchKernelEx", "cudaLaunchKernelExC"}, true)
      .Cases({"cuLaunchKernelEx", "cuLaunchKernelEx_ptsz"}, true)
      .Case("cudaLaunchKernelExC_ptsz", true)
      .Default(false);
}

const VarDecl *FieldWrites::accessPath(const Expr *E, ConstantEvaluator &Eval,
                                       std::string &Path) {
  E = E->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (ME->isArrow() || !isa<FieldDecl>(ME->getMemberDecl()) ||
        !ME->getMemberDecl()->getIdentifier())
      return nullptr;
    const VarDecl *VD = accessPath(ME->getBase(), Eval, Path);
    if (VD)
      Path += "." + ME->getMemberDecl()->getName().str();
    return VD;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    std::optional<uint64_t> Index = Eval.evaluateInt(ASE->getIdx());
    if (!Index)
      return nullptr;
    const VarDecl *VD = accessPath(ASE->getBase(), Eval, Path);
    if (VD)
      Path += "[" + std::to_string(*Index) + "]";
    return VD;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
        !VD->getType()->isReferenceType())
      return VD;
  }
  return nullptr;
}

/// The helper (a user function with a body) that a call reaches, or null.
static const FunctionDecl *helperOf(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || isa<CXXMethodDecl>(FD) || !FD->hasBody() ||
      isLaunchConfigCallee(Call))
    return nullptr;
  const FunctionDecl *Def = nullptr;
  FD->getBody(Def);
  if (!Def || Def->isDependentContext() ||
      FD->getASTContext().getSourceManager().isInSystemHeader(
          Def->getLocation()))
    return nullptr;
  return Def;
}

/// The argument E, given to parameter P by pointer (`&x.f`) or by reference
/// (`x.f`): the lvalue it designates, or null.
static const Expr *designatedLValue(const Expr *E, const ParmVarDecl *P) {
  E = E->IgnoreParenImpCasts();
  QualType T = P->getType();
  if (T->isPointerType()) {
    const auto *UO = dyn_cast<UnaryOperator>(E);
    if (!UO || UO->getOpcode() != UO_AddrOf)
      return nullptr;
    return UO->getSubExpr();
  }
  if (T->isLValueReferenceType() && !T.getNonReferenceType().isConstQualified())
    return E;
  return nullptr;
}

ConstantEvaluator::ConstantEvaluator(ASTContext &Ctx) : Ctx(Ctx) {}
ConstantEvaluator::~ConstantEvaluator() = default;

HelperSummaries &ConstantEvaluator::helpers() {
  if (!Helpers)
    Helpers = std::make_unique<HelperSummaries>(Ctx, *this);
  return *Helpers;
}

FieldWrites::FieldWrites(const Stmt *Body, ASTContext &Ctx,
                         ConstantEvaluator &Eval)
    : Ctx(Ctx), Eval(Eval) {
  const LocalParents &Index = Eval.parentsIn(Body);
  // Calls of helpers that write through their parameters, and the uses of
  // variables that they account for.
  llvm::DenseSet<const Expr *> CoveredArgs;
  forEachStmt(Body, [&](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    const FunctionDecl *Helper = helperOf(Call);
    if (!Helper)
      return;
    for (unsigned I = 0; I < Call->getNumArgs() && I < Helper->getNumParams();
         ++I) {
      const ParmVarDecl *P = Helper->getParamDecl(I);
      const Expr *Target = designatedLValue(Call->getArg(I), P);
      if (!Target)
        continue;
      std::string Prefix;
      const VarDecl *VD = accessPath(Target, Eval, Prefix);
      if (!VD)
        continue;
      const ParamWrites *PW = Eval.helpers().paramWrites(Helper, I);
      if (!PW || !PW->Covered)
        continue;
      CoveredArgs.insert(Call->getArg(I)->IgnoreParenImpCasts());
      for (const ParamWrites::Entry &E : PW->Writes) {
        Write W{VD, Prefix + E.Path, E.Value, Call->getBeginLoc(), {Call}};
        W.Through.append(E.Through.begin(), E.Through.end());
        Writes.push_back(std::move(W));
      }
    }
  });

  auto Record = [&](const Expr *LHS, const Expr *RHS, SourceLocation Loc) {
    std::string Path;
    const VarDecl *VD = accessPath(LHS, Eval, Path);
    if (VD)
      Writes.push_back({VD, Path, RHS, Loc, {}});
  };
  forEachStmt(Body, [&](const Stmt *S) {
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->getOpcode() == BO_Assign)
        Record(BO->getLHS(), BO->getRHS(), BO->getOperatorLoc());
      return;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
      if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
        Record(OC->getArg(0), OC->getArg(1), OC->getOperatorLoc());
      return;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(S);
    if (!DRE)
      return;
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->hasLocalStorage() ||
        !(VD->getType()->isRecordType() || VD->getType()->isArrayType()))
      return;
    // The outermost lvalue this use designates (`attrs[0].val` for attrs).
    const Expr *Top = DRE;
    DynTypedNode Parent = parentSkippingParens(Top, Index);
    while (true) {
      if (const auto *ME = Parent.get<MemberExpr>()) {
        if (ME->isArrow())
          break;
        Top = ME;
      } else if (const auto *Cast = Parent.get<ImplicitCastExpr>()) {
        if (Cast->getCastKind() != CK_ArrayToPointerDecay)
          break;
        const Expr *From = Cast;
        DynTypedNode P = parentSkippingParens(From, Index);
        const auto *ASE = P.get<ArraySubscriptExpr>();
        if (!ASE || ASE->getBase()->IgnoreParens() != Cast)
          break;
        Top = ASE;
      } else {
        break;
      }
      Parent = parentSkippingParens(Top, Index);
    }
    if (CoveredArgs.count(Top))
      return;
    if (Top != DRE) {
      // A field or element: written, read, or handed to a call.
      if (const auto *UO = Parent.get<UnaryOperator>())
        if (UO->getOpcode() == UO_AddrOf && !CoveredArgs.count(UO) &&
            !isa<ArraySubscriptExpr>(Top)) {
          // &cfg.field passed or stored somewhere.
          Escaped[VD] = true;
          return;
        }
      if (Parent.get<CallExpr>() && !Parent.get<CXXOperatorCallExpr>()) {
        // Given by reference to a call that is not a covered helper.
        const auto *Call = Parent.get<CallExpr>();
        const FunctionDecl *Callee = Call->getDirectCallee();
        for (unsigned I = 0; I < Call->getNumArgs(); ++I)
          if (Call->getArg(I)->IgnoreParens() == Top && Callee &&
              I < Callee->getNumParams() &&
              Callee->getParamDecl(I)->getType()->isReferenceType() &&
              !Callee->getParamDecl(I)
                   ->getType()
                   .getNonReferenceType()
                   .isConstQualified())
            Escaped[VD] = true;
      }
      return;
    }
    if (Parent.get<UnaryExprOrTypeTraitExpr>())
      return;
    // Copied out whole: returned, or copied into another variable.
    {
      const Expr *Copy = DRE;
      DynTypedNode Up = Parent;
      while (true) {
        const Expr *Next = Up.get<ImplicitCastExpr>();
        if (!Next)
          if (const auto *CE = Up.get<CXXConstructExpr>())
            if (CE->getConstructor()->isCopyOrMoveConstructor())
              Next = CE;
        if (!Next)
          break;
        Copy = Next;
        Up = parentSkippingParens(Copy, Index);
      }
      if (Copy != DRE && (Up.get<ReturnStmt>() || Up.get<VarDecl>()))
        return;
    }
    // The target of a whole-record assignment.
    if (const auto *BO = Parent.get<BinaryOperator>())
      if (BO->getOpcode() == BO_Assign && BO->getLHS()->IgnoreParens() == DRE)
        return;
    if (const auto *OC = Parent.get<CXXOperatorCallExpr>())
      if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
          OC->getArg(0)->IgnoreParens() == DRE)
        return;
    // The target of a field assignment: config.attrs = attrs / = &attr.
    auto StoredInField = [&](const Expr *From) {
      // A field of an aggregate initialiser: {grid, block, 0, s, &attr, 1}
      // (a designated one has a syntactic and a semantic parent).
      DynTypedNode Up = Index.parent(*From);
      if (Up.get<InitListExpr>() || Up.get<DesignatedInitExpr>())
        return true;
      DynTypedNode P = parentSkippingParens(From, Index);
      while (const auto *Cast = P.get<ImplicitCastExpr>()) {
        From = Cast;
        P = parentSkippingParens(From, Index);
      }
      if (const auto *BO = P.get<BinaryOperator>())
        return BO->getOpcode() == BO_Assign && BO->getRHS() == From &&
               isa<MemberExpr>(BO->getLHS()->IgnoreParenImpCasts());
      return P.get<InitListExpr>() || P.get<DesignatedInitExpr>();
    };
    if (const auto *Cast = Parent.get<ImplicitCastExpr>()) {
      if (Cast->getCastKind() == CK_ArrayToPointerDecay) {
        if (StoredInField(Cast))
          return;
      }
      if (Cast->getCastKind() == CK_LValueToRValue)
        return;
    }
    if (const auto *UO = Parent.get<UnaryOperator>()) {
      if (UO->getOpcode() == UO_AddrOf) {
        if (StoredInField(UO) || CoveredArgs.count(UO))
          return;
        const Expr *From = UO;
        DynTypedNode P = parentSkippingParens(From, Index);
        while (const auto *Cast = P.get<ImplicitCastExpr>()) {
          From = Cast;
          P = parentSkippingParens(From, Index);
        }
        if (const auto *Call = P.get<CallExpr>())
          if (isLaunchConfigCallee(Call) && Call->getNumArgs() > 0 &&
              Call->getArg(0)->IgnoreParenImpCasts() == UO)
            return;
      }
    }
    Escaped[VD] = true;
  });
}

/// The initialiser of the field path Path inside Init, an aggregate
/// initialiser; *IsZero when it is implicitly zero.
static const Expr *initializerAt(const Expr *Init, StringRef Path,
                                 bool *IsZero) {
  while (!Path.empty()) {
    const auto *ILE =
        dyn_cast_or_null<InitListExpr>(Init ? Init->IgnoreImplicit() : nullptr);
    if (!ILE)
      return nullptr;
    if (ILE->isSyntacticForm() && ILE->getSemanticForm())
      ILE = ILE->getSemanticForm();
    unsigned Index = 0;
    if (Path.consume_front("[")) {
      size_t Close = Path.find(']');
      if (Close == StringRef::npos ||
          Path.substr(0, Close).getAsInteger(10, Index))
        return nullptr;
      Path = Path.drop_front(Close + 1);
      if (!ILE->getType()->isArrayType())
        return nullptr;
    } else if (Path.consume_front(".")) {
      size_t End = Path.find_first_of(".[");
      StringRef Name = Path.substr(0, End);
      Path = End == StringRef::npos ? StringRef() : Path.drop_front(End);
      const RecordDecl *RD = ILE->getType()->getAsRecordDecl();
      if (!RD)
        return nullptr;
      if (RD->isUnion()) {
        // Only the member the initialiser names has a value.
        const FieldDecl *F = ILE->getInitializedFieldInUnion();
        if (!F || !F->getIdentifier() || F->getName() != Name ||
            ILE->getNumInits() != 1)
          return nullptr;
        Init = ILE->getInit(0);
        continue;
      }
      bool Found = false;
      for (const FieldDecl *F : RD->fields()) {
        if (F->getIdentifier() && F->getName() == Name) {
          Index = F->getFieldIndex();
          Found = true;
          break;
        }
      }
      if (!Found)
        return nullptr;
    } else {
      return nullptr;
    }
    if (Index >= ILE->getNumInits()) {
      // Past the written initialisers: the array filler or zero.
      *IsZero = true;
      return nullptr;
    }
    Init = ILE->getInit(Index);
    if (isa<ImplicitValueInitExpr>(Init)) {
      *IsZero = true;
      return nullptr;
    }
  }
  return Init;
}

/// Whether Prefix is Path or a record containing it ("" contains all).
static bool isPathPrefix(StringRef Prefix, StringRef Path) {
  if (!Path.starts_with(Prefix))
    return false;
  return Path.size() == Prefix.size() || Path[Prefix.size()] == '.' ||
         Path[Prefix.size()] == '[';
}

FieldValue FieldWrites::resolve(const Expr *Value, StringRef Rest,
                                llvm::ArrayRef<const CallExpr *> Through,
                                unsigned Depth) const {
  FieldValue Out;
  Out.Through.assign(Through.begin(), Through.end());
  if (Rest.empty() || !Value) {
    Out.Value = Value;
    return Out;
  }
  if (Depth > 4)
    return FieldValue();
  // Strip copies and temporaries down to the record's source.
  const Expr *E = Value;
  while (true) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
      if (CE->getConstructor()->isCopyOrMoveConstructor() &&
          CE->getNumArgs() == 1) {
        E = CE->getArg(0);
        continue;
      }
    if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = FC->getSubExpr();
      continue;
    }
    break;
  }
  if (isa<InitListExpr>(E)) {
    Out.Value = initializerAt(E, Rest, &Out.IsZero);
    return Out;
  }
  // A record returned by value from a helper.
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Helper = helperOf(Call);
    SourceLocation At;
    const VarDecl *Local =
        Helper ? Eval.helpers().returnedLocal(Helper, &At) : nullptr;
    if (!Local)
      return FieldValue();
    const FieldWrites &Inner = Eval.helpers().writesOf(Helper);
    FieldValue V = Inner.fieldAt(Local, Rest, At);
    FieldValue Result;
    Result.Value = V.Value;
    Result.IsZero = V.IsZero;
    Result.Through.assign(Through.begin(), Through.end());
    Result.Through.push_back(Call);
    Result.Through.append(V.Through.begin(), V.Through.end());
    return Result;
  }
  return FieldValue();
}

FieldValue FieldWrites::fieldAt(const VarDecl *Var, StringRef Path,
                                SourceLocation Loc) const {
  if (!Var || escapes(Var))
    return FieldValue();
  const SourceManager &SM = Ctx.getSourceManager();
  const Write *Last = nullptr;
  for (const Write &W : Writes) {
    if (W.Var != Var || !isPathPrefix(W.Path, Path))
      continue;
    if (Loc.isValid() && !SM.isBeforeInTranslationUnit(W.Loc, Loc))
      continue;
    if (!Last || !SM.isBeforeInTranslationUnit(W.Loc, Last->Loc))
      Last = &W;
  }
  if (Last)
    return resolve(Last->Value, StringRef(Path).drop_front(Last->Path.size()),
                   Last->Through, 0);
  const Expr *Init = Var->getInit();
  if (!Init)
    return FieldValue();
  return resolve(Init, Path, {}, 0);
}

const Expr *FieldWrites::valueAt(const VarDecl *Var, StringRef Path,
                                 SourceLocation Loc, bool *IsZero) const {
  FieldValue V = fieldAt(Var, Path, Loc);
  if (IsZero)
    *IsZero = V.IsZero;
  return V.Through.empty() ? V.Value : nullptr;
}

//===----------------------------------------------------------------------===//
// HelperSummaries
//===----------------------------------------------------------------------===//

const FieldWrites &HelperSummaries::writesOf(const FunctionDecl *FD) {
  std::unique_ptr<FieldWrites> &Slot = Writes[FD];
  if (!Slot)
    Slot = std::make_unique<FieldWrites>(FD->getBody(), Ctx, Eval);
  return *Slot;
}

/// The path of an lvalue based on parameter P (`p->a.b`, `(*p).a`, `p[0]`,
/// `r.a` for a reference), relative to the record P refers to.
static bool paramPath(const Expr *E, const ParmVarDecl *P,
                      ConstantEvaluator &Eval, std::string &Path) {
  E = E->IgnoreParenImpCasts();
  auto IsP = [&](const Expr *X) {
    const auto *DRE = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == P;
  };
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (!isa<FieldDecl>(ME->getMemberDecl()) ||
        !ME->getMemberDecl()->getIdentifier())
      return false;
    std::string Member = "." + ME->getMemberDecl()->getName().str();
    if (ME->isArrow()) {
      if (!IsP(ME->getBase()) || !P->getType()->isPointerType())
        return false;
      Path = Member;
      return true;
    }
    if (!paramPath(ME->getBase(), P, Eval, Path))
      return false;
    Path += Member;
    return true;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    std::optional<uint64_t> Index = Eval.evaluateInt(ASE->getIdx());
    if (!Index)
      return false;
    if (IsP(ASE->getBase()) && P->getType()->isPointerType()) {
      if (*Index != 0)
        return false;
      Path.clear();
      return true;
    }
    if (!paramPath(ASE->getBase(), P, Eval, Path))
      return false;
    Path += "[" + std::to_string(*Index) + "]";
    return true;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_Deref && IsP(UO->getSubExpr()) &&
        P->getType()->isPointerType()) {
      Path.clear();
      return true;
    }
  if (IsP(E) && P->getType()->isReferenceType()) {
    Path.clear();
    return true;
  }
  return false;
}

const FieldWrites::ParamWrites *
HelperSummaries::paramWrites(const FunctionDecl *FD, unsigned Index) {
  auto Key = std::make_pair(FD, Index);
  auto It = Params.find(Key);
  if (It != Params.end())
    return It->second.get(); // Null while being built: recursion.
  Params[Key] = nullptr;
  const ParmVarDecl *P = FD->getParamDecl(Index);
  QualType T = P->getType();
  if (!(T->isPointerType() || T->isLValueReferenceType()) ||
      !T->getPointeeType()->isRecordType() ||
      T->getPointeeType().isConstQualified())
    return nullptr;
  auto Summary = std::make_unique<FieldWrites::ParamWrites>();
  const Stmt *Body = FD->getBody();
  const LocalParents &Parents = Eval.parentsIn(Body);
  // The writes, and the uses of P that they (or reads) account for.
  llvm::DenseSet<const Stmt *> Accounted;
  forEachStmt(Body, [&](const Stmt *S) {
    const Expr *LHS = nullptr, *RHS = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->getOpcode() == BO_Assign) {
        LHS = BO->getLHS();
        RHS = BO->getRHS();
      }
    } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
      if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
        LHS = OC->getArg(0);
        RHS = OC->getArg(1);
      }
    } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      // P handed on to another helper.
      const FunctionDecl *Helper = helperOf(Call);
      for (unsigned I = 0; Helper && I < Call->getNumArgs() &&
                           I < Helper->getNumParams();
           ++I) {
        const Expr *Arg = Call->getArg(I)->IgnoreParenImpCasts();
        std::string Prefix;
        const Expr *Target = designatedLValue(Arg, Helper->getParamDecl(I));
        bool Passed = false;
        if (const auto *DRE = dyn_cast<DeclRefExpr>(Arg))
          if (DRE->getDecl() == P && T->isPointerType() &&
              Helper->getParamDecl(I)->getType()->isPointerType())
            Passed = true; // fill(c) with c a pointer: the whole record.
        if (!Passed && Target && paramPath(Target, P, Eval, Prefix))
          Passed = true;
        if (!Passed)
          continue;
        const FieldWrites::ParamWrites *Inner = paramWrites(Helper, I);
        if (!Inner || !Inner->Covered)
          return;
        Accounted.insert(Arg);
        for (const auto &E : Inner->Writes) {
          FieldWrites::ParamWrites::Entry Entry{Prefix + E.Path, E.Value,
                                                {Call}};
          Entry.Through.append(E.Through.begin(), E.Through.end());
          Summary->Writes.push_back(std::move(Entry));
        }
      }
    }
    std::string Path;
    if (LHS && paramPath(LHS, P, Eval, Path)) {
      Summary->Writes.push_back({Path, RHS, {}});
      Accounted.insert(LHS->IgnoreParenImpCasts());
    }
  });
  // Every other use of P must be a read of a field.
  forEachStmt(Body, [&](const Stmt *S) {
    const auto *DRE = dyn_cast<DeclRefExpr>(S);
    if (!Summary->Covered || !DRE || DRE->getDecl() != P)
      return;
    // Walk up to the outermost lvalue based on P.
    const Expr *Top = DRE;
    bool ThroughField = false;
    while (true) {
      const Expr *Up = Parents.parent(*Top).get<Expr>();
      if (!Up || !(isa<MemberExpr>(Up) || isa<ArraySubscriptExpr>(Up) ||
                   isa<ParenExpr>(Up) || isa<ImplicitCastExpr>(Up) ||
                   (isa<UnaryOperator>(Up) &&
                    cast<UnaryOperator>(Up)->getOpcode() == UO_Deref)))
        break;
      if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Up))
        if (Cast->getCastKind() == CK_LValueToRValue &&
            !isa<MemberExpr>(Top) && !isa<ArraySubscriptExpr>(Top) &&
            Top != DRE)
          break;
      Top = Up;
      if (!isa<ImplicitCastExpr>(Up) && !isa<ParenExpr>(Up))
        ThroughField = true;
      if (Accounted.count(Top->IgnoreParenImpCasts()))
        return;
    }
    if (Accounted.count(Top->IgnoreParenImpCasts()) || Accounted.count(DRE))
      return;
    // A read of a field: the lvalue is loaded.
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Top))
      if (Cast->getCastKind() == CK_LValueToRValue && ThroughField)
        return;
    Summary->Covered = false;
  });
  // Later writes to a path replace earlier ones (source order).
  FieldWrites::ParamWrites *Result = Summary.get();
  Params[Key] = std::move(Summary);
  return Result;
}

const VarDecl *HelperSummaries::returnedLocal(const FunctionDecl *FD,
                                              SourceLocation *At) {
  const VarDecl *Local = nullptr;
  bool Ok = true;
  forEachStmt(FD->getBody(), [&](const Stmt *S) {
    const auto *RS = dyn_cast<ReturnStmt>(S);
    if (!RS || !Ok)
      return;
    const Expr *V = RS->getRetValue();
    if (V)
      V = V->IgnoreImplicit()->IgnoreParenImpCasts();
    if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(V))
      if (CE->getConstructor()->isCopyOrMoveConstructor() &&
          CE->getNumArgs() == 1)
        V = CE->getArg(0)->IgnoreImplicit()->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast_or_null<DeclRefExpr>(V);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) ||
        (Local && Local != VD)) {
      Ok = false;
      return;
    }
    Local = VD;
    *At = RS->getBeginLoc();
  });
  return Ok ? Local : nullptr;
}

} // namespace cuda_tidy
