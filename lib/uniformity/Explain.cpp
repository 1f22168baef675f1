//===--- Explain.cpp - Why a point or a value differs between threads -----===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The explanations of the uniformity analysis' results, as facts a check
// words in its notes: the innermost branch or loop that makes a point
// diverge (causeAt), and what a value's level comes from with the trace of
// where its locals got it (describe).
//
//===----------------------------------------------------------------------===//

#include "lib/uniformity/UniformityImpl.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cuda_tidy {

/// The first statement in S (S included, lambdas left out) for which Match
/// holds, not looking into statements for which Opaque holds.
static const Stmt *findIn(const Stmt *S,
                          llvm::function_ref<bool(const Stmt *)> Match,
                          llvm::function_ref<bool(const Stmt *)> Opaque) {
  if (!S || isa<LambdaExpr>(S))
    return nullptr;
  if (Match(S))
    return S;
  if (Opaque(S))
    return nullptr;
  for (const Stmt *Child : S->children())
    if (const Stmt *R = findIn(Child, Match, Opaque))
      return R;
  return nullptr;
}

/// A `break` or `goto` inside S that leaves the loop S is in (not one of a
/// loop or switch nested in S).
static const Stmt *findLoopExit(const Stmt *S) {
  return findIn(
      S, [](const Stmt *X) { return isa<BreakStmt, GotoStmt>(X); },
      [](const Stmt *X) { return isLoopStmt(X) || isa<SwitchStmt>(X); });
}

/// A `return` inside S that is not in a lambda.
static const Stmt *findReturn(const Stmt *S) {
  return findIn(
      S, [](const Stmt *X) { return isa<ReturnStmt>(X); },
      [](const Stmt *) { return false; });
}

DivergenceCause FunctionUniformityImpl::causeOf(const CFGBlock *Branch,
                                                const Stmt *S) const {
  DivergenceCause C;
  const Stmt *T = Branch->getTerminatorStmt();
  C.Terminator = T;
  C.Condition = dyn_cast_or_null<Expr>(Branch->getTerminatorCondition(false));
  C.Level = CondLevel[Branch->getBlockID()];
  C.K = isLoopStmt(T) ? DivergenceCause::Loop : DivergenceCause::Branch;
  // A short-circuit operator in an if's condition decides for the if.
  const Stmt *Owner = T;
  if (const auto *BO = dyn_cast<BinaryOperator>(T); BO && BO->isLogicalOp())
    while (isa<Expr>(Owner) && PM->getParent(Owner))
      Owner = PM->getParent(Owner);
  // For a point outside the if, the threads that miss it left through the
  // if: name its `return` or its way out of the loop.
  if (const auto *If = dyn_cast_or_null<IfStmt>(Owner);
      If && (If == T || If->getCond()->getSourceRange().fullyContains(
                            T->getSourceRange()))) {
    if (!inRange(SM, If->getSourceRange(), S->getBeginLoc())) {
      C.Return = findReturn(If);
      C.Exit = findLoopExit(If);
    }
  }
  return C;
}

std::optional<DivergenceCause>
FunctionUniformityImpl::causeAt(const Stmt *S, Uniformity L, uint64_t Mask,
                                bool CountExits) const {
  const CFGBlock *B = reachableBlockOf(S);
  if (!B)
    return std::nullopt;
  llvm::SmallVector<bool, 64> Seen(Cfg->getNumBlockIDs(), false);
  unsigned X = B->getBlockID();
  for (unsigned Steps = 0; Steps < 64; ++Steps) {
    Seen[X] = true;
    // The innermost (latest in the source) branch that diverges directly;
    // else the innermost branch whose own control diverges, to go on from.
    const CFGBlock *Best = nullptr, *BestVia = nullptr, *Fallback = nullptr;
    for (unsigned D : CD[X]) {
      if (!allowed(D, X, CountExits))
        continue;
      const CFGBlock *DB = ById[D];
      if (!DB || !DB->getTerminatorStmt())
        continue;
      auto Later = [&](const CFGBlock *Old) {
        return !Old || SM.isBeforeInTranslationUnit(
                           Old->getTerminatorStmt()->getBeginLoc(),
                           DB->getTerminatorStmt()->getBeginLoc());
      };
      if (reaches(CondLevel[D], L, Mask)) {
        // A condition that varies only because its variables were set under
        // an outer varying branch (`k` of a nested loop inside a warp-strided
        // one) is not the cause; the outer branch is.
        const auto *Cond =
            dyn_cast_or_null<Expr>(DB->getTerminatorCondition(false));
        if (Mask || !Cond || byData(Cond, L)) {
          if (Later(Best))
            Best = DB;
        } else if (!Fallback) {
          Fallback = DB;
        }
      }
      if (!Seen[D] && reaches(ctlOf(D, CountExits), L, Mask) && Later(BestVia))
        BestVia = DB;
    }
    if (!Best && !BestVia)
      Best = Fallback;
    if (Best)
      return causeOf(Best, S);
    if (!BestVia)
      return std::nullopt;
    X = BestVia->getBlockID();
  }
  return std::nullopt;
}

