//===--- AsyncCopyEvents.cpp - What a statement does to async copies ------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
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

static const Expr *strip(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *C = dyn_cast<ExplicitCastExpr>(E)) {
      E = C->getSubExpr();
      continue;
    }
    return E;
  }
  return E;
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
static bool isKey(const VarDecl *V) {
  if (V->hasAttr<CUDASharedAttr>())
    return true;
  if (!V->hasLocalStorage() || isa<ParmVarDecl>(V) || !V->getInit() ||
      !V->getType()->isPointerType())
    return false;
  // The alias's own initialiser must reach a shared variable.
  const Expr *I = strip(V->getInit());
  for (int Depth = 0; Depth < 4 && I; ++Depth) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(I)) {
      const auto *W = dyn_cast<VarDecl>(DRE->getDecl());
      return W && W->hasAttr<CUDASharedAttr>();
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
        // A pointer that may move: somewhere in the buffer it started in,
        // unknown if it is ever written (the analysis checks).
        auto L = locateAddress(V->getInit(), Ctx, Scope);
        if (L && L->Part.Kind != Slot::Whole)
          L->Part.Kind = Slot::Unknown;
        if (L)
          L->Indices.push_back(DRE);
        return L;
      }
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

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

static StringRef nameOf(const NamedDecl *D) {
  return D && D->getDeclName().isIdentifier() ? D->getName() : StringRef();
}

/// The class a member function belongs to, or the type of a member call's
/// object.
static StringRef recordName(const CallExpr *CE, const FunctionDecl *FD) {
  if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD))
    if (const CXXRecordDecl *RD = MD->getParent())
      return nameOf(RD);
  if (const Expr *Base = memberCallBase(CE)) {
    QualType T = Base->getType();
    if (T->isPointerType())
      T = T->getPointeeType();
    if (const auto *RD = T->getAsCXXRecordDecl())
      return nameOf(RD);
  }
  return {};
}

/// The first template argument of a call to a function template, as a
/// number (`cg::wait_prior<1>`, `cute::cp_async_wait<0>`).
static std::optional<unsigned> templateCount(const FunctionDecl *FD) {
  if (const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs())
    if (Args->size() > 0 && Args->get(0).getKind() == TemplateArgument::Integral)
      return unsigned(Args->get(0).getAsIntegral().getZExtValue());
  return std::nullopt;
}

static bool inNamespace(const FunctionDecl *FD, StringRef Outer) {
  const DeclContext *DC = FD->getDeclContext();
  const NamespaceDecl *Last = nullptr;
  for (; DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      Last = NS;
  return Last && nameOf(Last) == Outer;
}

static bool containsInsensitive(StringRef S, StringRef Part) {
  return S.lower().find(Part) != std::string::npos;
}

static Event issue(Family F, Spelling Sp, const Expr *Dest, ASTContext &Ctx,
                   const ArgScope *Scope) {
  Event E = makeEvent(EventKind::Issue);
  E.Fam = F;
  E.Spell = Sp;
  E.Where = locate(Dest, Ctx, Scope);
  return E;
}

/// The pipeline object E names (`pipe`, `*pipe`), read through Scope's
/// arguments where it is a helper's parameter.
static const ValueDecl *pipelineObject(const Expr *E, const ArgScope *Scope) {
  for (int Depth = 0; Depth < 4 && E; ++Depth) {
    E = strip(E);
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      E = U->getSubExpr();
      continue;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    if (!DRE)
      return nullptr;
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()); P && Scope) {
      auto It = Scope->Args.find(P);
      if (It == Scope->Args.end())
        return P;
      E = It->second;
      Scope = Scope->Outer;
      continue;
    }
    return DRE->getDecl();
  }
  return nullptr;
}

/// A pipeline shared by a group: any scope but `thread_scope_thread` (the
/// pipeline's first template argument).
static bool isBlockScopePipeline(QualType T) {
  if (T.isNull())
    return false;
  if (T->isPointerType() || T->isReferenceType())
    T = T->getPointeeType();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  if (!Spec || Spec->getTemplateArgs().size() == 0)
    return false;
  const TemplateArgument &A = Spec->getTemplateArgs()[0];
  if (A.getKind() != TemplateArgument::Integral)
    return false;
  if (const auto *ET = A.getIntegralType()->getAs<EnumType>())
    for (const EnumConstantDecl *C : ET->getDecl()->enumerators())
      if (C->getName() == "thread_scope_thread")
        return C->getInitVal() != A.getAsIntegral();
  return false;
}

