//===--- WarpConvergence.cpp - Does the whole warp reach a point? ---------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/WarpConvergence.h"
#include "lib/CudaAST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_tidy {

static constexpr unsigned MaxCallerDepth = 4;

/// Collects the variables a function body writes after their declaration.
static void collectModified(const Stmt *S, llvm::DenseSet<const VarDecl *> &Out) {
  if (!S)
    return;
  auto VarOf = [](const Expr *E) -> const VarDecl * {
    if (!E)
      return nullptr;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      return dyn_cast<VarDecl>(DRE->getDecl());
    return nullptr;
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      if (const VarDecl *V = VarOf(BO->getLHS()))
        Out.insert(V);
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      if (const VarDecl *V = VarOf(UO->getSubExpr()))
        Out.insert(V);
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
    if (Op->isAssignmentOp() || Op->getOperator() == OO_PlusPlus ||
        Op->getOperator() == OO_MinusMinus || Op->getOperator() == OO_Amp)
      if (Op->getNumArgs() > 0)
        if (const VarDecl *V = VarOf(Op->getArg(0)))
          Out.insert(V);
  } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
    // Passing a variable to a non-const reference parameter may write it.
    if (const FunctionDecl *Callee = Call->getDirectCallee()) {
      for (unsigned I = 0, N = std::min(Call->getNumArgs(), Callee->getNumParams());
           I < N; ++I) {
        QualType T = Callee->getParamDecl(I)->getType();
        if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
          if (const VarDecl *V = VarOf(Call->getArg(I)))
            Out.insert(V);
      }
    } else {
      for (const Expr *Arg : Call->arguments())
        if (const VarDecl *V = VarOf(Arg))
          Out.insert(V);
    }
  } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    // A non-const reference bound to a variable aliases it.
    for (const Decl *D : DS->decls())
      if (const auto *Ref = dyn_cast<VarDecl>(D))
        if (Ref->getType()->isReferenceType() &&
            !Ref->getType().getNonReferenceType().isConstQualified())
          if (const VarDecl *V = VarOf(Ref->getInit()))
            Out.insert(V);
  } else if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
    // Captures by reference may be written inside the lambda.
    for (const LambdaCapture &C : Lambda->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
        if (const auto *V = dyn_cast<VarDecl>(C.getCapturedVar()))
          Out.insert(V);
  }
  for (const Stmt *Child : S->children())
    collectModified(Child, Out);
}

const llvm::DenseSet<const VarDecl *> &
WarpConvergence::modifiedVars(const FunctionDecl *F) {
  auto [It, Inserted] = Modified.try_emplace(F);
  if (Inserted)
    collectModified(F->getBody(), It->second);
  return It->second;
}

namespace {
/// Builds the caller index of a translation unit.
class CallerIndexer : public DynamicRecursiveASTVisitor {
public:
  explicit CallerIndexer(
      llvm::DenseMap<const FunctionDecl *,
                     llvm::SmallVector<std::pair<const CallExpr *,
                                                 const FunctionDecl *>,
                                       2>> &Out)
      : Out(Out) {
    ShouldVisitTemplateInstantiations = true;
    ShouldVisitImplicitCode = false;
  }

  bool TraverseFunctionDecl(FunctionDecl *FD) override {
    const FunctionDecl *Saved = Current;
    Current = FD;
    bool Result = DynamicRecursiveASTVisitor::TraverseFunctionDecl(FD);
    Current = Saved;
    return Result;
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *MD) override {
    const FunctionDecl *Saved = Current;
    Current = MD;
    bool Result = DynamicRecursiveASTVisitor::TraverseCXXMethodDecl(MD);
    Current = Saved;
    return Result;
  }
  bool VisitCallExpr(CallExpr *Call) override {
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      Out[Callee->getCanonicalDecl()].push_back({Call, Current});
    // The visitor sees a call before its callee expression; remember the
    // callee so that it is not taken for an address-taken function.
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts()))
      CalleeRefs.insert(DRE);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) override {
    // A function whose address is taken may be called from anywhere.
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
      if (!CalleeRefs.contains(DRE))
        Out[FD->getCanonicalDecl()].push_back({nullptr, nullptr});
    return true;
  }

private:
  llvm::DenseMap<const FunctionDecl *,
                 llvm::SmallVector<std::pair<const CallExpr *,
                                             const FunctionDecl *>,
                                   2>> &Out;
  const FunctionDecl *Current = nullptr;
  llvm::DenseSet<const DeclRefExpr *> CalleeRefs;
};
} // namespace

