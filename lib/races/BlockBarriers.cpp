//===--- BlockBarriers.cpp - Barriers every thread of a block reaches -----===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/races/BlockBarriers.h"
#include "lib/ast/CudaAST.h"
#include "lib/lanes/LaneModel.h"
#include "lib/races/MbarrierWaits.h"
#include "lib/uniformity/Uniformity.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_tidy {

using namespace lanes;

/// V (a level in Fr's function) with the arguments of the context's calls
/// bound, joined with the control at each call: block-uniform? At a root
/// that is not a kernel, its parameters are taken as the same in every
/// thread (its callers are not known).
bool boundBlockUniform(UniformityAnalysis &Plain, UniformValue V,
                       const Frame &Fr) {
  const Frame *Cur = &Fr;
  for (; Cur->Call && Cur->Parent; Cur = Cur->Parent) {
    const FunctionUniformity *PU = Plain.analyze(Cur->Parent->F);
    if (!PU)
      return false;
    V = join(PU->substitute(V, Cur->Call), PU->controlAt(Cur->Call));
  }
  if (!isKernel(Cur->F))
    V.Params = 0;
  return V.isBlockUniform();
}

/// `cuda::barrier` (or `cuda::std::barrier`) arrive-and-wait, or the wait
/// of a split arrive and wait (`auto t = bar.arrive(); bar.wait(std::move(t))`:
/// what threads wrote before their arrive is visible after the wait; the
/// accesses between the two are taken as ordered too).
static bool isBarrierWait(const Stmt *S) {
  const auto *MCE = dyn_cast<CXXMemberCallExpr>(S);
  const CXXMethodDecl *MD = MCE ? MCE->getMethodDecl() : nullptr;
  if (!MD || !MD->getDeclName().isIdentifier() ||
      (MD->getName() != "arrive_and_wait" && MD->getName() != "wait"))
    return false;
  const CXXRecordDecl *RD = MD->getParent();
  return RD && RD->getDeclName().isIdentifier() &&
         RD->getName().contains("barrier");
}

/// A call of a user function whose body is not visible: it may hold a
/// barrier.
static bool isOpaqueUserCall(const Stmt *S, const SourceManager &SM) {
  const auto *Call = dyn_cast<CallExpr>(S);
  if (!Call || isa<CUDAKernelCallExpr>(Call))
    return false;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || Callee->getBuiltinID() || Callee->hasBody() ||
      isCudaHeaderDecl(Callee, SM))
    return false;
  return !SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation()));
}

/// The type of E names cooperative groups' thread_block (a reference to
/// one, or a value of the type).
static bool isThreadBlockType(QualType T) {
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier() || RD->getName() != "thread_block")
    return false;
  for (const DeclContext *DC = RD->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
        NS && NS->getName() == "cooperative_groups")
      return true;
  return false;
}

/// `g.sync()` or `cooperative_groups::sync(g)` on a local `thread_group g`
/// made from the block (`cg::thread_group g = cg::this_thread_block();`)
/// and not assigned since: a block barrier. (A `thread_block` group is
/// recognised by the uniformity analysis; tiles and coalesced groups are
/// not the block.)
static bool isBlockGroupSync(const Stmt *S, FunctionInfo &I) {
  const auto *Call = dyn_cast<CallExpr>(S);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() || FD->getName() != "sync")
    return false;
  const Expr *Obj = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    Obj = MC->getImplicitObjectArgument();
  else if (Call->getNumArgs() == 1)
    Obj = Call->getArg(0);
  const VarDecl *V = Obj ? refVar(Obj->IgnoreParenImpCasts()) : nullptr;
  if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType() ||
      !V->getInit() || I.Mods.count(V))
    return false;
  const CXXRecordDecl *RD = V->getType()->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier() || RD->getName() != "thread_group")
    return false;
  bool InGroups = false;
  for (const DeclContext *DC = FD->getDeclContext(); DC && !InGroups;
       DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      InGroups = NS->getName() == "cooperative_groups";
  if (!InGroups)
    return false;
  // The initialiser, through the conversion to thread_group.
  const Expr *Init = V->getInit();
  while (true) {
    Init = Init->IgnoreImplicit();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(Init);
        CE && CE->getNumArgs() == 1 && !isThreadBlockType(Init->getType())) {
      Init = CE->getArg(0);
      continue;
    }
    if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(Init)) {
      Init = FC->getSubExpr();
      continue;
    }
    break;
  }
  return isThreadBlockType(Init->getType());
}

