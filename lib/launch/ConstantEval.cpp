//===--- ConstantEval.cpp - Byte counts and dims proven constant ----------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The evaluator's core (integers and dim3 values, parameters bound in call
// frames) and what it knows of local variables (assigned once, read-only
// parameters). FieldWrites.cpp follows the fields of records filled field
// by field and the helpers that fill them.
//
//===----------------------------------------------------------------------===//

#include "lib/launch/ConstantEval.h"
#include "lib/launch/BodyWalk.h"
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
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_LNot) {
    std::optional<uint64_t> V =
        evaluateIntImpl(UO->getSubExpr(), Frame, Depth + 1);
    return V ? std::optional<uint64_t>(*V == 0) : std::nullopt;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && (BO->getOpcode() == BO_LAnd || BO->getOpcode() == BO_LOr)) {
    // One proven side decides: false for &&, true for ||.
    const bool And = BO->getOpcode() == BO_LAnd;
    std::optional<uint64_t> L = evaluateIntImpl(BO->getLHS(), Frame, Depth + 1);
    std::optional<uint64_t> R = evaluateIntImpl(BO->getRHS(), Frame, Depth + 1);
    if ((L && (*L != 0) != And) || (R && (*R != 0) != And))
      return !And;
    if (L && R)
      return And;
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
    // Comparisons of the non-negative values the evaluator proves.
    case BO_LT:
      return *L < *R;
    case BO_LE:
      return *L <= *R;
    case BO_GT:
      return *L > *R;
    case BO_GE:
      return *L >= *R;
    case BO_EQ:
      return *L == *R;
    case BO_NE:
      return *L != *R;
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

/// The expression a plain call of a user function returns: its body's only
/// `return`, written as the body's last statement; null otherwise (a
/// function in a system header, a method or operator call).
static const Expr *returnedExpr(const CallExpr *Call) {
  if (Call->getStmtClass() != Stmt::CallExprClass)
    return nullptr;
  const FunctionDecl *Callee = Call->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || !Def || Def->isDependentContext())
    return nullptr;
  const SourceManager &SM = Def->getASTContext().getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
    return nullptr;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body || Body->body_empty())
    return nullptr;
  const auto *Last = dyn_cast<ReturnStmt>(Body->body_back());
  unsigned Returns = 0;
  forEachStmt(Body, [&](const Stmt *S) { Returns += isa<ReturnStmt>(S); });
  return Last && Returns == 1 ? Last->getRetValue() : nullptr;
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
  // A helper that returns the shape: `dim3 blockOf(int n) { return
  // dim3(n, 32); }`, its parameters bound to the call's arguments.
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (const Expr *Returned = returnedExpr(Call)) {
      CallFrame Inner{Call, Call->getDirectCallee(), Frame};
      return evaluateDim3Impl(Returned, &Inner, Depth + 1);
    }
  return std::nullopt;
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

ConstantEvaluator::ConstantEvaluator(ASTContext &Ctx) : Ctx(Ctx) {}
ConstantEvaluator::~ConstantEvaluator() = default;

HelperSummaries &ConstantEvaluator::helpers() {
  if (!Helpers)
    Helpers = std::make_unique<HelperSummaries>(Ctx, *this);
  return *Helpers;
}

} // namespace cuda_tidy
