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
///  - the CFG and parent map of each function body (lib/ast/FunctionCfgs.h),
///    built once for the uniformity analysis and the lane model;
///  - the walk of each function body for barriers and calls
///    (lib/uniformity/BarrierReach.h), made once for every BarrierReach;
///  - the uniformity analysis (lib/uniformity/Uniformity.h), one per option
///  set, with
///    its per-function results and summaries;
///  - the constant evaluator, the launch model (lib/launch/LaunchModel.h) and
///  the
///    static shared-memory accounting (lib/launch/SharedMemory.h);
///  - the lane model (lib/lanes/LaneModel.h), whose warp-uniformity
///    questions go to the uniformity analysis above, and the warp-exchange
///    finder and the shared-memory race finder built on it
///    (lib/exchanges/WarpExchanges.h, lib/races/SharedRaces.h).
///
/// The analyses do not know the context: it hands each what it needs from
/// the others when it creates it.
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

#include "lib/ast/CallGraph.h"
#include "lib/ast/FunctionCfgs.h"
#include "lib/asynccopy/AsyncCopyOrdering.h"
#include "lib/lanes/LaneModelSettings.h"
#include "lib/uniformity/BarrierReach.h"
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
class LaunchModel;
class SharedMemoryAccounting;
class SharedRaceFinder;
class WarpExchangeFinder;
namespace lanes {
class LaneModel;
} // namespace lanes

/// The per-translation-unit context; see the file comment.
class AnalysisContext {
public:
  /// The context of Ctx's translation unit, created on first use with
  /// Lanes, the lane model's settings (the module-wide options, which every
  /// check of a translation unit reads alike: checks/ModuleOptions.h).
  static AnalysisContext &get(clang::ASTContext &Ctx,
                              const lanes::LaneModelSettings &Lanes);

  const CallGraphIndex &callGraph();
  /// The uniformity analysis for Opts (one per distinct option set).
  UniformityAnalysis &uniformity(const UniformityOptions &Opts);
  /// The walks of function bodies for barriers, shared by every
  /// BarrierReach.
  BarrierWalks &barrierWalks() { return Walks; }
  /// Whether the parse of F may have lost what the race, barrier and warp
  /// checks reason about: the translation unit had a fatal error (a missing
  /// `#include`, after which clang instantiates no template, so that
  /// `cg::sync(block)` is left unresolved), or F's body holds a call clang
  /// could not resolve by name (BarrierWalks::holdsErrors). Those checks
  /// stay silent in such a function rather than report around a barrier
  /// they cannot see.
  bool parseBroke(const clang::FunctionDecl *F);
  ConstantEvaluator &constants();
  const LaunchModel &launches();
  SharedMemoryAccounting &sharedMemory();
  /// The lane model (the lanes that run a statement, the element each
  /// thread touches), one per translation unit for every client, made on
  /// first use with the settings the context was made with.
  lanes::LaneModel &lanes();
  /// The warp exchanges over the lane model; WarpExchangeFinder::run runs
  /// once however many checks call it.
  WarpExchangeFinder &warpExchanges();
  /// The races on shared memory between warps, over the lane model.
  SharedRaceFinder &sharedRaces();
  /// The asynchronous-copy findings of F's body, computed once for the
  /// checks that ask (cuda-async-copy-ordering reports them;
  /// cuda-shared-memory-race leaves the races they explain to it).
  const std::vector<asynccopy::Finding> &
  asyncCopyFindings(const clang::FunctionDecl *F);

  ~AnalysisContext();

private:
  AnalysisContext(clang::ASTContext &Ctx,
                  const lanes::LaneModelSettings &Lanes);

  clang::ASTContext &Ctx;
  const lanes::LaneModelSettings LaneSettings;
  std::unique_ptr<CallGraphIndex> Calls;
  FunctionCfgs Cfgs;
  BarrierWalks Walks;
  llvm::SmallVector<std::unique_ptr<UniformityAnalysis>, 2> Uniformities;
  std::unique_ptr<ConstantEvaluator> Constants;
  std::unique_ptr<LaunchModel> Launches;
  std::unique_ptr<SharedMemoryAccounting> Smem;
  std::unique_ptr<lanes::LaneModel> Lanes;
  std::unique_ptr<WarpExchangeFinder> Exchanges;
  std::unique_ptr<SharedRaceFinder> Races;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<asynccopy::Finding>>
      CopyFindings;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_ANALYSISCONTEXT_H