std::optional<BarrierTable> blockBarriers(LaneModel &M,
                                          UniformityAnalysis &Plain,
                                          FunctionInfo &I, const Frame &Fr,
                                          bool MayReachBarrier,
                                          MbarrierWaits &Waits) {
  const FunctionUniformity *FU = nullptr;
  if (MayReachBarrier && !(FU = Plain.analyze(Fr.F)))
    return std::nullopt;
  BarrierTable Table(I.Barrier.size());
  for (unsigned B = 0; B < I.Barrier.size(); ++B)
    Table[B].assign(I.Barrier[B].size(), false);
  auto Mark = [&](const Stmt *S) {
    auto It = I.Positions.find(S);
    if (It != I.Positions.end())
      Table[It->second.Block][It->second.Index] = true;
  };
  for (const BarrierSite &B :
       FU ? FU->barriers() : llvm::ArrayRef<BarrierSite>()) {
    if (B.WarpBarrier)
      continue;
    UniformValue V = FU->controlAt(B.Site);
    if (B.Callee)
      if (const FunctionSummary *S = Plain.summary(B.Callee))
        V = join(V, FU->substitute(S->BarrierControl, cast<CallExpr>(B.Site)));
    if (boundBlockUniform(Plain, V, Fr))
      Mark(B.Site);
  }
  const SourceManager &SM = M.Ctx.getSourceManager();
  for (const CFGBlock *Block : I.Blocks) {
    if (!Block)
      continue;
    for (const CFGElement &El : *Block)
      if (auto CS = El.getAs<CFGStmt>()) {
        const Stmt *S = CS->getStmt();
        if (isBarrierWait(S) || isOpaqueUserCall(S, SM) ||
            Waits.completesWait(S, I)) {
          Mark(S);
        } else if (isBlockGroupSync(S, I)) {
          // Every thread of the block reaches it: the same proof as for the
          // barriers the uniformity analysis recognises.
          if (!FU)
            FU = Plain.analyze(Fr.F);
          if (FU && boundBlockUniform(Plain, FU->controlAt(S), Fr))
            Mark(S);
        }
      }
  }
  return Table;
}

/// E is a condition that no thread changes while it runs and that reads
/// no memory another thread writes: constants and the values of locals and
/// parameters (Vars) under arithmetic and comparisons.
static bool pureCondition(const Expr *E,
                          llvm::SmallVectorImpl<const VarDecl *> &Vars) {
  E = E->IgnoreParenImpCasts();
  if (isa<IntegerLiteral, CXXBoolLiteralExpr, CharacterLiteral>(E))
    return true;
  if (const auto *Sub = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
    return pureCondition(Sub->getReplacement(), Vars);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl, NonTypeTemplateParmDecl>(DRE->getDecl()))
      return true;
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType() ||
        V->getType().isVolatileQualified() || !V->getType()->isScalarType())
      return false;
    Vars.push_back(V);
    return true;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && !BO->isLogicalOp() &&
           BO->getOpcode() != BO_Comma && pureCondition(BO->getLHS(), Vars) &&
           pureCondition(BO->getRHS(), Vars);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Not ||
            UO->getOpcode() == UO_LNot || UO->getOpcode() == UO_Plus) &&
           pureCondition(UO->getSubExpr(), Vars);
  return false;
}

/// Whether Held (a loop's or an `if`'s condition, true on entry to the
/// statement it guards) has Cond as one of its `&&` operands.
static bool implies(const Expr *Held, const llvm::FoldingSetNodeID &Cond,
                    const ASTContext &Ctx) {
  Held = Held->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(Held);
      BO && BO->getOpcode() == BO_LAnd)
    return implies(BO->getLHS(), Cond, Ctx) || implies(BO->getRHS(), Cond, Ctx);
  llvm::FoldingSetNodeID ID;
  Held->Profile(ID, Ctx, /*Canonical=*/true);
  return ID == Cond;
}