static Event waitFor(Family F, unsigned Prior, bool All, bool Publishes) {
  Event E = makeEvent(EventKind::Wait);
  E.Fam = F;
  E.Prior = Prior;
  E.AllGroups = All;
  E.Publishes = Publishes;
  return E;
}

/// The first pointer argument from Begin on.
static const Expr *firstPointerArg(const CallExpr *CE, unsigned Begin = 0) {
  for (unsigned I = Begin; I < CE->getNumArgs(); ++I)
    if (CE->getArg(I)->IgnoreParenImpCasts()->getType()->isPointerType() ||
        CE->getArg(I)->getType()->isPointerType())
      return CE->getArg(I);
  return nullptr;
}

/// The last argument that points into a shared variable.
static std::optional<Location> lastSharedArg(const CallExpr *CE,
                                             ASTContext &Ctx,
                                             const ArgScope *Scope) {
  for (unsigned I = CE->getNumArgs(); I-- > 0;)
    if (auto L = locate(CE->getArg(I), Ctx, Scope))
      return L;
  return std::nullopt;
}

static void cudaPtxEvents(const CallExpr *CE, StringRef Name, ASTContext &Ctx,
                          const ArgScope *Scope,
                          llvm::SmallVectorImpl<Event> &Out) {
  if (Name == "fence_proxy_async") {
    Out.push_back(makeEvent(EventKind::ProxyFence));
  } else if (Name == "cp_async_bulk_wait_group_read" ||
             Name == "cp_async_bulk_wait_group") {
    Out.push_back(makeEvent(EventKind::BulkWaitRead));
  } else if (Name.starts_with("mbarrier_try_wait") ||
             Name.starts_with("mbarrier_test_wait")) {
    Out.push_back(waitFor(Family::Barrier, 0, true, true));
  } else if ((Name == "cp_async_bulk" || Name == "cp_async_bulk_tensor") &&
             CE->getNumArgs() >= 3) {
    QualType T = CE->getArg(0)->getType();
    const auto *RD = T->getAsCXXRecordDecl();
    if (RD && nameOf(RD).contains("space_global")) {
      Event E = makeEvent(EventKind::BulkStore);
      E.Where = lastSharedArg(CE, Ctx, Scope);
      Out.push_back(E);
    } else {
      Out.push_back(issue(Family::Barrier, Spelling::Other, CE->getArg(2), Ctx, Scope));
    }
  }
}

/// The name of the CuTe copy operation (`SM80_CP_ASYNC_CACHEGLOBAL`,
/// `SM90_TMA_LOAD`, `SM75_U32x4_LDSM_N`) in a copy atom's or tiled copy's
/// type, found in its template arguments and bases.
static StringRef copyOperation(QualType T, unsigned Depth = 6) {
  if (T.isNull() || Depth == 0)
    return {};
  T = T.getNonReferenceType();
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return {};
  StringRef Name = nameOf(RD);
  if (Name.starts_with("SM80_CP_ASYNC") || Name.starts_with("SM90_TMA_") ||
      Name.starts_with("SM90_BULK") || Name.contains("LDSM"))
    return Name;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    for (const TemplateArgument &A : Spec->getTemplateArgs().asArray())
      if (A.getKind() == TemplateArgument::Type)
        if (StringRef Op = copyOperation(A.getAsType(), Depth - 1); !Op.empty())
          return Op;
  if (RD->hasDefinition())
    for (const CXXBaseSpecifier &B : RD->bases())
      if (StringRef Op = copyOperation(B.getType(), Depth - 1); !Op.empty())
        return Op;
  return {};
}