void WarpConvergence::buildCallers() {
  if (CallersBuilt)
    return;
  CallersBuilt = true;
  CallerIndexer Indexer(Callers);
  Indexer.TraverseAST(Ctx);
}

/// Decides whether expressions are the same for every lane of a warp.
class UniformityProver {
public:
  UniformityProver(WarpConvergence &WC, const FunctionDecl *F)
      : WC(WC), F(F), Modified(WC.modifiedVars(F)) {}

  /// Loop counters proven lane-independent by their loop.
  llvm::DenseSet<const VarDecl *> LoopVars;

  /// std::nullopt when E is lane-independent; otherwise why not.
  std::optional<std::string> whyVaries(const Expr *E, unsigned Depth = 0) {
    if (!E)
      return std::nullopt;
    if (Depth > 16)
      return std::string("the expression is too deep to analyse");
    E = E->IgnoreParens();
    if (auto Ref = getBuiltinVarRef(E)) {
      if (Ref->Var == BuiltinVar::ThreadIdx)
        return "the condition depends on '" + builtinVarSpelling(*Ref) + "'";
      return std::nullopt;
    }
    if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr,
            CharacterLiteral, CXXNullPtrLiteralExpr, UnaryExprOrTypeTraitExpr>(
            E))
      return std::nullopt;
    if (const auto *Subst = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
      return whyVaries(Subst->getReplacement(), Depth + 1);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return whyVariesDecl(DRE->getDecl(), Depth);
    if (const auto *Cast = dyn_cast<CastExpr>(E))
      return whyVaries(Cast->getSubExpr(), Depth + 1);
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_Deref ||
          UO->getOpcode() == UO_AddrOf)
        return "the condition reads memory or writes a variable";
      return whyVaries(UO->getSubExpr(), Depth + 1);
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isAssignmentOp())
        return std::string("the condition assigns a variable");
      if (auto Why = whyVaries(BO->getLHS(), Depth + 1))
        return Why;
      return whyVaries(BO->getRHS(), Depth + 1);
    }
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
      for (const Expr *Sub : {CO->getCond(), CO->getTrueExpr(), CO->getFalseExpr()})
        if (auto Why = whyVaries(Sub, Depth + 1))
          return Why;
      return std::nullopt;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (Callee && Callee->isConstexpr()) {
        for (const Expr *Arg : Call->arguments())
          if (auto Why = whyVaries(Arg, Depth + 1))
            return Why;
        return std::nullopt;
      }
      return "the condition calls '" +
             (Callee ? Callee->getNameAsString() : std::string("a function")) +
             "', whose result may differ between lanes";
    }
    if (isa<ArraySubscriptExpr, MemberExpr>(E))
      return std::string("the condition reads memory that may differ between lanes");
    return std::string("the condition may differ between lanes");
  }

private:
  WarpConvergence &WC;
  const FunctionDecl *F;
  const llvm::DenseSet<const VarDecl *> &Modified;

  std::optional<std::string> whyVariesDecl(const ValueDecl *D, unsigned Depth) {
    if (isa<EnumConstantDecl, NonTypeTemplateParmDecl>(D))
      return std::nullopt;
    const auto *V = dyn_cast<VarDecl>(D);
    if (!V)
      return "the condition depends on '" + D->getNameAsString() + "'";
    std::string Name = "'" + V->getNameAsString() + "'";
    if (LoopVars.contains(V))
      return std::nullopt;
    if (V->isConstexpr())
      return std::nullopt;
    if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
      if (isKernel(F) && P->getDeclContext() == F && !Modified.contains(P) &&
          !P->getType()->isReferenceType() &&
          P->getType()->isScalarType())
        return std::nullopt;
      if (!isKernel(F))
        return "the condition depends on parameter " + Name +
               ", which the callers may pass per lane";
      return "the condition depends on parameter " + Name +
             ", which the kernel modifies";
    }
    if (V->hasGlobalStorage()) {
      if (V->getType().isConstQualified() && V->getInit() &&
          V->getInit()->isConstantInitializer(WC.Ctx, false))
        return std::nullopt;
      return "the condition reads the variable " + Name;
    }
    if (V->isLocalVarDecl() && !Modified.contains(V) && V->getInit() &&
        !V->getType()->isReferenceType()) {
      if (auto Why = whyVaries(V->getInit(), Depth + 1))
        return "the condition depends on " + Name + ", and " + *Why;
      return std::nullopt;
    }
    return "the condition depends on " + Name + ", which may differ between lanes";
  }
};