/// Whether the condition of If, around a barrier in its then-arm, is
/// implied true where it is tested (see deadEdges).
static bool impliedTrue(const IfStmt *If, const FunctionInfo &I,
                        const ASTContext &Ctx) {
  if (If->getInit() || If->getConditionVariable() || If->isConsteval())
    return false;
  llvm::SmallVector<const VarDecl *, 4> Vars;
  if (!pureCondition(If->getCond(), Vars))
    return false;
  // A variable whose address is taken may change through a pointer.
  for (const VarDecl *V : Vars)
    for (const Stmt *Mod : I.Mods.lookup(V))
      if (const auto *UO = dyn_cast<UnaryOperator>(Mod);
          UO && UO->getOpcode() == UO_AddrOf)
        return false;
  llvm::FoldingSetNodeID Cond;
  If->getCond()->IgnoreParenImpCasts()->Profile(Cond, Ctx, /*Canonical=*/true);
  const ParentMap &PM = *I.PM;
  for (const Stmt *Child = If, *Parent = PM.getParent(If); Parent;
       Child = Parent, Parent = PM.getParent(Parent)) {
    if (isa<LambdaExpr>(Parent))
      return false;
    const Expr *Held = nullptr;
    if (const auto *For = dyn_cast<ForStmt>(Parent); For && Child == For->getBody())
      Held = For->getCond();
    else if (const auto *While = dyn_cast<WhileStmt>(Parent);
             While && Child == While->getBody() && !While->getConditionVariable())
      Held = While->getCond();
    else if (const auto *Outer = dyn_cast<IfStmt>(Parent);
             Outer && Child == Outer->getThen() && !Outer->getInit() &&
             !Outer->getConditionVariable() && !Outer->isConsteval())
      Held = Outer->getCond();
    if (!Held || !implies(Held, Cond, Ctx))
      continue;
    // Nothing from the statement's entry to If writes the variables (a
    // loop's increment runs before the test, not in the body).
    for (const VarDecl *V : Vars)
      for (const Stmt *Mod : I.Mods.lookup(V))
        if (isDescendantOf(Mod, Child, PM))
          return false;
    return true;
  }
  return false;
}

/// Whether the condition of If, around a barrier that every thread reaches
/// (so the condition is the same in every thread), is known true in the
/// context Fr: `if (final_sync) __syncthreads();` in a helper called with
/// `true`. Conditions that read blockDim or loop variables are not.
static bool provenTaken(LaneModel &M, const IfStmt *If, const Frame &Fr) {
  if (If->getInit() || If->getConditionVariable() || If->isConsteval())
    return false;
  Env En;
  bool ReadsBlockDim = false;
  En.ReadBlockDim = &ReadsBlockDim;
  std::optional<int64_t> V = M.Values.eval(If->getCond(), Fr, En);
  return V && *V != 0 && !ReadsBlockDim;
}

llvm::SmallVector<std::pair<unsigned, unsigned>, 2>
deadEdges(LaneModel &M, FunctionInfo &I, const Frame &Fr,
          const BarrierTable &Barriers) {
  llvm::SmallVector<std::pair<unsigned, unsigned>, 2> Out;
  llvm::SmallPtrSet<const IfStmt *, 4> Seen;
  for (unsigned B = 0; B < Barriers.size(); ++B)
    for (unsigned K = 0; K < Barriers[B].size(); ++K) {
      if (!Barriers[B][K] || !I.Blocks[B])
        continue;
      auto CS = (*I.Blocks[B])[K].getAs<CFGStmt>();
      if (!CS)
        continue;
      // The `if`s whose then-arm holds the barrier.
      for (const Stmt *Child = CS->getStmt(), *Parent = I.PM->getParent(Child);
           Parent; Child = Parent, Parent = I.PM->getParent(Parent)) {
        const auto *If = dyn_cast<IfStmt>(Parent);
        if (!If || Child != If->getThen() || !Seen.insert(If).second ||
            !(impliedTrue(If, I, M.Ctx) || provenTaken(M, If, Fr)))
          continue;
        for (const CFGBlock *Test : I.Blocks)
          if (Test && Test->getTerminatorStmt() == If && Test->succ_size() == 2)
            if (const CFGBlock *False = Test->succ_begin()[1].getReachableBlock())
              Out.push_back({Test->getBlockID(), False->getBlockID()});
      }
    }
  return Out;
}

