//===--- LoadedIndex.cpp - Whether an unknown index is read from memory ---===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/races/LoadedIndex.h"
#include "lib/ast/CudaAST.h"
#include "lib/lanes/LaneModel.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace cuda_tidy {

using namespace lanes;

namespace {

/// Follows an address or a value to the loads it is built from.
class IndexWalk {
public:
  explicit IndexWalk(LaneModel &M) : M(M) {}
  /// The address of lvalue E (of Fr's function) is built from a load.
  bool address(const Expr *E, const Frame &Fr, unsigned Depth);
  /// The value of E is built from a load.
  bool value(const Expr *E, const Frame &Fr, unsigned Depth);

private:
  /// The value of variable V, read in Fr's function.
  bool variable(const VarDecl *V, const Frame &Fr, unsigned Depth);
  LaneModel &M;
  /// Locals followed already (a loop's `i += 1` reads i).
  llvm::SmallPtrSet<const VarDecl *, 8> Seen;
};

} // namespace

bool IndexWalk::address(const Expr *E, const Frame &Fr, unsigned Depth) {
  // A walk cut short knows of no load.
  if (Depth > MaxDepth)
    return false;
  E = E->IgnoreParens();
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return value(ASE->getBase(), Fr, Depth + 1) ||
           value(ASE->getIdx(), Fr, Depth + 1);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() != UO_Deref || value(UO->getSubExpr(), Fr, Depth + 1);
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->isArrow() ? value(ME->getBase(), Fr, Depth + 1)
                         : address(ME->getBase(), Fr, Depth + 1);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      return V->getType()->isReferenceType();
  return true;
}

bool IndexWalk::value(const Expr *E, const Frame &Fr, unsigned Depth) {
  if (Depth > MaxDepth)
    return false;
  E = E->IgnoreParens();
  if (getBuiltinVarRef(E))
    return false;
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    const Expr *Sub = CE->getSubExpr();
    switch (CE->getCastKind()) {
    case CK_LValueToRValue:
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Sub->IgnoreParens()))
        if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
          return variable(V, Fr, Depth + 1);
      // An element of an array of constants nothing writes (`stride[k]`
      // with `int stride[4] = {0, 256, 512, 768};`): its index.
      if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Sub->IgnoreParens()))
        if (const auto *Decay =
                dyn_cast<ImplicitCastExpr>(ASE->getBase()->IgnoreParens());
            Decay && Decay->getCastKind() == CK_ArrayToPointerDecay)
          if (const VarDecl *Table = refVar(Decay->getSubExpr());
              Table && M.Values.constantTable(Table, Fr.F))
            return value(ASE->getIdx(), Fr, Depth + 1);
      // An element, a dereference, a member: memory.
      return true;
    case CK_ArrayToPointerDecay:
      return address(Sub, Fr, Depth + 1);
    default:
      return value(Sub, Fr, Depth + 1);
    }
  }
  if (isa<IntegerLiteral, CharacterLiteral, FloatingLiteral, CXXBoolLiteralExpr,
          CXXNullPtrLiteralExpr, UnaryExprOrTypeTraitExpr>(E))
    return false;
  if (const auto *NTTP = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
    return value(NTTP->getReplacement(), Fr, Depth + 1);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return isa<VarDecl>(DRE->getDecl()) &&
           variable(cast<VarDecl>(DRE->getDecl()), Fr, Depth + 1);
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_AddrOf)
      return address(UO->getSubExpr(), Fr, Depth + 1);
    if (UO->getOpcode() == UO_Deref)
      return true;
    return value(UO->getSubExpr(), Fr, Depth + 1);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp())
      return true;
    return value(BO->getLHS(), Fr, Depth + 1) ||
           value(BO->getRHS(), Fr, Depth + 1);
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return value(CO->getCond(), Fr, Depth + 1) ||
           value(CO->getTrueExpr(), Fr, Depth + 1) ||
           value(CO->getFalseExpr(), Fr, Depth + 1);
  // A call (other than the built-in index variables), and what is not
  // followed: taken as read from memory.
  return true;
}

bool IndexWalk::variable(const VarDecl *V, const Frame &Fr, unsigned Depth) {
  if (V->getType()->isReferenceType())
    return true;
  if (const auto *PV = dyn_cast<ParmVarDecl>(V)) {
    // A helper's parameter: the argument of the context's call. A kernel's
    // (or an unbound root's) parameter is an input, not a load.
    if (!Fr.Call || !Fr.Parent || PV->getDeclContext() != Fr.F)
      return false;
    unsigned Idx = PV->getFunctionScopeIndex();
    return Idx >= Fr.Call->getNumArgs() ||
           value(Fr.Call->getArg(Idx), *Fr.Parent, Depth + 1);
  }
  if (!V->hasLocalStorage())
    return !(V->getType().isConstQualified() && V->getInit() &&
             !value(V->getInit(), Fr, Depth + 1));
  if (V->getDeclContext() != Fr.F)
    return true;
  if (!Seen.insert(V).second)
    return false;
  // Each local is followed once (Seen): its initialiser and writes start
  // a new walk, so a chain of locals (`float *v2 = v1 + step;`) does not
  // run out of depth.
  Depth = 0;
  FunctionInfo &I = M.Facts.info(Fr.F);
  if (I.AsmWrites.count(V))
    return true;
  if (V->getInit() && value(V->getInit(), Fr, Depth + 1))
    return true;
  auto It = I.Mods.find(V);
  if (It == I.Mods.end())
    return false;
  for (const Stmt *S : It->second) {
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (value(BO->getRHS(), Fr, Depth + 1))
        return true;
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->isIncrementDecrementOp())
      continue;
    // Its address taken, a non-const reference bound to it: written
    // through memory.
    return true;
  }
  return false;
}

bool indexFromMemory(LaneModel &M, const Expr *E, const Frame &Fr) {
  return IndexWalk(M).address(E, Fr, 0);
}

} // namespace cuda_tidy
