//===--- BlockBarriers.cpp - Barriers every thread of a block reaches -----===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/races/BlockBarriers.h"
#include "lib/ast/CudaAST.h"
#include "lib/lanes/LaneModel.h"
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
static bool boundUniform(UniformityAnalysis &Plain, UniformValue V,
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

std::optional<BarrierTable> blockBarriers(LaneModel &M,
                                          UniformityAnalysis &Plain,
                                          FunctionInfo &I, const Frame &Fr,
                                          bool MayReachBarrier) {
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
    if (boundUniform(Plain, V, Fr))
      Mark(B.Site);
  }
  const SourceManager &SM = M.Ctx.getSourceManager();
  for (const CFGBlock *Block : I.Blocks) {
    if (!Block)
      continue;
    for (const CFGElement &El : *Block)
      if (auto CS = El.getAs<CFGStmt>())
        if (isBarrierWait(CS->getStmt()) || isOpaqueUserCall(CS->getStmt(), SM))
          Mark(CS->getStmt());
  }
  return Table;
}

bool everyThreadReaches(LaneModel &M, UniformityAnalysis &Plain,
                        const Stmt *S, const Frame &Fr) {
  for (const Frame *C : M.Calls.contextsOf(Fr.F)) {
    const FunctionUniformity *FU = Plain.analyze(C->F);
    if (!FU || !boundUniform(Plain, FU->controlAt(S), *C))
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
  if (X.First == X.Second) {
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
    if (!Body || Body->body_empty() || hasJumpOrLabel(Body) ||
        Body->getRBracLoc().isMacroID() || !Reaches(Body->body_back())) {
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
