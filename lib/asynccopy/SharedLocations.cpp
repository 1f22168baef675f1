//===--- SharedLocations.cpp - Where an address points in shared memory ---===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The part of AsyncCopyEvents.h that names places in shared memory:
// locate(), slotOfIndex(), the index helpers and the thread dependence of
// an expression.
//
//===----------------------------------------------------------------------===//

#include "lib/asynccopy/AsyncCopyEvents.h"
#include "lib/ast/CudaAST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace cuda_tidy {
namespace asynccopy {

//===----------------------------------------------------------------------===//
// Where an address points
//===----------------------------------------------------------------------===//

/// E without its parentheses and casts, implicit and explicit.
static const Expr *strip(const Expr *E) {
  return E ? E->IgnoreParenCasts() : nullptr;
}

/// E depends on the thread's index: it names `threadIdx`, a thread rank, or
/// a local variable initialised from one (Depth levels of variables).
static bool threadDependent(const Stmt *S, unsigned Depth = 3) {
  if (!S)
    return false;
  if (const auto *E = dyn_cast<Expr>(S)) {
    if (auto Ref = getBuiltinVarRef(E); Ref && Ref->Var == BuiltinVar::ThreadIdx)
      return true;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts())) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) && Depth > 0)
        return threadDependent(V->getInit(), Depth - 1);
      return false;
    }
    if (const auto *CE = dyn_cast<CallExpr>(E))
      if (const auto *FD = CE->getDirectCallee();
          FD && FD->getDeclName().isIdentifier() &&
          (FD->getName() == "thread_rank" || FD->getName() == "__lane_id"))
        return true;
  }
  for (const Stmt *Child : S->children())
    if (threadDependent(Child, Depth))
      return true;
  return false;
}

bool isThreadDependent(const Expr *E) { return threadDependent(E); }

std::optional<int64_t> constantValue(const Expr *E, ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

static std::optional<int64_t> constantOf(const Expr *E, ASTContext &Ctx) {
  return constantValue(E, Ctx);
}

/// `x`, `x + C`, `C + x`, `x - C`, `(..) % S`, `(..) & (S - 1)`, or a
/// constant; Opaque for anything else.
static Slot slotOf(const Expr *E, ASTContext &Ctx) {
  Slot R;
  E = strip(E);
  if (auto C = constantOf(E, Ctx)) {
    R.Kind = Slot::Affine;
    R.C = *C;
    return R;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
      R.Kind = Slot::Affine;
      R.Var = V;
      return R;
    }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    const BinaryOperatorKind Op = BO->getOpcode();
    auto RHS = constantOf(BO->getRHS(), Ctx);
    auto LHS = constantOf(BO->getLHS(), Ctx);
    if ((Op == BO_Add || Op == BO_Sub) && (RHS || (LHS && Op == BO_Add))) {
      Slot In = slotOf(RHS ? BO->getLHS() : BO->getRHS(), Ctx);
      if (In.Kind == Slot::Affine && In.S == 0 && In.Var) {
        In.C += Op == BO_Sub ? -*RHS : (RHS ? *RHS : *LHS);
        return In;
      }
    }
    // `x ^ K` with K a power of two: (x + K) % 2K while x is in [0, 2K).
    if (Op == BO_Xor && RHS && *RHS > 0 && (*RHS & (*RHS - 1)) == 0) {
      Slot In = slotOf(BO->getLHS(), Ctx);
      if (In.Kind == Slot::Affine && In.S == 0 && In.C == 0 && In.Var) {
        In.S = 2 * *RHS;
        In.C = *RHS;
        In.NeedsRange = true;
        return In;
      }
    }
    if ((Op == BO_Rem && RHS && *RHS > 0) ||
        (Op == BO_And && RHS && *RHS >= 0 && ((*RHS + 1) & *RHS) == 0)) {
      Slot In = slotOf(BO->getLHS(), Ctx);
      if (In.Kind == Slot::Affine && In.S == 0 && In.Var) {
        In.S = Op == BO_Rem ? *RHS : *RHS + 1;
        In.C = ((In.C % In.S) + In.S) % In.S;
        return In;
      }
    }
  }
  R.Kind = Slot::Opaque;
  R.E = E;
  return R;
}

