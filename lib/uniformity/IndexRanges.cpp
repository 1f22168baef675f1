//===--- IndexRanges.cpp - Comparisons the launches' bounds decide --------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Decides a thread-varying comparison `a < b` of a kernel from the ranges
/// of its two sides, where the kernel's launches in the translation unit
/// bound what it is built from: `threadIdx` below the blocks' extents,
/// `blockIdx` below a grid that every launch gives as a constant (`k<<<3,
/// 256>>>`: `blockIdx.x * 256 + threadIdx.x < 1000` holds in every thread),
/// `blockDim` and `gridDim` where every launch has the same, constants, and
/// locals:
///  - a local written only by its initialiser: the range of that;
///  - the variable of a counted loop (`for (j = c; j < b; j += s)`, s > 0
///    constant, c and b bounded), written nowhere but in the loop's header
///    (and its own initialiser): inside the loop's body it lies in
///    [min c, max b - 1]; elsewhere (after the loop, which leaves it at its
///    first value not below b) in [min c, max(max c, max b + s - 1)],
///    joined with its initialiser's range.
/// `+`, `-`, `*` and `<<` by a constant, `/` and `%` by a positive constant
/// combine ranges; anything else (a load, a call, a local whose address or
/// reference is taken, a value of unsigned type that could wrap below zero)
/// leaves the comparison undecided.
///
//===----------------------------------------------------------------------===//

#include "lib/ast/CudaAST.h"
#include "lib/uniformity/UniformityImpl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/LambdaCapture.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_tidy {

namespace {
/// [Min, Max], both within +-2^40.
struct Range {
  int64_t Min = 0, Max = 0;
};
constexpr int64_t RangeLimit = int64_t(1) << 40;

/// How a local is written: by its initialiser only, or as a counted loop's
/// variable, or in some other way (Other).
struct LocalWrites {
  bool Other = false;
  /// The loop whose header writes it (init `V = c` or a declaration, and
  /// the increment), when it is one.
  const ForStmt *Loop = nullptr;
  unsigned HeaderWrites = 0;
};
} // namespace

/// The ranges of one kernel's locals, built on first use.
struct IndexRangeCache {
  llvm::DenseMap<const VarDecl *, LocalWrites> Writes;
  llvm::DenseMap<const BinaryOperator *, std::optional<bool>> Decided;
  bool Scanned = false;
};

namespace {
class RangeEval {
public:
  RangeEval(const FunctionUniformityImpl &Fn, IndexRangeCache &Cache)
      : Fn(Fn), Cache(Cache) {}

  std::optional<Range> of(const Expr *E, unsigned Depth = 0);

private:
  std::optional<Range> ofBuiltin(const BuiltinVarRef &Ref);
  std::optional<Range> ofLocal(const VarDecl *V, const DeclRefExpr *Use,
                               unsigned Depth);
  std::optional<Range> ofBinary(const BinaryOperator *BO, unsigned Depth);
  /// Records how each local of the kernel is written.
  void scan();
  void scanStmt(const Stmt *S, const Stmt *Parent, const ForStmt *Header);
  /// Marks every local S names (a lambda's captures) as written otherwise.
  void markNamed(const Stmt *S);
  bool within(SourceLocation Loc, const Stmt *S) const;

  const FunctionUniformityImpl &Fn;
  IndexRangeCache &Cache;
};
} // namespace

static std::optional<Range> checked(int64_t Min, int64_t Max) {
  if (Min > Max || Min < -RangeLimit || Max > RangeLimit)
    return std::nullopt;
  return Range{Min, Max};
}

