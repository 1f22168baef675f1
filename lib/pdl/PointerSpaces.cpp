//===--- PointerSpaces.cpp - Where objects and pointers live --------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// GridDependencyAnalysis's model of memory spaces: whether an object, or the
// target of a pointer, is global memory (a pointer parameter, a pointer in a
// by-value struct, a pointer read from __constant__ or global data, locals
// and helper parameters that hold only such pointers).
//
//===----------------------------------------------------------------------===//

#include "lib/pdl/GridDependencyImpl.h"
#include "lib/ast/CudaAST.h"

using namespace clang;

namespace cuda_tidy {

const Frame *GridDependencyAnalysis::Impl::frameOf(const Decl *Owner,
                                                   const Frame &F) const {
  for (const Frame *Cur = &F; Cur; Cur = Cur->Parent)
    if (Cur->Fn == Owner || Cur->Fn->getCanonicalDecl() ==
                                cast<FunctionDecl>(Owner)->getCanonicalDecl())
      return Cur;
  return nullptr;
}

const Expr *
GridDependencyAnalysis::Impl::argumentFor(const Frame &F,
                                          const ParmVarDecl *P) const {
  unsigned Index = P->getFunctionScopeIndex() + F.ArgOffset;
  if (const auto *CE = dyn_cast_or_null<CallExpr>(F.Call))
    return Index < CE->getNumArgs() ? CE->getArg(Index) : nullptr;
  if (const auto *CC = dyn_cast_or_null<CXXConstructExpr>(F.Call))
    return Index < CC->getNumArgs() ? CC->getArg(Index) : nullptr;
  return nullptr;
}

ObjInfo GridDependencyAnalysis::Impl::thisInfo(const Frame &F, unsigned Depth) {
  if (isa<CXXConstructorDecl>(F.Fn) || !F.Object || !F.Parent)
    return {Space::Other, Space::Unknown};
  if (F.ObjectIsPointer) {
    Space W = pointee(F.Object, *F.Parent, Depth + 1);
    return {W, W == Space::Global ? Space::Global : Space::Unknown};
  }
  return objectInfo(F.Object, *F.Parent, Depth + 1);
}

ObjInfo GridDependencyAnalysis::Impl::variableInfo(const VarDecl *V,
                                                   const Frame &F,
                                                   unsigned Depth) {
  if (V->hasAttr<CUDASharedAttr>())
    return {Space::Other, Space::Unknown};
  if (V->hasAttr<CUDAConstantAttr>())
    return {Space::Other, Space::Global};
  if (!V->hasLocalStorage()) {
    if (V->hasAttr<CUDADeviceAttr>() && !V->getType().isConstQualified())
      return {Space::Global, Space::Global};
    return {Space::Unknown, Space::Unknown};
  }
  const auto *Owner = dyn_cast_or_null<FunctionDecl>(V->getDeclContext());
  const Frame *In = Owner ? frameOf(Owner, F) : nullptr;
  if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
    // A kernel's parameter lives in parameter space; what it points to (or
    // the pointers stored in it) is global memory.
    if (Owner && isKernel(Owner))
      return {Space::Other, Space::Global};
    const Expr *Arg = In ? argumentFor(*In, P) : nullptr;
    if (!Arg || !In->Parent)
      return {Space::Unknown, Space::Unknown};
    if (P->getType()->isReferenceType())
      return objectInfo(Arg, *In->Parent, Depth + 1);
    return {Space::Other,
            objectInfo(objectArg(Arg), *In->Parent, Depth + 1).Inner};
  }
  if (!In)
    return {Space::Unknown, Space::Unknown};
  if (V->getType()->isReferenceType() && V->getInit())
    return objectInfo(V->getInit(), *In, Depth + 1);
  if (V->getType()->isRecordType() && V->getInit())
    return {Space::Other,
            objectInfo(objectArg(V->getInit()), *In, Depth + 1).Inner};
  return {Space::Other, Space::Unknown};
}