void additiveTerms(const Expr *E, llvm::SmallVectorImpl<const Expr *> &Out) {
  E = strip(E);
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && (BO->getOpcode() == BO_Add)) {
    additiveTerms(BO->getLHS(), Out);
    additiveTerms(BO->getRHS(), Out);
    return;
  }
  Out.push_back(E);
}

Slot slotOfIndex(const Expr *E, ASTContext &Ctx) { return slotOf(E, Ctx); }

/// The slot of a flat buffer indexed by Offset: the factor F of a term
/// `F * K` (K a constant of at least 2) that does not depend on the thread,
/// as in `buf[stage * TILE + threadIdx.x]`; the whole buffer otherwise.
static Slot flatSlot(const Expr *Offset, ASTContext &Ctx) {
  llvm::SmallVector<const Expr *, 4> Terms;
  if (Offset)
    additiveTerms(Offset, Terms);
  for (const Expr *T : Terms) {
    const auto *BO = dyn_cast<BinaryOperator>(T);
    if (!BO || BO->getOpcode() != BO_Mul)
      continue;
    for (auto [F, K] : {std::pair(BO->getLHS(), BO->getRHS()),
                        std::pair(BO->getRHS(), BO->getLHS())}) {
      auto KV = constantOf(K, Ctx);
      if (!KV || *KV < 2 || constantOf(F, Ctx) || threadDependent(F))
        continue;
      return slotOf(F, Ctx);
    }
  }
  return Slot();
}

/// A local pointer initialised from a `__shared__` variable (an alias the
/// analysis keys accesses by), or the variable itself.
static bool isKey(const VarDecl *V, unsigned AliasDepth = 3) {
  if (V->hasAttr<CUDASharedAttr>())
    return true;
  if (!V->hasLocalStorage() || isa<ParmVarDecl>(V) || !V->getInit() ||
      !V->getType()->isPointerType())
    return false;
  // The alias's own initialiser must reach a shared variable, or another
  // such alias.
  const Expr *I = strip(V->getInit());
  for (int Depth = 0; Depth < 8 && I; ++Depth) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(I)) {
      const auto *W = dyn_cast<VarDecl>(DRE->getDecl());
      return W && W != V &&
             (W->hasAttr<CUDASharedAttr>() ||
              (AliasDepth > 0 && isKey(W, AliasDepth - 1)));
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(I)) {
      I = strip(UO->getSubExpr());
    } else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(I)) {
      I = strip(AS->getBase());
    } else if (const auto *BO = dyn_cast<BinaryOperator>(I);
               BO && BO->isAdditiveOp()) {
      I = strip(BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                         : BO->getRHS());
    } else {
      return false;
    }
  }
  return false;
}

static std::optional<Location> locateAddress(const Expr *E, ASTContext &Ctx,
                                             const ArgScope *Scope);

/// Subscripts or offsets through a local pointer into shared memory
/// (`float *p = &ring[stage][0]; ... p[t]`): the buffer it points into, in
/// the slot its initialiser names (a row of a ring stays a row); unknown
/// where the pointer moves (the analysis checks).
static std::optional<Location>
throughPointer(const VarDecl *V, const DeclRefExpr *DRE, const Expr *Spelled,
               llvm::ArrayRef<const Expr *> Indices, ASTContext &Ctx,
               const ArgScope *Scope) {
  auto L = locateAddress(V->getInit(), Ctx, Scope);
  if (!L)
    return std::nullopt;
  L->Spelled = Spelled;
  L->Indices.append(Indices.begin(), Indices.end());
  L->Indices.push_back(DRE);
  if (!L->Alias)
    L->Alias = V;
  return L;
}

