//===--- EarlyLaunch.cpp - Kernels that may start before their predecessor ===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/pdl/EarlyLaunch.h"
#include "lib/launch/LaunchAttributes.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_tidy {

static bool isProgrammaticId(StringRef Name) {
  return Name == "cudaLaunchAttributeProgrammaticStreamSerialization" ||
         Name == "CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION";
}

/// Whether a branch (a statement or operator that may skip code) starts in
/// S before the location Before.
static bool branchesBefore(const Stmt *S, SourceLocation Before,
                           const SourceManager &SM) {
  if (!S || !SM.isBeforeInTranslationUnit(S->getBeginLoc(), Before))
    return false;
  if (isa<IfStmt, SwitchStmt, AbstractConditionalOperator, ForStmt, WhileStmt,
          DoStmt, CXXForRangeStmt, CXXTryStmt>(S))
    return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isLogicalOp())
    return true;
  for (const Stmt *Child : S->children())
    if (branchesBefore(Child, Before, SM))
      return true;
  return false;
}

/// Whether L always launches when its function reaches it (see
/// ProgrammaticLaunch::Unconditional).
static bool launchesUnconditionally(const LaunchSite &L,
                                    const LaunchAttributeEntry &Attr) {
  if (!Attr.Value || *Attr.Value == 0 || !L.Caller || !L.Caller->getBody())
    return false;
  const SourceManager &SM = L.Caller->getASTContext().getSourceManager();
  return !branchesBefore(L.Caller->getBody(), L.Call->getBeginLoc(), SM);
}

/// The kernel E names (`k<64>`, `&k<64>`, `(void *)k`), or null; *IsNull
/// is set for a null pointer.
static const FunctionDecl *namedKernel(const Expr *E, bool *IsNull) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenCasts();
  if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(E) ||
      (isa<IntegerLiteral>(E) && cast<IntegerLiteral>(E)->getValue() == 0)) {
    *IsNull = true;
    return nullptr;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    E = UO->getSubExpr()->IgnoreParenCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl());
        FD && FD->hasAttr<CUDAGlobalAttr>())
      return FD;
  return nullptr;
}

/// Collects the values assigned to V in S; false when V is changed in
/// another way (its address taken, incremented).
static bool assignedValues(const Stmt *S, const VarDecl *V,
                           SmallVectorImpl<const Expr *> &Out) {
  if (!S)
    return true;
  auto IsV = [V](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == V;
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && IsV(BO->getLHS())) {
    if (BO->getOpcode() != BO_Assign)
      return false;
    Out.push_back(BO->getRHS());
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && IsV(UO->getSubExpr()) &&
      (UO->getOpcode() == UO_AddrOf || UO->isIncrementDecrementOp()))
    return false;
  for (const Stmt *Child : S->children())
    if (!assignedValues(Child, V, Out))
      return false;
  return true;
}

/// The kernels an Ex launch through a local function pointer may start:
/// every value its function gives the pointer names a kernel (or is null).
static SmallVector<const FunctionDecl *, 4>
pointerCandidates(const LaunchSite &L) {
  SmallVector<const FunctionDecl *, 4> Out;
  if (!L.KernelExpr || !L.Caller)
    return Out;
  const auto *DRE = dyn_cast<DeclRefExpr>(L.KernelExpr->IgnoreParenCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  const auto *Owner = V ? dyn_cast<FunctionDecl>(V->getDeclContext()) : nullptr;
  if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage() || !Owner ||
      Owner->getCanonicalDecl() != L.Caller->getCanonicalDecl())
    return Out;
  SmallVector<const Expr *, 8> Values;
  if (V->getInit())
    Values.push_back(V->getInit());
  if (!assignedValues(Owner->getBody(), V, Values))
    return {};
  for (const Expr *E : Values) {
    bool IsNull = false;
    const FunctionDecl *K = namedKernel(E, &IsNull);
    if (IsNull)
      continue;
    if (!K)
      return {};
    K = K->getCanonicalDecl();
    if (!llvm::is_contained(Out, K))
      Out.push_back(K);
  }
  return Out;
}

