//===--- UniformBranches.cpp - Branches on memory the block agrees on -----===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Whether a branch the lane model takes as thread-varying (its condition
// reads memory, or a local assigned more than once) is the same in every
// thread of the block, so that it does not send threads down both arms
// (SharedRaces.h). The uniformity analysis (lib/uniformity, default
// options) says how the condition's values and control depend on the
// thread, with a load as uniform as its address; what it does not track is
// memory, so every load the condition's value comes from (through the
// definitions of the locals it reads) must read memory no thread of the
// block writes between the last block barrier and the load:
//  - a `__shared__` variable: no write to it in the context's accesses
//    reaches the load with no block barrier in between;
//  - a kernel's pointer parameter every use of which is a load (never
//    written through, stored, passed to a call or offset into another
//    pointer): the block does not write that memory at all (distinct
//    pointer parameters are taken not to alias);
//  - `__constant__` memory and const globals.
// A call, inline asm, a local array, a local whose address is taken or
// one written other than by assignment leaves the branch as it was.
//
//===----------------------------------------------------------------------===//

#include "lib/ast/CudaAST.h"
#include "lib/races/BlockBarriers.h"
#include "lib/races/FrameSearch.h"
#include "lib/uniformity/Uniformity.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"

using namespace clang;

namespace cuda_tidy {

using namespace lanes;

/// The variable whose memory the lvalue E (a subscript, dereference or
/// member of one) reads, and whether E reads memory at all (a member of a
/// by-value local or parameter does not).
static const VarDecl *loadBase(const Expr *E, bool &ThroughPointer) {
  ThroughPointer = false;
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      ThroughPointer = true;
      E = ASE->getBase();
    } else if (const auto *UO = dyn_cast<UnaryOperator>(E);
               UO && UO->getOpcode() == UO_Deref) {
      ThroughPointer = true;
      E = UO->getSubExpr();
    } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      ThroughPointer |= ME->isArrow();
      E = ME->getBase();
    } else if (const auto *BO = dyn_cast<BinaryOperator>(E);
               BO && BO->isAdditiveOp() && BO->getType()->isPointerType()) {
      E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                   : BO->getRHS();
    } else {
      return refVar(E);
    }
  }
}

/// Every use of pointer parameter P in PM's body is a load through it:
/// climbing from the use through subscripts, dereferences, members and
/// offsets ends in an lvalue-to-rvalue conversion.
static bool onlyLoadedThrough(const ParmVarDecl *P, const Stmt *Body,
                              const ParentMap &PM) {
  llvm::SmallVector<const Stmt *, 64> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
    const auto *DRE = dyn_cast<DeclRefExpr>(S);
    if (!DRE || DRE->getDecl() != P)
      continue;
    const Stmt *Cur = DRE;
    bool Loaded = false, Deref = false;
    while (const Stmt *Up = PM.getParent(Cur)) {
      if (const auto *IC = dyn_cast<ImplicitCastExpr>(Up)) {
        if (IC->getCastKind() == CK_LValueToRValue && Deref) {
          Loaded = true;
          break;
        }
        if (IC->getCastKind() != CK_LValueToRValue &&
            IC->getCastKind() != CK_NoOp &&
            IC->getCastKind() != CK_ArrayToPointerDecay)
          break;
      } else if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Up)) {
        if (ASE->getBase()->IgnoreParenImpCasts() != Cur &&
            ASE->getBase() != Cur)
          break;
        Deref = true;
      } else if (const auto *UO = dyn_cast<UnaryOperator>(Up)) {
        if (UO->getOpcode() != UO_Deref)
          break;
        Deref = true;
      } else if (const auto *ME = dyn_cast<MemberExpr>(Up)) {
        Deref |= ME->isArrow();
      } else if (const auto *BO = dyn_cast<BinaryOperator>(Up)) {
        // An offset that is loaded through at once (`*(p + 1)`).
        if (!BO->isAdditiveOp() || Deref || !BO->getType()->isPointerType())
          break;
      } else if (!isa<ParenExpr>(Up)) {
        break;
      }
      Cur = Up;
    }
    if (!Loaded)
      return false;
  }
  return true;
}

bool SharedRaceFinder::FrameSearch::readOnlyParam(const ParmVarDecl *P) {
  auto [It, New] = ReadOnlyParams.try_emplace(P, false);
  if (New)
    It->second = P->getType()->isPointerType() && !I->Mods.count(P) &&
                 onlyLoadedThrough(P, Fr.F->getBody(), *I->PM);
  return It->second;
}

/// The statement of I's CFG that holds E (E itself, or the innermost
/// ancestor that is an element).
static std::optional<Pos> positionOf(const Stmt *E, FunctionInfo &I) {
  for (const Stmt *S = E; S; S = I.PM->getParent(S))
    if (auto It = I.Positions.find(S); It != I.Positions.end())
      return It->second;
  return std::nullopt;
}

