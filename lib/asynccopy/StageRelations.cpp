//===--- StageRelations.cpp - How far one loop counter runs ahead ---------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/asynccopy/StageRelations.h"
#include "lib/ast/CudaAST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/FoldingSet.h"
#include <algorithm>
#include <cstdlib>
#include <limits>

using namespace clang;

namespace cuda_tidy {
namespace asynccopy {

/// Differences beyond it are not tracked (the facts stay finite).
constexpr int64_t MaxDistance = 64;
constexpr int64_t Inf = std::numeric_limits<int64_t>::max() / 4;

static const Expr *stripped(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *C = dyn_cast<ExplicitCastExpr>(E)) {
      E = C->getSubExpr();
      continue;
    }
    break;
  }
  return E;
}

static const VarDecl *refVar(const Expr *E) {
  const auto *DRE = E ? dyn_cast<DeclRefExpr>(stripped(E)) : nullptr;
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

static bool neverWritten(const VarWrites &W, const VarDecl *V) {
  return !W.Moved.count(V) && !W.Unstable.count(V);
}

/// E's value when it is a constant, reading never-written locals with
/// constant initialisers (`int aStep = BLOCK_SIZE;`).
static std::optional<int64_t> constLike(const Expr *E, const VarWrites &W,
                                        ASTContext &Ctx, unsigned Depth = 3) {
  if (!E)
    return std::nullopt;
  if (auto K = constantValue(E, Ctx))
    return K;
  E = stripped(E);
  if (const VarDecl *V = refVar(E)) {
    if (Depth == 0 || !V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
        !neverWritten(W, V) || !V->getType()->isIntegerType())
      return std::nullopt;
    return constLike(V->getInit(), W, Ctx, Depth - 1);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    auto L = constLike(BO->getLHS(), W, Ctx, Depth);
    auto R = L ? constLike(BO->getRHS(), W, Ctx, Depth) : std::nullopt;
    if (!R)
      return std::nullopt;
    switch (BO->getOpcode()) {
    case BO_Add:
      return *L + *R;
    case BO_Sub:
      return *L - *R;
    case BO_Mul:
      return *L * *R;
    default:
      return std::nullopt;
    }
  }
  return std::nullopt;
}

/// E has the same value wherever the body evaluates it: it reads only
/// constants, builtin indices and variables never written (locals with
/// such initialisers).
static bool invariant(const Stmt *S, const VarWrites &W, unsigned Depth = 3) {
  if (!S)
    return true;
  if (const auto *E = dyn_cast<Expr>(S); E && getBuiltinVarRef(E))
    return true;
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      isa<CallExpr>(S) || (U && U->isIncrementDecrementOp()))
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return isa<EnumConstantDecl>(DRE->getDecl());
    if (!neverWritten(W, V))
      return false;
    if (!V->hasLocalStorage() || isa<ParmVarDecl>(V))
      return isa<ParmVarDecl>(V) || V->getType().isConstQualified();
    return Depth > 0 && V->getInit() && invariant(V->getInit(), W, Depth - 1);
  }
  for (const Stmt *Child : S->children())
    if (!invariant(Child, W, Depth))
      return false;
  return true;
}