/// True when S contains a statement that leaves a loop body early.
static const Stmt *findEarlyExit(const Stmt *S) {
  if (!S)
    return nullptr;
  if (isa<BreakStmt, ContinueStmt, ReturnStmt, GotoStmt, IndirectGotoStmt>(S))
    return S;
  if (isa<LambdaExpr>(S))
    return nullptr;
  for (const Stmt *Child : S->children())
    if (const Stmt *Found = findEarlyExit(Child))
      return Found;
  return nullptr;
}

/// The first return, goto, label or no-return call that ends before Loc in S,
/// if any. Statements that contain Loc are looked into, not taken.
static const Stmt *findExitBefore(const Stmt *S, SourceLocation Loc,
                                  const SourceManager &SM) {
  if (!S || isa<LambdaExpr>(S))
    return nullptr;
  if (!SM.isBeforeInTranslationUnit(S->getBeginLoc(), Loc))
    return nullptr;
  bool EndsBefore = SM.isBeforeInTranslationUnit(S->getEndLoc(), Loc);
  if (EndsBefore && isa<ReturnStmt, GotoStmt, IndirectGotoStmt>(S))
    return S;
  if (isa<LabelStmt>(S))
    return S;
  if (EndsBefore)
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        if (Callee->isNoReturn())
          return S;
  for (const Stmt *Child : S->children())
    if (const Stmt *Found = findExitBefore(Child, Loc, SM))
      return Found;
  return nullptr;
}

std::optional<ConvergenceObstacle>
WarpConvergence::entryObstacle(const FunctionDecl *F) {
  if (isKernel(F))
    return std::nullopt;
  std::string Name = "'" + F->getNameAsString() + "'";
  ConvergenceObstacle NotProven{
      F->getLocation(),
      Name + " is not a kernel, and not every call to it is proven to be "
             "reached by the whole warp"};
  if (Depth >= MaxCallerDepth)
    return NotProven;
  buildCallers();
  const FunctionDecl *Canonical = F->getCanonicalDecl();
  auto It = Callers.find(Canonical);
  if (It == Callers.end() || It->second.empty())
    return ConvergenceObstacle{F->getLocation(),
                               Name + " is not a kernel and has no caller in "
                                      "this translation unit"};
  ++Depth;
  std::optional<ConvergenceObstacle> Result;
  for (const auto &[Call, Caller] : It->second) {
    if (!Call || !Caller || Caller == F || !Caller->hasBody()) {
      Result = NotProven;
      break;
    }
    if (auto Obstacle = obstacle(Call, Caller)) {
      Result = ConvergenceObstacle{
          Call->getBeginLoc(),
          Name + " is called here, where " + Obstacle->Reason};
      break;
    }
  }
  --Depth;
  return Result;
}

