//===--- AnalysisContext.cpp - What the checks share per translation unit -===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/AnalysisContext.h"
#include "lib/ast/CudaAST.h"
#include "lib/exchanges/WarpExchanges.h"
#include "lib/lanes/LaneModel.h"
#include "lib/launch/ConstantEval.h"
#include "lib/launch/LaunchModel.h"
#include "lib/launch/SharedMemory.h"
#include "lib/races/SharedRaces.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/bit.h"
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

AnalysisContext::AnalysisContext(ASTContext &Ctx)
    : Ctx(Ctx), Cfgs(Ctx), Walks(Ctx) {}
AnalysisContext::~AnalysisContext() = default;

const CallGraphIndex &AnalysisContext::callGraph() {
  if (!Calls)
    Calls = std::make_unique<CallGraphIndex>(Ctx);
  return *Calls;
}

/// The power of two that provably divides the integer E, a launch's
/// argument, when E is not a proven constant: products, shifts and sums of
/// parts whose powers are known, through locals that hold one value
/// (`int padded = (n + 255) / 256 * 256;` is a multiple of 256).
static uint8_t pow2Dividing(const clang::Expr *E, ConstantEvaluator &Eval,
                            unsigned Depth = 0) {
  if (!E || Depth > 8)
    return 0;
  E = E->IgnoreParenImpCasts();
  if (std::optional<uint64_t> V = Eval.evaluateInt(E))
    return *V ? uint8_t(llvm::countr_zero(*V)) : 63;
  if (const auto *BO = llvm::dyn_cast<clang::BinaryOperator>(E)) {
    uint8_t L = pow2Dividing(BO->getLHS(), Eval, Depth + 1);
    switch (BO->getOpcode()) {
    case clang::BO_Mul:
      return uint8_t(std::min<unsigned>(
          63, L + pow2Dividing(BO->getRHS(), Eval, Depth + 1)));
    case clang::BO_Shl:
      if (std::optional<uint64_t> K = Eval.evaluateInt(BO->getRHS());
          K && *K < 63)
        return uint8_t(std::min<uint64_t>(63, L + *K));
      return L;
    case clang::BO_Add:
    case clang::BO_Sub:
      return std::min(L, pow2Dividing(BO->getRHS(), Eval, Depth + 1));
    default:
      return 0;
    }
  }
  if (const auto *CO = llvm::dyn_cast<clang::ConditionalOperator>(E))
    return std::min(pow2Dividing(CO->getTrueExpr(), Eval, Depth + 1),
                    pow2Dividing(CO->getFalseExpr(), Eval, Depth + 1));
  if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(E))
    if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(DRE->getDecl()))
      if (VD->hasLocalStorage() && !llvm::isa<clang::ParmVarDecl>(VD))
        return pow2Dividing(Eval.singleValue(VD), Eval, Depth + 1);
  return 0;
}

/// One extent (Axis 0, 1, 2) of a `<<<>>>` launch's grid (Which 0) or block
/// (Which 1) as written: through a `dim3` built from it (in place, or a
/// local that holds one value).
static const clang::Expr *launchExtentExpr(const clang::CUDAKernelCallExpr *KC,
                                           unsigned Which, unsigned Axis,
                                           ConstantEvaluator &Eval) {
  const auto *Config = KC->getConfig();
  if (!Config || Config->getNumArgs() <= Which)
    return nullptr;
  const clang::Expr *E = Config->getArg(Which);
  for (unsigned Depth = 0; E && Depth < 6; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(E)) {
      E = M->getSubExpr();
      continue;
    }
    if (const auto *B = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(E)) {
      E = B->getSubExpr();
      continue;
    }
    if (const auto *FC = llvm::dyn_cast<clang::CXXFunctionalCastExpr>(E)) {
      E = FC->getSubExpr();
      continue;
    }
    if (const auto *CE = llvm::dyn_cast<clang::CXXConstructExpr>(E)) {
      if (CE->getNumArgs() == 0)
        return nullptr;
      const clang::Expr *First = CE->getArg(0)->IgnoreParenImpCasts();
      // A copy of another dim3, or the extents themselves.
      if (First->getType()->isRecordType()) {
        E = First;
        continue;
      }
      if (Axis >= CE->getNumArgs() ||
          llvm::isa<clang::CXXDefaultArgExpr>(CE->getArg(Axis)))
        return nullptr;
      return CE->getArg(Axis)->IgnoreParenImpCasts();
    }
    if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
      const auto *VD = llvm::dyn_cast<clang::VarDecl>(DRE->getDecl());
      if (!VD || !VD->getType()->isRecordType() || !VD->hasLocalStorage())
        return nullptr;
      E = Eval.singleValue(VD);
      continue;
    }
    return Axis == 0 && E->getType()->isIntegralOrEnumerationType() ? E
                                                                    : nullptr;
  }
  return nullptr;
}

