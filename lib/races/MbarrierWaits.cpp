//===--- MbarrierWaits.cpp - Completed waits on an mbarrier ---------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/races/MbarrierWaits.h"
#include "lib/ast/CudaAST.h"
#include "lib/asynccopy/AsyncCopyEvents.h"
#include "lib/asynccopy/AsyncCopyOrdering.h"
#include "lib/lanes/LaneModel.h"
#include "lib/races/SharedRaces.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include <memory>

using namespace clang;

namespace cuda_tidy {

using namespace lanes;

/// PTX text holds a branch (`bra`, `@p bra.uni DONE`): a loop around its
/// try_wait.
static bool hasBranch(StringRef Text) {
  for (size_t At = Text.find("bra"); At != StringRef::npos;
       At = Text.find("bra", At + 1)) {
    const bool Before = At == 0 || isspace(Text[At - 1]);
    const char After = At + 3 < Text.size() ? Text[At + 3] : ' ';
    if (Before && (isspace(After) || After == '.'))
      return true;
  }
  return false;
}

MbarrierWaits::Kind MbarrierWaits::kindOf(const Stmt *S, unsigned Depth) {
  const auto *Call = dyn_cast<CallExpr>(S);
  const auto *Asm = dyn_cast<GCCAsmStmt>(S);
  if (!Call && !Asm)
    return Kind::None;
  const FunctionDecl *FD = nullptr;
  if (Call) {
    FD = Call->getDirectCallee();
    if (!FD)
      FD = resolveCallee(Call);
    // clang's own builtins (`__nvvm_mbarrier_test_wait_shared`) and the
    // toolkit's primitives (`__mbarrier_try_wait_parity`).
    if (FD && FD->getDeclName().isIdentifier() &&
        (FD->getBuiltinID() || FD->getName().starts_with("__mbarrier_"))) {
      StringRef Name = FD->getName();
      return Name.contains("mbarrier") &&
                     (Name.contains("test_wait") || Name.contains("try_wait"))
                 ? Kind::Try
                 : Kind::None;
    }
  }
  for (const asynccopy::Event &E : asynccopy::eventsOf(S, M.Ctx)) {
    if (E.Kind != asynccopy::EventKind::Wait ||
        E.Fam != asynccopy::Family::Barrier)
      continue;
    if (Asm)
      return hasBranch(Asm->getAsmString()) ? Kind::Blocking : Kind::Try;
    StringRef Name = FD && FD->getDeclName().isIdentifier() ? FD->getName()
                                                            : StringRef();
    return Name.contains("try_wait") || Name.contains("test_wait")
               ? Kind::Try
               : Kind::Blocking;
  }
  if (Call && FD && Depth > 0)
    return kindOfCallee(FD, Depth - 1);
  return Kind::None;
}

MbarrierWaits::Kind MbarrierWaits::kindOfCallee(const FunctionDecl *F,
                                                unsigned Depth) {
  const FunctionDecl *Def = nullptr;
  if (!F->hasBody(Def) || !Def || isInSystemHeader(Def))
    return Kind::None;
  auto [It, New] = Callees.try_emplace(Def, Kind::None);
  if (!New)
    return It->second;
  // The calls and asm statements of the body, in any nesting.
  llvm::SmallVector<const Stmt *, 32> Work{Def->getBody()};
  std::unique_ptr<ParentMap> PM;
  bool SawTry = false, Blocks = false;
  while (!Work.empty() && !Blocks) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    Kind K = kindOf(S, Depth);
    if (K == Kind::Try) {
      if (!PM)
        PM = std::make_unique<ParentMap>(Def->getBody());
      if (inSpinExit(S, *PM))
        Blocks = true;
      else
        SawTry = true;
    } else if (K == Kind::Blocking) {
      Blocks = true;
    }
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  Kind Result = Blocks ? Kind::Blocking
                : SawTry && !Def->getReturnType()->isVoidType() ? Kind::Try
                                                                : Kind::None;
  // A helper that reads or writes shared memory itself has its accesses
  // placed at its call: the call is not a point between them.
  if (Result != Kind::None &&
      !M.Facts.accessesOf(M.Facts.info(Def)).empty())
    Result = Kind::None;
  Callees[Def] = Result;
  return Result;
}

/// A way out of Body other than through its loop's test: a `break` of
/// the loop itself (but Allowed), `return`, `goto`, `throw`.
static bool leavesOtherwise(const Stmt *S, const Stmt *Allowed,
                            bool InInner = false) {
  if (!S || isa<LambdaExpr>(S) || S == Allowed)
    return false;
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt, CXXThrowExpr>(S))
    return true;
  if (isa<BreakStmt>(S) && !InInner)
    return true;
  const bool Inner =
      InInner || isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(S);
  for (const Stmt *Child : S->children())
    if (leavesOtherwise(Child, Allowed, Inner))
      return true;
  return false;
}

