//===--- CallMatchers.h - Cheap matchers of calls by name ------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A matcher of calls by their callee's name, for the checks whose matchers
/// run on every call of the user's code. It matches what
/// `callExpr(callee(functionDecl(hasAnyName(...))))` matches for unqualified
/// names, at a fraction of the cost: `callee(functionDecl(...))` makes a new
/// matcher for each call it is asked about and compares names through the
/// general qualified-name machinery; this reads the callee's identifier.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_CALLMATCHERS_H
#define CUDA_TIDY_CHECKS_CALLMATCHERS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/ADT/STLExtras.h"
#include <string>
#include <vector>

namespace cuda_tidy {

/// Matches a call whose callee (`CallExpr::getCalleeDecl`, as `callee`
/// reads it) is a function or method whose unqualified name is one of
/// \p Names.
AST_MATCHER_P(clang::CallExpr, calleeNamedAnyOf, std::vector<std::string>,
              Names) {
  const auto *Fn =
      llvm::dyn_cast_or_null<clang::FunctionDecl>(Node.getCalleeDecl());
  if (!Fn)
    return false;
  const clang::IdentifierInfo *Id = Fn->getIdentifier();
  if (!Id)
    return false;
  llvm::StringRef Name = Id->getName();
  return llvm::any_of(Names,
                      [&](const std::string &N) { return Name == N; });
}

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_CALLMATCHERS_H
