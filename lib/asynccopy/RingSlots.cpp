//===--- RingSlots.cpp - Ring indices and the slots they name -------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/asynccopy/RingSlots.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/FoldingSet.h"
#include <algorithm>
#include <cstdlib>

using namespace clang;

namespace cuda_tidy {
namespace asynccopy {

/// Steps beyond which a slot of a variable with no ring range is not
/// compared (the facts stay finite).
constexpr int64_t MaxSteps = 8;

namespace {

class WriteCollector : public DynamicRecursiveASTVisitor {
public:
  WriteCollector(VarWrites &Out, ASTContext &Ctx) : Out(Out), Ctx(Ctx) {}
  bool TraverseCompoundStmt(CompoundStmt *S) override {
    Scopes.push_back(S);
    bool R = DynamicRecursiveASTVisitor::TraverseCompoundStmt(S);
    Scopes.pop_back();
    return R;
  }
  bool TraverseForStmt(ForStmt *S) override {
    Scopes.push_back(S);
    bool R = DynamicRecursiveASTVisitor::TraverseForStmt(S);
    Scopes.pop_back();
    return R;
  }
  bool VisitForStmt(ForStmt *S) override {
    // The increment's parts (`++i, ++stage`).
    llvm::SmallVector<const Expr *, 4> Work;
    if (S->getInc())
      Work.push_back(S->getInc()->IgnoreParens());
    while (!Work.empty()) {
      const Expr *E = Work.pop_back_val();
      if (const auto *BO = dyn_cast<BinaryOperator>(E);
          BO && BO->getOpcode() == BO_Comma) {
        Work.push_back(BO->getLHS()->IgnoreParens());
        Work.push_back(BO->getRHS()->IgnoreParens());
        continue;
      }
      LoopIncs[E] = S;
    }
    return true;
  }
  bool TraverseIfStmt(IfStmt *S) override {
    Ifs.push_back(S);
    bool R = DynamicRecursiveASTVisitor::TraverseIfStmt(S);
    Ifs.pop_back();
    return R;
  }
  bool VisitVarDecl(VarDecl *V) override {
    if (V->hasLocalStorage() && !Scopes.empty())
      Out.Scope[V] = SourceRange(V->getBeginLoc(), Scopes.back()->getEndLoc());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) override {
    if (U->isIncrementDecrementOp())
      note(U->getSubExpr(), U, stepOf(U));
    else if (U->getOpcode() == UO_AddrOf)
      note(U->getSubExpr(), U, std::nullopt);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) override {
    if (B->isAssignmentOp())
      note(B->getLHS(), B, stepOf(B));
    return true;
  }
  /// Which variables stay in [0, M): every write a step modulo M, a wrap
  /// at M, or an XOR with M / 2, and a constant initialiser in [0, M).
  void settle();

private:
  std::optional<Step> stepOf(const UnaryOperator *U) const;
  std::optional<Step> stepOf(const BinaryOperator *B) const;
  std::optional<Step> stepOfValue(const VarDecl *V, const Expr *RHS) const;
  std::optional<int64_t> wrapBound(const VarDecl *V,
                                   const BinaryOperator *B) const;
  void note(const Expr *E, const Stmt *Writer, std::optional<Step> S) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!V)
      return;
    ++Out.WriteCount[V];
    if (!S || !V->getType()->isIntegerType()) {
      Out.Unstable.insert(V);
      return;
    }
    S->Var = V;
    Out.Steps[Writer] = *S;
    Out.Moved.insert(V);
    auto Loop = LoopIncs.find(dyn_cast<Expr>(Writer));
    const bool CounterStep = Loop != LoopIncs.end() && S->By == 1 &&
                             S->Mod == 0 && !S->Wrap;
    auto [It, New] = CounterLoop.try_emplace(
        V, CounterStep ? Loop->second : nullptr);
    if (!CounterStep || !New)
      It->second = nullptr;
  }
  /// The `for` loop each variable's steps are the increment of, null when
  /// it is stepped otherwise or by more than one loop.
  llvm::DenseMap<const VarDecl *, const ForStmt *> CounterLoop;
  llvm::DenseMap<const Expr *, const ForStmt *> LoopIncs;
  VarWrites &Out;
  ASTContext &Ctx;
  llvm::SmallVector<const Stmt *, 8> Scopes;
  llvm::SmallVector<const IfStmt *, 4> Ifs;
};

} // namespace