/// CuTe's generic `copy(atom_or_tiled_copy, src, dst)` where the copy
/// operation's name makes what it does certain; `gemm(mma, a, b, c)` reads
/// its shared operands.
static bool cuteGenericEvents(const CallExpr *CE, StringRef Name,
                              ASTContext &Ctx, const ArgScope *Scope,
                              llvm::SmallVectorImpl<Event> &Out) {
  if (Name == "gemm" && CE->getNumArgs() >= 4) {
    for (unsigned I : {1u, 2u}) {
      Event E = makeEvent(EventKind::SharedRead);
      E.Where = locate(CE->getArg(I), Ctx, Scope);
      if (E.Where)
        Out.push_back(E);
    }
    return true;
  }
  if (Name != "copy" || CE->getNumArgs() < 3)
    return false;
  StringRef Op = copyOperation(CE->getArg(0)->getType());
  if (Op.starts_with("SM80_CP_ASYNC")) {
    Out.push_back(issue(Family::CpAsync, Spelling::Cute, CE->getArg(2), Ctx,
                        Scope));
  } else if (Op.starts_with("SM90_TMA_LOAD") ||
             Op.starts_with("SM90_BULK_COPY_G2S")) {
    Out.push_back(issue(Family::Barrier, Spelling::Other, CE->getArg(2), Ctx,
                        Scope));
  } else if (Op.starts_with("SM90_TMA_STORE") ||
             Op.starts_with("SM90_TMA_REDUCE") ||
             Op.starts_with("SM90_BULK_COPY_S2G")) {
    Event E = makeEvent(EventKind::BulkStore);
    E.Where = locate(CE->getArg(1), Ctx, Scope);
    Out.push_back(E);
  } else {
    // Any other copy out of a shared view reads it (`ldmatrix`, a plain
    // shared-to-register copy).
    Event E = makeEvent(EventKind::SharedRead);
    E.Where = locate(CE->getArg(1), Ctx, Scope);
    if (E.Where)
      Out.push_back(E);
  }
  return true;
}

static void cuteEvents(const CallExpr *CE, const FunctionDecl *FD,
                       StringRef Name, StringRef Record, ASTContext &Ctx,
                       const ArgScope *Scope,
                       llvm::SmallVectorImpl<Event> &Out) {
  if (Name == "copy" && Record.starts_with("SM80_CP_ASYNC") &&
      CE->getNumArgs() >= 2) {
    Out.push_back(issue(Family::CpAsync, Spelling::Cute, CE->getArg(1), Ctx, Scope));
  } else if (Name == "copy" && Record.starts_with("SM90_TMA_LOAD")) {
    for (const Expr *A : CE->arguments()) {
      QualType T = A->IgnoreParenImpCasts()->getType();
      if (T->isPointerType() && T->getPointeeType()->isVoidType() &&
          !T->getPointeeType().isConstQualified()) {
        Out.push_back(issue(Family::Barrier, Spelling::Other, A, Ctx, Scope));
        return;
      }
    }
  } else if (Name == "copy" && Record.starts_with("SM90_TMA_STORE") &&
             CE->getNumArgs() >= 2) {
    Event E = makeEvent(EventKind::BulkStore);
    E.Where = locate(CE->getArg(1), Ctx, Scope);
    Out.push_back(E);
  } else if (Record.empty() && inNamespace(FD, "cute") &&
             cuteGenericEvents(CE, Name, Ctx, Scope, Out)) {
    return;
  } else if (Name == "cp_async_fence") {
    Out.push_back(makeEvent(EventKind::Commit));
  } else if (Name == "cp_async_wait") {
    if (auto N = templateCount(FD))
      Out.push_back(waitFor(Family::CpAsync, *N, false, false));
  } else if (Name == "tma_store_fence" || Name == "fence_view_async_shared") {
    Out.push_back(makeEvent(EventKind::ProxyFence));
  } else if (Name == "tma_store_wait") {
    Out.push_back(makeEvent(EventKind::BulkWaitRead));
  }
}