/// E is a literal zero or false.
static bool isZero(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *IL = dyn_cast<IntegerLiteral>(E))
    return IL->getValue() == 0;
  if (const auto *BL = dyn_cast<CXXBoolLiteralExpr>(E))
    return !BL->getValue();
  return false;
}

/// E is a constant true (`for (;;)` has none).
static bool isAlwaysTrue(const Expr *E, const ASTContext &Ctx) {
  bool V = false;
  return !E || (!E->isValueDependent() && E->EvaluateAsBooleanCondition(V, Ctx) && V);
}

/// The body of loop L, when L is one.
static const Stmt *loopBody(const Stmt *L) {
  if (const auto *W = dyn_cast<WhileStmt>(L))
    return W->getBody();
  if (const auto *D = dyn_cast<DoStmt>(L))
    return D->getBody();
  if (const auto *F = dyn_cast<ForStmt>(L))
    return F->getBody();
  return nullptr;
}

/// Climbs from S through the parts of a test (`!`, `== 0`, `!= 0`, casts)
/// while its value stays the try's result or its negation (Negated).
static const Stmt *climbTest(const Stmt *S, const ParentMap &PM,
                             bool &Negated) {
  Negated = false;
  const Stmt *Cur = S;
  while (const Stmt *P = PM.getParent(Cur)) {
    if (isa<ParenExpr, ImplicitCastExpr, ExprWithCleanups,
            MaterializeTemporaryExpr, CXXFunctionalCastExpr, CStyleCastExpr>(P)) {
      Cur = P;
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(P);
        UO && UO->getOpcode() == UO_LNot) {
      Negated = !Negated;
      Cur = P;
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P);
        BO && (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE)) {
      const Expr *Other = BO->getLHS() == Cur ? BO->getRHS() : BO->getLHS();
      if (!isZero(Other))
        break;
      if (BO->getOpcode() == BO_EQ)
        Negated = !Negated;
      Cur = P;
      continue;
    }
    break;
  }
  return Cur;
}

/// Result is zero where loop L starts: the statement just before L in its
/// block declares it with a zero initialiser or assigns it zero.
static bool zeroOnEntry(const VarDecl *Result, const Stmt *L,
                        const ParentMap &PM) {
  const auto *Block = dyn_cast_or_null<CompoundStmt>(PM.getParent(L));
  if (!Block)
    return false;
  const Stmt *Prev = nullptr;
  for (const Stmt *S : Block->body()) {
    if (S == L)
      break;
    Prev = S;
  }
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(Prev))
    return llvm::is_contained(DS->decls(), Result) && Result->getInit() &&
           isZero(Result->getInit());
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Prev);
      BO && BO->getOpcode() == BO_Assign)
    return refVar(BO->getLHS()->IgnoreParenImpCasts()) == Result &&
           isZero(BO->getRHS());
  return false;
}