static const VarDecl *refVar(const Expr *E) {
  const auto *DRE = E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts())
                      : nullptr;
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

std::optional<Step> WriteCollector::stepOf(const UnaryOperator *U) const {
  Step S;
  S.By = U->isIncrementOp() ? 1 : -1;
  return S;
}

/// `x + K`, `K + x`, `x - K` as the step K.
static std::optional<int64_t> plusConstant(const VarDecl *V, const Expr *E,
                                           ASTContext &Ctx) {
  const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!BO || !BO->isAdditiveOp())
    return std::nullopt;
  if (refVar(BO->getLHS()) == V)
    if (auto K = constantValue(BO->getRHS(), Ctx))
      return BO->getOpcode() == BO_Add ? *K : -*K;
  if (BO->getOpcode() == BO_Add && refVar(BO->getRHS()) == V)
    return constantValue(BO->getLHS(), Ctx);
  return std::nullopt;
}

std::optional<Step> WriteCollector::stepOfValue(const VarDecl *V,
                                                const Expr *RHS) const {
  RHS = RHS->IgnoreParenImpCasts();
  Step S;
  if (auto K = plusConstant(V, RHS, Ctx)) {
    S.By = *K;
    return S;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(RHS)) {
    auto M = constantValue(BO->getRHS(), Ctx);
    if (M && *M > 0 &&
        (BO->getOpcode() == BO_Rem ||
         (BO->getOpcode() == BO_And && ((*M + 1) & *M) == 0)))
      if (auto K = plusConstant(V, BO->getLHS(), Ctx)) {
        S.By = *K;
        S.Mod = BO->getOpcode() == BO_Rem ? *M : *M + 1;
        return S;
      }
    if (BO->getOpcode() == BO_Xor && refVar(BO->getLHS()) == V && M &&
        *M > 0 && (*M & (*M - 1)) == 0) {
      S.By = *M;
      S.Mod = 2 * *M;
      S.Xor = true;
      return S;
    }
  }
  // `x = c ? 0 : x + K` (or the arms swapped): a step of K that wraps at a
  // bound found in the condition `x + K == S`, `x == S - K`, `x + K >= S`
  // or `x + K < S`.
  if (const auto *CO = dyn_cast<ConditionalOperator>(RHS)) {
    const Expr *Zero = CO->getTrueExpr(), *Next = CO->getFalseExpr();
    auto ZeroValue = constantValue(Zero, Ctx);
    if (!ZeroValue || *ZeroValue != 0) {
      std::swap(Zero, Next);
      ZeroValue = constantValue(Zero, Ctx);
    }
    auto K = plusConstant(V, Next, Ctx);
    const auto *Cond =
        dyn_cast<BinaryOperator>(CO->getCond()->IgnoreParenImpCasts());
    if (!ZeroValue || *ZeroValue != 0 || !K || !Cond ||
        !Cond->isComparisonOp())
      return std::nullopt;
    auto Bound = constantValue(Cond->getRHS(), Ctx);
    if (!Bound)
      return std::nullopt;
    int64_t M = 0;
    if (refVar(Cond->getLHS()) == V)
      M = *Bound + *K;
    else if (plusConstant(V, Cond->getLHS(), Ctx) == K)
      M = *Bound;
    if (M <= 0)
      return std::nullopt;
    S.By = *K;
    S.Mod = M;
    return S;
  }
  return std::nullopt;
}

