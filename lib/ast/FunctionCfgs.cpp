//===--- FunctionCfgs.cpp - One CFG per function body ---------------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/ast/FunctionCfgs.h"
#include "clang/AST/ASTContext.h"

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

const FunctionCfg &FunctionCfgs::of(const Decl *D, Stmt *Body) {
  auto [It, New] = Built.try_emplace(Body);
  if (New)
    It->second = buildFunctionCfg(D, Body, Ctx);
  return It->second;
}

} // namespace cuda_tidy
