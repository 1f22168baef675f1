//===--- FunctionCfgs.h - One CFG per function body -------------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CFG and parent map of each function body of a translation unit,
/// built once and shared by the analyses that walk bodies (the uniformity
/// analysis and the lane model both take the same CFG: clang's default
/// build options, trivially false edges pruned, no implicit destructors or
/// initialisers). An analysis made without a cache builds its own.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_AST_FUNCTIONCFGS_H
#define CUDA_TIDY_LIB_AST_FUNCTIONCFGS_H

#include "clang/AST/ParentMap.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <vector>

namespace cuda_tidy {

/// A body's CFG (null when clang cannot build one) and parent map.
struct FunctionCfg {
  std::shared_ptr<clang::CFG> Cfg;
  std::shared_ptr<clang::ParentMap> PM;
};

/// Builds the CFG of D's Body with the options every analysis here uses.
FunctionCfg buildFunctionCfg(const clang::Decl *D, clang::Stmt *Body,
                             clang::ASTContext &Ctx);

/// For each block of Cfg (by block ID), the blocks it is control dependent
/// on, transitively, by ID in increasing order: the iterated post-dominance
/// frontier of the block, what clang's ControlDependencyCalculator gives one
/// block at a time, here for all blocks at once.
std::vector<llvm::SmallVector<unsigned, 4>>
iteratedControlDependences(clang::CFG &Cfg);

class FunctionCfgs {
public:
  explicit FunctionCfgs(clang::ASTContext &Ctx) : Ctx(Ctx) {}
  /// The CFG of Body (the body of D), built on the first request.
  const FunctionCfg &of(const clang::Decl *D, clang::Stmt *Body);

private:
  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::Stmt *, FunctionCfg> Built;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_AST_FUNCTIONCFGS_H
