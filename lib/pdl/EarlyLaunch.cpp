//===--- EarlyLaunch.cpp - Kernels that may start before their predecessor ===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/pdl/EarlyLaunch.h"
#include "lib/launch/LaunchAttributes.h"
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

EarlyLaunches::EarlyLaunches(const LaunchModel &Launches,
                             ConstantEvaluator &Eval) {
  for (const LaunchSite &L : Launches.launches()) {
    bool Ex = L.Api == LaunchApi::CudaLaunchKernelEx ||
              L.Api == LaunchApi::CuLaunchKernelEx;
    const Decl *Key = L.Kernel ? L.Kernel->getCanonicalDecl() : nullptr;
    if (!Ex) {
      if (Key)
        ByKernel[Key].Plain = true;
      continue;
    }
    std::optional<SmallVector<LaunchAttributeEntry, 2>> Attrs =
        readLaunchAttributes(L, Eval, "programmaticStreamSerializationAllowed");
    if (!Attrs) {
      if (Key)
        ByKernel[Key].Unreadable = true;
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
      if (Key)
        (UnknownId ? ByKernel[Key].Unreadable : ByKernel[Key].Plain) = true;
      continue;
    }
    Any = true;
    if (!Key) {
      // A driver-API kernel comes from a module, not from this translation
      // unit's kernels; an unresolved runtime kernel may be any of them.
      if (L.Api == LaunchApi::CudaLaunchKernelEx)
        UnresolvedProgrammatic = true;
      continue;
    }
    ByKernel[Key].Programmatic.push_back(
        {&L, Found->IdExpr, launchesUnconditionally(L, *Found)});
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

} // namespace cuda_tidy