static ValueSource named(StringRef Name) {
  return {ValueSource::Named, Name.str()};
}

ValueSource FunctionUniformityImpl::describeVar(
    const VarDecl *V, Uniformity L, llvm::SmallVectorImpl<TraceStep> *Trace,
    unsigned &Steps, llvm::SmallPtrSetImpl<const VarDecl *> &Seen) const {
  ValueSource Name = named(V->getName());
  if (!Trace || Steps == 0 || !Seen.insert(V).second)
    return Name;
  const ValueOrigin *R = originOf(V, L);
  if (!R)
    return Name;
  --Steps;
  size_t Slot = Trace->size();
  Trace->push_back({R->Where->getBeginLoc(), V->getName().str(),
                    TraceStep::ByCallOrAsm, ValueSource()});
  TraceStep::StepKind How = TraceStep::ByCallOrAsm;
  ValueSource Source;
  if (R->UnderControl) {
    How = TraceStep::UnderVaryingControl;
    if (auto C = causeAt(R->Where, L, 0, false); C && C->Condition) {
      How = TraceStep::UnderCondition;
      Source = describe(C->Condition, L, Trace, Steps, Seen);
    } else if (C) {
      How = TraceStep::UnderLoop;
    }
  } else if (R->From) {
    How = TraceStep::From;
    Source = describe(R->From, L, Trace, Steps, Seen);
  }
  (*Trace)[Slot].How = How;
  (*Trace)[Slot].Source = std::move(Source);
  return Name;
}

ValueSource FunctionUniformityImpl::describe(
    const Expr *E, Uniformity L, llvm::SmallVectorImpl<TraceStep> *Trace,
    unsigned &Steps, llvm::SmallPtrSetImpl<const VarDecl *> &Seen) const {
  if (!E)
    return ValueSource();
  if (auto Ref = getBuiltinVarRef(E))
    return named(builtinVarSpelling(*Ref));
  const Expr *Stripped = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Stripped)) {
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      return describeVar(V, L, Trace, Steps, Seen);
    return named(DRE->getDecl()->getName());
  }
  // A field of a local struct: the field's own writes, else the whole's.
  if (const auto *ME = dyn_cast<MemberExpr>(Stripped))
    if (const VarDecl *Field = FieldReads.lookup(ME))
      return originOf(Field, L)
                 ? describeVar(Field, L, Trace, Steps, Seen)
                 : describe(ME->getBase(), L, Trace, Steps, Seen);
  if (const auto *Call = dyn_cast<CallExpr>(Stripped)) {
    const FunctionDecl *FD = resolveCallee(Call);
    // The toolkit's math functions, operators and the unresolved calls of a
    // template pattern vary with their arguments: name those.
    if (!FD || isa<CXXOperatorCallExpr>(Call) || isHeaderFunction(FD, SM))
      for (const Expr *Arg : Call->arguments())
        if (levelOf(Arg).Base >= L && !isa<CXXDefaultArgExpr>(Arg))
          return describe(Arg, L, Trace, Steps, Seen);
    return {ValueSource::CallResult,
            FD && FD->getIdentifier() ? FD->getName().str() : ""};
  }
  if (isa<CXXThisExpr>(Stripped))
    return {ValueSource::Object, ""};
  // The first part that reaches L through a value, else the first that
  // reaches it at all.
  const Expr *First = nullptr;
  for (const Stmt *Child : Stripped->children()) {
    const auto *CE = dyn_cast_or_null<Expr>(Child);
    if (!CE || levelOf(CE).Base < L)
      continue;
    if (byData(CE, L))
      return describe(CE, L, Trace, Steps, Seen);
    if (!First)
      First = CE;
  }
  if (First)
    return describe(First, L, Trace, Steps, Seen);
  return ValueSource();
}

bool FunctionUniformityImpl::byData(const Expr *E, Uniformity L,
                                    unsigned Depth) const {
  if (!E || Depth > 16)
    return true;
  if (getBuiltinVarRef(E))
    return true;
  const Expr *Stripped = E->IgnoreParenImpCasts();
  // A local varies by data unless it got its level under control, itself
  // or through the values it was set from (`found += total` with `total`
  // set under a varying loop: the loop is the cause).
  auto VarByData = [&](const VarDecl *V) {
    const ValueOrigin *R = originOf(V, L);
    if (!R)
      return true;
    if (R->UnderControl)
      return false;
    return !R->From || byData(R->From, L, Depth + 1);
  };
  if (const auto *ME = dyn_cast<MemberExpr>(Stripped))
    if (const VarDecl *Field = FieldReads.lookup(ME))
      return VarByData(Field);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Stripped)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    return !V || VarByData(V);
  }
  if (isa<CallExpr, CXXThisExpr>(Stripped))
    return true;
  bool Any = false;
  for (const Stmt *Child : Stripped->children()) {
    const auto *CE = dyn_cast_or_null<Expr>(Child);
    if (!CE || levelOf(CE).Base < L)
      continue;
    Any = true;
    if (byData(CE, L, Depth + 1))
      return true;
  }
  return !Any;
}

} // namespace cuda_tidy
