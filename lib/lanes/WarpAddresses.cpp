//===--- WarpAddresses.cpp - Addresses, a warp at a time ------------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/ast/CudaAST.h"
#include "lib/lanes/CallContexts.h"
#include "lib/lanes/FunctionFacts.h"
#include "lib/lanes/WarpEvaluator.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include <numeric>

using namespace clang;

namespace cuda_tidy::lanes {

WarpAddresses::WarpAddresses(clang::ASTContext &Ctx, FunctionFacts &Facts,
                             CallContexts &Calls, WarpValues &Values)
    : Ctx(Ctx), Facts(Facts), Calls(Calls), Values(Values) {}

Addrs WarpAddresses::evalPtrCallW(const CallExpr *CE,
                                             const Frame &Fr, const Env &En,
                                             uint32_t Active, unsigned Depth) {
  Addrs Result;
  if (Depth > MaxDepth || isa<CXXOperatorCallExpr>(CE))
    return Result;
  const FunctionDecl *Def = Calls.followable(resolveCallee(CE), Fr);
  if (!Def || !Def->getReturnType()->isPointerType() || !Facts.info(Def).Ok)
    return Result;
  Frame Callee{Def, CE, &Fr};
  bool First = true;
  for (const Expr *R : Facts.returnsOf(Def)) {
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

Addrs WarpAddresses::evalPtrW(const Expr *E, const Frame &Fr,
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
  // A pointer of dependent pointee type (`volatile T *s`), and a cast to
  // one (`(volatile T *)ptr`): the same address as in an instantiation.
  if (E->isTypeDependent() && E->getType()->isPointerType()) {
    if (const VarDecl *V = refVar(E))
      return evalPtrVarW(V, Fr, En, Active, Depth + 1);
    if (const auto *CE = dyn_cast<ExplicitCastExpr>(E);
        CE && (CE->getSubExpr()->getType()->isPointerType() ||
               CE->getSubExpr()->getType()->isArrayType()))
      return evalPtrW(CE->getSubExpr(), Fr, En, Active, Depth + 1);
  }
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
    Vals Off = Values.evalW(I, Fr, En, Base.Valid, Depth + 1);
    return advance(Base, Off, Ctx.getTypeSizeInChars(Pointee).getQuantity(),
                   BO->getOpcode() == BO_Sub);
  }
  return None;
}

Addrs WarpAddresses::evalPtrVarW(const VarDecl *V, const Frame &Fr,
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
        !Facts.isModified(Facts.info(Fr.F), PV))
      return objectAt(Active, PV->getCanonicalDecl(), PV);
    // A warp helper nothing calls: a volatile pointer parameter is one
    // array the lanes share (CallContexts::uncalledWarpHelper).
    if (!Fr.Call && Fr.F == PV->getDeclContext() &&
        PV->getType()->getPointeeType().isVolatileQualified() &&
        !PV->getType()->getPointeeType().isConstQualified() &&
        Calls.uncalledWarpHelper(Fr.F) &&
        !Facts.isModified(Facts.info(Fr.F), PV))
      return objectAt(Active, PV->getCanonicalDecl(), PV);
    if (!Fr.Call || !Fr.Parent || Fr.F != PV->getDeclContext())
      return Addrs();
    unsigned Idx = PV->getFunctionScopeIndex();
    if (Idx >= Fr.Call->getNumArgs())
      return Addrs();
    return evalPtrW(Fr.Call->getArg(Idx), *Fr.Parent, En, Active, Depth + 1);
  }
  if (!V->hasLocalStorage() || V->getDeclContext() != Fr.F || !V->getInit() ||
      Facts.isModified(Facts.info(Fr.F), V))
    return Addrs();
  // A chain of pointers each derived from the one before by a step
  // (`float *v1 = v0 + step, *v2 = v1 + step, ...`): followed to its
  // first pointer in one level, the steps added back after, so that a long
  // chain does not run out of depth.
  llvm::SmallVector<const BinaryOperator *, 8> Steps;
  const VarDecl *Root = V;
  while (Steps.size() < MaxDerivedSteps)
    if (auto [Step, From] = derivedStep(Root, Fr); Step) {
      Steps.push_back(Step);
      Root = From;
    } else {
      break;
    }
  if (Steps.empty())
    return evalPtrW(V->getInit(), Fr, En, Active, Depth + 1);
  Addrs Base = evalPtrVarW(Root, Fr, En, Active, Depth + 1);
  for (const BinaryOperator *Step : llvm::reverse(Steps)) {
    const bool PtrLeft = Step->getLHS()->getType()->isPointerType();
    const Expr *Offset = PtrLeft ? Step->getRHS() : Step->getLHS();
    const QualType Pointee =
        (PtrLeft ? Step->getLHS() : Step->getRHS())->getType()->getPointeeType();
    Vals Off = Values.evalW(Offset, Fr, En, Base.Valid, Depth + 1);
    Base = advance(Base, Off, Ctx.getTypeSizeInChars(Pointee).getQuantity(),
                   Step->getOpcode() == BO_Sub);
  }
  return Base;
}

