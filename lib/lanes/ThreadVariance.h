//===--- ThreadVariance.h - Which values differ between threads -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The lane model's questions about values it does not evaluate: whether a
/// value may differ between the threads of a block in a context
/// (isVarying: thread indices, loads, calls, locals set from them; a
/// kernel's by-value parameters and uniform counted loops are the same in
/// every thread), how a value is laid out over the lanes of a warp
/// (shapeOf: a grid-stride index is the lane plus a multiple of 32), and
/// whether a condition is the same in every lane of a warp
/// (provenWarpUniform: the shapes, then the uniformity analysis of
/// lib/uniformity with opaque calls varying, parameters bound at each call
/// of the context).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_LANES_THREADVARIANCE_H
#define CUDA_TIDY_LIB_LANES_THREADVARIANCE_H

#include "lib/lanes/ModelTypes.h"
#include "llvm/ADT/SmallVector.h"

namespace cuda_tidy {
class UniformityAnalysis;
} // namespace cuda_tidy

namespace cuda_tidy::lanes {

class FunctionFacts;

class ThreadVariance {
public:
  ThreadVariance(clang::ASTContext &Ctx, const LaneModelInputs &Inputs,
                 FunctionFacts &Facts);

  /// E may differ between the threads of a block in the context Fr.
  bool isVarying(const clang::Expr *E, const Frame &Fr, unsigned Depth = 0);
  /// Whether a loop's increment (`++i`, `s >>= 1`) steps by a varying amount.
  bool isVaryingStep(const clang::Expr *Inc, const Frame &Fr, unsigned Depth);
  /// How a value is laid out over the lanes, for conditions on variables
  /// the model cannot evaluate (a grid-stride index).
  enum class Shape { Uniform, Aligned, Linear, Warp, Varying };
  Shape shapeOf(const clang::Expr *E, const Frame &Fr, unsigned Depth = 0);
  /// The uniformity analysis proves E (a condition in Fr's function) the
  /// same in every lane of a warp, in the context Fr.
  bool provenWarpUniform(const clang::Expr *E, const Frame &Fr);
  /// Loop variables assumed uniform while their loop is checked.
  llvm::SmallVector<const clang::VarDecl *, 4> AssumeUniform;

private:
  /// V starts lane-linear (`blockIdx.x * blockDim.x + threadIdx.x`) and is
  /// only ever advanced by uniform multiples of 32 (`tid += blockDim.x *
  /// gridDim.x`): in every lane of a warp it is the same multiple of 32
  /// plus the lane.
  bool isGridStride(const clang::VarDecl *V, const Frame &Fr, unsigned Depth);
  /// E (an integer) is different in each of the 32 lanes of a warp: a
  /// lane-linear value, or its lane index (`% 32`, `& 31`).
  bool lanesDiffer(const clang::Expr *E, const Frame &Fr, unsigned Depth = 0);

  clang::ASTContext &Ctx;
  const LaneModelInputs &Inputs;
  FunctionFacts &Facts;
  llvm::SmallVector<const clang::VarDecl *, 2> ShapeVisiting;
  UniformityAnalysis *Uniform = nullptr, *Plain = nullptr;
};

} // namespace cuda_tidy::lanes

#endif // CUDA_TIDY_LIB_LANES_THREADVARIANCE_H