/// `x = 0` as the whole then-branch of `if (x == S)` or `if (x >= S)`: S.
std::optional<int64_t>
WriteCollector::wrapBound(const VarDecl *V, const BinaryOperator *B) const {
  if (Ifs.empty())
    return std::nullopt;
  const IfStmt *If = Ifs.back();
  const Stmt *Then = If->getThen();
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(Then);
      CS && CS->size() == 1)
    Then = CS->body_front();
  if (Then != B || If->getElse())
    return std::nullopt;
  const auto *Cond =
      dyn_cast<BinaryOperator>(If->getCond()->IgnoreParenImpCasts());
  if (!Cond || (Cond->getOpcode() != BO_EQ && Cond->getOpcode() != BO_GE) ||
      refVar(Cond->getLHS()) != V)
    return std::nullopt;
  auto Bound = constantValue(Cond->getRHS(), Ctx);
  if (!Bound || *Bound <= 0)
    return std::nullopt;
  return *Bound;
}

std::optional<Step> WriteCollector::stepOf(const BinaryOperator *B) const {
  const VarDecl *V = refVar(B->getLHS());
  if (!V)
    return std::nullopt;
  Step S;
  auto K = constantValue(B->getRHS(), Ctx);
  switch (B->getOpcode()) {
  case BO_AddAssign:
  case BO_SubAssign:
    if (!K)
      return std::nullopt;
    S.By = B->getOpcode() == BO_AddAssign ? *K : -*K;
    return S;
  case BO_XorAssign:
    if (!K || *K <= 0 || (*K & (*K - 1)) != 0)
      return std::nullopt;
    S.By = *K;
    S.Mod = 2 * *K;
    S.Xor = true;
    return S;
  case BO_Assign:
    if (K && *K == 0)
      if (auto Bound = wrapBound(V, B)) {
        S.Wrap = true;
        S.Mod = *Bound;
        return S;
      }
    return stepOfValue(V, B->getRHS());
  default:
    return std::nullopt;
  }
}

void WriteCollector::settle() {
  for (const auto &[V, Loop] : CounterLoop)
    if (Loop)
      Out.Counter.insert(V);
  llvm::DenseMap<const VarDecl *, int64_t> Ring;
  llvm::DenseSet<const VarDecl *> Linear, NotByOne;
  for (const auto &[Writer, S] : Out.Steps) {
    (void)Writer;
    if (S.Mod == 0) {
      Linear.insert(S.Var);
      if (S.By != 1)
        NotByOne.insert(S.Var);
      continue;
    }
    auto [It, New] = Ring.try_emplace(S.Var, S.Mod);
    if (!New && It->second != S.Mod)
      Out.Unstable.insert(S.Var);
  }
  for (const auto &[V, M] : Ring) {
    if (Out.Unstable.count(V))
      continue;
    auto Init = V->getInit() ? constantValue(V->getInit(), Ctx)
                             : std::optional<int64_t>();
    const bool Wraps = llvm::any_of(Out.Steps, [&, V = V](const auto &P) {
      return P.second.Var == V && P.second.Wrap;
    });
    // A plain `++x` keeps x in [0, M) only with a wrap beside it; an
    // XOR or a modular step needs no other write.
    if (!Init || *Init < 0 || *Init >= M ||
        (Linear.count(V) && (!Wraps || NotByOne.count(V)))) {
      Out.Unstable.insert(V);
      continue;
    }
    Out.Modulus[V] = M;
  }
}

VarWrites collectVarWrites(const Stmt *Body, ASTContext &Ctx) {
  VarWrites Writes;
  WriteCollector WC(Writes, Ctx);
  WC.TraverseStmt(const_cast<Stmt *>(Body));
  WC.settle();
  return Writes;
}

