//===--- WarpConvergence.cpp - Does the whole warp reach a point? ---------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/uniformity/WarpConvergence.h"
#include "lib/ast/CudaAST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace cuda_tidy {

static constexpr unsigned MaxCallerDepth = 4;

WarpConvergence::WarpConvergence(UniformityAnalysis &Analysis,
                                 const CallGraphIndex &Calls)
    : Analysis(Analysis), Calls(Calls) {}

WarpConvergence::~WarpConvergence() = default;

/// Why E differs between lanes, as a clause ("the condition depends on
/// 'threadIdx.x'"), following local variables to what they were set from.
std::string WarpConvergence::whyVaries(const FunctionUniformity &FU,
                                       const Expr *E, unsigned Depth) {
  if (!E)
    return "the condition may differ between lanes";
  if (Depth > 8)
    return "the expression is too deep to analyse";
  if (auto Ref = getBuiltinVarRef(E))
    return "the condition depends on '" + builtinVarSpelling(*Ref) + "'";
  const Expr *Stripped = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Stripped)) {
    std::string Name = "'" + DRE->getDecl()->getNameAsString() + "'";
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return "the condition depends on " + Name;
    std::optional<ValueOrigin> Origin = FU.origin(V, Uniformity::Thread);
    if (!Origin)
      return "the condition depends on " + Name +
             ", which may differ between lanes";
    if (Origin->UnderControl)
      return "the condition depends on " + Name +
             ", which is set under a condition that differs between lanes";
    if (!Origin->From)
      return "the condition depends on " + Name +
             ", which a call or inline assembly sets per lane";
    return "the condition depends on " + Name + ", and " +
           whyVaries(FU, Origin->From, Depth + 1);
  }
  if (const auto *Call = dyn_cast<CallExpr>(Stripped)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    return "the condition calls '" +
           (Callee ? Callee->getNameAsString() : std::string("a function")) +
           "', whose result may differ between lanes";
  }
  if (isa<ArraySubscriptExpr>(Stripped) ||
      (isa<MemberExpr>(Stripped) && cast<MemberExpr>(Stripped)->isArrow()))
    return "the condition reads memory that may differ between lanes";
  if (const auto *UO = dyn_cast<UnaryOperator>(Stripped);
      UO && UO->getOpcode() == UO_Deref)
    return "the condition reads memory that may differ between lanes";
  for (const Stmt *Child : Stripped->children()) {
    const auto *CE = dyn_cast_or_null<Expr>(Child);
    if (CE && FU.valueOf(CE).Base == Uniformity::Thread)
      return whyVaries(FU, CE, Depth + 1);
  }
  return "the condition may differ between lanes";
}

std::optional<ConvergenceObstacle>
WarpConvergence::entryObstacle(const FunctionDecl *F, uint64_t ParamMask) {
  if (isKernel(F))
    return std::nullopt;
  std::string Name = "'" + F->getNameAsString() + "'";
  ConvergenceObstacle NotProven{
      F->getLocation(),
      Name + " is not a kernel, and not every call to it is proven to be "
             "reached by the whole warp"};
  if (Depth >= MaxCallerDepth)
    return NotProven;
  llvm::ArrayRef<CallSite> Sites = Calls.callersOf(F);
  if (Sites.empty() && !Calls.isAddressTaken(F))
    return ConvergenceObstacle{F->getLocation(),
                               Name + " is not a kernel and has no caller in "
                                      "this translation unit"};
  // A function whose address is taken may be called from anywhere.
  if (Calls.isAddressTaken(F))
    return NotProven;
  ++Depth;
  std::optional<ConvergenceObstacle> Result;
  for (const auto &[Call, Caller] : Sites) {
    if (!Call || !Caller || Caller == F || !Caller->hasBody()) {
      Result = NotProven;
      break;
    }
    if (auto Obstacle = obstacle(Call, Caller)) {
      Result = ConvergenceObstacle{Call->getBeginLoc(),
                                   Name + " is called here, where " +
                                       Obstacle->Reason};
      break;
    }
    if (!ParamMask)
      continue;
    // The arguments that decide whether the statement is reached.
    const FunctionUniformity *CallerFU = Analysis.analyze(Caller);
    if (!CallerFU) {
      Result = NotProven;
      break;
    }
    UniformValue Needed;
    Needed.Params = ParamMask;
    UniformValue Passed = CallerFU->substitute(Needed, Call);
    if (Passed.Base == Uniformity::Thread) {
      Result = ConvergenceObstacle{
          Call->getBeginLoc(),
          Name + " is called here with an argument that may differ between "
                 "lanes, and the call to the intrinsic depends on it"};
      break;
    }
    if (Passed.Params) {
      if (auto Obstacle = entryObstacle(Caller, Passed.Params)) {
        Result = ConvergenceObstacle{Call->getBeginLoc(),
                                     Name + " is called here, where " +
                                         Obstacle->Reason};
        break;
      }
    }
  }
  --Depth;
  return Result;
}

std::optional<ConvergenceObstacle>
WarpConvergence::obstacle(const Stmt *S, const FunctionDecl *F) {
  if (!S || !F || !F->getBody())
    return ConvergenceObstacle{S ? S->getBeginLoc() : SourceLocation(),
                               "the enclosing function is not known"};
  const FunctionUniformity *FU = Analysis.analyze(F);
  if (!FU)
    return ConvergenceObstacle{
        S->getBeginLoc(),
        F->isDependentContext()
            ? "the call is in a template that is analysed only where it is "
              "instantiated"
            : "the function is too large or too unusual to analyse"};

  UniformValue Ctl = FU->controlAt(S, /*CountKernelExits=*/true);
  if (Ctl.Base == Uniformity::Thread) {
    std::optional<DivergenceCause> Cause =
        FU->causeAt(S, Uniformity::Thread, 0, /*CountKernelExits=*/true);
    if (!Cause)
      return ConvergenceObstacle{S->getBeginLoc(),
                                 "only some lanes may reach the call"};
    if (Cause->Return)
      return ConvergenceObstacle{
          Cause->Return->getBeginLoc(),
          "a 'return' before the call may leave some lanes behind"};
    if (Cause->K == DivergenceCause::Loop) {
      const Stmt *Loop = Cause->Terminator;
      if (const auto *For = dyn_cast<ForStmt>(Loop)) {
        if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit()))
          if (DS->isSingleDecl())
            if (const auto *Counter = dyn_cast<VarDecl>(DS->getSingleDecl()))
              if (Counter->getInit() &&
                  FU->valueOf(Counter->getInit()).Base == Uniformity::Thread)
                return ConvergenceObstacle{
                    For->getForLoc(), "the loop's start varies: " +
                                          whyVaries(*FU, Counter->getInit())};
      }
      return ConvergenceObstacle{
          Loop->getBeginLoc(),
          "the loop's trip count may differ between lanes: " +
              whyVaries(*FU, Cause->Condition)};
    }
    const Expr *Cond = Cause->Condition;
    return ConvergenceObstacle{Cond ? Cond->getBeginLoc()
                                    : Cause->Terminator->getBeginLoc(),
                               whyVaries(*FU, Cond)};
  }
  return entryObstacle(F, Ctl.Params);
}

} // namespace cuda_tidy
