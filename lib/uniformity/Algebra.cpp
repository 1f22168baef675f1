//===--- Algebra.cpp - Levels of arithmetic and comparisons ---------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The value algebra of the uniformity analysis: the level of `L Op R` from
// the levels of its operands, by the lane-linear and aligned shapes and,
// exactly, by affine forms in the thread index (UniformValue's form:
// U + Lin . t + FloorMul * floor(Flr . t / 2^FloorShift)), whose thread
// parts may cancel.
//
//===----------------------------------------------------------------------===//

#include "lib/uniformity/UniformityImpl.h"
#include "lib/ast/CudaAST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

using namespace clang;

namespace cuda_tidy {

//===----------------------------------------------------------------------===//
// The value algebra: shapes through arithmetic and comparisons.
//===----------------------------------------------------------------------===//

std::optional<llvm::APSInt> ConstEval::operator()(const Expr *E) const {
  if (Pins && !Pins->empty())
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      for (const auto &[D, Value] : *Pins)
        if (D == DRE->getDecl())
          return llvm::APSInt(llvm::APInt(64, uint64_t(Value), true),
                              /*isUnsigned=*/false);
  return constantOf(E, Ctx);
}

/// E, at level V, is a multiple of 32 and not thread-varying (`blockDim.x`,
/// `64`).
static bool isAligned(const Expr *E, UniformValue V, const ConstEval &Ctx) {
  if (V.Params || V.Base == Uniformity::Thread)
    return false;
  if (V.Shape == UniformValue::Aligned)
    return true;
  auto C = Ctx(E);
  return C && C->getExtValue() % 32 == 0;
}

/// The level and shape of `L Op R` from those of its operands.
static UniformValue combineShapes(BinaryOperatorKind Op, const Expr *LE,
                                  UniformValue L, const Expr *RE,
                                  UniformValue R, const ConstEval &Ctx) {
  auto IsAligned = [&](const Expr *E, UniformValue V) {
    return isAligned(E, V, Ctx);
  };
  UniformValue J = plain(join(L, R));

  auto LinearOverAligned = [&](UniformValue X, UniformValue Y, const Expr *YE) {
    return X.Base == Uniformity::Thread && X.Params == 0 &&
           X.Shape == UniformValue::LaneLinear && IsAligned(YE, Y);
  };
  auto Warp = UniformValue::of(Uniformity::Warp);
  switch (Op) {
  case BO_Add:
    if (LinearOverAligned(L, R, RE) || LinearOverAligned(R, L, LE))
      return UniformValue::of(Uniformity::Thread, UniformValue::LaneLinear);
    if (IsAligned(LE, L) && IsAligned(RE, R))
      return UniformValue::of(J.Base, UniformValue::Aligned);
    return J;
  case BO_Sub:
    if (LinearOverAligned(L, R, RE))
      return UniformValue::of(Uniformity::Thread, UniformValue::LaneLinear);
    if (IsAligned(LE, L) && IsAligned(RE, R))
      return UniformValue::of(J.Base, UniformValue::Aligned);
    return J;
  case BO_Mul:
    if (J.Base != Uniformity::Thread && J.Params == 0 &&
        (IsAligned(LE, L) || IsAligned(RE, R)))
      return UniformValue::of(J.Base, UniformValue::Aligned);
    return J;
  case BO_Div:
    if (LinearOverAligned(L, R, RE))
      return Warp;
    return J;
  case BO_Shr:
    if (L.Shape == UniformValue::LaneLinear && L.Params == 0 && R.Params == 0)
      if (auto C = Ctx(RE); C && C->getExtValue() >= 5)
        return Warp;
    return J;
  case BO_Shl:
    if (J.Base != Uniformity::Thread && J.Params == 0)
      if (auto C = Ctx(RE); C && C->getExtValue() >= 5)
        return UniformValue::of(J.Base, UniformValue::Aligned);
    return J;
  case BO_And:
    if (L.Shape == UniformValue::LaneLinear && L.Params == 0)
      if (auto C = Ctx(RE); C && (C->getZExtValue() & 31) == 0)
        return Warp;
    return J;
  case BO_LT:
  case BO_GE:
  case BO_GT:
  case BO_LE: {
    // threadIdx.x < 64 holds for whole warps; threadIdx.x <= 63 too.
    bool LinearLeft = L.Shape == UniformValue::LaneLinear;
    const Expr *OtherE = LinearLeft ? RE : LE;
    UniformValue Lin = LinearLeft ? L : R, Other = LinearLeft ? R : L;
    if (Lin.Shape != UniformValue::LaneLinear || Lin.Params)
      return J;
    // Normalise to "linear OP other".
    bool Strict = LinearLeft ? (Op == BO_LT || Op == BO_GE)
                             : (Op == BO_GT || Op == BO_LE);
    if (Strict && IsAligned(OtherE, Other))
      return Warp;
    if (!Strict && !Other.Params && Other.Base != Uniformity::Thread)
      if (auto C = Ctx(OtherE);
          C && (C->getExtValue() + 1) % 32 == 0)
        return Warp;
    return J;
  }
  default:
    return J;
  }
}

//===----------------------------------------------------------------------===//
// Affine forms: U + Lin . t + FloorMul * floor(Flr . t / 2^FloorShift).
//===----------------------------------------------------------------------===//

namespace {
/// An affine form in wide integers, while it is computed.
struct Form {
  Uniformity Rest = Uniformity::Block;
  uint64_t Params = 0;
  unsigned Pow2 = 0;
  /// U is a multiple of blockDim.x (UniformValue::DimX).
  bool DimX = false;
  unsigned FloorShift = 0;
  int64_t FloorMul = 0;
  std::array<int64_t, 4> Lin{}, Flr{};
  /// SymMul times the symbol Sym (UniformValue::Sym).
  uint32_t Sym = 0;
  int64_t SymMul = 0;
};
} // namespace


/// V's form: its own, or, for a value that is not thread-varying, U = V.
static std::optional<Form> formOf(const UniformValue &V) {
  Form F;
  F.Params = V.Params;
  F.Pow2 = V.Pow2;
  F.DimX = V.DimX || V.Pow2 == ZeroPow2;
  if (V.Affine) {
    F.Rest = V.Rest;
    F.FloorShift = V.FloorShift;
    F.FloorMul = V.FloorMul;
    for (unsigned I = 0; I < 4; ++I) {
      F.Lin[I] = V.Lin[I];
      F.Flr[I] = V.Flr[I];
    }
    F.Sym = V.Sym;
    F.SymMul = V.SymMul;
    return F;
  }
  if (V.Base == Uniformity::Thread && !V.Mixed)
    return std::nullopt;
  // Varying only through parameters' thread parts: taken as the uniform
  // part; a call's bound analysis sees what they are.
  F.Rest = ownLevel(V);
  return F;
}

static bool hasThreadPart(const Form &F) {
  return llvm::any_of(F.Lin, [](int64_t C) { return C != 0; }) ||
         F.FloorMul != 0 || F.SymMul != 0;
}

/// The level of a value of form F when its thread part is zero or only q
/// (see Uniformity.h), else std::nullopt.
static std::optional<Uniformity> formLevel(const Form &F,
                                           const UniformityOptions &Opts) {
  if (F.SymMul != 0)
    return std::nullopt;
  bool Q = F.Lin[3] != 0 || (F.FloorMul != 0 && F.Flr[3] != 0);
  for (unsigned I = 0; I < 3; ++I)
    if (F.Lin[I] != 0 || (F.FloorMul != 0 && F.Flr[I] != 0))
      return std::nullopt;
  if (Q && Opts.OpaqueCallsVary)
    return std::max(F.Rest, Uniformity::Warp);
  return F.Rest;
}

unsigned pow2Of(const llvm::APSInt &C) {
  if (C.isZero())
    return ZeroPow2;
  return std::min<unsigned>(C.countr_zero(), ZeroPow2);
}

/// Stores F into V, unless a coefficient does not fit (then V keeps no
/// form).
static void storeForm(const Form &F, UniformValue &V) {
  auto Fits = [](int64_t C) {
    return C >= INT16_MIN && C <= INT16_MAX;
  };
  V.Pow2 = static_cast<uint8_t>(std::min(F.Pow2, ZeroPow2));
  V.DimX = F.DimX;
  if (!hasThreadPart(F)) {
    V.Affine = false;
    return;
  }
  if (!Fits(F.FloorMul) || !Fits(F.SymMul) || !llvm::all_of(F.Lin, Fits) ||
      !llvm::all_of(F.Flr, Fits) || F.FloorShift > 62) {
    V.Affine = false;
    V.Pow2 = 0;
    V.DimX = false;
    return;
  }
  V.Affine = true;
  V.Rest = F.Rest;
  V.FloorShift = static_cast<uint8_t>(F.FloorMul ? F.FloorShift : 0);
  V.FloorMul = static_cast<int16_t>(F.FloorMul);
  for (unsigned I = 0; I < 4; ++I) {
    V.Lin[I] = static_cast<int16_t>(F.Lin[I]);
    V.Flr[I] = static_cast<int16_t>(F.FloorMul ? F.Flr[I] : 0);
  }
  V.Sym = F.SymMul ? F.Sym : 0;
  V.SymMul = static_cast<int16_t>(F.SymMul);
}

/// A + Sign * B.
static std::optional<Form> addForms(const Form &A, const Form &B, int Sign) {
  Form R = A;
  R.Rest = std::max(A.Rest, B.Rest);
  R.Params |= B.Params;
  R.Pow2 = std::min(A.Pow2, B.Pow2);
  R.DimX = A.DimX && B.DimX;
  for (unsigned I = 0; I < 4; ++I)
    R.Lin[I] += Sign * B.Lin[I];
  // Two symbols: only one of them can stay.
  if (B.SymMul != 0) {
    if (A.SymMul != 0 && A.Sym != B.Sym)
      return std::nullopt;
    R.Sym = B.Sym;
    R.SymMul += Sign * B.SymMul;
  }
  if (R.SymMul == 0)
    R.Sym = 0;
  if (B.FloorMul != 0) {
    if (A.FloorMul == 0) {
      R.FloorMul = Sign * B.FloorMul;
      R.FloorShift = B.FloorShift;
      R.Flr = B.Flr;
    } else if (A.FloorShift == B.FloorShift && A.Flr == B.Flr) {
      R.FloorMul += Sign * B.FloorMul;
    } else {
      return std::nullopt;
    }
  }
  if (R.FloorMul == 0) {
    R.FloorShift = 0;
    R.Flr = {};
  }
  return R;
}

static Form scaleForm(Form F, int64_t K, unsigned KPow2) {
  for (int64_t &C : F.Lin)
    C *= K;
  F.FloorMul *= K;
  F.SymMul *= K;
  F.Pow2 = std::min(F.Pow2 + KPow2, ZeroPow2);
  if (K == 0)
    F = Form{F.Rest, F.Params, ZeroPow2, true, 0, 0, {}, {}, 0, 0};
  return F;
}

/// The largest value of C . t over the threads of a block launched as
/// Launch (every coefficient not negative), or std::nullopt when a
/// dimension with a coefficient has no bound (q never has one).
static std::optional<int64_t> maxOver(const std::array<int64_t, 4> &C,
                                      const LaunchFacts *Launch) {
  if (!Launch || C[3] != 0)
    return std::nullopt;
  int64_t Max = 0;
  for (unsigned I = 0; I < 3; ++I) {
    if (C[I] == 0)
      continue;
    if (C[I] < 0 || !Launch->MaxThreads[I])
      return std::nullopt;
    Max += C[I] * int64_t(Launch->MaxThreads[I] - 1);
  }
  return Max;
}

/// F without its rounded-down part when that part is 0 in every thread of
/// the kernel's blocks: `threadIdx.x / 128` in blocks of at most 128.
static Form dropZeroFloor(Form F, const LaunchFacts *Launch) {
  if (F.FloorMul == 0)
    return F;
  if (std::optional<int64_t> Max = maxOver(F.Flr, Launch);
      Max && F.FloorShift < 62 && *Max < (int64_t(1) << F.FloorShift)) {
    F.FloorMul = 0;
    F.FloorShift = 0;
    F.Flr = {};
  }
  return F;
}

/// F divided (rounded down) by 2^K.
static std::optional<Form> shiftDown(Form F, unsigned K) {
  if (F.Pow2 < K)
    return std::nullopt;
  int64_t D = int64_t(1) << K;
  F.Pow2 = F.Pow2 == ZeroPow2 ? ZeroPow2 : F.Pow2 - K;
  // A symbol may stand for a negative value: only an exact quotient.
  if (F.SymMul % D != 0)
    return std::nullopt;
  F.SymMul /= D;
  if (F.FloorMul != 0) {
    // floor((L + floor(T / 2^s)) / 2^K) = L / 2^K + floor(T / 2^(s+K))
    // when 2^K divides L.
    if (F.FloorMul != 1 ||
        llvm::any_of(F.Lin, [&](int64_t C) { return C % D != 0; }))
      return std::nullopt;
    for (int64_t &C : F.Lin)
      C /= D;
    F.FloorShift += K;
    return F;
  }
  // The coefficients 2^K divides stay linear; the others (of indices, not
  // negative) go into the rounded-down part.
  for (unsigned I = 0; I < 4; ++I) {
    if (F.Lin[I] % D == 0) {
      F.Lin[I] /= D;
      continue;
    }
    if (F.Lin[I] < 0)
      return std::nullopt;
    F.Flr[I] = F.Lin[I];
    F.Lin[I] = 0;
    F.FloorMul = 1;
    F.FloorShift = K;
  }
  return F;
}

/// Whether `D Op 0` is the same in every thread although D has a thread
/// part: D = U + T with T's range in the kernel's blocks shorter than 2^p,
/// p the power of two that divides U. With T in [0, M) and U a multiple of
/// 2^p > M, `D < 0` is `U < 0`; with T in (-M, 0], `D > 0` is `U > 0`: `for
/// (i = threadIdx.x; i < n; i += 128)` in blocks of at most 128 threads
/// with 128 dividing n. `D <= 0` and `D == 0` still vary (U = 0).
static bool boundedSign(const Form &D, BinaryOperatorKind Op,
                        const LaunchFacts *Launch) {
  if (D.FloorMul != 0 || D.SymMul != 0 || D.Pow2 == 0)
    return false;
  bool Up = llvm::all_of(D.Lin, [](int64_t C) { return C >= 0; });
  bool Down = llvm::all_of(D.Lin, [](int64_t C) { return C <= 0; });
  std::array<int64_t, 4> Abs;
  for (unsigned I = 0; I < 4; ++I)
    Abs[I] = D.Lin[I] < 0 ? -D.Lin[I] : D.Lin[I];
  std::optional<int64_t> Max = maxOver(Abs, Launch);
  if (!Max || (D.Pow2 < 62 && *Max >= (int64_t(1) << D.Pow2)))
    return false;
  // `L < R` is `D < 0`, `L >= R` its negation, and so on.
  bool Below = Op == BO_LT || Op == BO_GE;
  bool Above = Op == BO_GT || Op == BO_LE;
  return (Up && Below) || (Down && Above);
}

/// `(U + threadIdx.x) / blockDim.x` (or `U / blockDim.x`) with U a multiple
/// of blockDim.x: U / blockDim.x, whose thread part is gone, since 0 <=
/// threadIdx.x < blockDim.x (U not negative, as for any division here).
static std::optional<Form> overBlockDim(const Form &A, const Form &B,
                                        BinaryOperatorKind Op, const Expr *RE) {
  if (Op != BO_Div || !A.DimX || A.FloorMul != 0 || A.SymMul != 0 ||
      A.Lin[1] != 0 || A.Lin[2] != 0 || A.Lin[3] != 0 ||
      (A.Lin[0] != 0 && A.Lin[0] != 1))
    return std::nullopt;
  std::optional<BuiltinVarRef> Ref =
      getBuiltinVarRef(RE->IgnoreParenImpCasts());
  if (!Ref || Ref->Var != BuiltinVar::BlockDim || Ref->Dim != 0)
    return std::nullopt;
  Form Q;
  Q.Rest = std::max(A.Rest, B.Rest);
  Q.Params = A.Params | B.Params;
  return Q;
}

/// Whether `D Op 0` is the same in every thread although D has a thread
/// part: D = U + threadIdx.x (or U - threadIdx.x) with U a multiple of
/// blockDim.x, as in `i < 4 * blockDim.x` with `i = threadIdx.x + k *
/// blockDim.x`. Since 0 <= threadIdx.x < blockDim.x, `U + t < 0` is `U <
/// 0` and `U - t > 0` is `U > 0`; `<=` and `==` still vary (U = 0).
static bool boundedByBlockDim(const Form &D, BinaryOperatorKind Op) {
  if (!D.DimX || D.FloorMul != 0 || D.SymMul != 0 || D.Lin[1] != 0 ||
      D.Lin[2] != 0 || D.Lin[3] != 0)
    return false;
  bool Below = Op == BO_LT || Op == BO_GE;
  bool Above = Op == BO_GT || Op == BO_LE;
  return (D.Lin[0] == 1 && Below) || (D.Lin[0] == -1 && Above);
}

/// The form of `L Op R`, or std::nullopt when it is not affine.
static std::optional<Form> combineForms(BinaryOperatorKind Op,
                                        const UniformValue &L,
                                        const Expr *RE,
                                        const UniformValue &R, const Expr *LE,
                                        const ConstEval &Ctx) {
  std::optional<Form> A = formOf(L), B = formOf(R);
  if (!A || !B)
    return std::nullopt;
  bool AT = hasThreadPart(*A), BT = hasThreadPart(*B);
  auto Constant = [&](const Expr *E) { return Ctx(E); };
  switch (Op) {
  case BO_Add:
    return addForms(*A, *B, 1);
  case BO_Sub:
    return addForms(*A, *B, -1);
  case BO_Mul: {
    if (!AT && !BT) {
      Form F = *A;
      F.Rest = std::max(A->Rest, B->Rest);
      F.Params |= B->Params;
      F.Pow2 = std::min(A->Pow2 + B->Pow2, ZeroPow2);
      F.DimX = A->DimX || B->DimX;
      return F;
    }
    if (AT && BT)
      return std::nullopt;
    const Form &T = AT ? *A : *B;
    auto C = Constant(AT ? RE : LE);
    if (!C || C->getSignificantBits() > 32)
      return std::nullopt;
    return scaleForm(T, C->getExtValue(), pow2Of(*C));
  }
  case BO_Shl: {
    if (BT)
      return std::nullopt;
    if (!AT) {
      // Shifting left keeps what divides U.
      Form F = *A;
      F.Rest = std::max(A->Rest, B->Rest);
      F.Params |= B->Params;
      return F;
    }
    auto C = Constant(RE);
    if (!C || C->isNegative() || C->getExtValue() > 30) {
      if (AT)
        return std::nullopt;
      Form F = *A;
      F.Rest = std::max(A->Rest, B->Rest);
      F.Params |= B->Params;
      return F;
    }
    unsigned K = C->getExtValue();
    return scaleForm(*A, int64_t(1) << K, K);
  }
  case BO_Div:
  case BO_Shr: {
    if (BT)
      return std::nullopt;
    Form Divided = *A;
    Divided.Rest = std::max(A->Rest, B->Rest);
    Divided.Params |= B->Params;
    Divided.DimX = false;
    if (std::optional<Form> Q = overBlockDim(*A, *B, Op, RE))
      return Q;
    if (!AT && A->Pow2 == 0)
      return Divided;
    std::optional<unsigned> K;
    if (auto C = Constant(RE)) {
      if (Op == BO_Shr && !C->isNegative() && C->getExtValue() <= 62)
        K = C->getExtValue();
      else if (Op == BO_Div && C->isStrictlyPositive() && C->isPowerOf2())
        K = C->logBase2();
    }
    if (!K) {
      if (AT)
        return std::nullopt;
      Divided.Pow2 = 0;
      return Divided;
    }
    if (!AT) {
      Divided.Pow2 = A->Pow2 >= *K ? (A->Pow2 == ZeroPow2 ? ZeroPow2
                                                          : A->Pow2 - *K)
                                   : 0;
      return Divided;
    }
    std::optional<Form> Shifted = shiftDown(Divided, *K);
    if (Shifted)
      Shifted = dropZeroFloor(*Shifted, Ctx.Launch);
    return Shifted;
  }
  case BO_LT:
  case BO_GT:
  case BO_LE:
  case BO_GE:
  case BO_EQ:
  case BO_NE: {
    // A comparison of two forms compares their difference with zero: the
    // same in every thread when their thread parts are equal (`t < end +
    // threadIdx.x` with `t = begin + threadIdx.x`). A truth value.
    if (!AT && !BT)
      return std::nullopt;
    std::optional<Form> D = addForms(*A, *B, -1);
    if (!D)
      return std::nullopt;
    if (hasThreadPart(*D) && !boundedSign(*D, Op, Ctx.Launch) &&
        !boundedByBlockDim(*D, Op))
      return std::nullopt;
    Form R;
    R.Rest = D->Rest;
    R.Params = D->Params;
    return R;
  }
  default:
    return std::nullopt;
  }
}

/// The level of `L Op R` from the levels of its operands: the shapes'
/// reasoning, made exact by the affine form where it has one.
UniformValue combine(BinaryOperatorKind Op, const Expr *LE, UniformValue L,
                     const Expr *RE, UniformValue R, const ConstEval &Ctx,
                            const UniformityOptions &Opts) {
  UniformValue V = combineShapes(Op, LE, L, RE, R, Ctx);
  std::optional<Form> F = combineForms(Op, L, RE, R, LE, Ctx);
  if (!F)
    return V;
  if (std::optional<Uniformity> Level = formLevel(*F, Opts);
      Level && (L.Affine || R.Affine)) {
    // The thread parts cancel: as uniform as what remains.
    V.Base = std::min(V.Base, *Level);
    V.Params = F->Params;
    if (V.Base != Uniformity::Block || V.Params)
      V.Shape = UniformValue::None;
    else if (F->Pow2 >= 5)
      V.Shape = UniformValue::Aligned;
  }
  // A parameter minus a thread part, or the other way round (a helper's
  // `j - threadIdx.x` on its parameter `j`): the parameter's own thread
  // part may cancel it, so the value varies only as far as the callers'
  // arguments make it (UniformValue::Mixed).
  if (Op == BO_Sub && V.Base == Uniformity::Thread && hasThreadPart(*F)) {
    std::optional<Form> FL = formOf(L), FR = formOf(R);
    if (FL && FR && hasThreadPart(*FL) != hasThreadPart(*FR)) {
      const UniformValue &P = hasThreadPart(*FL) ? R : L;
      const UniformValue &T = hasThreadPart(*FL) ? L : R;
      if (P.Params && T.Affine && !T.SymMul) {
        V.Mixed = P.Params | P.Mixed | T.Mixed;
        V.MixRest = F->Rest;
        V.Shape = UniformValue::None;
      }
    }
  }
  if (V.Base != Uniformity::Thread) {
    V.Mixed = 0;
    V.MixRest = Uniformity::Block;
  }
  storeForm(*F, V);
  return V;
}

} // namespace cuda_tidy