bool everyThreadReaches(LaneModel &M, UniformityAnalysis &Plain,
                        const Stmt *S, const Frame &Fr) {
  for (const Frame *C : M.Calls.contextsOf(Fr.F)) {
    const FunctionUniformity *FU = Plain.analyze(C->F);
    if (!FU || !boundBlockUniform(Plain, FU->controlAt(S), *C))
      return false;
  }
  return true;
}

} // namespace cuda_tidy

namespace cuda_tidy {

/// A jump, label or `return` in S: a barrier placed after S or at the end
/// of a block holding S could be skipped.
static bool hasJumpOrLabel(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt, BreakStmt, ContinueStmt,
          LabelStmt, SwitchCase, CXXThrowExpr>(S))
    return true;
  for (const Stmt *Child : S->children())
    if (hasJumpOrLabel(Child))
      return true;
  return false;
}

/// A label or case in S: a jump to it enters S past a barrier placed before
/// S (a jump out of S does not skip such a barrier).
static bool hasLabel(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (isa<LabelStmt, SwitchCase>(S))
    return true;
  for (const Stmt *Child : S->children())
    if (hasLabel(Child))
      return true;
  return false;
}

/// The child of compound statement C that holds S.
static const Stmt *childHolding(const CompoundStmt *C, const Stmt *S,
                                const ParentMap &PM) {
  for (const Stmt *Cur = S; Cur; Cur = PM.getParent(Cur))
    if (PM.getParent(Cur) == C)
      return Cur;
  return nullptr;
}

/// `lhs = rhs;` or `lhs op= rhs;` of arithmetic type, with neither side
/// calling or writing anything: its value can go through a temporary.
static const BinaryOperator *splittable(const Stmt *S) {
  const auto *E = dyn_cast<Expr>(S);
  const auto *BO =
      E ? dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts()) : nullptr;
  if (!BO || !BO->isAssignmentOp() ||
      !BO->getLHS()->getType()->isArithmeticType())
    return nullptr;
  llvm::SmallVector<const Stmt *, 16> Work{BO->getLHS(), BO->getRHS()};
  while (!Work.empty()) {
    const Stmt *X = Work.pop_back_val();
    if (!X)
      continue;
    if (isa<CallExpr, StmtExpr, LambdaExpr>(X))
      return nullptr;
    if (const auto *B = dyn_cast<BinaryOperator>(X); B && B->isAssignmentOp())
      return nullptr;
    if (const auto *U = dyn_cast<UnaryOperator>(X);
        U && U->isIncrementDecrementOp())
      return nullptr;
    for (const Stmt *C : X->children())
      Work.push_back(C);
  }
  return BO;
}

/// Whether every thread reaches the point before Second, a later child of
/// Scope than First. A loop statement's own control is that of its test,
/// which the loop's iterations make varying: the point before it is reached
/// as widely as First is when nothing between them jumps.
static bool reachedBefore(const CompoundStmt *Scope, const Stmt *First,
                          const Stmt *Second,
                          llvm::function_ref<bool(const Stmt *)> Reaches) {
  if (!isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Second))
    return Reaches(Second);
  if (const auto *For = dyn_cast<ForStmt>(Second); For && For->getInit())
    return Reaches(For->getInit());
  bool Between = false;
  for (const Stmt *Child : Scope->body()) {
    if (Child == First)
      Between = true;
    else if (Child == Second)
      break;
    else if (Between && hasJumpOrLabel(Child))
      return false;
  }
  return Between && !hasJumpOrLabel(First) && Reaches(First);
}

