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

bool BarrierReach::mayReach(const FunctionDecl *F) {
  const FunctionDecl *Def = nullptr;
  if (!F || !F->hasBody(Def) || !Def)
    return false;
  auto [It, New] = Known.try_emplace(Def, true);
  if (!New)
    return It->second; // known, or on the way (a cycle: assumed to)
  bool Found = false;
  llvm::SmallVector<const Stmt *, 32> Work{Def->getBody()};
  while (!Found && !Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (std::optional<BarrierSite> B = recognizeBarrier(S, Ctx);
        B && (WarpBarriers || !B->WarpBarrier)) {
      Found = true;
      break;
    }
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *Callee = resolveCallee(Call);
      // A call a template pattern leaves dependent may name anything.
      if ((AlsoCounts && AlsoCounts(Call)) ||
          (!Callee && Call->isTypeDependent()) ||
          (!Callee &&
           isa<UnresolvedLookupExpr, UnresolvedMemberExpr,
               CXXDependentScopeMemberExpr>(
               Call->getCallee()->IgnoreParenImpCasts())) ||
          mayReach(Callee)) {
        Found = true;
        break;
      }
    } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
      if (mayReach(Construct->getConstructor())) {
        Found = true;
        break;
      }
    }
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  Known[Def] = Found;
  return Found;
}

} // namespace cuda_tidy
