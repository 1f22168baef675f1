//===--- MemorySpaces.cpp - Where an address points -----------------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/ast/CudaAST.h"
#include "lib/ordering/MemoryOrderingImpl.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace cuda_tidy {

/// Whether V is given a new value anywhere in Body: assigned, incremented,
/// or passed by address or by non-const reference.
namespace {
class AssignmentFinder : public DynamicRecursiveASTVisitor {
public:
  explicit AssignmentFinder(const VarDecl *V) : Var(V) {}
  bool Found = false;

  bool VisitBinaryOperator(BinaryOperator *BO) override {
    if (BO->isAssignmentOp() && refersTo(BO->getLHS()))
      Found = true;
    return !Found;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) override {
    if ((UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
        refersTo(UO->getSubExpr()))
      Found = true;
    return !Found;
  }
  bool VisitCallExpr(CallExpr *CE) override {
    const FunctionDecl *Callee = CE->getDirectCallee();
    for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
      if (!refersTo(CE->getArg(I)))
        continue;
      // A by-value argument does not change the variable.
      if (!Callee || I >= Callee->getNumParams() ||
          Callee->getParamDecl(I)->getType()->isReferenceType())
        Found = true;
    }
    return !Found;
  }

private:
  bool refersTo(const Expr *E) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == Var;
  }
  const VarDecl *Var;
};
} // namespace

bool isReassignedIn(const VarDecl *Var, const Stmt *Body) {
  if (!Body)
    return true;
  AssignmentFinder Finder(Var);
  Finder.TraverseStmt(const_cast<Stmt *>(Body));
  return Finder.Found;
}

static MemorySpace spaceOfVariable(const VarDecl *V, const FunctionDecl *Func) {
  if (V->hasAttr<CUDASharedAttr>())
    return MemorySpace::Shared;
  if (V->hasAttr<CUDAConstantAttr>())
    return MemorySpace::Unknown;
  if (V->hasGlobalStorage())
    return (V->hasAttr<CUDADeviceAttr>() || V->hasAttr<HIPManagedAttr>())
               ? MemorySpace::Global
               : MemorySpace::Unknown;
  if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
    // A kernel's pointer parameters come from the host: global memory.
    if (Func && isKernel(Func) && P->getType()->isPointerType())
      return MemorySpace::Global;
    return MemorySpace::Unknown;
  }
  if (V->getType()->isArrayType() || !V->getType()->isPointerType())
    return MemorySpace::Local;
  return MemorySpace::Unknown;
}

MemoryBase memoryBaseOf(const Expr *E, const FunctionDecl *Func) {
  for (unsigned Depth = 0; E && Depth < 32; ++Depth) {
    E = E->IgnoreParenCasts();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      E = AS->getBase();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf ||
          UO->isIncrementDecrementOp()) {
        E = UO->getSubExpr();
        continue;
      }
      return {};
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isAdditiveOp() || BO->getOpcode() == BO_AddAssign ||
          BO->getOpcode() == BO_SubAssign) {
        E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                     : BO->getRHS();
        if (!E->IgnoreParenImpCasts()->getType()->isPointerType() &&
            !E->IgnoreParenImpCasts()->getType()->isArrayType())
          return {};
        continue;
      }
      return {};
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      E = ME->getBase();
      continue;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    if (!DRE)
      return {};
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return {};
    MemorySpace Space = spaceOfVariable(V, Func);
    if (Space != MemorySpace::Unknown || isa<ParmVarDecl>(V) ||
        V->hasGlobalStorage())
      return {V, Space};
    // A local pointer set once: where its initialiser points.
    if (!Func || !V->getInit() || V->getType()->isReferenceType() ||
        isReassignedIn(V, Func->getBody()))
      return {V, MemorySpace::Unknown};
    E = V->getInit();
  }
  return {};
}

bool isPlainMemoryLValue(const Expr *E) {
  E = E->IgnoreParens();
  if (isa<ArraySubscriptExpr>(E) || isa<MemberExpr>(E))
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_Deref;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      return V->hasGlobalStorage();
  return false;
}

namespace {
class MemoryTouchFinder : public DynamicRecursiveASTVisitor {
public:
  bool Found = false;
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *) override {
    return setFound();
  }
  bool VisitUnaryOperator(UnaryOperator *UO) override {
    return UO->getOpcode() == UO_Deref ? setFound() : true;
  }
  bool VisitMemberExpr(MemberExpr *ME) override {
    return ME->isArrow() && !isa<CXXThisExpr>(ME->getBase()->IgnoreImpCasts())
               ? setFound()
               : true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) override {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (V && V->hasGlobalStorage() && !V->isConstexpr() &&
        !getBuiltinVarRefDecl(V))
      return setFound();
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) override {
    for (const Expr *Arg : CE->arguments()) {
      QualType T = Arg->getType();
      if (T->isPointerType() || Arg->isGLValue())
        return setFound();
    }
    return true;
  }
  bool VisitGCCAsmStmt(GCCAsmStmt *Asm) override {
    return Asm->getNumOutputs() + Asm->getNumInputs() > 0 ? setFound() : true;
  }

private:
  static bool getBuiltinVarRefDecl(const VarDecl *V) {
    StringRef Name = V->getName();
    return Name == "threadIdx" || Name == "blockIdx" || Name == "blockDim" ||
           Name == "gridDim";
  }
  bool setFound() {
    Found = true;
    return false;
  }
};
} // namespace

void addDiscardedValues(const CompoundStmt &CS,
                        llvm::SmallPtrSetImpl<const Stmt *> &Out) {
  for (const Stmt *Child : CS.body())
    if (const auto *E = dyn_cast<Expr>(Child))
      Out.insert(E->IgnoreParenImpCasts());
}

bool touchesMemory(const Stmt *Body) {
  if (!Body)
    return false;
  MemoryTouchFinder Finder;
  Finder.TraverseStmt(const_cast<Stmt *>(Body));
  return Finder.Found;
}

} // namespace cuda_tidy
