//===--- SpinWaits.cpp - Loops spinning on a plain global load ------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/ordering/MemoryOrderingImpl.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace cuda_tidy {

/// `threadIdx.x` and friends: a call of the headers' property getter.
static bool isBuiltinVarRead(const CallExpr &Call) {
  return calleeName(Call).starts_with("__fetch_builtin_");
}

namespace {
/// The loads of a loop condition: plain loads of global memory, and whether
/// anything else (a call, a volatile or atomic access, an assignment) makes
/// the condition more than a read of a flag.
class ConditionReader : public DynamicRecursiveASTVisitor {
public:
  explicit ConditionReader(const FunctionDecl &F) : Func(F) {}
  const Expr *FlagLoad = nullptr;
  const ValueDecl *Flag = nullptr;
  SmallVector<const VarDecl *, 4> Locals;
  bool Opaque = false;

  bool VisitCallExpr(CallExpr *Call) override {
    return isBuiltinVarRead(*Call) ? true : stop();
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *) override { return stop(); }
  bool VisitBinaryOperator(BinaryOperator *BO) override {
    return BO->isAssignmentOp() ? stop() : true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) override {
    return UO->isIncrementDecrementOp() ? stop() : true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) override {
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      if (V->isLocalVarDeclOrParm())
        Locals.push_back(V);
    return true;
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *ICE) override {
    if (ICE->getCastKind() != CK_LValueToRValue)
      return true;
    const Expr *LValue = ICE->getSubExpr();
    if (!isPlainMemoryLValue(LValue))
      return true;
    if (LValue->getType().isVolatileQualified())
      return stop();
    MemoryBase Base = memoryBaseOf(LValue, &Func);
    if (Base.Space == MemorySpace::Global && Base.Decl && !FlagLoad) {
      FlagLoad = LValue;
      Flag = Base.Decl;
    }
    return true;
  }

private:
  bool stop() {
    Opaque = true;
    return false;
  }
  const FunctionDecl &Func;
};

/// Whether a loop body could make the flag's value change as the compiler
/// sees it: a store to the flag's base, a call other than `__nanosleep`, an
/// asm statement, an atomic or a fence.
class BodyEffects : public DynamicRecursiveASTVisitor {
public:
  BodyEffects(const FunctionDecl &F, const ValueDecl *Flag)
      : Func(F), Flag(Flag) {}
  bool MayChange = false;

  bool VisitCallExpr(CallExpr *Call) override {
    return calleeName(*Call) == "__nanosleep" || isBuiltinVarRead(*Call)
               ? true
               : stop();
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) override {
    return CE->getConstructor() && CE->getConstructor()->isTrivial() ? true
                                                                     : stop();
  }
  bool VisitGCCAsmStmt(GCCAsmStmt *) override { return stop(); }
  bool VisitBinaryOperator(BinaryOperator *BO) override {
    if (BO->isAssignmentOp() && writesFlag(BO->getLHS()))
      return stop();
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) override {
    if (UO->isIncrementDecrementOp() && writesFlag(UO->getSubExpr()))
      return stop();
    return true;
  }

private:
  bool writesFlag(const Expr *LHS) const {
    if (!isPlainMemoryLValue(LHS))
      return false;
    MemoryBase Base = memoryBaseOf(LHS, &Func);
    // A store through an address of unknown origin may alias the flag.
    return Base.Decl == Flag || Base.Space == MemorySpace::Unknown;
  }
  bool stop() {
    MayChange = true;
    return false;
  }
  const FunctionDecl &Func;
  const ValueDecl *Flag;
};
} // namespace

static unsigned countJumps(const Stmt *S) {
  unsigned Jumps = isa<BreakStmt>(S) || isa<ReturnStmt>(S) ||
                   isa<GotoStmt>(S) || isa<ContinueStmt>(S);
  for (const Stmt *Child : S->children())
    if (Child)
      Jumps += countJumps(Child);
  return Jumps;
}

/// For a loop with no condition or a constant true one, whose only way out
/// is one `if (c) break;` (or `return;`) at the top level of its body, the
/// condition c; null otherwise.
static const Expr *exitCondition(const Expr *LoopCond, const Stmt *Body,
                                 const ASTContext &Ctx) {
  bool Constant = false;
  if (LoopCond &&
      (!LoopCond->EvaluateAsBooleanCondition(Constant, Ctx) || !Constant))
    return nullptr;
  const auto *Block = dyn_cast_or_null<CompoundStmt>(Body);
  if (!Block || countJumps(Block) != 1)
    return nullptr;
  for (const Stmt *Child : Block->body()) {
    const auto *If = dyn_cast<IfStmt>(Child);
    if (!If || If->getElse() || If->getInit() || If->getConditionVariable())
      continue;
    const Stmt *Then = If->getThen();
    if (const auto *Inner = dyn_cast<CompoundStmt>(Then))
      Then = Inner->size() == 1 ? Inner->body_front() : nullptr;
    if (Then && (isa<BreakStmt>(Then) || isa<ReturnStmt>(Then)))
      return If->getCond();
  }
  return nullptr;
}

std::optional<PlainSpinWait> findPlainSpinWait(const Stmt &Loop,
                                               const FunctionDecl &Func) {
  const Expr *Cond = nullptr;
  const Stmt *Body = nullptr;
  if (const auto *While = dyn_cast<WhileStmt>(&Loop)) {
    if (While->getConditionVariable())
      return std::nullopt;
    Cond = While->getCond(), Body = While->getBody();
  } else if (const auto *Do = dyn_cast<DoStmt>(&Loop)) {
    Cond = Do->getCond(), Body = Do->getBody();
  } else if (const auto *For = dyn_cast<ForStmt>(&Loop)) {
    if (For->getInc() || For->getConditionVariable())
      return std::nullopt;
    Cond = For->getCond(), Body = For->getBody();
  }
  if (!Body)
    return std::nullopt;
  // `for (;;) { if (*flag) break; }`: the exit's condition is the wait's.
  if (const Expr *Exit = exitCondition(Cond, Body, Func.getASTContext()))
    Cond = Exit;
  else if (!Cond || countJumps(Body) > 0)
    return std::nullopt;
  ConditionReader Reader(Func);
  Reader.TraverseStmt(const_cast<Expr *>(Cond));
  if (Reader.Opaque || !Reader.FlagLoad)
    return std::nullopt;
  // A local of the condition that the body changes ends the loop another
  // way (`while (*flag == 0 && tries++ < 8)` counts down).
  for (const VarDecl *V : Reader.Locals)
    if (isReassignedIn(V, Body))
      return std::nullopt;
  BodyEffects Effects(Func, Reader.Flag);
  Effects.TraverseStmt(const_cast<Stmt *>(Body));
  if (Effects.MayChange)
    return std::nullopt;
  return PlainSpinWait{Reader.FlagLoad, Reader.Flag};
}

} // namespace cuda_tidy