bool MbarrierWaits::inSpinExit(const Stmt *S, const ParentMap &PM) {
  bool Negated = false;
  const Stmt *Test = climbTest(S, PM, Negated);
  const Stmt *P = PM.getParent(Test);
  if (!P)
    return false;
  // `while (!try_wait(..)) ;`: the loop goes on while the try fails.
  const Expr *Cond = nullptr;
  if (const auto *W = dyn_cast<WhileStmt>(P))
    Cond = W->getCond();
  else if (const auto *D = dyn_cast<DoStmt>(P))
    Cond = D->getCond();
  else if (const auto *F = dyn_cast<ForStmt>(P))
    Cond = F->getCond();
  if (Cond && Cond == Test)
    return Negated && !leavesOtherwise(loopBody(P), nullptr);
  // `for (;;) { if (try_wait(..)) break; ... }`.
  if (const auto *If = dyn_cast<IfStmt>(P);
      If && If->getCond() == Test && !Negated && !If->getElse()) {
    const Stmt *Then = If->getThen();
    if (const auto *C = dyn_cast<CompoundStmt>(Then); C && C->size() == 1)
      Then = C->body_front();
    if (!isa<BreakStmt>(Then))
      return false;
    const Stmt *Up = PM.getParent(If);
    if (isa_and_nonnull<CompoundStmt>(Up))
      Up = PM.getParent(Up);
    const Stmt *Body = Up ? loopBody(Up) : nullptr;
    if (!Body || (Body != If && PM.getParent(If) != Body))
      return false;
    const Expr *LoopCond = isa<DoStmt>(Up) ? cast<DoStmt>(Up)->getCond()
                           : isa<WhileStmt>(Up) ? cast<WhileStmt>(Up)->getCond()
                                                : cast<ForStmt>(Up)->getCond();
    return isAlwaysTrue(LoopCond, M.Ctx) && !leavesOtherwise(Body, Then);
  }
  // `do { asm(".. try_wait .." : "=r"(ok) ..); } while (!ok);` or
  // `do { ok = try_wait(..); } while (!ok);`.
  const VarDecl *Result = nullptr;
  const Stmt *Statement = nullptr;
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S); Asm && Test == S) {
    for (unsigned K = 0; K < Asm->getNumOutputs() && !Result; ++K)
      Result = refVar(Asm->getOutputExpr(K)->IgnoreParenImpCasts());
    Statement = Asm;
  } else if (const auto *BO = dyn_cast<BinaryOperator>(P);
             BO && BO->getOpcode() == BO_Assign && BO->getRHS() == Test &&
             !Negated) {
    Result = refVar(BO->getLHS()->IgnoreParenImpCasts());
    Statement = BO;
  }
  if (!Result || !Result->hasLocalStorage())
    return false;
  // The loop whose body holds the statement (in braces or alone).
  const Stmt *Body = PM.getParent(Statement);
  const Stmt *Loop =
      isa_and_nonnull<CompoundStmt>(Body) ? PM.getParent(Body) : Body;
  if (!isa_and_nonnull<CompoundStmt>(Body))
    Body = Statement;
  if (!Loop || loopBody(Loop) != Body || leavesOtherwise(Body, nullptr))
    return false;
  // `do { ... } while (!ok);` runs the try at least once; `while (!ok)
  // { ... }` only when `ok` is zero on entry.
  const Expr *LoopCond = nullptr;
  if (const auto *Do = dyn_cast<DoStmt>(Loop))
    LoopCond = Do->getCond();
  else if (const auto *W = dyn_cast<WhileStmt>(Loop);
           W && zeroOnEntry(Result, W, PM))
    LoopCond = W->getCond();
  if (!LoopCond)
    return false;
  // The test is `!ok` or `ok == 0`: it leaves when the try succeeded.
  const Expr *C = LoopCond->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(C);
      UO && UO->getOpcode() == UO_LNot)
    return refVar(UO->getSubExpr()->IgnoreParenImpCasts()) == Result;
  if (const auto *BO = dyn_cast<BinaryOperator>(C);
      BO && BO->getOpcode() == BO_EQ)
    return (refVar(BO->getLHS()->IgnoreParenImpCasts()) == Result &&
            isZero(BO->getRHS())) ||
           (refVar(BO->getRHS()->IgnoreParenImpCasts()) == Result &&
            isZero(BO->getLHS()));
  return false;
}

