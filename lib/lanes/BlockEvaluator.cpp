//===--- BlockEvaluator.cpp - Values for a whole block at once ------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/lanes/BlockEvaluator.h"
#include "lib/ast/CudaAST.h"
#include "lib/lanes/FunctionFacts.h"
#include "lib/lanes/Guards.h"
#include "lib/lanes/ThreadVariance.h"
#include "lib/lanes/WarpEvaluator.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>

using namespace clang;

namespace cuda_tidy::lanes {

BlockEvaluator::BlockEvaluator(clang::ASTContext &Ctx, uint64_t &WorkDone,
                               FunctionFacts &Facts, ThreadVariance &Variance,
                               WarpValues &Values, WarpAddresses &Addresses,
                               GuardModel &Guards)
    : Ctx(Ctx), WorkDone(WorkDone), Facts(Facts), Variance(Variance),
      Values(Values), Addresses(Addresses), Guards(Guards) {}

/// Appends the bytes of X to Key.
template <typename T> static void appendKey(std::string &Key, const T &X) {
  Key.append(reinterpret_cast<const char *>(&X), sizeof(X));
}

/// Appends the (variable, value) pairs of a loop valuation in a fixed order.
template <typename MapT>
static void appendValuation(std::string &Key, const MapT &M) {
  llvm::SmallVector<std::pair<intptr_t, int64_t>, 4> Sorted;
  for (const auto &[V, X] : M)
    Sorted.push_back({intptr_t(V), X});
  llvm::sort(Sorted);
  appendKey(Key, Sorted.size());
  for (const auto &P : Sorted)
    appendKey(Key, P);
}

/// The warps of a block of NumWarps warps.
static uint32_t allWarps(unsigned NumWarps) {
  return NumWarps >= 32 ? FullLaneMask : (uint32_t(1) << NumWarps) - 1;
}

/// The warps W in [0, NumWarps) with P + Q * W < 0.
static uint32_t warpsBelowZero(int64_t P, int64_t Q, unsigned NumWarps) {
  const uint32_t All = allWarps(NumWarps);
  if (Q == 0)
    return P < 0 ? All : 0;
  if (Q > 0) {
    // Increasing: the first N warps, N = ceil(-P / Q).
    if (P >= 0)
      return 0;
    int64_t N = (-P + Q - 1) / Q;
    return N >= int64_t(NumWarps) ? All : (uint32_t(1) << N) - 1;
  }
  // Decreasing: P + Q W < 0 for W > P / -Q, from the first W past it.
  if (P < 0)
    return All;
  int64_t First = P / -Q + 1;
  return First >= int64_t(NumWarps) ? 0 : All & ~((uint32_t(1) << First) - 1);
}

/// The warps W with P + Q * W == 0.
static uint32_t warpsAtZero(int64_t P, int64_t Q, unsigned NumWarps) {
  if (Q == 0)
    return P == 0 ? allWarps(NumWarps) : 0;
  if (P % Q != 0)
    return 0;
  int64_t W = -P / Q;
  return W >= 0 && W < int64_t(NumWarps) ? uint32_t(1) << W : 0;
}

/// X in every lane and warp.
static bool splatTo(WarpVal &R, int64_t X) {
  R = WarpVal();
  for (int64_t &A : R.A)
    A = X;
  return true;
}

/// V as a truth value: the warps in which each lane's integer is not 0.
static void toBool(WarpVal &V, unsigned NumWarps) {
  if (V.Bool)
    return;
  for (unsigned L = 0; L < 32; ++L)
    V.M[L] = allWarps(NumWarps) & ~warpsAtZero(V.A[L], V.C, NumWarps);
  V.Bool = true;
}

/// V as an integer: false for a truth value that differs between warps
/// (not A + C * W).
static bool toInt(WarpVal &V, unsigned NumWarps) {
  if (!V.Bool)
    return true;
  const uint32_t All = allWarps(NumWarps);
  for (unsigned L = 0; L < 32; ++L) {
    if (V.M[L] != 0 && V.M[L] != All)
      return false; // differs between warps: not A + C * W
    V.A[L] = V.M[L] != 0;
  }
  V.C = 0;
  V.Bool = false;
  return true;
}

bool BlockEvaluator::fits(WarpVal &V, QualType T, unsigned NumWarps) {
  // The values evalW would give (normalised to T) only if none wraps; with
  // A + C * W monotone in W, the first and last warps bound it.
  const IntTypes::Info &I = Types.of(T);
  if (!I.Integer)
    return !V.Bool;
  if (I.Boolean) {
    toBool(V, NumWarps);
    return true;
  }
  if (!toInt(V, NumWarps))
    return false;
  const int64_t Last = int64_t(NumWarps) - 1;
  const unsigned Width = I.Width;
  int64_t Lo, Hi;
  if (Width >= 64) {
    Lo = -(int64_t(1) << 61);
    Hi = int64_t(1) << 61;
  } else if (I.Signed) {
    Lo = -(int64_t(1) << (Width - 1));
    Hi = (int64_t(1) << (Width - 1)) - 1;
  } else {
    Lo = 0;
    Hi = int64_t((uint64_t(1) << Width) - 1);
  }
  if (V.C > (int64_t(1) << 40) || V.C < -(int64_t(1) << 40))
    return false;
  // Every lane's first and last warp in range: the lanes' least and
  // greatest values are (the last warp adds the same to each).
  int64_t Min = V.A[0], Max = V.A[0];
  for (int64_t A : V.A) {
    Min = std::min(Min, A);
    Max = std::max(Max, A);
  }
  if (Min < Lo || Max > Hi)
    return false;
  const int64_t Shift = V.C * Last;
  return Min + Shift >= Lo && Max + Shift <= Hi;
}

bool BlockEvaluator::evalBlock(const Expr *E, const Frame &Fr, const Env &En,
                               unsigned NumWarps, WarpVal &R,
                               bool &ReadsBlockDim, unsigned Depth) {
  if (!E || Depth > MaxDepth || E->isValueDependent() || E->isTypeDependent() ||
      En.ShapeKnown || NumWarps == 0 || NumWarps > 32)
    return false;
  WorkDone += 32;
  const uint32_t All = allWarps(NumWarps);
  E = E->IgnoreParens();
  if (std::optional<BuiltinVarRef> Ref =
          isa<PseudoObjectExpr, MSPropertyRefExpr, MemberExpr>(E)
              ? getBuiltinVarRef(E)
              : std::nullopt) {
    if (Ref->Dim != 0)
      return false; // .y and .z: only with a known shape
    if (Ref->Var == BuiltinVar::ThreadIdx) {
      R = WarpVal();
      for (unsigned L = 0; L < 32; ++L)
        R.A[L] = L;
      R.C = 32;
      return true;
    }
    if (Ref->Var == BuiltinVar::BlockDim) {
      ReadsBlockDim = true;
      return splatTo(R, En.BlockDim);
    }
    if (Ref->Var == BuiltinVar::BlockIdx)
      return splatTo(R, 0);
    return false;
  }
  QualType T = E->getType();
  if (const auto *IL = dyn_cast<IntegerLiteral>(E))
    return splatTo(R,
                   Values.normalize(int64_t(IL->getValue().getZExtValue()), T));
  if (const auto *CL = dyn_cast<CharacterLiteral>(E))
    return splatTo(R, int64_t(CL->getValue()));
  if (const auto *BL = dyn_cast<CXXBoolLiteralExpr>(E))
    return splatTo(R, int64_t(BL->getValue()));
  if (isa<SubstNonTypeTemplateParmExpr, UnaryExprOrTypeTraitExpr>(E)) {
    if (auto C = Values.constantOf(E))
      return splatTo(R, *C);
    return false;
  }
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    switch (CE->getCastKind()) {
    case CK_LValueToRValue:
    case CK_NoOp:
    case CK_IntegralCast:
    case CK_IntegralToBoolean:
      return evalBlock(CE->getSubExpr(), Fr, En, NumWarps, R, ReadsBlockDim,
                       Depth + 1) &&
             fits(R, T, NumWarps);
    default:
      return false;
    }
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return evalDeclRef(DRE, Fr, En, NumWarps, R, ReadsBlockDim, Depth);
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    UnaryOperatorKind Op = UO->getOpcode();
    if (Op != UO_Plus && Op != UO_Minus && Op != UO_Not && Op != UO_LNot)
      return false;
    if (!evalBlock(UO->getSubExpr(), Fr, En, NumWarps, R, ReadsBlockDim,
                   Depth + 1))
      return false;
    if (Op == UO_LNot) {
      toBool(R, NumWarps);
      for (uint32_t &Warps : R.M)
        Warps = All & ~Warps;
      return true;
    }
    if (!toInt(R, NumWarps))
      return false;
    if (Op == UO_Minus || Op == UO_Not) {
      // -x = -A - C W; ~x = -x - 1.
      for (int64_t &A : R.A)
        A = Op == UO_Minus ? -A : -A - 1;
      R.C = -R.C;
    }
    return fits(R, T, NumWarps);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return evalBinary(BO, Fr, En, NumWarps, R, ReadsBlockDim, Depth);
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    return evalBlock(EWC->getSubExpr(), Fr, En, NumWarps, R, ReadsBlockDim,
                     Depth + 1);
  return false;
}

bool BlockEvaluator::evalDeclRef(const DeclRefExpr *DRE, const Frame &Fr,
                                 const Env &En, unsigned NumWarps, WarpVal &R,
                                 bool &ReadsBlockDim, unsigned Depth) {
  if (const auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
    return splatTo(R, EC->getInitVal().getExtValue());
  const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
  if (!V || !V->getType()->isIntegerType())
    return false;
  if (auto L = En.Loop.find(V); L != En.Loop.end())
    return splatTo(R, L->second);
  if (auto Trip = En.Trips.find(V); Trip != En.Trips.end()) {
    // A stride loop's variable: its start plus the trips' steps.
    const StrideLoop *SL = Facts.info(Fr.F).StrideOfVar.lookup(V);
    if (!SL || V->getDeclContext() != Fr.F ||
        !evalBlock(SL->Init, Fr, En, NumWarps, R, ReadsBlockDim, Depth + 1) ||
        !toInt(R, NumWarps))
      return false;
    int64_t Step = 1;
    if (SL->Step) {
      WarpVal S;
      if (!evalBlock(SL->Step, Fr, En, NumWarps, S, ReadsBlockDim, Depth + 1) ||
          !toInt(S, NumWarps) || S.C != 0 ||
          llvm::any_of(S.A, [&](int64_t X) { return X != S.A[0]; }))
        return false;
      Step = S.A[0];
    }
    const int64_t Times = SL->Down ? -Trip->second : Trip->second;
    if (Times > (int64_t(1) << 20) || Times < -(int64_t(1) << 20) ||
        Step > (int64_t(1) << 30) || Step < -(int64_t(1) << 30))
      return false;
    for (int64_t &A : R.A)
      A += Times * Step;
    return fits(R, V->getType(), NumWarps);
  }
  if (const auto *PV = dyn_cast<ParmVarDecl>(V)) {
    if (!Fr.Call || !Fr.Parent || Fr.F != PV->getDeclContext())
      return false;
    unsigned Idx = PV->getFunctionScopeIndex();
    if (Idx >= Fr.Call->getNumArgs())
      return false;
    return evalBlock(Fr.Call->getArg(Idx), *Fr.Parent, En, NumWarps, R,
                     ReadsBlockDim, Depth + 1) &&
           fits(R, V->getType(), NumWarps);
  }
  if (V->hasLocalStorage()) {
    if (V->getDeclContext() != Fr.F || V->getType()->isReferenceType())
      return false;
    FunctionInfo &FI = Facts.info(Fr.F);
    if (!V->getInit()) {
      // `asm("mov.u32 %0, %%laneid;" : "=r"(lane));`, the only write.
      if (!FI.LaneIdAsm.contains(V) || FI.AsmWrites.lookup(V) != 1 ||
          Facts.isModified(FI, V))
        return false;
      R = WarpVal();
      for (unsigned L = 0; L < 32; ++L)
        R.A[L] = L;
      return fits(R, V->getType(), NumWarps);
    }
    if (Facts.isModified(FI, V))
      return false; // straight-line values: warp by warp
    return evalBlock(V->getInit(), Fr, En, NumWarps, R, ReadsBlockDim,
                     Depth + 1) &&
           fits(R, V->getType(), NumWarps);
  }
  if (V->getType().isConstQualified() && V->getInit())
    if (auto C = Values.constantOf(V->getInit()))
      return splatTo(R, Values.normalize(*C, V->getType()));
  return false;
}

bool BlockEvaluator::evalBinary(const BinaryOperator *BO, const Frame &Fr,
                                const Env &En, unsigned NumWarps, WarpVal &R,
                                bool &ReadsBlockDim, unsigned Depth) {
  const uint32_t All = allWarps(NumWarps);
  BinaryOperatorKind Op = BO->getOpcode();
  if (Op == BO_LAnd || Op == BO_LOr) {
    WarpVal Rhs;
    if (!evalBlock(BO->getLHS(), Fr, En, NumWarps, R, ReadsBlockDim,
                   Depth + 1) ||
        !evalBlock(BO->getRHS(), Fr, En, NumWarps, Rhs, ReadsBlockDim,
                   Depth + 1))
      return false;
    toBool(R, NumWarps);
    toBool(Rhs, NumWarps);
    for (unsigned L = 0; L < 32; ++L)
      R.M[L] = Op == BO_LAnd ? R.M[L] & Rhs.M[L] : R.M[L] | Rhs.M[L];
    return true;
  }
  if (!isEvaluatedBinary(Op))
    return false;
  WarpVal Y;
  // As in WarpValues::evalBinaryW: a product with a side that is 0 without
  // reading blockDim is 0 for every block size.
  bool LRead = false, RRead = false;
  if (!evalBlock(BO->getLHS(), Fr, En, NumWarps, R, LRead, Depth + 1) ||
      !evalBlock(BO->getRHS(), Fr, En, NumWarps, Y, RRead, Depth + 1) ||
      !toInt(R, NumWarps) || !toInt(Y, NumWarps)) {
    ReadsBlockDim |= LRead || RRead;
    return false;
  }
  auto Zero = [](const WarpVal &V) {
    return V.C == 0 && llvm::all_of(V.A, [](int64_t X) { return X == 0; });
  };
  if (Op == BO_Mul && ((!LRead && Zero(R)) || (!RRead && Zero(Y))))
    LRead = RRead = false;
  ReadsBlockDim |= LRead || RRead;
  WarpVal &X = R;
  const bool Unsigned = BO->getLHS()->getType()->isUnsignedIntegerType();
  if (!BO->isComparisonOp())
    return arithmetic(Op, Unsigned, BO->getType(), NumWarps, X, Y);
  // X - Y = P + Q W, compared with 0 (no wrap: both fit their type, the
  // same one after the usual conversions).
  const int64_t Q = X.C - Y.C;
  for (unsigned L = 0; L < 32; ++L) {
    const int64_t P = X.A[L] - Y.A[L];
    uint32_t Warps = 0;
    switch (Op) {
    case BO_LT:
      Warps = warpsBelowZero(P, Q, NumWarps);
      break;
    case BO_GE:
      Warps = All & ~warpsBelowZero(P, Q, NumWarps);
      break;
    case BO_LE:
      Warps = warpsBelowZero(P - 1, Q, NumWarps);
      break;
    case BO_GT:
      Warps = All & ~warpsBelowZero(P - 1, Q, NumWarps);
      break;
    case BO_EQ:
      Warps = warpsAtZero(P, Q, NumWarps);
      break;
    default:
      Warps = All & ~warpsAtZero(P, Q, NumWarps);
      break;
    }
    X.M[L] = Warps;
  }
  X.Bool = true;
  return true;
}

/// X op Y lane by lane, as evalW computes it, for operands the same in
/// every warp; false where the operation is not defined in a lane.
static bool laneByLane(BinaryOperatorKind Op, bool Unsigned, WarpVal &X,
                       const WarpVal &Y) {
  for (unsigned L = 0; L < 32; ++L) {
    int64_t A = X.A[L], B = Y.A[L];
    switch (Op) {
    case BO_Add: X.A[L] = int64_t(uint64_t(A) + uint64_t(B)); break;
    case BO_Sub: X.A[L] = int64_t(uint64_t(A) - uint64_t(B)); break;
    case BO_Mul: X.A[L] = int64_t(uint64_t(A) * uint64_t(B)); break;
    case BO_And: X.A[L] = A & B; break;
    case BO_Or: X.A[L] = A | B; break;
    case BO_Xor: X.A[L] = A ^ B; break;
    case BO_Div:
    case BO_Rem:
      if (B == 0 || (A == INT64_MIN && B == -1))
        return false;
      if (Unsigned)
        X.A[L] = Op == BO_Div ? int64_t(uint64_t(A) / uint64_t(B))
                              : int64_t(uint64_t(A) % uint64_t(B));
      else
        X.A[L] = Op == BO_Div ? A / B : A % B;
      break;
    default: // shifts
      if (B < 0 || B >= 64)
        return false;
      X.A[L] = Op == BO_Shl ? int64_t(uint64_t(A) << B)
               : Unsigned   ? int64_t(uint64_t(A) >> B)
                            : A >> B;
      break;
    }
  }
  return true;
}

/// X & K, X | K, X ^ K with K the same in every warp (a value in each
/// lane): exact where K leaves the bits that C * W moves alone, or sets
/// or clears all of them; Low is the bits below C's lowest set bit.
static bool bitwise(BinaryOperatorKind Op, uint64_t Low, WarpVal &X,
                    const WarpVal &Y) {
  const int64_t C = X.C;
  int64_t NewC = 0;
  for (unsigned L = 0; L < 32; ++L) {
    const uint64_t K = uint64_t(Y.A[L]);
    const bool KLow = (K & ~Low) == 0;          // K within the low bits
    const bool KHigh = (K | Low) == ~uint64_t(0); // every high bit set
    int64_t LaneC;
    if (Op == BO_And && KLow)
      LaneC = 0;
    else if (Op == BO_And && KHigh)
      LaneC = C;
    else if (Op == BO_Or && KLow)
      LaneC = C;
    else if (Op == BO_Or && KHigh)
      LaneC = 0;
    else if (Op == BO_Xor && KLow)
      LaneC = C;
    else
      return false;
    if (L == 0)
      NewC = LaneC;
    else if (LaneC != NewC)
      return false;
    X.A[L] = Op == BO_And ? int64_t(uint64_t(X.A[L]) & K)
             : Op == BO_Or ? int64_t(uint64_t(X.A[L]) | K)
                           : int64_t(uint64_t(X.A[L]) ^ K);
  }
  X.C = NewC;
  return true;
}

bool BlockEvaluator::arithmetic(BinaryOperatorKind Op, bool Unsigned,
                                QualType T, unsigned NumWarps, WarpVal &X,
                                WarpVal &Y) {
  const int64_t Last = int64_t(NumWarps) - 1;
  // Both the same in every warp: lane by lane, as evalW.
  if (X.C == 0 && Y.C == 0) {
    if (!laneByLane(Op, Unsigned, X, Y))
      return false;
    // evalW normalises the result to T; so does this, when every lane's
    // value is the same in all warps.
    for (int64_t &A : X.A)
      A = Values.normalize(A, T);
    return true;
  }
  if (Op == BO_Add || Op == BO_Sub) {
    for (unsigned L = 0; L < 32; ++L)
      X.A[L] = Op == BO_Add ? X.A[L] + Y.A[L] : X.A[L] - Y.A[L];
    X.C = Op == BO_Add ? X.C + Y.C : X.C - Y.C;
    return fits(X, T, NumWarps);
  }
  // The rest need one side the same in every warp: K (in each lane).
  if (Y.C != 0) {
    if (Op == BO_Mul || Op == BO_And || Op == BO_Or || Op == BO_Xor)
      std::swap(X, Y);
    else
      return false;
  }
  if (Y.C != 0)
    return false;
  const int64_t C = X.C;
  const bool UniformK =
      llvm::all_of(Y.A, [&](int64_t K) { return K == Y.A[0]; });
  const int64_t K0 = Y.A[0];
  // The low bits of A + C W are A's: C W is a multiple of 2^Tz.
  const unsigned Tz = unsigned(llvm::countr_zero(uint64_t(C)));
  const uint64_t Low = Tz >= 63 ? ~uint64_t(0) >> 1 : (uint64_t(1) << Tz) - 1;
  // Values of one sign in every warp (division and remainder truncate).
  auto OneSign = [&](int Sign) {
    for (int64_t A : X.A) {
      int64_t End = A + C * Last;
      if (Sign > 0 ? (A < 0 || End < 0) : (A > 0 || End > 0))
        return false;
    }
    return true;
  };
  auto Large = [](int64_t A) {
    return A > (int64_t(1) << 40) || A < -(int64_t(1) << 40);
  };
  switch (Op) {
  case BO_Mul:
    if (!UniformK || K0 > (int64_t(1) << 20) || K0 < -(int64_t(1) << 20) ||
        llvm::any_of(X.A, Large))
      return false;
    for (int64_t &A : X.A)
      A *= K0;
    X.C = C * K0;
    return fits(X, T, NumWarps);
  case BO_Shl:
    if (!UniformK || K0 < 0 || K0 > 20 || llvm::any_of(X.A, Large))
      return false;
    for (int64_t &A : X.A)
      A *= int64_t(1) << K0;
    X.C = C * (int64_t(1) << K0);
    return fits(X, T, NumWarps);
  case BO_Shr: {
    if (!UniformK || K0 < 0 || K0 > 40)
      return false;
    const int64_t D = int64_t(1) << K0;
    // A shift floors (an unsigned value is never negative), and
    // floor((A + C W) / D) = floor(A / D) + C / D W when D divides C.
    if (C % D != 0)
      return false;
    for (int64_t &A : X.A)
      A = A >= 0 ? A / D : -((-A + D - 1) / D);
    X.C = C / D;
    return fits(X, T, NumWarps);
  }
  case BO_Div:
  case BO_Rem: {
    const int64_t D = K0;
    if (!UniformK || D <= 0 || C % D != 0)
      return false;
    // Truncation is floor for values never negative, and the mirror of it
    // for values never positive.
    int Sign = OneSign(+1) ? +1 : OneSign(-1) ? -1 : 0;
    if (!Sign)
      return false;
    for (int64_t &A : X.A)
      A = Op == BO_Div ? A / D : A % D;
    X.C = Op == BO_Div ? C / D : 0;
    return fits(X, T, NumWarps);
  }
  default: // &, |, ^ with K in each lane
    return bitwise(Op, Low, X, Y) && fits(X, T, NumWarps);
  }
}

const BlockGuard *
BlockEvaluator::blockGuard(llvm::ArrayRef<Cond> Guard,
                                     const Frame &Fr, const Env &En) {
  if (En.ShapeKnown || En.BlockDim % 32 != 0 || En.BlockDim > 1024 ||
      En.BlockDim <= 0)
    return nullptr;
  const unsigned NumWarps = unsigned(En.BlockDim / 32);
  std::string Key;
  Key.reserve(96);
  for (const Frame *Up = &Fr; Up; Up = Up->Parent) {
    appendKey(Key, Up->F);
    appendKey(Key, Up->Call);
  }
  appendKey(Key, En.BlockDim);
  appendValuation(Key, En.Loop);
  appendValuation(Key, En.Trips);
  for (const Cond &C : Guard)
    if (C.Varying) {
      appendKey(Key, C.E);
      appendKey(Key, C.Taken);
    }
  auto [It, New] = BlockGuards.try_emplace(std::move(Key));
  BlockGuard &G = It->second;
  if (New) {
    uint32_t Pass[32];
    std::fill(std::begin(Pass), std::end(Pass), allWarps(NumWarps));
    G.Ok = true;
    for (const Cond &C : Guard) {
      if (!C.Varying)
        continue;
      WarpVal V;
      if (!evalBlock(C.E, Fr, En, NumWarps, V, G.ReadBlockDim)) {
        G.Ok = false;
        break;
      }
      if (!V.Bool)
        for (unsigned L = 0; L < 32; ++L)
          V.M[L] = allWarps(NumWarps) & ~warpsAtZero(V.A[L], V.C, NumWarps);
      for (unsigned L = 0; L < 32; ++L)
        Pass[L] &= C.Taken ? V.M[L] : allWarps(NumWarps) & ~V.M[L];
    }
    if (G.Ok)
      for (unsigned W = 0; W < NumWarps; ++W)
        for (unsigned L = 0; L < 32; ++L)
          G.Lanes[W] |= ((Pass[L] >> W) & 1) << L;
  }
  if (!G.Ok)
    return nullptr;
  if (G.ReadBlockDim)
    noteBlockDim(En);
  return &G;
}

bool BlockEvaluator::blockAddress(const Expr *E, const Frame &Fr, const Env &En,
                                  unsigned NumWarps, BlockAddress &Out) {
  if (!E || En.ShapeKnown || E->isTypeDependent() || E->isValueDependent())
    return false;
  const auto *ASE = dyn_cast<ArraySubscriptExpr>(E->IgnoreParens());
  if (!ASE || ASE->getType()->isIncompleteType())
    return false;
  // A shared array's address is the same in every thread of the block
  // (isVarying asks about a value: a shared variable's may differ).
  const VarDecl *Array = refVar(ASE->getBase()->IgnoreParenImpCasts());
  if (!(Array && Array->getType()->isArrayType() &&
        Array->hasAttr<CUDASharedAttr>()) &&
      Variance.isVarying(ASE->getBase(), Fr))
    return false;
  // The base, the same in every thread: one warp's is all of them.
  Addrs Base = Addresses.evalPtrW(ASE->getBase(), Fr, En, FullLaneMask);
  if (Base.Valid != FullLaneMask ||
      llvm::any_of(Base.Byte, [&](int64_t B) { return B != Base.Byte[0]; }))
    return false;
  bool ReadsBlockDim = false;
  if (!evalBlock(ASE->getIdx(), Fr, En, NumWarps, Out.Index, ReadsBlockDim) ||
      Out.Index.Bool)
    return false;
  if (ReadsBlockDim)
    noteBlockDim(En);
  Out.Key = Base.Key;
  Out.Var = Base.Var;
  Out.Byte = Base.Byte[0];
  Out.Size = Ctx.getTypeSizeInChars(ASE->getType()).getQuantity();
  return true;
}

bool BlockEvaluator::blockLanes(
    const CallChain &Chain,
    llvm::ArrayRef<std::pair<llvm::ArrayRef<Cond>, const Frame *>> Rest,
    const Env &En, unsigned Threads, llvm::SmallVectorImpl<uint32_t> &Lanes) {
  if (Threads % 32 != 0 || Threads != En.BlockDim)
    return false;
  Lanes.assign(Threads / 32, FullLaneMask);
  auto Apply = [&](llvm::ArrayRef<Cond> G, const Frame &F) {
    // A condition no thread passes (GuardModel::uniformSkip).
    Env E0 = En;
    E0.Tid = 0;
    if (llvm::any_of(
            G, [&](const Cond &C) { return Guards.uniformSkip(C, F, E0); })) {
      std::fill(Lanes.begin(), Lanes.end(), 0u);
      return true;
    }
    if (llvm::none_of(G, [](const Cond &C) { return C.Varying; }))
      return true;
    const BlockGuard *B = blockGuard(G, F, En);
    if (!B)
      return false;
    for (unsigned W = 0; W < Lanes.size(); ++W)
      Lanes[W] &= B->Lanes[W];
    return true;
  };
  for (const CallLevel &L : Chain)
    if (!Apply(L.Guard, *L.Fr))
      return false;
  for (const auto &[G, F] : Rest)
    if (!Apply(G, *F))
      return false;
  return true;
}

} // namespace cuda_tidy::lanes
