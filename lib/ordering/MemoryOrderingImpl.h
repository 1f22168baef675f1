//===--- MemoryOrderingImpl.h - Private to lib/ordering ---------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the units of lib/ordering share: MemorySpaces.cpp (where an address
/// points), AsmClobbers.cpp, LastBlockTickets.cpp, SpinWaits.cpp,
/// BlockScopeAtomics.cpp (one rule each).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_ORDERING_MEMORYORDERINGIMPL_H
#define CUDA_TIDY_LIB_ORDERING_MEMORYORDERINGIMPL_H

#include "lib/ordering/MemoryOrdering.h"

namespace clang {
class VarDecl;
}

namespace cuda_tidy {

/// Whether Var is assigned, incremented, has its address taken or is passed
/// by reference anywhere in Body.
bool isReassignedIn(const clang::VarDecl *Var, const clang::Stmt *Body);

/// A dereference, subscript or member access, or a variable of static
/// storage: an lvalue that names memory rather than a local.
bool isPlainMemoryLValue(const clang::Expr *E);

/// The name of a call's callee, or "" (for the atomics and fences, which
/// are free functions of the CUDA headers).
llvm::StringRef calleeName(const clang::CallExpr &Call);

/// Whether a call or an asm statement orders memory between threads of
/// different blocks: `__threadfence()`, `__threadfence_system()`,
/// `cuda::atomic_thread_fence` with an order other than relaxed, asm with
/// `fence.` or `membar.` other than `.cta`.
bool isDeviceFence(const clang::Stmt &S);

/// Whether the memory-order argument E names the relaxed order.
bool isRelaxedOrder(const clang::Expr *E);

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_ORDERING_MEMORYORDERINGIMPL_H
