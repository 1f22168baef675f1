//===--- ThreadVariance.cpp - Which values differ between threads ---------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/lanes/ThreadVariance.h"
#include "lib/ast/CudaAST.h"
#include "lib/lanes/FunctionFacts.h"
#include "lib/uniformity/Uniformity.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cuda_tidy::lanes {

ThreadVariance::ThreadVariance(clang::ASTContext &Ctx,
                               const LaneModelInputs &Inputs,
                               FunctionFacts &Facts)
    : Ctx(Ctx), Inputs(Inputs), Facts(Facts) {}

bool ThreadVariance::isVarying(const Expr *E, const Frame &Fr,
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
               !Facts.isModified(Facts.info(Fr.F), PV));
    }
    if (V->hasLocalStorage()) {
      if (V->getDeclContext() != Fr.F || V->getType()->isReferenceType())
        return true;
      FunctionInfo &I = Facts.info(Fr.F);
      if (Facts.isModified(I, V)) {
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

bool ThreadVariance::isVaryingStep(const Expr *Inc, const Frame &Fr,
                                   unsigned Depth) {
  Inc = Inc->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc))
    return !UO->isIncrementDecrementOp();
  if (const auto *BO = dyn_cast<BinaryOperator>(Inc))
    return !BO->isAssignmentOp() || isVarying(BO->getRHS(), Fr, Depth);
  return true;
}

static bool isWarpUniformShape(ThreadVariance::Shape S) {
  using Shape = ThreadVariance::Shape;
  return S == Shape::Uniform || S == Shape::Aligned || S == Shape::Warp;
}

ThreadVariance::Shape
ThreadVariance::shapeOf(const Expr *E, const Frame &Fr,
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
    if (!Facts.isModified(Facts.info(Fr.F), V) && V->getInit()) {
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

bool ThreadVariance::lanesDiffer(const Expr *E, const Frame &Fr,
                                 unsigned Depth) {
  E = E->IgnoreParenImpCasts();
  if (Depth > MaxDepth)
    return false;
  if (shapeOf(E, Fr) == Shape::Linear)
    return true;
  // A local set once, from such a value.
  if (const VarDecl *V = refVar(E)) {
    if (!V->hasLocalStorage() || V->getDeclContext() != Fr.F ||
        !V->getType()->isIntegerType() || !V->getInit() ||
        Facts.isModified(Facts.info(Fr.F), V))
      return false;
    return lanesDiffer(V->getInit(), Fr, Depth + 1);
  }
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return false;
  // Plus or minus the same amount in every lane of the warp.
  if (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)
    return (lanesDiffer(BO->getLHS(), Fr, Depth + 1) &&
            isWarpUniformShape(shapeOf(BO->getRHS(), Fr))) ||
           (BO->getOpcode() == BO_Add &&
            isWarpUniformShape(shapeOf(BO->getLHS(), Fr)) &&
            lanesDiffer(BO->getRHS(), Fr, Depth + 1));
  // The lane's index in a warp: `x % 32`, `x & 31` (and wider moduli and
  // masks, under which the 32 lanes still differ) of a lane-linear x.
  if (BO->getOpcode() != BO_Rem && BO->getOpcode() != BO_And)
    return false;
  Expr::EvalResult Res;
  const Expr *C = BO->getRHS();
  if (C->isValueDependent() || !C->EvaluateAsInt(Res, Ctx))
    return false;
  int64_t K = Res.Val.getInt().getExtValue();
  bool Keeps = BO->getOpcode() == BO_Rem ? K > 0 && K % 32 == 0
                                         : K >= 31 && (K & 31) == 31;
  return Keeps && shapeOf(BO->getLHS(), Fr) == Shape::Linear;
}

bool ThreadVariance::isGridStride(const VarDecl *V, const Frame &Fr,
                                            unsigned Depth) {
  FunctionInfo &I = Facts.info(Fr.F);
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

bool ThreadVariance::provenWarpUniform(const Expr *E,
                                                 const Frame &Fr) {
  // The lane model's own proof, for what the uniformity analysis may not
  // see (a grid-stride index advanced by `tid += blockDim.x * gridDim.x`).
  if (isWarpUniformShape(shapeOf(E, Fr)))
    return true;
  // A comparison of a value that differs in every lane of a warp with one
  // that is the same in all of them (`i < n` on a grid index, `lane >= d`)
  // holds in some lanes and not others for some values: never proven, and
  // the uniformity analysis of the whole function is not needed to say so.
  if (const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
      BO && BO->isComparisonOp()) {
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    if ((lanesDiffer(L, Fr) && isWarpUniformShape(shapeOf(R, Fr))) ||
        (lanesDiffer(R, Fr) && isWarpUniformShape(shapeOf(L, Fr))))
      return false;
  }
  // A value the plain analysis (opaque calls joined, not varying) finds
  // thread-varying is thread-varying for the proof too, which treats more
  // values as varying, in every context: the plain analysis is the one the
  // divergent-barrier check computes for every device function anyway, and
  // it settles most conditions (`i < n` on a thread index) without a
  // second analysis of the function.
  if (!Plain)
    Plain = &Inputs.Uniformity(UniformityOptions());
  if (const FunctionUniformity *PU = Plain->analyze(Fr.F))
    if (PU->valueOf(E).Base == Uniformity::Thread)
      return false;
  if (!Uniform) {
    // A proof: opaque calls vary.
    UniformityOptions Opts;
    Opts.OpaqueCallsVary = true;
    Uniform = &Inputs.Uniformity(Opts);
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

} // namespace cuda_tidy::lanes
