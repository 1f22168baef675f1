//===--- CallGraph.h - The calls of a translation unit ----------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The direct calls of a translation unit, by callee, for the analyses that
/// follow values and guards through calls (the uniformity analysis' callers,
/// the lane model's call chains, the warp convergence of a helper's
/// callers) and for checks that need the function a statement is in.
///
/// Model: a call edge is a CallExpr with a direct callee (template
/// instantiations included), attributed to the function whose body holds
/// it; an address-taken function may have callers the index cannot see.
/// Left out: calls through function pointers, constructor calls, and calls
/// in system-header functions that cannot reach user code (see
/// CallGraphIndex).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_AST_CALLGRAPH_H
#define CUDA_TIDY_LIB_AST_CALLGRAPH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace clang {
class ASTContext;
class CallExpr;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace cuda_tidy {

/// One call of a function: the call and the function whose body makes it.
struct CallSite {
  const clang::CallExpr *Call = nullptr;
  const clang::FunctionDecl *Caller = nullptr;
};

/// The direct calls of a translation unit, indexed by callee (its canonical
/// declaration). Calls in system headers are included (a divergent call
/// from library code matters to a proof about the callee), except those in
/// functions of system headers that are host-only (no device code) or not
/// template instantiations (they cannot name a function of the user's); a
/// client that wants user code only filters by the caller's location. Calls made from
/// lambdas are attributed to the function the lambda is written in.
/// Calls through function pointers, and constructor calls, are not edges.
class CallGraphIndex {
public:
  explicit CallGraphIndex(clang::ASTContext &Ctx);

  /// The calls of F, in traversal (source) order.
  llvm::ArrayRef<CallSite> callersOf(const clang::FunctionDecl *F) const;

  /// F's address is taken somewhere (`&f`, `(void *)f`, `auto k = f`), so
  /// it may be called from places the index cannot see.
  bool isAddressTaken(const clang::FunctionDecl *F) const;

  /// The innermost function whose body holds S, a call or an asm statement:
  /// for one written in a lambda, the lambda's call operator; for one in a
  /// template instantiation, the instantiated function. Null for one outside
  /// any function body. (What the matcher `forCallable` gives, without the
  /// parent map of the whole translation unit that it makes clang build:
  /// on a translation unit of small kernels that map cost more than the
  /// checks' own analyses.)
  const clang::FunctionDecl *enclosingCallable(const clang::Stmt *S) const;

private:
  llvm::DenseMap<const clang::FunctionDecl *, llvm::SmallVector<CallSite, 2>>
      Callers;
  llvm::DenseSet<const clang::FunctionDecl *> AddressTaken;
  llvm::DenseMap<const clang::Stmt *, const clang::FunctionDecl *> Enclosing;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_AST_CALLGRAPH_H