BarrierFix placeBarrier(LaneModel &M, UniformityAnalysis &Plain,
                        FunctionInfo &I, const Frame &Fr, const SharedRace &X,
                        bool InIteration, bool ThroughBackEdge) {
  BarrierFix Fix;
  const ParentMap &PM = *I.PM;
  auto Reaches = [&](const Stmt *S) {
    return everyThreadReaches(M, Plain, S, Fr);
  };
  if (Fr.F->hasAttr<CUDAHostAttr>()) {
    Fix.WhyNot = "'__syncthreads' cannot be called from the host side of a "
                 "'__host__ __device__' function";
    return Fix;
  }
  if (X.Branch) {
    Fix.WhyNot = "the accesses are on the two arms of a branch that splits "
                 "the block: no point between them is reached by every "
                 "thread";
    return Fix;
  }
  // One statement of a helper made in two calls is two statements here.
  if (X.First == X.Second && X.FirstCall == X.SecondCall) {
    Fix.WhyNot = "threads of different warps update the element in the same "
                 "statement: a barrier cannot order their updates; make the "
                 "update atomic or give each thread its own element";
    return Fix;
  }
  if (InIteration) {
    if (X.FirstStmt == X.SecondStmt) {
      // `s[t] = s[t + 1] + x;`: the read into a temporary first.
      const BinaryOperator *BO = splittable(X.SecondStmt);
      if (!BO || !isa_and_nonnull<CompoundStmt>(PM.getParent(X.SecondStmt)) ||
          X.SecondStmt->getBeginLoc().isMacroID() || !Reaches(X.SecondStmt)) {
        Fix.WhyNot = "both accesses are in one statement that cannot be "
                     "split where every thread of the block runs it";
        return Fix;
      }
      Fix.Split = BO;
    } else {
      // Before the statement, in the innermost block holding both, that
      // holds the second.
      const CompoundStmt *Scope = nullptr;
      for (const Stmt *Cur = PM.getParent(X.FirstStmt); Cur && !Scope;
           Cur = PM.getParent(Cur))
        if (const auto *CS = dyn_cast<CompoundStmt>(Cur);
            CS && isDescendantOf(X.SecondStmt, CS, PM))
          Scope = CS;
      const Stmt *Second =
          Scope ? childHolding(Scope, X.SecondStmt, PM) : nullptr;
      const Stmt *First = Scope ? childHolding(Scope, X.FirstStmt, PM) : nullptr;
      if (!Second || !First || First == Second ||
          Second->getBeginLoc().isMacroID() || hasLabel(Second) ||
          !reachedBefore(Scope, First, Second, Reaches)) {
        Fix.WhyNot = "no point between the two accesses is reached by every "
                     "thread of the block";
        return Fix;
      }
      Fix.Before = Second;
      Fix.Scope = Scope;
    }
  }
  if (ThroughBackEdge) {
    const auto *Body = X.Loop ? dyn_cast_or_null<CompoundStmt>(
                                    isa<ForStmt>(X.Loop)
                                        ? cast<ForStmt>(X.Loop)->getBody()
                                    : isa<WhileStmt>(X.Loop)
                                        ? cast<WhileStmt>(X.Loop)->getBody()
                                        : cast<DoStmt>(X.Loop)->getBody())
                              : nullptr;
    // A body that ends in a loop (a stride loop over the row): its end is
    // reached as widely as the loop's start.
    auto ReachesEnd = [&] {
      const Stmt *Last = Body->body_back();
      if (const auto *For = dyn_cast<ForStmt>(Last); For && For->getInit())
        return Reaches(For->getInit());
      return !isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Last) &&
             Reaches(Last);
    };
    if (!Body || Body->body_empty() || hasJumpOrLabel(Body) ||
        Body->getRBracLoc().isMacroID() || !ReachesEnd()) {
      Fix = BarrierFix();
      Fix.WhyNot = "the end of the loop body is not a point every thread of "
                   "the block reaches on each iteration";
      return Fix;
    }
    Fix.AtEndOf = Body;
  }
  return Fix;
}

} // namespace cuda_tidy
