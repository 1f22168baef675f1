//===--- LaneModel.h - Which thread touches which element ----*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The lane model: for each access to shared memory (or to a kernel's
/// global pointer parameters) in device code, which threads of a block run
/// it and which element each of them touches, evaluated exactly for the
/// block shapes the code admits. Its clients pair accesses: the
/// warp-exchange finder (lib/exchanges/WarpExchanges.h) pairs those of two
/// lanes of one warp with no barrier between them, the race finder
/// (lib/races/SharedRaces.h) those of two warps.
///
/// The model, one idea per bullet (the forms it handles, one by one, are
/// catalogued in lib/lanes/README.md):
///  - an access is a scalar lvalue read or written whose address evaluates
///    to a `__shared__` variable (or a kernel's pointer parameter) plus a
///    byte offset;
///  - a function is analysed in each call chain that leads to it from a
///    kernel (a context), with the block shapes that kernel admits;
///  - indices are evaluated, not matched: each thread's value is computed
///    with the types' integer semantics, 32 threads at a time;
///  - the lanes that run an access are those whose enclosing conditions
///    evaluate to the side taken; a condition that cannot be evaluated and
///    is not proven warp-uniform makes them unknown;
///  - two accesses can meet when a program point reaches both with no
///    barrier in between;
///  - whatever the model cannot evaluate makes it silent, never noisy; the
///    work is bounded (cuda.LaneModelBudget).
///
/// The parts of the model, each a unit of its own, in the order of a chain:
/// each is given, in its constructor, the parts above it that it uses, and
/// none holds the model.
///  - FunctionFacts (FunctionFacts.h): per function, its CFG, barriers,
///    writes, counted and stride loops, candidate accesses and calls;
///  - CallContexts (CallContexts.h): the call chains a function is analysed
///    in, and the block shapes of each chain's kernel;
///  - ThreadVariance (ThreadVariance.h): whether a value differs between
///    threads, and the warp-uniformity proofs;
///  - WarpValues and WarpAddresses (WarpEvaluator.h): the values of integer
///    expressions and the addresses of lvalues for 32 threads at a time;
///  - GuardModel (Guards.h): the conditions and loops around a statement,
///    the lanes that pass them, the enumeration of loop iterations;
///  - BlockEvaluator (BlockEvaluator.h): values, guards and addresses for a
///    whole one-dimensional block at once, for the forms where that is
///    exact;
///  - AccessTable (AccessTable.h): one context's accesses and, per block
///    shape and loop valuation, the threads that run each and the element
///    each touches, computed once per access (made by the clients).
///
/// One LaneModel per translation unit owns the parts and serves every
/// client, so per-function facts are computed once.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_LANES_LANEMODEL_H
#define CUDA_TIDY_LIB_LANES_LANEMODEL_H

#include "lib/lanes/BlockEvaluator.h"
#include "lib/lanes/CallContexts.h"
#include "lib/lanes/FunctionFacts.h"
#include "lib/lanes/Guards.h"
#include "lib/lanes/LaneModelSettings.h"
#include "lib/lanes/ModelTypes.h"
#include "lib/lanes/ThreadVariance.h"
#include "lib/lanes/WarpEvaluator.h"
#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace cuda_tidy {
class CallGraphIndex;
class FunctionCfgs;
class LaunchModel;
class UniformityAnalysis;
struct UniformityOptions;
} // namespace cuda_tidy

namespace cuda_tidy::lanes {

/// The lane model of one translation unit: its parts, the work counter they
/// share, and the queries that need several of them.
class LaneModel {
public:
  LaneModel(clang::ASTContext &Ctx, LaneModelInputs Inputs,
            const LaneModelSettings &Settings = {});
  ~LaneModel();
  LaneModel(const LaneModel &) = delete;
  LaneModel &operator=(const LaneModel &) = delete;

  clang::ASTContext &Ctx;
  LaneModelInputs Inputs;

  /// The work done so far, in evaluation steps (a thread's evaluation of an
  /// expression node is one); clients measure their own share by
  /// difference.
  uint64_t Work = 0;
  /// The work one analysis context may take (0: no limit).
  const uint64_t MaxWork;

  // The parts, in the order of the chain: each takes the ones above it
  // that it uses.
  FunctionFacts Facts;
  CallContexts Calls;
  ThreadVariance Variance;
  WarpValues Values;
  WarpAddresses Addresses;
  GuardModel Guards;
  BlockEvaluator Block;

  /// The lanes of a warp that run S in context Fr, the same in every warp
  /// and block shape that runs it (0: none runs it); std::nullopt when they
  /// differ or are not known. With EntryKnown false (the context's root is
  /// not a kernel) always unknown.
  std::optional<uint32_t> frameMask(const clang::Stmt *S, const Frame &Fr,
                                    bool EntryKnown);

  /// The statement an access belongs to: the ancestor that is a direct
  /// child of a compound statement or the body of an if, loop or label.
  const clang::Stmt *statementOf(const clang::Expr *E,
                                 const clang::FunctionDecl *F);

  /// The lanes of a warp that run statement S of F analysed on its own (a
  /// kernel, or the callers of a `__device__` function).
  std::optional<uint32_t> guardMask(const clang::Stmt *S,
                                    const clang::FunctionDecl *F);
};

} // namespace cuda_tidy::lanes

#endif // CUDA_TIDY_LIB_LANES_LANEMODEL_H
