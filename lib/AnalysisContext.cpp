//===--- AnalysisContext.cpp - What the checks share per translation unit -===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/AnalysisContext.h"
#include "lib/launch/ConstantEval.h"
#include "lib/lanes/LaneModel.h"
#include "lib/lanes/WarpExchanges.h"
#include "lib/races/SharedRaces.h"
#include "lib/launch/LaunchModel.h"
#include "lib/launch/SharedMemory.h"
#include "clang/AST/ASTContext.h"
#include <mutex>

using namespace clang;

namespace cuda_tidy {

// The live contexts, by ASTContext. An entry is removed when its ASTContext
// is destroyed, before the address can be reused.
static std::mutex RegistryMutex;
static llvm::DenseMap<const ASTContext *, AnalysisContext *> &registry() {
  static llvm::DenseMap<const ASTContext *, AnalysisContext *> Map;
  return Map;
}

AnalysisContext &AnalysisContext::get(ASTContext &Ctx) {
  std::lock_guard<std::mutex> Lock(RegistryMutex);
  AnalysisContext *&Slot = registry()[&Ctx];
  if (!Slot) {
    Slot = new AnalysisContext(Ctx);
    Ctx.AddDeallocation(
        [](void *P) {
          auto *AC = static_cast<AnalysisContext *>(P);
          {
            std::lock_guard<std::mutex> Lock(RegistryMutex);
            registry().erase(&AC->Ctx);
          }
          delete AC;
        },
        Slot);
  }
  return *Slot;
}

AnalysisContext::AnalysisContext(ASTContext &Ctx) : Ctx(Ctx), Cfgs(Ctx) {}
AnalysisContext::~AnalysisContext() = default;

const CallGraphIndex &AnalysisContext::callGraph() {
  if (!Calls)
    Calls = std::make_unique<CallGraphIndex>(Ctx);
  return *Calls;
}

UniformityAnalysis &AnalysisContext::uniformity(const UniformityOptions &Opts) {
  for (const auto &U : Uniformities)
    if (U->options().BlockSizeMultipleOf32 == Opts.BlockSizeMultipleOf32 &&
        U->options().OpaqueCallsVary == Opts.OpaqueCallsVary &&
        U->options().Scope == Opts.Scope)
      return *U;
  Uniformities.push_back(std::make_unique<UniformityAnalysis>(Ctx, Opts));
  Uniformities.back()->shareCfgs(&Cfgs);
  return *Uniformities.back();
}

lanes::LaneModel &AnalysisContext::lanes() {
  if (!Lanes) {
    lanes::LaneModelInputs In;
    In.Calls = [this]() -> const CallGraphIndex & { return callGraph(); };
    In.Launches = [this]() -> const LaunchModel & { return launches(); };
    In.Uniformity = [this](const UniformityOptions &Opts)
        -> UniformityAnalysis & { return uniformity(Opts); };
    In.Cfgs = &Cfgs;
    Lanes = std::make_unique<lanes::LaneModel>(Ctx, std::move(In));
  }
  return *Lanes;
}

SharedRaceFinder &AnalysisContext::sharedRaces() {
  if (!Races)
    Races = std::make_unique<SharedRaceFinder>(lanes(),
                                               uniformity(UniformityOptions()));
  return *Races;
}

WarpExchangeFinder &AnalysisContext::warpExchanges() {
  if (!Exchanges)
    Exchanges = std::make_unique<WarpExchangeFinder>(lanes());
  return *Exchanges;
}

ConstantEvaluator &AnalysisContext::constants() {
  if (!Constants)
    Constants = std::make_unique<ConstantEvaluator>(Ctx);
  return *Constants;
}

const LaunchModel &AnalysisContext::launches() {
  if (!Launches)
    Launches = std::make_unique<LaunchModel>(Ctx, constants());
  return *Launches;
}

SharedMemoryAccounting &AnalysisContext::sharedMemory() {
  if (!Smem)
    Smem = std::make_unique<SharedMemoryAccounting>(Ctx);
  return *Smem;
}

} // namespace cuda_tidy
