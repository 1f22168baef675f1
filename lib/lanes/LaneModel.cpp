//===--- LaneModel.cpp - Which thread touches which shared element --------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/lanes/LaneModel.h"
#include "lib/ast/CudaAST.h"
#include "clang/AST/ASTContext.h"

using namespace clang;

namespace cuda_tidy::lanes {

static std::optional<Dim3> shapeOf(const LaneModelSettings &Settings) {
  if (!Settings.DefaultBlock)
    return std::nullopt;
  const auto &[X, Y, Z] = *Settings.DefaultBlock;
  return Dim3{X, Y, Z};
}

LaneModel::LaneModel(ASTContext &Ctx, LaneModelInputs Inputs,
                     const LaneModelSettings &Settings)
    : Ctx(Ctx), Inputs(std::move(Inputs)), MaxWork(Settings.WorkBudget),
      Facts(Ctx, this->Inputs.Cfgs),
      Calls(Ctx, this->Inputs, shapeOf(Settings), Facts),
      Variance(Ctx, this->Inputs, Facts), Values(Ctx, Work, Facts, Calls),
      Addresses(Ctx, Facts, Calls, Values), Guards(Facts, Variance, Values),
      Block(Ctx, Work, Facts, Variance, Values, Addresses, Guards) {}

LaneModel::~LaneModel() = default;

std::optional<uint32_t> LaneModel::frameMask(const Stmt *S,
                                                            const Frame &Fr,
                                                            bool EntryKnown) {
  if (!EntryKnown)
    return std::nullopt;
  FunctionInfo &I = Facts.info(Fr.F);
  llvm::SmallVector<Cond, 4> Guard;
  llvm::SmallVector<const ForStmt *, 2> Loops;
  bool Opaque = false;
  Guards.guardOf(S, Fr.F->getBody(), I, Fr, Guard, Loops, Opaque);
  CallChain Chain;
  if (!Guards.chainOf(Fr, Chain))
    return std::nullopt;
  for (const CallLevel &L : Chain)
    Opaque |= L.Opaque;
  if (Opaque)
    return std::nullopt;
  std::optional<uint32_t> Mask;
  bool Consistent = true;
  bool Ran = false;
  std::reverse(Loops.begin(), Loops.end());
  bool ReadBlockDim = false;
  // A stride loop whose iterations were not all seen: unknown lanes.
  bool StrideCut = false;
  auto RunBlock = [&](const BlockShape &Shape) {
    const unsigned NumThreads = unsigned(Shape.D.product());
    Env Base;
    setShape(Base, Shape);
    Base.ReadBlockDim = &ReadBlockDim;
    Base.StrideCut = &StrideCut;
    auto Inner = [&](Env &E1) {
      Ran = true;
      llvm::SmallVector<uint32_t, 32> PerWarp((NumThreads + 31) / 32, 0);
      const std::pair<llvm::ArrayRef<Cond>, const Frame *> Rest[] = {
          {Guard, &Fr}};
      // The whole block at once where the guards allow (no lane unknown),
      // else warp by warp.
      const bool AtOnce =
          Block.blockLanes(Chain, Rest, E1, NumThreads, PerWarp);
      if (!AtOnce)
        PerWarp.assign((NumThreads + 31) / 32, 0);
      for (unsigned Base = 0; !AtOnce && Base < NumThreads; Base += 32) {
        E1.Tid = Base;
        uint32_t Unknown = 0;
        uint32_t Lanes =
            Guards.passesChain(Chain, E1, batchOf(Base, NumThreads), Unknown);
        Lanes = Guards.evalGuard(Guard, Fr, E1, Lanes, Unknown);
        if (Lanes & Unknown) {
          Consistent = false;
          break;
        }
        PerWarp[Base / 32] |= Lanes;
      }
      for (uint32_t M : PerWarp) {
        if (!M)
          continue;
        if (Mask && *Mask != M)
          Consistent = false;
        Mask = M;
      }
      return Consistent;
    };
    auto Outer = [&](Env &E0) {
      Env E1 = E0;
      Guards.enumerate(Loops, Fr, E1, Inner);
      return Consistent;
    };
    Guards.enumerateChain(Chain, Base, Outer);
    return Consistent;
  };
  // The largest block first; when no evaluation read blockDim, a smaller
  // block is the first warps of this one and adds nothing (as in
  // analyzeFrame).
  llvm::ArrayRef<BlockShape> Shapes = Calls.blockShapes(Fr);
  const unsigned Largest = Shapes.size() - 1;
  if (!RunBlock(Shapes[Largest]))
    return std::nullopt;
  if (ReadBlockDim || Shapes.front().Known)
    for (unsigned K = 0; K < Largest; ++K)
      if (!RunBlock(Shapes[K]))
        return std::nullopt;
  if (!Consistent || !Ran || StrideCut)
    return std::nullopt;
  return Mask.value_or(0);
}

const Stmt *LaneModel::statementOf(const Expr *E,
                                            const FunctionDecl *F) {
  FunctionInfo &I = Facts.info(F);
  if (!I.PM)
    return nullptr;
  return Facts.statementOf(E, I);
}

std::optional<uint32_t> LaneModel::guardMask(const Stmt *S,
                                                      const FunctionDecl *F) {
  if (!Facts.info(F).Ok)
    return std::nullopt;
  if (isKernel(F))
    return frameMask(S, Frame{F, nullptr, nullptr}, true);
  if (Calls.callersOf(F).empty())
    return std::nullopt;
  std::optional<uint32_t> Mask;
  for (const Frame *Fr : Calls.contextsOf(F)) {
    auto M = frameMask(S, *Fr, isKernel(rootOf(*Fr).F));
    if (!M || (Mask && *M && *Mask && *M != *Mask))
      return std::nullopt;
    if (!Mask || !*Mask)
      Mask = M;
  }
  return Mask;
}

} // namespace cuda_tidy::lanes