ObjInfo GridDependencyAnalysis::Impl::objectInfo(const Expr *E, const Frame &F,
                                                 unsigned Depth) {
  if (!E || Depth > 24)
    return {};
  E = objectArg(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      return variableInfo(V, F, Depth);
    return {};
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (ME->getMemberDecl()->getType()->isReferenceType())
      return {};
    if (ME->isArrow()) {
      Space W = pointee(ME->getBase(), F, Depth + 1);
      return {W, W == Space::Global ? Space::Global : Space::Unknown};
    }
    return objectInfo(ME->getBase(), F, Depth + 1);
  }
  const Expr *Ptr = nullptr;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    Ptr = AS->getBase();
  else if (const auto *UO = dyn_cast<UnaryOperator>(E);
           UO && UO->getOpcode() == UO_Deref)
    Ptr = UO->getSubExpr();
  if (Ptr) {
    Space W = pointee(Ptr, F, Depth + 1);
    return {W, W == Space::Global ? Space::Global : Space::Unknown};
  }
  return {};
}

/// The join of the values a local variable (or a helper's by-value
/// parameter) is given; Unknown when its address is taken. A variable met
/// again while its values are being joined adds nothing (None).
Space GridDependencyAnalysis::Impl::localValues(const VarDecl *V,
                                                const Frame &F,
                                                unsigned Depth) {
  const auto *Owner = dyn_cast_or_null<FunctionDecl>(V->getDeclContext());
  const Frame *In = Owner ? frameOf(Owner, F) : nullptr;
  const auto *P = dyn_cast<ParmVarDecl>(V);
  bool KernelParam = P && Owner && isKernel(Owner);
  if (!In && !KernelParam)
    return Space::Unknown;
  if (!In || !In->Fn->getBody())
    return KernelParam ? Space::Global : Space::Unknown;
  const LocalFacts *I = &localFacts(In->Fn);
  if (I->Escaped.count(V))
    return Space::Unknown;
  if (!Visiting.insert(V).second)
    return Space::None;
  Space S = Space::None;
  if (KernelParam) {
    S = Space::Global;
  } else if (P) {
    const Expr *Arg = argumentFor(*In, P);
    S = Arg && In->Parent ? pointee(Arg, *In->Parent, Depth + 1)
                          : Space::Unknown;
  }
  auto It = I->Values.find(V);
  if (It != I->Values.end())
    for (const Expr *Value : It->second)
      S = join(S, pointee(Value, *In, Depth + 1));
  Visiting.erase(V);
  return S == Space::None ? Space::Unknown : S;
}

Space GridDependencyAnalysis::Impl::loadedPointer(const Expr *L, const Frame &F,
                                                  unsigned Depth) {
  L = L->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(L))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
        V && V->hasLocalStorage() && !V->getType()->isReferenceType())
      return localValues(V, F, Depth);
  // A pointer member the constructor being analysed initialises.
  if (const auto *ME = dyn_cast<MemberExpr>(L);
      ME && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(F.Fn))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->getMember() == ME->getMemberDecl() && Init->getInit())
          return pointee(Init->getInit(), F, Depth + 1);
  return objectInfo(L, F, Depth + 1).Inner;
}

Space GridDependencyAnalysis::Impl::pointee(const Expr *E, const Frame &F,
                                            unsigned Depth) {
  if (!E || Depth > 24)
    return Space::Unknown;
  E = E->IgnoreParens();
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    switch (CE->getCastKind()) {
    case CK_LValueToRValue:
      return loadedPointer(CE->getSubExpr(), F, Depth + 1);
    case CK_ArrayToPointerDecay:
      return objectInfo(CE->getSubExpr(), F, Depth + 1).Where;
    case CK_NullToPointer:
      // A null pointer is never accessed: it adds nothing to a join.
      return Space::None;
    case CK_IntegralToPointer:
      return Space::Unknown;
    default:
      return pointee(CE->getSubExpr(), F, Depth + 1);
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_AddrOf)
      return objectInfo(UO->getSubExpr(), F, Depth + 1).Where;
    if (UO->isIncrementDecrementOp())
      return pointee(UO->getSubExpr(), F, Depth + 1);
    return Space::Unknown;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Comma || BO->isAssignmentOp())
      return pointee(BO->getRHS(), F, Depth + 1);
    if (BO->isAdditiveOp())
      return pointee(BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                              : BO->getRHS(),
                     F, Depth + 1);
    return Space::Unknown;
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return join(pointee(CO->getTrueExpr(), F, Depth + 1),
                pointee(CO->getFalseExpr(), F, Depth + 1));
  if (isa<CXXThisExpr>(E))
    return thisInfo(F, Depth).Where;
  if (const auto *EW = dyn_cast<ExprWithCleanups>(E))
    return pointee(EW->getSubExpr(), F, Depth + 1);
  return Space::Unknown;
}

} // namespace cuda_tidy