bool SharedRaceFinder::FrameSearch::unwrittenLoad(const Expr *Load) {
  bool ThroughPointer = false;
  const VarDecl *Base = loadBase(Load, ThroughPointer);
  if (!Base)
    return false;
  if (Base->hasAttr<CUDAConstantAttr>() ||
      (!Base->hasLocalStorage() && Base->getType().isConstQualified() &&
       !ThroughPointer))
    return true;
  if (Base->hasAttr<CUDASharedAttr>()) {
    std::optional<Pos> At = positionOf(Load, *I);
    if (!At)
      return false;
    const ReachSet Before = reachAt(*At);
    const void *Key = sharedKey(Base);
    for (const FrameAccess &A : Table->accesses())
      if (A.Key == Key && (A.Opaque || A.A->R != Role::Read))
        for (const ReachSet::Range &X : Before.Ranges)
          if (X.Block == A.Where.Block && X.Lo <= A.Where.Index &&
              A.Where.Index < X.Hi)
            return false;
    return true;
  }
  if (const auto *P = dyn_cast<ParmVarDecl>(Base))
    return ThroughPointer && isKernel(Fr.F) && P->getDeclContext() == Fr.F &&
           readOnlyParam(P);
  return false;
}

bool SharedRaceFinder::FrameSearch::loadsUnwritten(
    const Expr *E, llvm::SmallPtrSetImpl<const VarDecl *> &Seen,
    unsigned Depth) {
  if (!E || Depth > 6)
    return false;
  E = E->IgnoreParenImpCasts();
  if (getBuiltinVarRef(E))
    return true;
  if (isa<CallExpr, GCCAsmStmt, StmtExpr, LambdaExpr, CXXNewExpr>(E))
    return false;
  // A member of a struct held by value: the struct's own reads.
  if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow())
    return loadsUnwritten(ME->getBase(), Seen, Depth + 1);
  if (isa<ArraySubscriptExpr, MemberExpr>(E) ||
      (isa<UnaryOperator>(E) &&
       cast<UnaryOperator>(E)->getOpcode() == UO_Deref)) {
    if (!unwrittenLoad(E))
      return false;
    // The address's parts (an index read from memory too).
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
      return loadsUnwritten(ASE->getIdx(), Seen, Depth + 1);
    return true;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V || isa<ParmVarDecl>(V))
      return true; // enumerators, functions, parameters' values
    if (!V->hasLocalStorage())
      return unwrittenLoad(E); // a shared, constant or global variable
    if (V->getDeclContext() != Fr.F || V->getType()->isReferenceType() ||
        V->getType()->isArrayType() || I->AsmWrites.count(V))
      return false;
    if (!Seen.insert(V).second)
      return true;
    if (V->getInit() && !loadsUnwritten(V->getInit(), Seen, Depth + 1))
      return false;
    for (const Stmt *Mod : I->Mods.lookup(V)) {
      if (const auto *UO = dyn_cast<UnaryOperator>(Mod);
          UO && UO->isIncrementDecrementOp())
        continue;
      const auto *BO = dyn_cast<BinaryOperator>(Mod);
      if (!BO || !BO->isAssignmentOp() ||
          !loadsUnwritten(BO->getRHS(), Seen, Depth + 1))
        return false;
    }
    return true;
  }
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (!loadsUnwritten(CE, Seen, Depth + 1))
        return false;
  return true;
}

/// The quick test before the analysis: E, or the definition of a local it
/// reads (Depth levels), names the thread index, calls, or reads a local
/// set by inline asm: the branch stays as the lane model has it.
static bool namesThreadOrCall(const Expr *E, FunctionInfo &I,
                              const FunctionDecl *F, unsigned Depth) {
  if (!E || Depth > 6)
    return true;
  if (auto Ref = getBuiltinVarRef(E))
    return Ref->Var == BuiltinVar::ThreadIdx;
  E = E->IgnoreParenImpCasts();
  if (isa<CallExpr, StmtExpr, LambdaExpr, CXXNewExpr>(E))
    return true;
  if (const VarDecl *V = refVar(E)) {
    if (!V->hasLocalStorage() || isa<ParmVarDecl>(V))
      return false;
    if (V->getDeclContext() != F || I.AsmWrites.count(V))
      return true;
    if (V->getInit() && namesThreadOrCall(V->getInit(), I, F, Depth + 1))
      return true;
    for (const Stmt *Mod : I.Mods.lookup(V)) {
      const auto *BO = dyn_cast<BinaryOperator>(Mod);
      if (BO && BO->isAssignmentOp()) {
        if (namesThreadOrCall(BO->getRHS(), I, F, Depth + 1))
          return true;
      } else if (!isa<UnaryOperator>(Mod)) {
        return true;
      }
    }
    return false;
  }
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (namesThreadOrCall(CE, I, F, Depth + 1))
        return true;
  return false;
}

bool SharedRaceFinder::FrameSearch::uniformByMemory(unsigned Block) {
  auto [It, New] = UniformBranch.try_emplace(Block, false);
  if (!New)
    return It->second;
  const CFGBlock *B = I->Blocks[Block];
  const auto *C = B ? dyn_cast_or_null<Expr>(B->getTerminatorCondition())
                    : nullptr;
  const Stmt *T = B ? B->getTerminatorStmt() : nullptr;
  if (!C || !T || !isa<IfStmt, ConditionalOperator>(T))
    return false;
  if (namesThreadOrCall(C, *I, Fr.F, 0))
    return false;
  // The analysis's word on values and control (loads as uniform as their
  // addresses), the context's arguments bound...
  const FunctionUniformity *FU = Finder.Plain.analyze(Fr.F);
  if (!FU || !boundBlockUniform(Finder.Plain, FU->valueOf(C), Fr))
    return false;
  // ...and the memory the condition reads unwritten since the last barrier.
  llvm::SmallPtrSet<const VarDecl *, 4> Seen;
  const bool Uniform = loadsUnwritten(C, Seen, 0);
  UniformBranch[Block] = Uniform;
  return Uniform;
}

} // namespace cuda_tidy