bool MbarrierWaits::flagLoopTest(const Stmt *S, const ParentMap &PM) {
  const auto *W = dyn_cast_or_null<WhileStmt>(PM.getParent(S));
  if (!W || W->getCond() != S)
    return false;
  const Stmt *Try = W->getBody();
  if (const auto *C = dyn_cast_or_null<CompoundStmt>(Try))
    Try = C->size() == 1 ? C->body_front() : nullptr;
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Try);
      BO && BO->getOpcode() == BO_Assign)
    Try = BO->getRHS()->IgnoreParenImpCasts();
  if (!isa_and_nonnull<CallExpr, GCCAsmStmt>(Try) ||
      kindOf(Try, /*Depth=*/3) != Kind::Try)
    return false;
  return inSpinExit(Try, PM);
}

bool MbarrierWaits::completesWait(const Stmt *S, FunctionInfo &I) {
  // `ok = 0; while (!ok) { ok = try_wait(..); }`: every path out of the
  // loop runs the try until it succeeds, and the body holds nothing else,
  // so the test itself is the point after which the phase has completed
  // (the try in the body is not: a path skips the body in the CFG).
  if (isa<UnaryOperator, BinaryOperator>(S) && flagLoopTest(S, *I.PM))
    return true;
  if (!isa<CallExpr, GCCAsmStmt>(S))
    return false;
  // The quick test: a call of a function the user did not write waits
  // only if its name says so (`wait`, `try_wait`, `test_wait`).
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = Call->getDirectCallee()) {
      const FunctionDecl *Def = nullptr;
      const bool UserBody = FD->hasBody(Def) && Def && !isInSystemHeader(Def);
      if (!UserBody &&
          (!FD->getDeclName().isIdentifier() || !FD->getName().contains("wait")))
        return false;
    }
  switch (kindOf(S, /*Depth=*/3)) {
  case Kind::None:
    return false;
  case Kind::Blocking:
    return true;
  case Kind::Try:
    return inSpinExit(S, *I.PM);
  }
  return false;
}

bool repeatsMissingWait(const SharedRace &Race,
                        llvm::ArrayRef<asynccopy::Finding> Findings,
                        const SourceManager &SM) {
  if (Race.FirstCall || Race.SecondCall || Race.FirstRole == Role::Read ||
      Race.FirstRole == Role::Atomic)
    return false;
  const SourceLocation Write = SM.getFileLoc(Race.First->getBeginLoc());
  const SourceLocation Second = SM.getFileLoc(Race.Second->getBeginLoc());
  for (const asynccopy::Finding &F : Findings) {
    if ((F.Kind != asynccopy::FindingKind::ReadInFlight &&
         F.Kind != asynccopy::FindingKind::WriteInFlight) ||
        F.Fam != asynccopy::Family::Barrier || !F.Source)
      continue;
    // The finding's copy, and those of the accesses merged into it.
    auto Between = [&](const Stmt *Source) {
      const SourceLocation Issue = SM.getFileLoc(Source->getBeginLoc());
      return SM.isBeforeInTranslationUnit(Write, Issue) &&
             SM.isBeforeInTranslationUnit(Issue, Second);
    };
    if (Between(F.Source) ||
        llvm::any_of(F.Also, [&](const asynccopy::Finding::SameCause &A) {
          return A.Source && Between(A.Source);
        }))
      return true;
  }
  return false;
}

} // namespace cuda_tidy