/// A slot whose variable changes other than by its loop's step is not
/// compared; nor is an expression naming any written variable.
/// S reads a variable written other than by its loop's step, directly or
/// through the initialisers of the locals it reads.
bool SlotModel::namesUnstable(const Stmt *S, unsigned Depth) const {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return false;
    if (Writes.Unstable.count(V))
      return true;
    return Depth > 0 && V->hasLocalStorage() && !isa<ParmVarDecl>(V) &&
           namesUnstable(V->getInit(), Depth - 1);
  }
  for (const Stmt *Child : S->children())
    if (namesUnstable(Child, Depth))
      return true;
  return false;
}

static bool steppedWithin(const VarWrites &Writes, const VarDecl *Var,
                          SourceRange Range, const SourceManager &SM);

/// A location computed with a variable that changes other than by the
/// steps the analysis follows (a pointer that moves) is not compared.
Slot SlotModel::settle(const Location &L) const {
  Slot P = offsetSlot(L, settle(L.Part));
  for (const Expr *I : L.Indices)
    if (namesUnstable(I, 3))
      P.Kind = Slot::Unknown;
  // Through a pointer set to a slot: the slot's variable must not step
  // while the pointer lives (it keeps pointing at the old slot).
  if (L.Alias && P.Kind == Slot::Affine && P.Var) {
    auto Scope = Writes.Scope.find(L.Alias);
    if (Scope == Writes.Scope.end() ||
        steppedWithin(Writes, P.Var, Scope->second, Ctx.getSourceManager()))
      P.Kind = Slot::Unknown;
  }
  return P;
}

/// Whether Var is stepped anywhere in the part of Range after its start.
static bool steppedWithin(const VarWrites &Writes, const VarDecl *Var,
                          SourceRange Range, const SourceManager &SM) {
  for (const auto &[Writer, S] : Writes.Steps)
    if (S.Var == Var &&
        SM.isBeforeInTranslationUnit(Range.getBegin(), Writer->getBeginLoc()) &&
        SM.isBeforeInTranslationUnit(Writer->getBeginLoc(), Range.getEnd()))
      return true;
  return false;
}

/// A slot named by a local that is never written (`const int j = stage %
/// S`) stands for its initialiser's slot, when the variables the
/// initialiser names do not move while the local lives.
Slot SlotModel::expandLocal(Slot P, unsigned Depth) const {
  const VarDecl *Local = P.Var;
  if (Depth == 0 || P.Kind != Slot::Affine || !Local || P.S != 0 ||
      P.C != 0 || !Local->hasLocalStorage() || isa<ParmVarDecl>(Local) ||
      !Local->getInit() || Writes.Moved.count(Local) ||
      Writes.Unstable.count(Local) || isThreadDependent(Local->getInit()))
    return P;
  Slot Q = slotOfIndex(Local->getInit(), Ctx);
  if (Q.Kind != Slot::Affine || !Q.Var)
    return P;
  auto Scope = Writes.Scope.find(Local);
  if (Scope == Writes.Scope.end() ||
      steppedWithin(Writes, Q.Var, Scope->second, Ctx.getSourceManager()))
    return P;
  return expandLocal(Q, Depth - 1);
}

/// A whole-buffer location whose address adds a variable the analysis
/// steps (`buf[offset + threadIdx.x]` with `offset ^= Tile`) is the slot at
/// that variable; an address naming such a variable in any other way is
/// not compared.
Slot SlotModel::offsetSlot(const Location &L, Slot P) const {
  if (P.Kind != Slot::Whole)
    return P;
  auto NamesMoved = [&](const Expr *E) {
    llvm::SmallVector<const Stmt *, 8> Work{E};
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (!S)
        continue;
      if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
        if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
            V && Writes.Moved.count(V) && !Writes.Counter.count(V))
          return true;
      Work.append(S->child_begin(), S->child_end());
    }
    return false;
  };
  std::optional<Slot> Found;
  for (const Expr *I : L.Indices) {
    llvm::SmallVector<const Expr *, 4> Terms;
    additiveTerms(I, Terms);
    int64_t C = 0;
    std::optional<Slot> Here;
    for (const Expr *T : Terms) {
      if (auto K = constantValue(T, Ctx)) {
        C += *K;
        continue;
      }
      if (!NamesMoved(T))
        continue;
      Slot Q = slotOfIndex(T, Ctx);
      if (Q.Kind != Slot::Affine || !Q.Var || !Writes.Moved.count(Q.Var) ||
          Here || Found) {
        P.Kind = Slot::Unknown;
        return P;
      }
      Here = Q;
    }
    if (!Here)
      continue;
    if (Here->S == 0) {
      Here->C += C;
    } else if (C != 0) {
      P.Kind = Slot::Unknown;
      return P;
    }
    Found = Here;
  }
  return Found ? settle(*Found) : P;
}

