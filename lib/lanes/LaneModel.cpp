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

LaneModel::LaneModel(ASTContext &Ctx, LaneModelInputs Inputs)
    : Ctx(Ctx), Inputs(std::move(Inputs)), Facts(*this), Calls(*this),
      Variance(*this), Values(*this), Addresses(*this), Block(*this),
      Guards(*this) {}

LaneModel::~LaneModel() = default;

void LaneModel::setDefaultBlockShape(unsigned X, unsigned Y, unsigned Z) {
  Calls.setDefaultShape(Dim3{X, Y, Z});
}

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
    const unsigned BD = unsigned(Shape.D.product());
    Env Base;
    setShape(Base, Shape);
    Base.ReadBlockDim = &ReadBlockDim;
    Base.StrideCut = &StrideCut;
    auto Inner = [&](Env &E1) {
      Ran = true;
      llvm::SmallVector<uint32_t, 32> PerWarp((BD + 31) / 32, 0);
      const std::pair<llvm::ArrayRef<Cond>, const Frame *> Rest[] = {
          {Guard, &Fr}};
      // The whole block at once where the guards allow (no lane unknown),
      // else warp by warp.
      const bool AtOnce = Block.blockLanes(Chain, Rest, E1, BD, PerWarp);
      if (!AtOnce)
        PerWarp.assign((BD + 31) / 32, 0);
      for (unsigned Base = 0; !AtOnce && Base < BD; Base += 32) {
        E1.Tid = Base;
        uint32_t Unknown = 0;
        uint32_t Lanes = Guards.passesChain(Chain, E1, batchOf(Base, BD), Unknown);
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

std::optional<int64_t> LaneModel::evaluateAt(const Expr *E,
                                                      const FunctionDecl *F,
                                                      unsigned ThreadIdxX,
                                                      unsigned BlockDimX) {
  Frame Fr{F, nullptr, nullptr};
  Env En;
  En.Tid = ThreadIdxX;
  En.BlockDim = BlockDimX;
  if (!Facts.info(F).Ok)
    return std::nullopt;
  return Values.eval(E, Fr, En);
}

bool LaneModel::testBlock(const FunctionDecl *F, unsigned BlockDimX,
                          Env &En) {
  if (!Facts.info(F).Ok || BlockDimX % 32 != 0 || BlockDimX == 0 ||
      BlockDimX > 1024)
    return false;
  En.BlockDim = BlockDimX;
  return true;
}

std::optional<std::vector<uint32_t>>
LaneModel::conditionLanes(const Expr *E, const FunctionDecl *F,
                                   unsigned BlockDimX, bool AtOnce) {
  Frame Fr{F, nullptr, nullptr};
  Env En;
  if (!E || !testBlock(F, BlockDimX, En))
    return std::nullopt;
  const Cond C[] = {{E, /*Taken=*/true, /*Varying=*/true}};
  std::vector<uint32_t> Lanes(BlockDimX / 32);
  if (AtOnce) {
    const BlockGuard *G = Block.blockGuard(C, Fr, En);
    if (!G)
      return std::nullopt;
    std::copy(G->Lanes, G->Lanes + Lanes.size(), Lanes.begin());
    return Lanes;
  }
  for (unsigned W = 0; W < Lanes.size(); ++W) {
    En.Tid = W * 32;
    uint32_t Unknown = 0;
    Lanes[W] =
        Guards.evalGuard(C, Fr, En, FullLaneMask, Unknown, nullptr);
    if (Unknown)
      return std::nullopt;
  }
  return Lanes;
}

std::optional<std::vector<int64_t>>
LaneModel::elementBytes(const Expr *E, const FunctionDecl *F,
                                 unsigned BlockDimX, bool AtOnce) {
  Frame Fr{F, nullptr, nullptr};
  Env En;
  if (!E || !testBlock(F, BlockDimX, En))
    return std::nullopt;
  std::vector<int64_t> Bytes(BlockDimX);
  const unsigned NW = BlockDimX / 32;
  if (AtOnce) {
    BlockAddress BA;
    if (!Block.blockAddress(E, Fr, En, NW, BA))
      return std::nullopt;
    for (unsigned T = 0; T < BlockDimX; ++T)
      Bytes[T] = BA.byteAt(T / 32, T % 32);
    return Bytes;
  }
  for (unsigned W = 0; W < NW; ++W) {
    En.Tid = W * 32;
    Addrs A = Addresses.evalObjW(E, Fr, En, FullLaneMask);
    if (A.Valid != FullLaneMask)
      return std::nullopt;
    for (unsigned L = 0; L < 32; ++L)
      Bytes[W * 32 + L] = A.Byte[L];
  }
  return Bytes;
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
