//===--- BarrierReach.cpp - Which functions may reach a barrier -----------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/uniformity/BarrierReach.h"
#include "lib/ast/CudaAST.h"
#include "lib/uniformity/Uniformity.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace cuda_tidy {

llvm::ArrayRef<BarrierWalks::Step> BarrierWalks::of(const FunctionDecl *Def) {
  return walk(Def).Steps;
}

bool BarrierWalks::holdsErrors(const FunctionDecl *Def) {
  return walk(Def).Errors;
}

BarrierWalks::Walk &BarrierWalks::walk(const FunctionDecl *Def) {
  auto [It, New] = Walked.try_emplace(Def);
  if (!New)
    return *It->second;
  It->second = std::make_unique<Walk>();
  Walk &W = *It->second;
  std::vector<Step> &Out = W.Steps;
  // Depth first, the last child first.
  llvm::SmallVector<const Stmt *, 32> Work{Def->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    // A call clang could not resolve by name (`blockBarrier()` undeclared,
    // `cg::sync(block)` after a fatal error): it may be a barrier. A
    // reference to a declaration clang dropped (an nvcc-only construct
    // another check takes over) is not such a call.
    if (const auto *R = dyn_cast<RecoveryExpr>(S))
      W.Errors |= llvm::any_of(R->subExpressions(), [](const Expr *Sub) {
        return Sub && isa<UnresolvedLookupExpr, UnresolvedMemberExpr,
                          CXXDependentScopeMemberExpr>(Sub);
      });
    if (std::optional<BarrierSite> B = recognizeBarrier(S, Ctx))
      Out.push_back({B->WarpBarrier ? Step::WarpBarrier : Step::BlockBarrier, S});
    if (isa<CallExpr>(S))
      Out.push_back({Step::Call, S});
    else if (isa<CXXConstructExpr>(S))
      Out.push_back({Step::Construct, S});
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return W;
}

bool BarrierReach::mayReach(const FunctionDecl *F) {
  const FunctionDecl *Def = nullptr;
  if (!F || !F->hasBody(Def) || !Def)
    return false;
  auto [It, New] = Known.try_emplace(Def, true);
  if (!New)
    return It->second; // known, or on the way (a cycle: assumed to)
  bool Found = false;
  for (const BarrierWalks::Step &S : Walks.of(Def)) {
    switch (S.K) {
    case BarrierWalks::Step::BlockBarrier:
      Found = true;
      break;
    case BarrierWalks::Step::WarpBarrier:
      Found = WarpBarriers;
      break;
    case BarrierWalks::Step::Call: {
      const auto *Call = cast<CallExpr>(S.S);
      const FunctionDecl *Callee = resolveCallee(Call);
      // A call a template pattern leaves dependent may name anything.
      Found = (AlsoCounts && AlsoCounts(Call)) ||
              (!Callee && Call->isTypeDependent()) ||
              (!Callee &&
               isa<UnresolvedLookupExpr, UnresolvedMemberExpr,
                   CXXDependentScopeMemberExpr>(
                   Call->getCallee()->IgnoreParenImpCasts())) ||
              mayReach(Callee);
      break;
    }
    case BarrierWalks::Step::Construct:
      Found = mayReach(cast<CXXConstructExpr>(S.S)->getConstructor());
      break;
    }
    if (Found)
      break;
  }
  Known[Def] = Found;
  return Found;
}

} // namespace cuda_tidy