Slot SlotModel::settle(Slot P) const {
  P = expandLocal(P, 3);
  if (P.Kind == Slot::Affine && P.Var && Writes.Unstable.count(P.Var))
    P.Kind = Slot::Unknown;
  if (P.Kind == Slot::Affine && P.Var) {
    // A ring index that stays in [0, M): compared modulo M.
    auto It = Writes.Modulus.find(P.Var);
    const int64_t M = It == Writes.Modulus.end() ? 0 : It->second;
    if (P.NeedsRange && M != P.S)
      P.Kind = Slot::Unknown;
    else if (M && P.S == 0)
      P.S = M;
    else if (M && M % P.S != 0)
      P.Kind = Slot::Unknown;
    if (P.S > 0)
      P.C = (P.C % P.S + P.S) % P.S;
  }
  if (P.Kind == Slot::Opaque) {
    llvm::SmallVector<const Stmt *, 8> Work{P.E};
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (!S)
        continue;
      if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
        if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
            V && (Writes.Unstable.count(V) || Writes.Moved.count(V)))
          P.Kind = Slot::Unknown;
      if (isa<CallExpr>(S))
        P.Kind = Slot::Unknown;
      Work.append(S->child_begin(), S->child_end());
    }
  }
  return P;
}

bool SlotModel::sameExpr(const Expr *A, const Expr *B) const {
  if (!A || !B)
    return false;
  llvm::FoldingSetNodeID IA, IB;
  A->IgnoreParenImpCasts()->Profile(IA, Ctx, true);
  B->IgnoreParenImpCasts()->Profile(IB, Ctx, true);
  return IA == IB;
}

bool SlotModel::overlapSure(const Slot &P, const Slot &Q) const {
  if (P.Kind == Slot::Unknown || Q.Kind == Slot::Unknown)
    return false;
  if (P.Kind == Slot::Whole || Q.Kind == Slot::Whole)
    return true;
  if (P.Kind == Slot::Affine && Q.Kind == Slot::Affine) {
    if (P.Var != Q.Var || P.S != Q.S)
      return false;
    if (P.S == 0)
      return P.C == Q.C;
    return ((P.C - Q.C) % P.S + P.S) % P.S == 0;
  }
  if (P.Kind == Slot::Opaque && Q.Kind == Slot::Opaque)
    return sameExpr(P.E, Q.E);
  return false;
}

void SlotModel::shift(const Step &Move, Slot &P) const {
  if (P.Kind != Slot::Affine || P.Var != Move.Var)
    return;
  if (Move.Wrap) {
    // `if (x == S) x = 0;` leaves x modulo S where it was.
    if (P.S == 0 || Move.Mod % P.S != 0)
      P.Kind = Slot::Unknown;
    return;
  }
  P.C -= Move.By;
  const int64_t Bound = MaxSteps * std::max<int64_t>(1, std::abs(Move.By));
  if (P.S > 0)
    P.C = (P.C % P.S + P.S) % P.S;
  else if (P.C < -Bound || P.C > Bound)
    P.Kind = Slot::Unknown;
}

} // namespace asynccopy
} // namespace cuda_tidy