std::optional<Range> RangeEval::ofBuiltin(const BuiltinVarRef &Ref) {
  if (Ref.Dim >= 3)
    return std::nullopt;
  const LaunchFacts &L = Fn.Launch;
  switch (Ref.Var) {
  case BuiltinVar::ThreadIdx:
    if (L.MaxThreads[Ref.Dim])
      return Range{0, int64_t(L.MaxThreads[Ref.Dim]) - 1};
    return std::nullopt;
  case BuiltinVar::BlockIdx:
    if (L.MaxBlocks[Ref.Dim])
      return Range{0, int64_t(L.MaxBlocks[Ref.Dim]) - 1};
    return std::nullopt;
  case BuiltinVar::BlockDim:
    if (L.BlockDim[Ref.Dim])
      return Range{int64_t(L.BlockDim[Ref.Dim]), int64_t(L.BlockDim[Ref.Dim])};
    return std::nullopt;
  case BuiltinVar::GridDim:
    if (L.GridDim[Ref.Dim])
      return Range{int64_t(L.GridDim[Ref.Dim]), int64_t(L.GridDim[Ref.Dim])};
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

bool RangeEval::within(SourceLocation Loc, const Stmt *S) const {
  const SourceManager &SM = Fn.SM;
  Loc = SM.getFileLoc(Loc);
  SourceLocation B = SM.getFileLoc(S->getBeginLoc()),
                 E = SM.getFileLoc(S->getEndLoc());
  return Loc.isValid() && B.isValid() && E.isValid() &&
         !SM.isBeforeInTranslationUnit(Loc, B) &&
         !SM.isBeforeInTranslationUnit(E, Loc);
}

void RangeEval::scanStmt(const Stmt *S, const Stmt *Parent,
                         const ForStmt *Header) {
  if (!S)
    return;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V || !V->hasLocalStorage())
      return;
    LocalWrites &W = Cache.Writes[V];
    const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Parent);
    if (Cast && Cast->getCastKind() == CK_LValueToRValue)
      return;
    const auto *BO = dyn_cast_or_null<BinaryOperator>(Parent);
    const auto *UO = dyn_cast_or_null<UnaryOperator>(Parent);
    bool Write = (BO && BO->isAssignmentOp() && BO->getLHS() == DRE) ||
                 (UO && UO->isIncrementDecrementOp());
    if (!Write || !Header || (W.Loop && W.Loop != Header)) {
      W.Other = true;
      return;
    }
    W.Loop = Header;
    ++W.HeaderWrites;
    return;
  }
  // A local a lambda names may be written through its capture.
  if (isa<LambdaExpr>(S)) {
    markNamed(S);
    return;
  }
  // The header of a for loop: its init (a plain assignment) and increment
  // are where a counted loop's variable may be written; the variable is
  // the operand of that assignment or increment.
  if (const auto *For = dyn_cast<ForStmt>(S)) {
    for (const Stmt *Child : S->children())
      scanStmt(Child, S,
               Child && (Child == For->getInit() || Child == For->getInc())
                   ? For
                   : nullptr);
    return;
  }
  const Stmt *Operand = nullptr;
  if (Header) {
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp())
      Operand = BO->getLHS();
    else if (const auto *UO = dyn_cast<UnaryOperator>(S);
             UO && UO->isIncrementDecrementOp())
      Operand = UO->getSubExpr();
  }
  for (const Stmt *Child : S->children())
    scanStmt(Child, S,
             isa<ExprWithCleanups, ParenExpr>(S) || Child == Operand ? Header
                                                                      : nullptr);
}

void RangeEval::markNamed(const Stmt *S) {
  if (!S)
    return;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      Cache.Writes[V].Other = true;
  if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
    for (const LambdaCapture &C : Lambda->captures())
      if (C.capturesVariable())
        if (const auto *V = dyn_cast<VarDecl>(C.getCapturedVar()))
          Cache.Writes[V].Other = true;
    markNamed(Lambda->getBody());
    return;
  }
  for (const Stmt *Child : S->children())
    markNamed(Child);
}

void RangeEval::scan() {
  Cache.Scanned = true;
  // A for header's `j = 0` or `j += 4` is the direct child (or the operand
  // of a direct child) of the loop: deeper writes are Other.
  if (const Stmt *Body = Fn.F->getBody())
    scanStmt(Body, nullptr, nullptr);
}

/// The loop's bound on V: `V < b` or `V <= b` (then b + 1), b's range.
static const Expr *loopBound(const ForStmt *For, const VarDecl *V,
                             bool &Inclusive) {
  const auto *Cond =
      For->getCond()
          ? dyn_cast<BinaryOperator>(For->getCond()->IgnoreParenImpCasts())
          : nullptr;
  if (!Cond || (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_LE))
    return nullptr;
  const auto *L = dyn_cast<DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts());
  if (!L || L->getDecl() != V)
    return nullptr;
  Inclusive = Cond->getOpcode() == BO_LE;
  return Cond->getRHS();
}

/// The loop's step on V: `V++`, `++V`, `V += s`.
static const Expr *loopStep(const ForStmt *For, const VarDecl *V,
                            bool &One) {
  const Expr *Inc = For->getInc() ? For->getInc()->IgnoreParenImpCasts()
                                  : nullptr;
  One = false;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc)) {
    const auto *R = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens());
    One = UO->isIncrementOp() && R && R->getDecl() == V;
    return nullptr;
  }
  const auto *BO = dyn_cast_or_null<BinaryOperator>(Inc);
  const auto *R =
      BO ? dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens()) : nullptr;
  if (!BO || BO->getOpcode() != BO_AddAssign || !R || R->getDecl() != V)
    return nullptr;
  return BO->getRHS();
}