/// The variable X and the constant G of a grid `X / G` (or `X >> k`, G =
/// 2^k) along x, with X a read-only parameter or a local that holds one
/// value, so that a kernel argument that reads X gets the same value.
static std::pair<const clang::VarDecl *, uint64_t>
gridDivision(const clang::CUDAKernelCallExpr *KC, ConstantEvaluator &Eval) {
  const clang::Expr *X = launchExtentExpr(KC, /*Which=*/0, /*Axis=*/0, Eval);
  const auto *BO =
      X ? llvm::dyn_cast<clang::BinaryOperator>(X->IgnoreParenImpCasts())
        : nullptr;
  if (!BO ||
      (BO->getOpcode() != clang::BO_Div && BO->getOpcode() != clang::BO_Shr))
    return {};
  std::optional<uint64_t> K = Eval.evaluateInt(BO->getRHS());
  if (!K || (BO->getOpcode() == clang::BO_Shr && *K > 30))
    return {};
  uint64_t G = BO->getOpcode() == clang::BO_Div ? *K : uint64_t(1) << *K;
  if (G == 0 || G > UINT32_MAX)
    return {};
  const auto *Ref =
      llvm::dyn_cast<clang::DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
  const auto *VD =
      Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
  if (!VD || !VD->getType()->isIntegralOrEnumerationType())
    return {};
  if (const auto *P = llvm::dyn_cast<clang::ParmVarDecl>(VD)) {
    if (!Eval.isReadOnlyParam(P))
      return {};
  } else if (!VD->hasLocalStorage() || !Eval.singleValue(VD)) {
    return {};
  }
  return {VD, G};
}

/// What the launches of kernel K in this translation unit and its
/// `__launch_bounds__` fix: the blocks' extents when every launch's block is
/// proven, the arguments' powers of two when every launch is a `<<<>>>`
/// whose argument is a proven integer.
static LaunchFacts launchFactsOf(const clang::FunctionDecl *K,
                                 const LaunchModel &Launches,
                                 ConstantEvaluator &Eval,
                                 clang::ASTContext &Ctx) {
  LaunchFacts F;
  const clang::FunctionDecl *Canon = K->getCanonicalDecl();
  unsigned N = 0;
  bool AllBlocks = true, AllArgs = true;
  std::optional<Dim3> Same;
  std::array<uint32_t, 3> Max{};
  std::array<uint8_t, 3> ExtentPow2{31, 31, 31};
  // Per axis, where not every block is proven: the extents that are.
  std::array<bool, 3> AxisKnown{true, true, true};
  llvm::SmallVector<uint8_t, 8> Pow2(K->getNumParams(), 63);
  llvm::SmallVector<uint32_t, 8> GridX(K->getNumParams(), UINT32_MAX);
  // Every launch's grid proven: its largest extents, and the one grid.
  bool AllGrids = true;
  std::array<uint32_t, 3> MaxGrid{};
  std::optional<Dim3> SameGrid;
  for (const LaunchSite &L : Launches.launches()) {
    if (!L.Kernel || L.Kernel->getCanonicalDecl() != Canon)
      continue;
    ++N;
    if (L.Grid && L.Grid->X > 0 && L.Grid->Y > 0 && L.Grid->Z > 0 &&
        L.Grid->X <= UINT32_MAX && L.Grid->Y <= 65535 && L.Grid->Z <= 65535) {
      if (N == 1)
        SameGrid = *L.Grid;
      else if (SameGrid && !(*SameGrid == *L.Grid))
        SameGrid.reset();
      MaxGrid = {std::max(MaxGrid[0], uint32_t(L.Grid->X)),
                 std::max(MaxGrid[1], uint32_t(L.Grid->Y)),
                 std::max(MaxGrid[2], uint32_t(L.Grid->Z))};
    } else {
      AllGrids = false;
    }
    if (L.Block && L.Block->product() > 0 && L.Block->product() <= 1024) {
      if (N == 1)
        Same = *L.Block;
      else if (Same && !(*Same == *L.Block))
        Same.reset();
      uint64_t D[3] = {L.Block->X, L.Block->Y, L.Block->Z};
      for (unsigned I = 0; I < 3; ++I) {
        Max[I] = std::max<uint32_t>(Max[I], uint32_t(D[I]));
        ExtentPow2[I] = std::min<uint8_t>(
            ExtentPow2[I], uint8_t(llvm::countr_zero(uint64_t(D[I]))));
      }
    } else {
      AllBlocks = false;
      const auto *KC = llvm::dyn_cast<clang::CUDAKernelCallExpr>(L.Call);
      for (unsigned I = 0; I < 3; ++I) {
        const clang::Expr *X =
            KC ? launchExtentExpr(KC, /*Which=*/1, I, Eval) : nullptr;
        std::optional<uint64_t> V = X ? Eval.evaluateInt(X) : std::nullopt;
        if (!V || *V == 0 || *V > 1024)
          AxisKnown[I] = false;
        else
          Max[I] = std::max<uint32_t>(Max[I], uint32_t(*V));
      }
    }
    const auto *KC = llvm::dyn_cast<clang::CUDAKernelCallExpr>(L.Call);
    if (!KC || KC->getNumArgs() != K->getNumParams()) {
      AllArgs = false;
      continue;
    }
    auto [GridVar, G] = gridDivision(KC, Eval);
    for (unsigned I = 0; I < KC->getNumArgs(); ++I) {
      if (!K->getParamDecl(I)->getType()->isIntegralOrEnumerationType()) {
        Pow2[I] = 0;
        GridX[I] = 0;
        continue;
      }
      Pow2[I] = std::min<uint8_t>(Pow2[I], pow2Dividing(KC->getArg(I), Eval));
      // The argument is the grid's dividend (`n / 32` blocks, `n` passed).
      const auto *Arg = llvm::dyn_cast<clang::DeclRefExpr>(
          KC->getArg(I)->IgnoreParenImpCasts());
      GridX[I] = std::min<uint32_t>(
          GridX[I],
          GridVar && Arg && Arg->getDecl() == GridVar ? uint32_t(G) : 0u);
    }
  }
  // A block whose x extent is a runtime value may still have a known
  // number of rows (`dim3(w, 2)`): the bound on `threadIdx.y`.
  if (N && !AllBlocks)
    for (unsigned I = 0; I < 3; ++I)
      if (AxisKnown[I])
        F.MaxThreads[I] = Max[I];
  if (N && AllBlocks) {
    F.MaxThreads = Max;
    F.ExtentPow2 = ExtentPow2;
    if (Same)
      F.BlockDim = {uint32_t(Same->X), uint32_t(Same->Y), uint32_t(Same->Z)};
  }
  if (N && AllGrids) {
    F.MaxBlocks = MaxGrid;
    if (SameGrid)
      F.GridDim = {uint32_t(SameGrid->X), uint32_t(SameGrid->Y),
                   uint32_t(SameGrid->Z)};
  }
  if (N && AllArgs) {
    F.ParamPow2 = std::move(Pow2);
    F.ParamGridX = std::move(GridX);
  }
  // __launch_bounds__(N): no block has more than N threads, along any axis.
  if (std::optional<uint64_t> Bound = launchBoundsMaxThreads(K, Ctx);
      Bound && *Bound <= uint64_t(INT32_MAX))
    for (uint32_t &M : F.MaxThreads)
      M = M ? std::min(M, uint32_t(*Bound)) : uint32_t(*Bound);
  return F;
}