static void callEvents(const CallExpr *CE, ASTContext &Ctx,
                       const ArgScope *Scope,
                       llvm::SmallVectorImpl<Event> &Out) {
  const FunctionDecl *FD = resolveCallee(CE);
  StringRef Name = nameOf(FD);
  if (Name.empty())
    return;
  if (Name == "__pipeline_memcpy_async" && CE->getNumArgs() >= 1) {
    Out.push_back(issue(Family::CpAsync, Spelling::Primitive, CE->getArg(0), Ctx, Scope));
    return;
  }
  if (Name == "__pipeline_commit") {
    Out.push_back(makeEvent(EventKind::Commit));
    return;
  }
  if (Name == "__pipeline_wait_prior" && CE->getNumArgs() == 1) {
    auto N = constantOf(CE->getArg(0), Ctx);
    // An unknown count is taken as a wait for everything: no report.
    Out.push_back(waitFor(Family::CpAsync, N ? unsigned(*N) : 0, false, false));
    return;
  }
  StringRef Record = recordName(CE, FD);
  if (inNamespace(FD, "cooperative_groups")) {
    if (Name == "memcpy_async" && CE->getNumArgs() >= 3) {
      Event E = issue(Family::CpAsync, Spelling::CooperativeGroup,
                      CE->getArg(1), Ctx, Scope);
      E.CommitsItself = true;
      E.Group = CE->getArg(0);
      Out.push_back(E);
    } else if (Name == "wait" && CE->getNumArgs() == 1) {
      Out.push_back(waitFor(Family::CpAsync, 0, false, true));
    } else if (Name == "wait_prior" && CE->getNumArgs() == 1) {
      if (auto N = templateCount(FD))
        Out.push_back(waitFor(Family::CpAsync, *N, false, true));
    }
    return;
  }
  if (inNamespace(FD, "cuda")) {
    if (Name == "memcpy_async" && CE->getNumArgs() >= 4) {
      QualType Last = CE->getArg(CE->getNumArgs() - 1)->getType();
      const auto *RD = Last->getAsCXXRecordDecl();
      const Expr *Dest = firstPointerArg(CE);
      if (RD && containsInsensitive(nameOf(RD), "pipeline")) {
        Event E = issue(Family::Pipeline, Spelling::Other, Dest, Ctx, Scope);
        E.Pipe = pipelineObject(CE->getArg(CE->getNumArgs() - 1), Scope);
        Out.push_back(E);
      }
      else if (RD && containsInsensitive(nameOf(RD), "barrier"))
        Out.push_back(issue(Family::Barrier, Spelling::Other, Dest, Ctx, Scope));
      return;
    }
    if (Name == "memcpy_async_tx" && CE->getNumArgs() >= 1) {
      Out.push_back(issue(Family::Barrier, Spelling::Other, CE->getArg(0), Ctx, Scope));
      return;
    }
    if (Name == "pipeline_consumer_wait_prior") {
      if (auto N = templateCount(FD)) {
        Event E = waitFor(Family::Pipeline, *N, false, true);
        if (CE->getNumArgs() >= 1)
          E.Pipe = pipelineObject(CE->getArg(0), Scope);
        Out.push_back(E);
      }
      return;
    }
    if (Name == "barrier_wait") {
      Out.push_back(waitFor(Family::Barrier, 0, true, true));
      return;
    }
    cudaPtxEvents(CE, Name, Ctx, Scope, Out);
    if (!Out.empty())
      return;
  }
  if (containsInsensitive(Record, "pipeline")) {
    const Expr *Base = memberCallBase(CE);
    Event E = makeEvent(EventKind::Commit, Family::Pipeline);
    if (Name == "consumer_wait") {
      E = waitFor(Family::Pipeline, 0, false, true);
      E.Oldest = true;
    } else if (Name.starts_with("consumer_wait")) {
      // consumer_wait_for / _until: whether the stage landed is the
      // returned value, which the analysis does not follow.
      E = waitFor(Family::Pipeline, 0, false, true);
    } else if (Name == "consumer_release") {
      E = makeEvent(EventKind::Release, Family::Pipeline);
    } else if (Name == "producer_acquire") {
      E = makeEvent(EventKind::Acquire, Family::Pipeline);
    } else if (Name != "producer_commit") {
      return;
    }
    E.Pipe = Base ? pipelineObject(Base, Scope) : nullptr;
    E.BlockScope = Base && isBlockScopePipeline(Base->getType());
    Out.push_back(E);
    return;
  }
  if (containsInsensitive(Record, "barrier")) {
    if (Name == "wait" || Name == "arrive_and_wait" ||
        Name.starts_with("wait_parity") || Name.starts_with("try_wait"))
      Out.push_back(waitFor(Family::Barrier, 0, true, true));
    return;
  }
  if ((Name == "load_matrix_sync" || Name == "store_matrix_sync") &&
      inNamespace(FD, "nvcuda") && CE->getNumArgs() >= 2) {
    const bool Load = Name == "load_matrix_sync";
    Event E = makeEvent(Load ? EventKind::SharedRead : EventKind::SharedWrite);
    E.Where = locate(CE->getArg(Load ? 1 : 0), Ctx, Scope);
    if (E.Where)
      Out.push_back(E);
    return;
  }
  cuteEvents(CE, FD, Name, Record, Ctx, Scope, Out);
}

