//===--- AnalysisContext.h - What the checks share per translation unit ---===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// One analysis context per translation unit: the analyses that more than
/// one check needs, each computed once, on first use, and shared by every
/// check (and every driver side) that runs on the same ASTContext.
///
/// It holds:
///  - the call graph of the translation unit (CallGraphIndex): for each
///    function, the calls to it and the functions that make them, template
///    instantiations included, and whether its address is taken;
///  - the uniformity analysis (lib/uniformity/Uniformity.h), one per option set, with
///    its per-function results and summaries;
///  - the constant evaluator, the launch model (lib/launch/LaunchModel.h) and the
///    static shared-memory accounting (lib/launch/SharedMemory.h);
///  - the lane model (lib/lanes/LaneAccess.h), whose warp-uniformity questions go
///    to the uniformity analysis above.
///
/// Lifetime: created by the first get() for an ASTContext and destroyed with
/// that ASTContext (registered as one of its deallocations), so a context
/// never outlives the AST it points into, and a clangd that rebuilds a file
/// gets a fresh one. Lookup is thread-safe (clangd builds several files at
/// once); the analyses themselves are used by one thread, the one that owns
/// the ASTContext.
///
/// Left out: nothing is shared across translation units.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_ANALYSISCONTEXT_H
#define CUDA_TIDY_LIB_ANALYSISCONTEXT_H

#include "lib/uniformity/Uniformity.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <utility>

namespace clang {
class ASTContext;
class CallExpr;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace cuda_tidy {

class ConstantEvaluator;
class LaneAccessAnalysis;
class LaunchModel;
class SharedMemoryAccounting;

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

/// The per-translation-unit context; see the file comment.
class AnalysisContext {
public:
  /// The context of Ctx's translation unit, created on first use.
  static AnalysisContext &get(clang::ASTContext &Ctx);

  clang::ASTContext &astContext() const { return Ctx; }

  const CallGraphIndex &callGraph();
  /// The uniformity analysis for Opts (one per distinct option set).
  UniformityAnalysis &uniformity(const UniformityOptions &Opts);
  ConstantEvaluator &constants();
  const LaunchModel &launches();
  SharedMemoryAccounting &sharedMemory();
  /// The lane model (warp exchanges, the lanes that run a statement), one
  /// per translation unit for every check that asks; LaneAccessAnalysis::run
  /// runs once however many checks call it.
  LaneAccessAnalysis &lanes();

  ~AnalysisContext();

private:
  explicit AnalysisContext(clang::ASTContext &Ctx);

  clang::ASTContext &Ctx;
  std::unique_ptr<CallGraphIndex> Calls;
  llvm::SmallVector<std::unique_ptr<UniformityAnalysis>, 2> Uniformities;
  std::unique_ptr<ConstantEvaluator> Constants;
  std::unique_ptr<LaunchModel> Launches;
  std::unique_ptr<SharedMemoryAccounting> Smem;
  std::unique_ptr<LaneAccessAnalysis> Lanes;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_ANALYSISCONTEXT_H
