//===--- GridBounds.cpp - Comparisons a kernel's grid decides -------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Decides comparisons of a kernel's argument `n` with an index built from
/// `blockIdx.x`, `threadIdx` and constants, where every launch's grid is
/// `n / G` blocks along x (LaunchFacts::ParamGridX): `blockIdx.x * G + G
/// <= n` in every block. With the threads' extents from the launches, an
/// index `c + b * blockIdx.x + t . threadIdx` (b, t >= 0) whose largest
/// value is at most `b * blockIdx.x + G` with b <= G and that largest
/// constant part c + t . (extent - 1) <= G never exceeds `n`: `min(n,
/// start + C)` is `start + C` (HeCBench hexciton's chunks: `start =
/// blockIdx.x * 32 + threadIdx.y * 16`, `stop = MIN(num, start + 16)`,
/// `num / 32` blocks of 2 rows).
///
/// Locals are followed through their one initialiser when nothing writes
/// them afterwards; anything else (a subtraction of a non-constant, a
/// negative factor, a load, a call) leaves the comparison undecided.
///
//===----------------------------------------------------------------------===//

#include "lib/uniformity/UniformityImpl.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"

using namespace clang;

namespace cuda_tidy {

namespace {
/// The largest value of an index: Const + BlockX * blockIdx.x.
struct IndexMax {
  int64_t Const = 0;
  int64_t BlockX = 0;
};

class GridBound {
public:
  GridBound(const FunctionUniformityImpl &Fn) : Fn(Fn) {}

  /// The kernel parameter E reads, with its grid divisor, if E is one that
  /// no statement of the kernel writes.
  std::pair<const ParmVarDecl *, uint32_t> gridParam(const Expr *E) {
    const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
    if (!P || P->getDeclContext() != Fn.F)
      return {};
    unsigned Index = P->getFunctionScopeIndex();
    if (Index >= Fn.Launch.ParamGridX.size() || !Fn.Launch.ParamGridX[Index])
      return {};
    if (mutated(P))
      return {};
    return {P, Fn.Launch.ParamGridX[Index]};
  }

  /// The largest value of E, or none.
  std::optional<IndexMax> maxOf(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 12)
      return std::nullopt;
    E = E->IgnoreParenCasts();
    if (!E->getType()->isIntegralOrEnumerationType())
      return std::nullopt;
    Expr::EvalResult R;
    if (!E->isValueDependent() && E->EvaluateAsInt(R, Fn.Ctx)) {
      if (R.Val.getInt().getSignificantBits() > 40)
        return std::nullopt;
      return IndexMax{R.Val.getInt().getExtValue(), 0};
    }
    if (std::optional<BuiltinVarRef> Ref = getBuiltinVarRef(E)) {
      if (Ref->Var == BuiltinVar::BlockIdx && Ref->Dim == 0)
        return IndexMax{0, 1};
      if (Ref->Var == BuiltinVar::ThreadIdx && Ref->Dim < 3 &&
          Fn.Launch.MaxThreads[Ref->Dim])
        return IndexMax{int64_t(Fn.Launch.MaxThreads[Ref->Dim]) - 1, 0};
      return std::nullopt;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      std::optional<IndexMax> L = maxOf(BO->getLHS(), Depth + 1);
      if (!L)
        return std::nullopt;
      switch (BO->getOpcode()) {
      case BO_Add:
        if (std::optional<IndexMax> R = maxOf(BO->getRHS(), Depth + 1))
          return IndexMax{L->Const + R->Const, L->BlockX + R->BlockX};
        return std::nullopt;
      case BO_Sub:
        // Less a constant.
        if (std::optional<int64_t> K = constant(BO->getRHS()))
          return IndexMax{L->Const - *K, L->BlockX};
        return std::nullopt;
      case BO_Mul:
      case BO_Shl:
        if (std::optional<int64_t> K = constant(BO->getRHS())) {
          if (*K < 0 || *K > (BO->getOpcode() == BO_Mul ? 1 << 20 : 20) ||
              L->Const < 0)
            return std::nullopt;
          int64_t M = BO->getOpcode() == BO_Mul ? *K : int64_t(1) << *K;
          return IndexMax{L->Const * M, L->BlockX * M};
        }
        return std::nullopt;
      default:
        return std::nullopt;
      }
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage() || !V->getInit() ||
          mutated(V))
        return std::nullopt;
      return maxOf(V->getInit(), Depth + 1);
    }
    return std::nullopt;
  }

  /// `X <= n` in every thread of every block.
  bool atMost(const Expr *X, uint32_t G) {
    std::optional<IndexMax> M = maxOf(X);
    // blockIdx.x * B + C <= blockIdx.x * G + G <= gridDim.x * G <= n.
    return M && M->BlockX >= 0 && M->BlockX <= int64_t(G) &&
           M->Const <= int64_t(G);
  }

private:
  std::optional<int64_t> constant(const Expr *E) {
    Expr::EvalResult R;
    if (E->isValueDependent() || !E->EvaluateAsInt(R, Fn.Ctx) ||
        R.Val.getInt().getSignificantBits() > 40)
      return std::nullopt;
    return R.Val.getInt().getExtValue();
  }
  bool mutated(const VarDecl *V) {
    if (!Mutation)
      Mutation.emplace(*Fn.F->getBody(), Fn.Ctx);
    return Mutation->isMutated(V);
  }

  const FunctionUniformityImpl &Fn;
  std::optional<ExprMutationAnalyzer> Mutation;
};
} // namespace

std::optional<bool> decideByGrid(const Expr *Cond,
                                 const FunctionUniformityImpl &Fn) {
  if (!Fn.Kernel || Fn.Launch.ParamGridX.empty() || !Fn.F->getBody())
    return std::nullopt;
  const auto *BO = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  if (!BO || !BO->isRelationalOp())
    return std::nullopt;
  // The cheap test first: one side reads a parameter with a grid divisor.
  auto ParamSide = [&](const Expr *E) {
    const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
    return P && P->getFunctionScopeIndex() < Fn.Launch.ParamGridX.size() &&
           Fn.Launch.ParamGridX[P->getFunctionScopeIndex()];
  };
  const bool NLeft = ParamSide(BO->getLHS());
  if (!NLeft && !ParamSide(BO->getRHS()))
    return std::nullopt;
  GridBound Bound(Fn);
  const Expr *N = NLeft ? BO->getLHS() : BO->getRHS();
  const Expr *X = NLeft ? BO->getRHS() : BO->getLHS();
  auto [P, G] = Bound.gridParam(N);
  if (!P || !Bound.atMost(X, G))
    return std::nullopt;
  // X <= n: `n < X` and `X > n` are false, `n >= X` and `X <= n` true.
  switch (BO->getOpcode()) {
  case BO_LT:
    return NLeft ? std::optional<bool>(false) : std::nullopt;
  case BO_GT:
    return NLeft ? std::nullopt : std::optional<bool>(false);
  case BO_GE:
    return NLeft ? std::optional<bool>(true) : std::nullopt;
  case BO_LE:
    return NLeft ? std::nullopt : std::optional<bool>(true);
  default:
    return std::nullopt;
  }
}

} // namespace cuda_tidy