namespace {

/// The declarations, and the `for` loops, of a body.
class LoopCollector : public DynamicRecursiveASTVisitor {
public:
  bool VisitDeclStmt(DeclStmt *S) override {
    for (const Decl *D : S->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        DeclOf[V] = S;
    return true;
  }
  bool VisitForStmt(ForStmt *S) override {
    if (S->getInc())
      Loops.push_back(S);
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *) override { return true; }
  llvm::DenseMap<const VarDecl *, const DeclStmt *> DeclOf;
  llvm::SmallVector<const ForStmt *, 8> Loops;
};

} // namespace

/// The number of writes of each variable the analysis follows (steps and
/// any other write).
static unsigned writesOf(const VarWrites &W, const VarDecl *V) {
  auto It = W.WriteCount.find(V);
  return It == W.WriteCount.end() ? 0 : It->second;
}

Counters collectCounters(const Stmt *Body, const VarWrites &Writes,
                         ASTContext &Ctx) {
  Counters Out;
  LoopCollector LC;
  LC.TraverseStmt(const_cast<Stmt *>(Body));
  for (const ForStmt *Loop : LC.Loops) {
    llvm::SmallVector<const Expr *, 4> Parts, Work{Loop->getInc()};
    while (!Work.empty()) {
      const Expr *E = Work.pop_back_val()->IgnoreParens();
      if (const auto *BO = dyn_cast<BinaryOperator>(E);
          BO && BO->getOpcode() == BO_Comma) {
        Work.push_back(BO->getRHS());
        Work.push_back(BO->getLHS());
        continue;
      }
      Parts.push_back(E);
    }
    // Members grouped by the statement that declares them.
    llvm::SmallVector<std::pair<const DeclStmt *, unsigned>, 2> Groups;
    for (const Expr *Part : Parts) {
      const VarDecl *V = nullptr;
      int64_t Unit = 0;
      if (const auto *U = dyn_cast<UnaryOperator>(Part);
          U && U->isIncrementDecrementOp()) {
        V = refVar(U->getSubExpr());
        Unit = U->isIncrementOp() ? 1 : -1;
      } else if (const auto *CA = dyn_cast<CompoundAssignOperator>(Part);
                 CA && (CA->getOpcode() == BO_AddAssign ||
                        CA->getOpcode() == BO_SubAssign)) {
        V = refVar(CA->getLHS());
        if (auto K = constLike(CA->getRHS(), Writes, Ctx))
          Unit = CA->getOpcode() == BO_AddAssign ? *K : -*K;
      }
      auto Decl = V ? LC.DeclOf.find(V) : LC.DeclOf.end();
      if (!V || Unit == 0 || !V->getType()->isIntegerType() ||
          !V->hasLocalStorage() || isa<ParmVarDecl>(V) || !V->getInit() ||
          writesOf(Writes, V) != 1 || Decl == LC.DeclOf.end() ||
          Out.ClassOf.count(V))
        continue;
      auto *G = llvm::find_if(Groups, [&](const auto &P) {
        return P.first == Decl->second;
      });
      if (G == Groups.end()) {
        Out.Classes.push_back(StepClass{Loop, Decl->second, {}, Part});
        Groups.push_back({Decl->second, unsigned(Out.Classes.size())});
        G = Groups.end() - 1;
      }
      Out.Classes[G->second - 1].Vars.push_back(V);
      Out.ClassOf[V] = G->second;
      Out.Unit[V] = Unit;
      if (auto K = constLike(V->getInit(), Writes, Ctx))
        Out.Init[V] = *K;
    }
  }
  for (unsigned Id = 1; Id <= Out.Classes.size(); ++Id) {
    StepClass &C = Out.Classes[Id - 1];
    Out.StepOf[C.StepAt] = Id;
    // Declared with the member the declaration names first.
    const VarDecl *First = C.Vars.front();
    for (const VarDecl *V : C.Vars)
      if (V->getLocation() < First->getLocation())
        First = V;
    Out.FirstOf[First] = Id;
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// The relations
//===----------------------------------------------------------------------===//

static int64_t widen(int64_t V) {
  if (V > MaxDistance)
    return Inf;
  if (V < -MaxDistance)
    return -Inf;
  return V;
}

static Relation *find(Relations &Rel, unsigned A, unsigned B) {
  for (Relation &R : Rel)
    if (R.A == A && R.B == B)
      return &R;
  return nullptr;
}

/// n_X - n_Y in [Lo, Hi], intersected with what Rel holds; false when
/// empty.
static bool narrow(Relations &Rel, unsigned X, unsigned Y, int64_t Lo,
                   int64_t Hi) {
  if (X == Y)
    return Lo <= 0 && 0 <= Hi;
  if (X > Y) {
    std::swap(X, Y);
    std::tie(Lo, Hi) = std::make_pair(Hi == Inf ? -Inf : -Hi,
                                      Lo == -Inf ? Inf : -Lo);
  }
  Relation *R = find(Rel, X, Y);
  if (!R) {
    if (Lo == -Inf && Hi == Inf)
      return true;
    Rel.push_back(Relation{X, Y, Lo, Hi});
    llvm::sort(Rel);
    return Lo <= Hi;
  }
  R->Lo = std::max(R->Lo, Lo);
  R->Hi = std::min(R->Hi, Hi);
  return R->Lo <= R->Hi;
}

void declareClass(Relations &Rel, unsigned X) {
  // The count of each other class Y against 0 gives n_X - n_Y = -n_Y.
  Relations Kept;
  llvm::SmallVector<std::pair<unsigned, std::pair<int64_t, int64_t>>, 4> Abs;
  for (const Relation &R : Rel) {
    if (R.A == X || R.B == X)
      continue;
    Kept.push_back(R);
    if (R.A == 0) // -n_B in [Lo, Hi]
      Abs.push_back({R.B, {R.Lo, R.Hi}});
  }
  Rel = std::move(Kept);
  Rel.push_back(Relation{0, X, 0, 0});
  llvm::sort(Rel);
  for (const auto &[Y, Bounds] : Abs)
    narrow(Rel, X, Y, Bounds.first, Bounds.second);
}

void stepClass(Relations &Rel, unsigned X) {
  Relations Kept;
  for (Relation R : Rel) {
    const int64_t By = R.A == X ? 1 : R.B == X ? -1 : 0;
    if (By) {
      R.Lo = R.Lo == -Inf ? -Inf : widen(R.Lo + By);
      R.Hi = R.Hi == Inf ? Inf : widen(R.Hi + By);
      if (R.Lo == -Inf && R.Hi == Inf)
        continue;
    }
    Kept.push_back(R);
  }
  Rel = std::move(Kept);
}

void mergeRelations(Relations &Into, const Relations &From,
                    bool IntoReached) {
  if (!IntoReached) {
    Into = From;
    return;
  }
  Relations Out;
  for (const Relation &R : Into)
    for (const Relation &S : From)
      if (R.A == S.A && R.B == S.B) {
        Relation M{R.A, R.B, std::min(R.Lo, S.Lo), std::max(R.Hi, S.Hi)};
        if (M.Lo != -Inf || M.Hi != Inf)
          Out.push_back(M);
      }
  Into = std::move(Out);
}

std::optional<int64_t> exactDifference(const Relations &Rel, unsigned X,
                                       unsigned Y) {
  if (X == Y)
    return 0;
  const bool Swapped = X > Y;
  if (Swapped)
    std::swap(X, Y);
  for (const Relation &R : Rel)
    if (R.A == X && R.B == Y && R.Lo == R.Hi && R.Lo != Inf && R.Lo != -Inf)
      return Swapped ? -R.Lo : R.Lo;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Conditions
//===----------------------------------------------------------------------===//

namespace {

/// Coef times the counts of classes, plus Const, plus invariant atoms.
struct LinearForm {
  llvm::SmallVector<std::pair<unsigned, int64_t>, 4> Coef;
  int64_t Const = 0;
  llvm::SmallVector<std::pair<const Expr *, int64_t>, 2> Atoms;
  void add(unsigned Class, int64_t C) {
    for (auto &P : Coef)
      if (P.first == Class) {
        P.second += C;
        return;
      }
    Coef.push_back({Class, C});
  }
};

} // namespace

static bool linearize(const Expr *E, int64_t Sign, LinearForm &Out,
                      const Counters &Cs, const VarWrites &W,
                      ASTContext &Ctx) {
  E = stripped(E);
  if (auto K = constLike(E, W, Ctx)) {
    Out.Const += Sign * *K;
    return true;
  }
  if (const VarDecl *V = refVar(E)) {
    auto Class = Cs.ClassOf.find(V);
    if (Class == Cs.ClassOf.end()) {
      if (!invariant(E, W))
        return false;
      Out.Atoms.push_back({E, Sign});
      return true;
    }
    Out.add(Class->second, Sign * Cs.Unit.lookup(V));
    if (auto Init = Cs.Init.find(V); Init != Cs.Init.end()) {
      Out.Const += Sign * Init->second;
      return true;
    }
    if (!invariant(V->getInit(), W))
      return false;
    Out.Atoms.push_back({stripped(V->getInit()), Sign});
    return true;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)
      return linearize(BO->getLHS(), Sign, Out, Cs, W, Ctx) &&
             linearize(BO->getRHS(),
                       BO->getOpcode() == BO_Add ? Sign : -Sign, Out, Cs, W,
                       Ctx);
    if (BO->getOpcode() == BO_Mul) {
      if (auto K = constLike(BO->getRHS(), W, Ctx))
        return linearize(BO->getLHS(), Sign * *K, Out, Cs, W, Ctx);
      if (auto K = constLike(BO->getLHS(), W, Ctx))
        return linearize(BO->getRHS(), Sign * *K, Out, Cs, W, Ctx);
    }
  }
  if (invariant(E, W)) {
    Out.Atoms.push_back({E, Sign});
    return true;
  }
  return false;
}

/// The atoms cancel: each invariant expression appears as often added as
/// subtracted.
static bool atomsCancel(const LinearForm &F, ASTContext &Ctx) {
  llvm::SmallVector<std::pair<llvm::FoldingSetNodeID, int64_t>, 4> Sums;
  for (const auto &[E, Sign] : F.Atoms) {
    llvm::FoldingSetNodeID ID;
    E->Profile(ID, Ctx, true);
    auto *It = llvm::find_if(Sums, [&](const auto &P) { return P.first == ID; });
    if (It == Sums.end())
      Sums.push_back({ID, Sign});
    else
      It->second += Sign;
  }
  return llvm::all_of(Sums, [](const auto &P) { return P.second == 0; });
}

static int64_t floorDiv(int64_t A, int64_t B) {
  return A / B - ((A % B != 0) && ((A < 0) != (B < 0)));
}
static int64_t ceilDiv(int64_t A, int64_t B) { return -floorDiv(-A, B); }

bool refineRelations(Relations &Rel, const Counters &Cs,
                     const VarWrites &Writes, const Expr *Cond, bool Holds,
                     ASTContext &Ctx) {
  const auto *BO =
      Cond ? dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts()) : nullptr;
  if (!BO || !BO->isComparisonOp() || Cs.empty())
    return true;
  LinearForm F;
  if (!linearize(BO->getLHS(), 1, F, Cs, Writes, Ctx) ||
      !linearize(BO->getRHS(), -1, F, Cs, Writes, Ctx) || !atomsCancel(F, Ctx))
    return true;
  llvm::erase_if(F.Coef, [](const auto &P) { return P.second == 0; });
  // C * (n_X - n_Y) + K, or C * n_X + K.
  unsigned X = 0, Y = 0;
  int64_t C = 0;
  if (F.Coef.size() == 2 && F.Coef[0].second == -F.Coef[1].second) {
    X = F.Coef[0].first;
    Y = F.Coef[1].first;
    C = F.Coef[0].second;
  } else if (F.Coef.size() == 1) {
    X = F.Coef[0].first;
    C = F.Coef[0].second;
  } else {
    return true;
  }
  BinaryOperatorKind Op = BO->getOpcode();
  if (!Holds)
    Op = BinaryOperator::negateComparisonOp(Op);
  // C * t  OP  -K.
  int64_t M = -F.Const;
  if (Op == BO_LT) {
    Op = BO_LE;
    M -= 1;
  } else if (Op == BO_GT) {
    Op = BO_GE;
    M += 1;
  }
  if (Op == BO_NE)
    return true;
  if (C < 0) {
    C = -C;
    M = -M;
    if (Op != BO_EQ)
      Op = Op == BO_LE ? BO_GE : BO_LE;
  }
  int64_t Lo = -Inf, Hi = Inf;
  if (Op == BO_LE)
    Hi = floorDiv(M, C);
  else if (Op == BO_GE)
    Lo = ceilDiv(M, C);
  else if (M % C == 0)
    Lo = Hi = M / C;
  else
    return false;
  if (std::abs(Lo) > MaxDistance && Lo != -Inf)
    Lo = Lo < 0 ? -Inf : Lo;
  if (std::abs(Hi) > MaxDistance && Hi != Inf)
    Hi = Hi > 0 ? Inf : Hi;
  return narrow(Rel, X, Y, Lo, Hi);
}

//===----------------------------------------------------------------------===//
// Slots
//===----------------------------------------------------------------------===//

/// The variable's unit and constant initialiser, when it has both.
static std::optional<std::pair<int64_t, int64_t>>
unitAndInit(const Counters &Cs, const VarDecl *V) {
  auto U = Cs.Unit.find(V);
  auto I = Cs.Init.find(V);
  if (U == Cs.Unit.end() || I == Cs.Init.end())
    return std::nullopt;
  return std::make_pair(U->second, I->second);
}

bool overlapByRelation(const Slot &P, const Slot &Q, const Relations &Rel,
                       const Counters &Cs) {
  if (P.Kind != Slot::Affine || Q.Kind != Slot::Affine || !P.Var || !Q.Var ||
      P.Var == Q.Var || P.S != Q.S)
    return false;
  auto PU = unitAndInit(Cs, P.Var), QU = unitAndInit(Cs, Q.Var);
  if (!PU || !QU || PU->first != QU->first)
    return false;
  auto D = exactDifference(Rel, Cs.ClassOf.lookup(P.Var),
                           Cs.ClassOf.lookup(Q.Var));
  if (!D)
    return false;
  const int64_t Diff = PU->second - QU->second + PU->first * *D + P.C - Q.C;
  return P.S > 0 ? Diff % P.S == 0 : Diff == 0;
}

} // namespace asynccopy
} // namespace cuda_tidy
