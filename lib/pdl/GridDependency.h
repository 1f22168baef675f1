//===--- GridDependency.h - What a kernel touches before its wait -*- C++
//-*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The device side of Programmatic Dependent Launch: where a kernel waits for
/// the grid it depends on, and which global-memory accesses a thread may make
/// before it has waited.
///
/// Model. A *wait* is a call of `cudaGridDependencySynchronize()`, an inline
/// `asm` whose text holds `griddepcontrol.wait`, or a call of a function
/// (a wrapper such as CUTLASS's `wait_on_dependent_grids()`, in a system
/// header or not) that waits on every path through its body.
/// `cudaTriggerProgrammaticLaunchCompletion()` orders nothing and is no wait.
/// The wait is per thread: a forward must-analysis over each function's CFG
/// says, at each statement, whether every path from the kernel's entry has
/// waited; each branch (a warp role) is its own path, a loop's first
/// iteration runs before a wait in its body. A block barrier
/// (`__syncthreads*`, `bar.sync`) reached after a wait on *some* path counts
/// as a wait: the PTX wait makes the previous grid's memory visible to the
/// whole grid, and the barrier orders the other threads after the waiting
/// ones (a branch that no thread takes is not told apart).
///
/// A *global-memory access* is a read or write of an object that lives in
/// global memory: a namespace-scope `__device__` variable, or the target of
/// a pointer that provably points to global memory: a pointer parameter of
/// the kernel, a pointer read from a by-value parameter of the kernel (a
/// `Params` struct, at any depth), from `__constant__` data or from global
/// memory, and locals and helper parameters that only ever hold such
/// pointers (arithmetic, casts, `&p[i]` and `?:` are followed). Reads of the
/// parameters themselves and of `__constant__`, `__shared__` and local data
/// are no accesses. Calls of helpers with a body (not in a system header)
/// are followed with their arguments bound, up to five calls deep, as are
/// constructors (their member initialisers included, and a pointer member
/// the constructor initialises); a call of a function without a body (an
/// atomic, `__ldg`) and an inline `asm` accesses what its pointer operands
/// point to, unless it only converts an address or prefetches.
///
/// Left out: pointers whose origin is not one of the above (returned by a
/// function, cast from an integer, stored in local or shared memory) are
/// not counted as global (no report); member pointers read in a method
/// other than the constructor that set them; `if constexpr` is pruned as
/// the CFG prunes trivially false edges, other branches are all kept; which
/// buffers the previous kernel writes is lib/pdl/EarlierKernels.h's
/// question.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_PDL_GRIDDEPENDENCY_H
#define CUDA_TIDY_LIB_PDL_GRIDDEPENDENCY_H

#include "lib/target/ArchPaths.h"
#include "lib/target/TargetDispatch.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <optional>

namespace clang {
class ASTContext;
class CFG;
class Expr;
class FunctionDecl;
class GCCAsmStmt;
class Stmt;
class VarDecl;
} // namespace clang

namespace cuda_tidy {

/// A global-memory access a thread may make before it has waited.
struct EarlyAccess {
  /// The access: the lvalue read or written, or the call or `asm` that
  /// accesses through a pointer operand.
  const clang::Stmt *Access = nullptr;
  /// The pointer or object the access goes through (`in`, `p.src`), for
  /// messages.
  const clang::Expr *Through = nullptr;
  bool Write = false;
  /// The calls (CallExpr or CXXConstructExpr) from the kernel to the function
  /// holding Access, outermost first; empty when it is in the kernel.
  llvm::SmallVector<const clang::Expr *, 2> Calls;
};

/// What one kernel does about its grid dependency.
struct KernelDependency {
  /// The statements of the kernel's own body that wait (calls and `asm`),
  /// in source order.
  llvm::SmallVector<const clang::Stmt *, 2> Waits;
  /// Some path waits; every path from entry to exit waits.
  bool MayWait = false;
  bool WaitsOnEveryPath = false;
  /// The global-memory accesses on some path before that path's wait (all
  /// of them when the kernel never waits), in CFG order, at most 32.
  llvm::SmallVector<EarlyAccess, 4> Early;
};

/// A wait written in a preprocessor branch, or in an arm of a target
/// dispatch macro (`NV_IF_TARGET`), that a compilation of the build does not
/// take.
struct CompiledOutWait {
  CompileTarget Target;
  /// The branch's directive (`#if`, `#elif`, `#else`), or the start of the
  /// dispatch macro's invocation.
  clang::SourceLocation Directive;
  /// Where the wait is written in the branch; for a dispatch whose arms are
  /// spelled in another macro (CCCL's `_CCCL_PDL_GRID_DEPENDENCY_SYNC()`),
  /// the start of the invocation.
  clang::SourceLocation Wait;
  /// The dispatch, when the wait is in one of its arms; null for `#if`.
  const TargetDispatch *Dispatch = nullptr;
  /// The query that leaves the wait out: the wait's arm's own query, which
  /// does not hold for Target, or an earlier arm's, which holds.
  llvm::StringRef Query;
  bool QueryHolds = false;
};

/// The grid-dependency analysis of one translation unit.
class GridDependencyAnalysis {
public:
  explicit GridDependencyAnalysis(clang::ASTContext &Ctx);
  ~GridDependencyAnalysis();

  /// Analyses Kernel's body (see the model).
  KernelDependency analyzeKernel(const clang::FunctionDecl *Kernel);

  /// Whether F waits on every path through its body (a wait wrapper).
  bool waitsOnEveryPath(const clang::FunctionDecl *F);

  /// The waits of Kernel's body text (`cudaGridDependencySynchronize`,
  /// `griddepcontrol.wait`, or a call of one of WrapperNames) that sit in a
  /// preprocessor branch, with enclosing branches considered, or in an arm
  /// of one of Dispatches, that a compilation of the build Targets does not
  /// take; at most one per target. Only the compilations that a GPU which
  /// launches early (9.0 and later) runs count: those of 9.0 and later,
  /// and, when OlderCodeLaunchedEarly (the host launches the kernel early
  /// without checking the PTX version of its code, as CUB and ggml do), an
  /// older one whose PTX is the newest of the build such a GPU can run
  /// (the driver compiles it there; an sm_80 build on an H100). Older GPUs
  /// run every kernel in stream order.
  llvm::SmallVector<CompiledOutWait, 1>
  compiledOutWaits(const clang::FunctionDecl *Kernel,
                   llvm::ArrayRef<CompileTarget> Targets,
                   llvm::ArrayRef<llvm::StringRef> WrapperNames,
                   const TargetDispatches *Dispatches = nullptr,
                   bool OlderCodeLaunchedEarly = false);

  /// Whether Kernel's body text, or an arm of one of Dispatches in it,
  /// spells a wait (as compiledOutWaits reads it), whichever branches the
  /// analysed compilation took.
  bool mentionsWait(const clang::FunctionDecl *Kernel,
                    llvm::ArrayRef<llvm::StringRef> WrapperNames,
                    const TargetDispatches *Dispatches = nullptr);

  /// The user functions seen to wait on every path, by name, for
  /// compiledOutWaits.
  llvm::SmallVector<llvm::StringRef, 2> wrapperNames() const;

  class Impl;

private:
  std::unique_ptr<Impl> P;
};

/// Whether an `asm` statement's text holds `griddepcontrol.wait`.
bool isWaitAsm(const clang::GCCAsmStmt *Asm);

/// Whether an `asm` statement clobbers "memory".
bool hasMemoryClobber(const clang::GCCAsmStmt *Asm);

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_PDL_GRIDDEPENDENCY_H