/// The loop's start for V: its declaration in the init, or `V = c` there.
static const Expr *loopStart(const ForStmt *For, const VarDecl *V) {
  const Stmt *Init = For->getInit();
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(Init))
    return DS->isSingleDecl() && DS->getSingleDecl() == V ? V->getInit()
                                                          : nullptr;
  const auto *BO =
      Init ? dyn_cast<BinaryOperator>(cast<Expr>(Init)->IgnoreParens())
           : nullptr;
  const auto *R =
      BO ? dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens()) : nullptr;
  if (!BO || BO->getOpcode() != BO_Assign || !R || R->getDecl() != V)
    return nullptr;
  return BO->getRHS();
}

std::optional<Range> RangeEval::ofLocal(const VarDecl *V,
                                        const DeclRefExpr *Use,
                                        unsigned Depth) {
  if (!V->getType()->isIntegralOrEnumerationType() || V->isStaticLocal())
    return std::nullopt;
  if (!Cache.Scanned)
    scan();
  auto It = Cache.Writes.find(V);
  LocalWrites W = It == Cache.Writes.end() ? LocalWrites() : It->second;
  if (W.Other)
    return std::nullopt;
  std::optional<Range> Init;
  if (V->getInit() && !(W.Loop && loopStart(W.Loop, V) == V->getInit())) {
    Init = of(V->getInit(), Depth + 1);
    if (!Init)
      return std::nullopt;
  }
  if (!W.Loop)
    return Init;
  // A counted loop's variable: written by its start and its step alone.
  const ForStmt *For = W.Loop;
  bool Inclusive = false, One = false;
  const Expr *Start = loopStart(For, V);
  const Expr *Bound = loopBound(For, V, Inclusive);
  const Expr *StepE = loopStep(For, V, One);
  if (!Start || !Bound || (!StepE && !One) ||
      W.HeaderWrites != (isa<DeclStmt>(For->getInit()) ? 1u : 2u))
    return std::nullopt;
  std::optional<Range> S = of(Start, Depth + 1), B = of(Bound, Depth + 1);
  std::optional<Range> Step = One ? Range{1, 1} : of(StepE, Depth + 1);
  if (!S || !B || !Step || Step->Min <= 0)
    return std::nullopt;
  int64_t Last = B->Max - (Inclusive ? 0 : 1);
  if (For->getBody() && within(Use->getBeginLoc(), For->getBody()))
    return checked(S->Min, std::max(S->Min, Last));
  std::optional<Range> Out =
      checked(S->Min, std::max(S->Max, Last + Step->Max));
  if (Out && Init)
    Out = checked(std::min(Out->Min, Init->Min), std::max(Out->Max, Init->Max));
  return Out;
}

std::optional<Range> RangeEval::ofBinary(const BinaryOperator *BO,
                                         unsigned Depth) {
  std::optional<Range> L = of(BO->getLHS(), Depth + 1);
  if (!L)
    return std::nullopt;
  std::optional<Range> R = of(BO->getRHS(), Depth + 1);
  if (!R)
    return std::nullopt;
  switch (BO->getOpcode()) {
  case BO_Add:
    return checked(L->Min + R->Min, L->Max + R->Max);
  case BO_Sub:
    return checked(L->Min - R->Max, L->Max - R->Min);
  case BO_Mul: {
    // By a constant (either side).
    if (L->Min == L->Max)
      std::swap(L, R);
    if (R->Min != R->Max || R->Min < -(1 << 20) || R->Min > (1 << 20))
      return std::nullopt;
    int64_t K = R->Min;
    return K >= 0 ? checked(L->Min * K, L->Max * K)
                  : checked(L->Max * K, L->Min * K);
  }
  case BO_Shl:
    if (R->Min != R->Max || R->Min < 0 || R->Min > 20)
      return std::nullopt;
    return checked(L->Min << R->Min, L->Max << R->Min);
  case BO_Div:
    if (R->Min != R->Max || R->Min <= 0 || L->Min < 0)
      return std::nullopt;
    return Range{L->Min / R->Min, L->Max / R->Min};
  case BO_Shr:
    if (R->Min != R->Max || R->Min < 0 || R->Min > 40 || L->Min < 0)
      return std::nullopt;
    return Range{L->Min >> R->Min, L->Max >> R->Min};
  case BO_Rem:
    if (R->Min != R->Max || R->Min <= 0 || L->Min < 0)
      return std::nullopt;
    if (L->Max < R->Min)
      return L;
    return Range{0, R->Min - 1};
  default:
    return std::nullopt;
  }
}