EarlyLaunches::EarlyLaunches(const LaunchModel &Launches,
                             ConstantEvaluator &Eval) {
  for (const LaunchSite &L : Launches.launches()) {
    bool Ex = L.Api == LaunchApi::CudaLaunchKernelEx ||
              L.Api == LaunchApi::CuLaunchKernelEx;
    const Decl *Key = L.Kernel ? L.Kernel->getCanonicalDecl() : nullptr;
    // A launcher's launch: the kernels of its bindings, when each has one.
    SmallVector<const LaunchBinding *, 4> Bound;
    if (!Key && !L.Bindings.empty() &&
        llvm::all_of(L.Bindings, [](const LaunchBinding &B) {
          return B.Kernel && B.Caller && !B.Through.empty();
        }))
      for (const LaunchBinding &B : L.Bindings)
        Bound.push_back(&B);
    if (!Ex) {
      if (Key)
        ByKernel[Key].Plain = true;
      for (const LaunchBinding *B : Bound)
        ByKernel[B->Kernel->getCanonicalDecl()].Plain = true;
      continue;
    }
    std::optional<SmallVector<LaunchAttributeEntry, 2>> Attrs =
        readLaunchAttributes(L, Eval, "programmaticStreamSerializationAllowed");
    if (!Attrs) {
      Early.insert(&L);
      if (Key)
        ByKernel[Key].Unreadable = true;
      for (const LaunchBinding *B : Bound)
        ByKernel[B->Kernel->getCanonicalDecl()].Unreadable = true;
      continue;
    }
    const LaunchAttributeEntry *Found = nullptr;
    bool UnknownId = false;
    for (const LaunchAttributeEntry &E : *Attrs) {
      if (E.IdName.empty())
        UnknownId = true;
      else if (isProgrammaticId(E.IdName) && !(E.Value && *E.Value == 0))
        Found = &E;
    }
    if (!Found) {
      if (UnknownId)
        Early.insert(&L);
      if (Key)
        (UnknownId ? ByKernel[Key].Unreadable : ByKernel[Key].Plain) = true;
      for (const LaunchBinding *B : Bound) {
        PerKernel &K = ByKernel[B->Kernel->getCanonicalDecl()];
        (UnknownId ? K.Unreadable : K.Plain) = true;
      }
      continue;
    }
    Any = true;
    Early.insert(&L);
    if (!Key && !Bound.empty()) {
      for (const LaunchBinding *B : Bound)
        ByKernel[B->Kernel->getCanonicalDecl()].Programmatic.push_back(
            {&L, B, nullptr, Found->IdExpr, /*Unconditional=*/false});
      continue;
    }
    if (!Key) {
      // A driver-API kernel comes from a module, not from this translation
      // unit's kernels; an unresolved runtime kernel may be any of them,
      // unless a local pointer holds only kernels.
      if (L.Api != LaunchApi::CudaLaunchKernelEx)
        continue;
      SmallVector<const FunctionDecl *, 4> Kernels = pointerCandidates(L);
      if (Kernels.empty())
        UnresolvedProgrammatic = true;
      for (const FunctionDecl *K : Kernels)
        ByKernel[K].Programmatic.push_back(
            {&L, nullptr, nullptr, Found->IdExpr,
             launchesUnconditionally(L, *Found)});
      if (!Kernels.empty())
        Candidates[&L] = std::move(Kernels);
      continue;
    }
    ByKernel[Key].Programmatic.push_back(
        {&L, nullptr, nullptr, Found->IdExpr,
         launchesUnconditionally(L, *Found)});
  }
  // Launches through launcher objects.
  for (const LauncherLaunch &L : Launches.launcherLaunches()) {
    bool Programmatic = mayStartEarly(L);
    if (!L.Kernel) {
      UnresolvedProgrammatic |= Programmatic;
      continue;
    }
    PerKernel &K = ByKernel[L.Kernel->getCanonicalDecl()];
    if (!Programmatic) {
      K.Plain = true;
      continue;
    }
    Any = true;
    K.Programmatic.push_back(
        {nullptr, nullptr, &L, L.DependentLaunch, /*Unconditional=*/false});
  }
}

EarlyStart
EarlyLaunches::classify(const FunctionDecl *Kernel,
                        SmallVectorImpl<ProgrammaticLaunch> *Out) const {
  auto It = ByKernel.find(Kernel->getCanonicalDecl());
  if (It == ByKernel.end())
    return EarlyStart::Unseen;
  const PerKernel &K = It->second;
  if (!K.Programmatic.empty()) {
    if (Out)
      Out->append(K.Programmatic.begin(), K.Programmatic.end());
    return EarlyStart::Programmatic;
  }
  if (K.Unreadable || UnresolvedProgrammatic)
    return EarlyStart::Unseen;
  return EarlyStart::InOrder;
}

bool EarlyLaunches::allLaunchesRead(const FunctionDecl *Kernel) const {
  auto It = ByKernel.find(Kernel->getCanonicalDecl());
  return It != ByKernel.end() && !It->second.Unreadable &&
         !UnresolvedProgrammatic;
}

bool EarlyLaunches::mayStartEarly(const LaunchSite &L) const {
  return Early.contains(&L);
}

SmallVector<const FunctionDecl *, 1>
EarlyLaunches::kernelsOf(const LaunchSite &L) const {
  if (L.Kernel)
    return {L.Kernel};
  auto It = Candidates.find(&L);
  if (It == Candidates.end())
    return {};
  return SmallVector<const FunctionDecl *, 1>(It->second.begin(),
                                              It->second.end());
}

} // namespace cuda_tidy