std::optional<ConvergenceObstacle>
WarpConvergence::obstacle(const Stmt *S, const FunctionDecl *F) {
  const Stmt *Body = F ? F->getBody() : nullptr;
  if (!S || !Body)
    return ConvergenceObstacle{S ? S->getBeginLoc() : SourceLocation(),
                               "the enclosing function is not known"};
  const SourceManager &SM = Ctx.getSourceManager();
  UniformityProver Prover(*this, F);

  // Collect the ancestors of S up to the body, innermost first.
  llvm::SmallVector<std::pair<DynTypedNode, const Stmt *>, 16> Chain;
  const Stmt *Child = S;
  DynTypedNode Node = DynTypedNode::create(*S);
  for (unsigned Steps = 0; Steps < 256; ++Steps) {
    if (Child == Body)
      break;
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return ConvergenceObstacle{S->getBeginLoc(),
                                 "the statement's context is not known"};
    Node = Parents[0];
    const Stmt *ParentStmt = Node.get<Stmt>();
    if (!ParentStmt) {
      // A declaration between S and the body: a lambda's or a variable's.
      if (Node.get<VarDecl>())
        continue;
      return ConvergenceObstacle{S->getBeginLoc(),
                                 "the call is inside a nested function"};
    }
    Chain.push_back({Node, Child});
    Child = ParentStmt;
  }
  if (Child != Body)
    return ConvergenceObstacle{S->getBeginLoc(),
                               "the call is nested too deeply to analyse"};

  // Loops first, outermost first, so that counters are known to inner
  // conditions.
  for (auto It = Chain.rbegin(); It != Chain.rend(); ++It) {
    const Stmt *P = It->first.get<Stmt>();
    const Stmt *C = It->second;
    if (const auto *For = dyn_cast<ForStmt>(P)) {
      if (C == For->getInit())
        continue;
      const VarDecl *Counter = nullptr;
      if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit()))
        if (DS->isSingleDecl())
          Counter = dyn_cast<VarDecl>(DS->getSingleDecl());
      ConvergenceObstacle LoopObstacle{For->getForLoc(), ""};
      if (!Counter || !Counter->getInit()) {
        LoopObstacle.Reason = "the loop is not a counted loop with a "
                              "declared counter";
        return LoopObstacle;
      }
      if (auto Why = Prover.whyVaries(Counter->getInit())) {
        LoopObstacle.Reason = "the loop's start varies: " + *Why;
        return LoopObstacle;
      }
      Prover.LoopVars.insert(Counter);
      if (auto Why = Prover.whyVaries(For->getCond())) {
        LoopObstacle.Reason = "the loop's trip count may differ between lanes: " + *Why;
        return LoopObstacle;
      }
      const auto *Inc = For->getInc() ? For->getInc()->IgnoreParenImpCasts() : nullptr;
      bool IncOk = false;
      if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc))
        IncOk = UO->isIncrementDecrementOp();
      else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Inc))
        IncOk = BO->isAssignmentOp() && !Prover.whyVaries(BO->getRHS());
      if (!IncOk) {
        LoopObstacle.Reason = "the loop's step may differ between lanes";
        return LoopObstacle;
      }
      // The counter must change only in the increment.
      llvm::DenseSet<const VarDecl *> InBody;
      collectModified(For->getBody(), InBody);
      if (InBody.contains(Counter)) {
        LoopObstacle.Reason = "the loop's counter is modified in its body";
        return LoopObstacle;
      }
      if (const Stmt *Exit = findEarlyExit(For->getBody()))
        return ConvergenceObstacle{Exit->getBeginLoc(),
                                   "lanes may leave the loop early here"};
      continue;
    }
    if (const auto *While = dyn_cast<WhileStmt>(P)) {
      return ConvergenceObstacle{While->getWhileLoc(),
                                 "the call is inside a 'while' loop, whose "
                                 "trip count is not proven the same for "
                                 "every lane"};
    }
    if (const auto *Do = dyn_cast<DoStmt>(P)) {
      return ConvergenceObstacle{Do->getDoLoc(),
                                 "the call is inside a 'do' loop, whose trip "
                                 "count is not proven the same for every lane"};
    }
    if (const auto *Range = dyn_cast<CXXForRangeStmt>(P)) {
      if (C == Range->getBody())
        return ConvergenceObstacle{Range->getForLoc(),
                                   "the call is inside a range-based loop, "
                                   "whose trip count is not proven the same "
                                   "for every lane"};
    }
  }

  // Then every condition S is nested under.
  for (auto It = Chain.rbegin(); It != Chain.rend(); ++It) {
    const Stmt *P = It->first.get<Stmt>();
    const Stmt *C = It->second;
    const Expr *Cond = nullptr;
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (C == If->getThen() || C == If->getElse())
        Cond = If->getCond();
      if (If->isConsteval() || If->isConstexpr())
        Cond = nullptr;
    } else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P)) {
      if (C == CO->getTrueExpr() || C == CO->getFalseExpr())
        Cond = CO->getCond();
    } else if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isLogicalOp() && C == BO->getRHS())
        Cond = BO->getLHS();
    } else if (const auto *Switch = dyn_cast<SwitchStmt>(P)) {
      if (C == Switch->getBody())
        Cond = Switch->getCond();
    }
    if (!Cond)
      continue;
    if (auto Why = Prover.whyVaries(Cond))
      return ConvergenceObstacle{Cond->getBeginLoc(), *Why};
  }

  if (const Stmt *Exit = findExitBefore(Body, S->getBeginLoc(), SM)) {
    const char *What = isa<ReturnStmt>(Exit)   ? "a 'return'"
                       : isa<LabelStmt>(Exit) ? "a label"
                       : isa<CallExpr>(Exit)  ? "a call that does not return"
                                              : "a 'goto'";
    return ConvergenceObstacle{
        Exit->getBeginLoc(),
        std::string(What) + " before the call may leave some lanes behind"};
  }

  return entryObstacle(F);
}

} // namespace cuda_tidy