std::pair<const BinaryOperator *, const VarDecl *>
WarpAddresses::derivedStep(const VarDecl *V, const Frame &Fr) {
  if (!V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
      V->getDeclContext() != Fr.F || !V->getInit() ||
      Facts.isModified(Facts.info(Fr.F), V))
    return {};
  const auto *BO = dyn_cast<BinaryOperator>(V->getInit()->IgnoreParens());
  if (!BO || (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub))
    return {};
  const Expr *P = BO->getLHS(), *I = BO->getRHS();
  if (!P->getType()->isPointerType())
    std::swap(P, I);
  if (!P->getType()->isPointerType() || !I->getType()->isIntegerType() ||
      (BO->getOpcode() == BO_Sub && P != BO->getLHS()))
    return {};
  const QualType Pointee = P->getType()->getPointeeType();
  if (Pointee->isIncompleteType() || Pointee->isVoidType() ||
      P->isTypeDependent() || I->isValueDependent())
    return {};
  const auto *Cast = dyn_cast<ImplicitCastExpr>(P->IgnoreParens());
  if (!Cast || Cast->getCastKind() != CK_LValueToRValue)
    return {};
  const VarDecl *From = refVar(Cast->getSubExpr());
  if (!From || From == V || !From->getType()->isPointerType() ||
      From->getDeclContext() != Fr.F)
    return {};
  return {BO, From};
}

Addrs WarpAddresses::dependentElementW(const ArraySubscriptExpr *ASE,
                                       const Frame &Fr, const Env &En,
                                       uint32_t Active, unsigned Depth) {
  const Expr *Idx = ASE->getIdx();
  if (Idx->isTypeDependent() || Idx->isValueDependent() ||
      !Idx->getType()->isIntegerType())
    return Addrs();
  Addrs Base = evalPtrW(ASE->getBase(), Fr, En, Active, Depth + 1);
  if (!Base.Valid)
    return Base;
  Vals Index = Values.evalW(Idx, Fr, En, Base.Valid, Depth + 1);
  Base.Valid &= Index.Valid;
  std::unique_ptr<char> &Key =
      DependentKeys[{Base.Key, dependentElementType(ASE)}];
  if (!Key)
    Key = std::make_unique<char>();
  Base.Key = Key.get();
  // The base's byte, then the element: two bases at different bytes never
  // meet (their elements' sizes are not known).
  constexpr int64_t Units = int64_t(1) << 24;
  allLanes([&](unsigned L) {
    Base.Byte[L] = int64_t(uint64_t(Base.Byte[L]) * uint64_t(Units) +
                           uint64_t(Index.V[L]));
  });
  forLanes(Base.Valid, [&](unsigned L) {
    if (Index.V[L] <= -Units / 2 || Index.V[L] >= Units / 2)
      Base.Valid &= ~(1u << L);
  });
  return Base;
}

Addrs WarpAddresses::evalObjW(const Expr *E, const Frame &Fr,
                                         const Env &En, uint32_t Active,
                                         unsigned Depth) {
  Addrs None;
  if (!Active || !E || Depth > MaxDepth)
    return None;
  // An element of a type that depends on a template parameter, in a
  // pattern (`s[idx]` with `volatile T *s`): its size is not known, so its
  // address is counted in elements, in an object of its own per type and
  // object (only elements of the same type through a base at the same byte
  // can meet).
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E->IgnoreParens());
      ASE && ASE->getType()->isDependentType()) {
    if (!dependentElementType(ASE))
      return None;
    return dependentElementW(ASE, Fr, En, Active, Depth);
  }
  if (E->isTypeDependent() || E->isValueDependent())
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
    Vals Idx = Values.evalW(ASE->getIdx(), Fr, En, Base.Valid, Depth + 1);
    const int64_t Size = Ctx.getTypeSizeInChars(Elem).getQuantity();
    // A row whose index is not known, where the client asks for the place
    // within a row (Env::LooseRows): row 0, the row's size noted.
    if (En.LooseRows && Ctx.getAsConstantArrayType(Elem) && Size > 0)
      if (uint32_t Loose = Base.Valid & ~Idx.Valid) {
        forLanes(Loose, [&](unsigned L) { Idx.V[L] = 0; });
        Idx.Valid |= Loose;
        *En.LooseRows = std::gcd(*En.LooseRows, Size);
      }
    return advance(Base, Idx, Size);
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

std::optional<Address> WarpAddresses::evalObj(const Expr *E,
                                                         const Frame &Fr,
                                                         const Env &En) {
  return firstLane(evalObjW(E, Fr, En, 1, 0));
}

std::optional<Address> WarpAddresses::evalPtrVar(const VarDecl *V,
                                                            const Frame &Fr,
                                                            const Env &En) {
  return firstLane(evalPtrVarW(V, Fr, En, 1, 0));
}

} // namespace cuda_tidy::lanes
