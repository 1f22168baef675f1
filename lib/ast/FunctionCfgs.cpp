//===--- FunctionCfgs.cpp - One CFG per function body ---------------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/ast/FunctionCfgs.h"
#include "clang/AST/ASTContext.h"
#include "clang/Analysis/Analyses/Dominators.h"

using namespace clang;

namespace cuda_tidy {

FunctionCfg buildFunctionCfg(const Decl *D, Stmt *Body, ASTContext &Ctx) {
  FunctionCfg R;
  CFG::BuildOptions Opts;
  Opts.PruneTriviallyFalseEdges = true;
  Opts.AddImplicitDtors = false;
  Opts.AddInitializers = false;
  Opts.AddTemporaryDtors = false;
  Opts.AddCXXDefaultInitExprInCtors = false;
  R.Cfg = CFG::buildCFG(D, Body, &Ctx, Opts);
  R.PM = std::make_shared<ParentMap>(Body);
  return R;
}

std::vector<llvm::SmallVector<unsigned, 4>>
iteratedControlDependences(CFG &Cfg) {
  // The frontier from the edges: an edge P -> S puts P in the frontier of S
  // and of the blocks that post-dominate S, up to P's immediate
  // post-dominator (Cytron et al.'s walk, on the reverse graph); then each
  // block's closure under it.
  const unsigned N = Cfg.getNumBlockIDs();
  CFGPostDomTree PostDom(&Cfg);
  std::vector<llvm::SmallVector<unsigned, 4>> Frontier(N);
  for (CFGBlock *P : Cfg) {
    auto *PNode = PostDom.getBase().getNode(P);
    if (!PNode)
      continue;
    auto *Stop = PNode->getIDom();
    for (const CFGBlock *S : P->succs()) {
      if (!S)
        continue;
      for (auto *Runner = PostDom.getBase().getNode(S);
           Runner && Runner != Stop && Runner->getBlock();
           Runner = Runner->getIDom()) {
        auto &F = Frontier[Runner->getBlock()->getBlockID()];
        if (!llvm::is_contained(F, P->getBlockID()))
          F.push_back(P->getBlockID());
      }
    }
  }
  std::vector<llvm::SmallVector<unsigned, 4>> Out(N);
  std::vector<bool> In(N);
  llvm::SmallVector<unsigned, 16> Work;
  for (unsigned B = 0; B < N; ++B) {
    In.assign(N, false);
    Work.assign(Frontier[B].begin(), Frontier[B].end());
    while (!Work.empty()) {
      const unsigned D = Work.pop_back_val();
      if (In[D])
        continue;
      In[D] = true;
      Out[B].push_back(D);
      Work.append(Frontier[D].begin(), Frontier[D].end());
    }
    llvm::sort(Out[B]);
  }
  return Out;
}

const FunctionCfg &FunctionCfgs::of(const Decl *D, Stmt *Body) {
  auto [It, New] = Built.try_emplace(Body);
  if (New)
    It->second = buildFunctionCfg(D, Body, Ctx);
  return It->second;
}

} // namespace cuda_tidy