std::optional<Range> RangeEval::of(const Expr *E, unsigned Depth) {
  if (!E || Depth > 16)
    return std::nullopt;
  E = E->IgnoreParens();
  if (!E->getType()->isIntegralOrEnumerationType() || E->isValueDependent())
    return std::nullopt;
  std::optional<Range> R;
  if (std::optional<llvm::APSInt> C = ConstEval{Fn.Ctx, &Fn.Pins}(E)) {
    if (C->getSignificantBits() > 40)
      return std::nullopt;
    R = Range{C->getExtValue(), C->getExtValue()};
  } else if (std::optional<BuiltinVarRef> Ref = getBuiltinVarRef(E)) {
    R = ofBuiltin(*Ref);
  } else if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
    R = of(Cast->getSubExpr(), Depth + 1);
  } else if (const auto *Cast = dyn_cast<CStyleCastExpr>(E)) {
    R = of(Cast->getSubExpr(), Depth + 1);
  } else if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
        V && V->hasLocalStorage() && !isa<ParmVarDecl>(V))
      R = ofLocal(V, DRE, Depth);
  } else if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    R = ofBinary(BO, Depth);
  }
  if (!R)
    return std::nullopt;
  // A value of a type that cannot hold it (an unsigned value below zero
  // wraps; a narrower type cuts it): no range.
  const ASTContext &Ctx = Fn.Ctx;
  QualType T = E->getType();
  unsigned Bits = Ctx.getIntWidth(T);
  bool Unsigned = T->isUnsignedIntegerOrEnumerationType();
  if (Unsigned && R->Min < 0)
    return std::nullopt;
  if (Bits < 64) {
    int64_t Top = Unsigned ? (int64_t(1) << std::min(Bits, 62u)) - 1
                           : (int64_t(1) << std::min(Bits - 1, 62u)) - 1;
    int64_t Bottom = Unsigned ? 0 : -Top - 1;
    if (R->Max > Top || R->Min < Bottom)
      return std::nullopt;
  }
  return R;
}

std::optional<bool> decideByRanges(const BinaryOperator *Cmp,
                                   const FunctionUniformityImpl &Fn) {
  if (!Fn.Kernel || !Cmp->isRelationalOp())
    return std::nullopt;
  // The cheap test first: something in the kernel is bounded by launches.
  const LaunchFacts &L = Fn.Launch;
  if (!L.MaxThreads[0] && !L.MaxThreads[1] && !L.MaxThreads[2] &&
      !L.MaxBlocks[0])
    return std::nullopt;
  if (!Fn.Ranges)
    Fn.Ranges = std::make_shared<IndexRangeCache>();
  auto [It, New] = Fn.Ranges->Decided.try_emplace(Cmp);
  if (!New)
    return It->second;
  RangeEval Eval(Fn, *Fn.Ranges);
  std::optional<Range> A = Eval.of(Cmp->getLHS());
  std::optional<Range> B = A ? Eval.of(Cmp->getRHS()) : std::nullopt;
  std::optional<bool> Known;
  if (A && B) {
    switch (Cmp->getOpcode()) {
    case BO_LT:
      Known = A->Max < B->Min ? std::optional<bool>(true)
              : A->Min >= B->Max ? std::optional<bool>(false)
                                 : std::nullopt;
      break;
    case BO_LE:
      Known = A->Max <= B->Min ? std::optional<bool>(true)
              : A->Min > B->Max ? std::optional<bool>(false)
                                : std::nullopt;
      break;
    case BO_GT:
      Known = A->Min > B->Max ? std::optional<bool>(true)
              : A->Max <= B->Min ? std::optional<bool>(false)
                                 : std::nullopt;
      break;
    case BO_GE:
      Known = A->Min >= B->Max ? std::optional<bool>(true)
              : A->Max < B->Min ? std::optional<bool>(false)
                                : std::nullopt;
      break;
    default:
      break;
    }
  }
  Fn.Ranges->Decided[Cmp] = Known;
  return Known;
}

} // namespace cuda_tidy