//===----------------------------------------------------------------------===//
// Inline PTX
//===----------------------------------------------------------------------===//

/// The expression of asm operand `%N`.
static const Expr *operandExpr(const GCCAsmStmt *Asm, unsigned N) {
  if (N < Asm->getNumOutputs())
    return Asm->getOutputExpr(N);
  N -= Asm->getNumOutputs();
  return N < Asm->getNumInputs() ? Asm->getInputExpr(N) : nullptr;
}

/// The operand `%N` inside the I-th (or, with Last, the last) bracketed
/// address of an instruction's operand text.
static const Expr *bracketOperand(const GCCAsmStmt *Asm, StringRef Operands,
                                  bool Last) {
  size_t Open = Last ? Operands.rfind('[') : Operands.find('[');
  if (Open == StringRef::npos)
    return nullptr;
  StringRef Rest = Operands.drop_front(Open + 1).ltrim();
  if (!Rest.consume_front("%"))
    return nullptr;
  unsigned N = 0;
  StringRef Digits = Rest.take_while([](char C) { return isdigit(C); });
  if (Digits.empty() || Digits.getAsInteger(10, N))
    return nullptr;
  return operandExpr(Asm, N);
}

/// `N` or `%K` (a constant operand) as a count.
static std::optional<unsigned> countOperand(const GCCAsmStmt *Asm,
                                            StringRef Text, ASTContext &Ctx) {
  Text = Text.trim();
  unsigned N = 0;
  if (!Text.getAsInteger(10, N))
    return N;
  if (Text.consume_front("%") && !Text.getAsInteger(10, N))
    if (auto V = constantOf(operandExpr(Asm, N), Ctx))
      return unsigned(*V);
  return std::nullopt;
}

static void asmEvents(const GCCAsmStmt *Asm, ASTContext &Ctx,
                      const ArgScope *Scope,
                      llvm::SmallVectorImpl<Event> &Out) {
  std::string Text = Asm->getAsmString();
  llvm::SmallVector<StringRef, 4> Parts;
  StringRef(Text).split(Parts, ';');
  for (StringRef Part : Parts) {
    // Drop labels, braces and a guard predicate.
    Part = Part.trim(" \t\n\r{}");
    if (Part.starts_with("@"))
      Part = Part.drop_until([](char C) { return C == ' ' || C == '\t'; });
    Part = Part.trim();
    StringRef Op = Part.take_until([](char C) { return isspace(C); });
    while (Op.ends_with(":")) { // A label.
      Part = Part.drop_front(Op.size()).trim();
      Op = Part.take_until([](char C) { return isspace(C); });
    }
    StringRef Operands = Part.drop_front(Op.size());
    if (Op.starts_with("cp.async.ca.shared") ||
        Op.starts_with("cp.async.cg.shared")) {
      Out.push_back(issue(Family::CpAsync, Spelling::Asm,
                          bracketOperand(Asm, Operands, false), Ctx, Scope));
    } else if (Op == "cp.async.commit_group") {
      Out.push_back(makeEvent(EventKind::Commit));
    } else if (Op == "cp.async.wait_group") {
      auto N = countOperand(Asm, Operands, Ctx);
      Out.push_back(waitFor(Family::CpAsync, N ? *N : 0, false, false));
    } else if (Op == "cp.async.wait_all") {
      Out.push_back(waitFor(Family::CpAsync, 0, true, false));
    } else if (Op.starts_with("cp.async.bulk.wait_group")) {
      Out.push_back(makeEvent(EventKind::BulkWaitRead));
    } else if ((Op.starts_with("cp.async.bulk.global.shared") ||
                Op.starts_with("cp.reduce.async.bulk.global.shared") ||
                (Op.starts_with("cp.async.bulk.tensor") &&
                 Op.contains(".global.shared")) ||
                (Op.starts_with("cp.reduce.async.bulk.tensor") &&
                 Op.contains(".global.shared")))) {
      Event E = makeEvent(EventKind::BulkStore);
      E.Where = locate(bracketOperand(Asm, Operands, true), Ctx, Scope);
      Out.push_back(E);
    } else if (Op.starts_with("cp.async.bulk.shared") ||
               (Op.starts_with("cp.async.bulk.tensor") &&
                Op.contains(".shared::") && Op.contains(".global"))) {
      Out.push_back(issue(Family::Barrier, Spelling::Asm,
                          bracketOperand(Asm, Operands, false), Ctx, Scope));
    } else if (Op == "fence.proxy.async" ||
               Op.starts_with("fence.proxy.async.shared")) {
      Out.push_back(makeEvent(EventKind::ProxyFence));
    } else if (Op.starts_with("ldmatrix") || Op.starts_with("ld.shared") ||
               Op.starts_with("st.shared") || Op.starts_with("stmatrix")) {
      Event E = makeEvent(Op.starts_with("ld") ? EventKind::SharedRead
                                               : EventKind::SharedWrite);
      E.Where = locate(bracketOperand(Asm, Operands, false), Ctx, Scope);
      if (E.Where)
        Out.push_back(E);
    } else if (Op.starts_with("mbarrier.try_wait") ||
               Op.starts_with("mbarrier.test_wait")) {
      Out.push_back(waitFor(Family::Barrier, 0, true, true));
    }
  }
}