static std::optional<Location> locateAddress(const Expr *E, ASTContext &Ctx,
                                             const ArgScope *Scope) {
  if (!E)
    return std::nullopt;
  const Expr *Spelled = strip(E);
  const Expr *Cur = Spelled;
  // Subscripts from the outermost in; the innermost one applied to the
  // variable decides the slot of a ring of tiles.
  const Expr *FirstIndex = nullptr, *FlatOffset = nullptr;
  unsigned Subscripts = 0;
  llvm::SmallVector<const Expr *, 4> Indices;
  for (int Depth = 0; Depth < 16 && Cur; ++Depth) {
    if (const auto *CE = dyn_cast<CallExpr>(Cur)) {
      const FunctionDecl *FD = CE->getDirectCallee();
      if (FD && FD->getDeclName().isIdentifier() && CE->getNumArgs() == 1 &&
          FD->getName().starts_with("__cvta_generic_to_shared")) {
        Cur = strip(CE->getArg(0));
        continue;
      }
      return std::nullopt;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(Cur)) {
      if (UO->getOpcode() != UO_AddrOf && UO->getOpcode() != UO_Deref)
        return std::nullopt;
      Cur = strip(UO->getSubExpr());
      continue;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(Cur)) {
      Cur = strip(ME->getBase());
      continue;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Cur)) {
      ++Subscripts;
      FirstIndex = AS->getIdx();
      Indices.push_back(FirstIndex);
      Cur = strip(AS->getBase());
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(Cur);
        BO && BO->isAdditiveOp() &&
        !BO->getLHS()->getType()->isPointerType() &&
        !BO->getRHS()->getType()->isPointerType()) {
      // A shared-window address plus an offset: somewhere in the buffer.
      auto L = locateAddress(BO->getLHS(), Ctx, Scope);
      if (L)
        L->Indices.push_back(BO->getRHS());
      if (!L && BO->getOpcode() == BO_Add) {
        L = locateAddress(BO->getRHS(), Ctx, Scope);
        if (L)
          L->Indices.push_back(BO->getLHS());
      }
      if (L && L->Part.Kind != Slot::Whole)
        L->Part.Kind = Slot::Unknown;
      return L;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(Cur);
        BO && BO->isAdditiveOp()) {
      const bool LeftPtr = BO->getLHS()->getType()->isPointerType() ||
                           BO->getLHS()->getType()->isArrayType();
      if (BO->getOpcode() == BO_Sub && !LeftPtr)
        return std::nullopt;
      FlatOffset = LeftPtr ? BO->getRHS() : BO->getLHS();
      Indices.push_back(FlatOffset);
      Cur = strip(LeftPtr ? BO->getLHS() : BO->getRHS());
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Cur)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (!V)
        return std::nullopt;
      // A helper's parameter: the argument of the call being summarised.
      if (const auto *P = dyn_cast<ParmVarDecl>(V); P && Scope) {
        auto It = Scope->Args.find(P);
        if (It == Scope->Args.end())
          return std::nullopt;
        Cur = strip(It->second);
        Scope = Scope->Outer;
        continue;
      }
      // A constant pointer to one element (`float4 *const p =
      // reinterpret_cast<float4 *>(&As[ty][tx])`) used as it is: the
      // element it was initialised with.
      if (!V->hasAttr<CUDASharedAttr>() && isKey(V) && Subscripts == 0 &&
          !FlatOffset) {
        if (V->getType().isConstQualified()) {
          Cur = strip(V->getInit());
          continue;
        }
        // A pointer that may move: where it started, unknown if it is ever
        // written (the analysis checks).
        return throughPointer(V, DRE, Spelled, Indices, Ctx, Scope);
      }
      if (!V->hasAttr<CUDASharedAttr>() && isKey(V) &&
          V->getType()->isPointerType())
        return throughPointer(V, DRE, Spelled, Indices, Ctx, Scope);
      if (!isKey(V)) {
        // A local holding a shared address (`uint32_t a =
        // __cvta_generic_to_shared(tile)`), for the operands of asm.
        if (V->hasLocalStorage() && !isa<ParmVarDecl>(V) && V->getInit() &&
            V->getType()->isIntegerType()) {
          Cur = strip(V->getInit());
          continue;
        }
        return std::nullopt;
      }
      Location L;
      L.Key = V;
      L.Spelled = Spelled;
      L.Indices = Indices;
      const Type *T = V->getType()->getUnqualifiedDesugaredType();
      const bool Nested =
          T->isArrayType() &&
          Ctx.getAsArrayType(QualType(T, 0))->getElementType()->isArrayType();
      // A per-thread offset added to a row of a ring of tiles (`&ring[s][0]
      // + threadIdx.x`, as a helper's pointer parameter receives it) stays
      // in the row.
      const bool RowOffset = FlatOffset && threadDependent(FlatOffset) &&
                             flatSlot(FlatOffset, Ctx).Kind == Slot::Whole;
      if (Nested && Subscripts > 0 && FirstIndex &&
          (!FlatOffset || RowOffset)) {
        if (!threadDependent(FirstIndex))
          L.Part = slotOf(FirstIndex, Ctx);
      } else if (!Nested && Subscripts <= 1) {
        L.Part = flatSlot(Subscripts ? FirstIndex : FlatOffset, Ctx);
        if (Subscripts && FlatOffset)
          L.Part.Kind = Slot::Unknown;
      } else if (Subscripts > 0 || FlatOffset) {
        L.Part.Kind = Slot::Unknown;
      }
      return L;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

/// The `__shared__` variable a CuTe tensor (or another object built from a
/// shared address) views: followed through locals' initialisers, the
/// object and arguments of the calls that build it (`make_tensor`,
/// `make_smem_ptr`, `partition_D`, `operator()`), members and helpers'
/// parameters. Register fragments shaped after a shared tensor
/// (`partition_fragment_A`, `make_fragment_like`) are not views.
static const VarDecl *viewedShared(const Expr *E, const ArgScope *Scope,
                                   unsigned Depth) {
  if (!E || Depth == 0)
    return nullptr;
  E = strip(E->IgnoreImplicit());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return nullptr;
    if (V->hasAttr<CUDASharedAttr>())
      return V;
    if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
      if (!Scope)
        return nullptr;
      auto It = Scope->Args.find(P);
      return It == Scope->Args.end()
                 ? nullptr
                 : viewedShared(It->second, Scope->Outer, Depth - 1);
    }
    return V->hasLocalStorage() ? viewedShared(V->getInit(), Scope, Depth - 1)
                                : nullptr;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    if (const FunctionDecl *FD = CE->getDirectCallee();
        FD && FD->getDeclName().isIdentifier() &&
        (FD->getName().contains("fragment") ||
         FD->getName() == "make_tensor_like"))
      return nullptr;
    if (const Expr *Object = memberCallBase(CE))
      if (const VarDecl *V = viewedShared(Object, Scope, Depth - 1))
        return V;
    for (const Expr *A : CE->arguments())
      if (const VarDecl *V = viewedShared(A, Scope, Depth - 1))
        return V;
    return nullptr;
  }
  if (const auto *CC = dyn_cast<CXXConstructExpr>(E)) {
    for (const Expr *A : CC->arguments())
      if (const VarDecl *V = viewedShared(A, Scope, Depth - 1))
        return V;
    return nullptr;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return viewedShared(ME->getBase(), Scope, Depth - 1);
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return viewedShared(U->getSubExpr(), Scope, Depth - 1);
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return viewedShared(AS->getBase(), Scope, Depth - 1);
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isAdditiveOp())
    return viewedShared(BO->getLHS()->getType()->isPointerType()
                            ? BO->getLHS()
                            : BO->getRHS(),
                        Scope, Depth - 1);
  return nullptr;
}

std::optional<Location> locate(const Expr *E, ASTContext &Ctx,
                               const ArgScope *Scope) {
  if (auto L = locateAddress(E, Ctx, Scope))
    return L;
  // An object that views shared memory (a CuTe tensor): somewhere in the
  // buffer, a slot the analysis does not compare.
  if (!E || !strip(E)->getType()->isRecordType())
    return std::nullopt;
  const VarDecl *V = viewedShared(E, Scope, 16);
  if (!V)
    return std::nullopt;
  Location L;
  L.Key = V;
  L.Spelled = strip(E);
  L.Part.Kind = Slot::Unknown;
  return L;
}

} // namespace asynccopy
} // namespace cuda_tidy
