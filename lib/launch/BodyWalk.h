//===--- BodyWalk.h - Walking one function body -----------------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Internal to lib/launch: the two walks of a function body that the
/// constant evaluator (ConstantEval.cpp) and the field writes
/// (FieldWrites.cpp) share.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_LAUNCH_BODYWALK_H
#define CUDA_TIDY_LIB_LAUNCH_BODYWALK_H

#include "lib/launch/ConstantEval.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

namespace cuda_tidy {

/// Visits every statement under S, in source order.
template <typename Fn> void forEachStmt(const clang::Stmt *S, Fn &&F) {
  if (!S)
    return;
  F(S);
  for (const clang::Stmt *Child : S->children())
    forEachStmt(Child, F);
}

/// The first parent of E that is not a parenthesis; E is moved up to the
/// outermost parenthesis.
inline clang::DynTypedNode parentSkippingParens(const clang::Expr *&E,
                                                const LocalParents &Index) {
  while (true) {
    clang::DynTypedNode P = Index.parent(*E);
    if (const auto *Paren = P.get<clang::ParenExpr>()) {
      E = Paren;
      continue;
    }
    return P;
  }
}

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_LAUNCH_BODYWALK_H