bool AnalysisContext::parseBroke(const clang::FunctionDecl *F) {
  if (Ctx.getDiagnostics().hasFatalErrorOccurred())
    return true;
  const clang::FunctionDecl *Def = nullptr;
  return F && F->hasBody(Def) && Def && Walks.holdsErrors(Def);
}

UniformityAnalysis &AnalysisContext::uniformity(const UniformityOptions &Opts) {
  for (const auto &U : Uniformities)
    if (U->options().BlockSizeMultipleOf32 == Opts.BlockSizeMultipleOf32 &&
        U->options().OpaqueCallsVary == Opts.OpaqueCallsVary &&
        U->options().Scope == Opts.Scope)
      return *U;
  Uniformities.push_back(std::make_unique<UniformityAnalysis>(Ctx, Opts));
  Uniformities.back()->shareCfgs(&Cfgs);
  // Clients that report divergence analyse a kernel for its launches here;
  // those that prove uniformity do not (another translation unit may launch
  // it otherwise).
  if (!Opts.OpaqueCallsVary)
    Uniformities.back()->setLaunchFacts([this](const clang::FunctionDecl *K) {
      return launchFactsOf(K, launches(), constants(), Ctx);
    });
  return *Uniformities.back();
}

lanes::LaneModel &
AnalysisContext::lanes(const lanes::LaneModelSettings &Settings) {
  if (!Lanes) {
    lanes::LaneModelInputs In;
    In.Calls = [this]() -> const CallGraphIndex & { return callGraph(); };
    In.Launches = [this]() -> const LaunchModel & { return launches(); };
    In.Uniformity = [this](const UniformityOptions &Opts)
        -> UniformityAnalysis & { return uniformity(Opts); };
    In.Cfgs = &Cfgs;
    Lanes = std::make_unique<lanes::LaneModel>(Ctx, std::move(In), Settings);
  }
  return *Lanes;
}

SharedRaceFinder &
AnalysisContext::sharedRaces(const lanes::LaneModelSettings &Settings) {
  if (!Races)
    Races = std::make_unique<SharedRaceFinder>(
        lanes(Settings), uniformity(UniformityOptions()), Walks);
  return *Races;
}

const std::vector<asynccopy::Finding> &
AnalysisContext::asyncCopyFindings(const clang::FunctionDecl *F) {
  auto [It, New] = CopyFindings.try_emplace(F);
  if (New)
    It->second = asynccopy::findAsyncCopyHazards(F, Ctx);
  return It->second;
}

WarpExchangeFinder &
AnalysisContext::warpExchanges(const lanes::LaneModelSettings &Settings) {
  if (!Exchanges)
    Exchanges = std::make_unique<WarpExchangeFinder>(lanes(Settings));
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