llvm::SmallVector<Event, 1> eventsOf(const Stmt *S, ASTContext &Ctx,
                                     const ArgScope *Scope) {
  llvm::SmallVector<Event, 1> Out;
  if (const auto *CE = dyn_cast<CallExpr>(S))
    callEvents(CE, Ctx, Scope, Out);
  else if (const auto *Asm = dyn_cast<GCCAsmStmt>(S))
    asmEvents(Asm, Ctx, Scope, Out);
  return Out;
}

//===----------------------------------------------------------------------===//
// The quick test
//===----------------------------------------------------------------------===//

static bool namesAsyncCopy(StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases({"__pipeline_memcpy_async", "memcpy_async", "memcpy_async_tx",
              "cp_async_bulk", "cp_async_bulk_tensor", "fence_proxy_async",
              "cp_async_bulk_wait_group_read", "tma_store_fence",
              "fence_view_async_shared", "cp_async_fence", "copy"},
             true)
      .Default(false);
}

bool mentionsAsyncCopies(const Stmt *Body, bool Waits, unsigned CalleeDepth) {
  if (!Body)
    return false;
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(Body)) {
    std::string Text = Asm->getAsmString();
    StringRef T(Text);
    if (T.contains("cp.async") || T.contains("fence.proxy.async") ||
        T.contains("cp.reduce.async.bulk") ||
        (Waits && (T.contains("mbarrier.try_wait") ||
                   T.contains("mbarrier.test_wait"))))
      return true;
  } else if (const auto *CE = dyn_cast<CallExpr>(Body)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD)
      FD = resolveCallee(CE);
    if (Waits && FD && FD->getDeclName().isIdentifier() &&
        (FD->getName().contains("wait") || FD->getName().contains("commit")))
      return true;
    // A user's helper that issues a copy (or, with Waits, waits).
    if (CalleeDepth > 0 && FD && FD->hasBody() && !isInSystemHeader(FD) &&
        mentionsAsyncCopies(FD->getBody(), Waits, CalleeDepth - 1))
      return true;
    if (namesAsyncCopy(nameOf(FD))) {
      // `copy` only from CuTe's copy atoms, or given one whose operation
      // is asynchronous.
      if (nameOf(FD) != "copy" ||
          recordName(CE, FD).starts_with("SM80_CP_ASYNC") ||
          recordName(CE, FD).starts_with("SM90_TMA"))
        return true;
      if (CE->getNumArgs() >= 3) {
        StringRef Op = copyOperation(CE->getArg(0)->getType());
        if (Op.starts_with("SM80_CP_ASYNC") || Op.starts_with("SM90_TMA") ||
            Op.starts_with("SM90_BULK"))
          return true;
      }
    }
  }
  for (const Stmt *Child : Body->children())
    if (mentionsAsyncCopies(Child, Waits, CalleeDepth))
      return true;
  return false;
}

} // namespace asynccopy
} // namespace cuda_tidy
