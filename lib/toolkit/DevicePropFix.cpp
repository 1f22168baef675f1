//===--- DevicePropFix.cpp - Removed cudaDeviceProp fields ----------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/toolkit/DevicePropFix.h"
#include "lib/ast/CudaAST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace cuda_tidy {

/// Whether the access is written to or has its address taken.
static bool isWritten(const Expr *Access, const UseContext &C) {
  const Stmt *Child = Access;
  for (const Stmt *A : C.Ancestors) {
    if (isa<ParenExpr>(A)) {
      Child = A;
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(A))
      return BO->isAssignmentOp() && BO->getLHS()->IgnoreParens() == Child;
    if (const auto *UO = dyn_cast<UnaryOperator>(A))
      return UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf;
    return false;
  }
  return false;
}

/// Whether a reference to the properties variable only reads it: a member
/// access, a copy, an unevaluated operand.
static bool isReadOnlyUse(const VarUse &U) {
  const Stmt *Child = U.Ref;
  for (const Stmt *A : U.Context.Ancestors) {
    if (isa<ParenExpr>(A) ||
        (isa<ImplicitCastExpr>(A) &&
         cast<ImplicitCastExpr>(A)->getCastKind() == CK_NoOp)) {
      Child = A;
      continue;
    }
    if (isa<MemberExpr, RecoveryExpr, UnaryExprOrTypeTraitExpr>(A))
      return true;
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(A))
      return ICE->getCastKind() == CK_LValueToRValue;
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(A))
      return Construct->getConstructor() &&
             Construct->getConstructor()->isCopyOrMoveConstructor();
    if (const auto *Call = dyn_cast<CallExpr>(A)) {
      // An argument bound to a reference to const.
      const FunctionDecl *FD = Call->getDirectCallee();
      if (!FD)
        return false;
      for (unsigned I = 0, E = Call->getNumArgs(); I != E; ++I)
        if (Call->getArg(I) == Child && I < FD->getNumParams()) {
          QualType T = FD->getParamDecl(I)->getType();
          return T->isReferenceType() &&
                 T->getPointeeType().isConstQualified();
        }
      return false;
    }
    return false;
  }
  return false;
}

namespace {
/// What the fixes of one properties variable share.
struct VarPlan {
  std::string WhyNot;
  const CallExpr *Call = nullptr;
  const Stmt *CallStmt = nullptr;
  const CompoundStmt *Block = nullptr;
  std::string Device;
  /// The local of each field, in the order of first reads.
  llvm::SmallVector<std::pair<const RemovedApi *, std::string>, 2> Locals;
  /// The use whose diagnostic carries the insertion.
  int Carrier = -1;
};
} // namespace

/// The checks that depend on the variable only.
static VarPlan planVariable(const VarDecl *V, const FunctionDecl *F,
                            const RemovedApiUses &Uses, ASTContext &Ctx) {
  VarPlan P;
  const FunctionUse *Props = nullptr;
  unsigned Count = 0;
  for (const FunctionUse &U : Uses.PropertiesCalls) {
    if (!U.Call || U.Context.Function != F || U.Call->getNumArgs() != 2)
      continue;
    const auto *Addr = dyn_cast<UnaryOperator>(
        U.Call->getArg(0)->IgnoreParenImpCasts());
    const auto *Ref =
        Addr && Addr->getOpcode() == UO_AddrOf
            ? dyn_cast<DeclRefExpr>(Addr->getSubExpr()->IgnoreParenImpCasts())
            : nullptr;
    if (!Ref || Ref->getDecl() != V)
      continue;
    ++Count;
    Props = &U;
  }
  if (Count == 0) {
    P.WhyNot = "'" + V->getName().str() +
               "' is not filled by 'cudaGetDeviceProperties' in this function";
    return P;
  }
  if (Count > 1) {
    P.WhyNot = "'" + V->getName().str() + "' is filled by " +
               std::to_string(Count) + " calls of 'cudaGetDeviceProperties'";
    return P;
  }
  P.Call = Props->Call;
  std::tie(P.CallStmt, P.Block) = Props->Context.statementInBlock(P.Call);
  if (!P.CallStmt) {
    P.WhyNot = "the 'cudaGetDeviceProperties' call is not a statement of a "
               "block";
    return P;
  }
  const Expr *Dev = P.Call->getArg(1);
  std::optional<std::string> DevText = writtenText(Dev->getSourceRange(), Ctx);
  if (Dev->HasSideEffects(Ctx) || !DevText) {
    P.WhyNot = "the device argument of 'cudaGetDeviceProperties' cannot be "
               "repeated after the call";
    return P;
  }
  P.Device = *DevText;
  if (afterStatement(P.CallStmt, Ctx).isInvalid()) {
    P.WhyNot = "the 'cudaGetDeviceProperties' call is written in a macro";
    return P;
  }
  // Every other reference only reads the variable.
  auto Refs = Uses.VarRefs.find(V);
  if (Refs != Uses.VarRefs.end())
    for (const VarUse &R : Refs->second) {
      if (R.Context.isInside(P.Call) || isReadOnlyUse(R))
        continue;
      P.WhyNot = "'" + V->getName().str() +
                 "' is also changed or passed on where the fix cannot "
                 "follow it";
      return P;
    }
  return P;
}

std::vector<Rewrite> planDevicePropFixes(const RemovedApiUses &Uses,
                                         ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<Rewrite> Out(Uses.Fields.size());
  // Variable plans, in the order of their first fixed read.
  llvm::DenseMap<const VarDecl *, VarPlan> Plans;
  llvm::SmallVector<const VarDecl *, 4> Order;
  std::vector<const VarDecl *> VarOf(Uses.Fields.size(), nullptr);

  for (size_t I = 0; I != Uses.Fields.size(); ++I) {
    const FieldUse &U = Uses.Fields[I];
    Rewrite &R = Out[I];
    if (U.Api->Fix != ApiFix::DeviceAttribute) {
      R.fail(U.Api->Advice);
      continue;
    }
    const auto *Ref =
        U.Base ? dyn_cast<DeclRefExpr>(U.Base->IgnoreParenImpCasts()) : nullptr;
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (U.IsArrow || !V || !V->isLocalVarDecl() ||
        V->getType()->isReferenceType()) {
      R.fail("the field is not read from a local 'cudaDeviceProp' variable");
      continue;
    }
    if (isWritten(U.Access, U.Context)) {
      R.fail("the field is written or its address taken");
      continue;
    }
    auto [It, New] = Plans.try_emplace(V);
    if (New) {
      It->second = planVariable(V, U.Context.Function, Uses, Ctx);
      Order.push_back(V);
    }
    VarPlan &P = It->second;
    if (!P.WhyNot.empty()) {
      R.fail(P.WhyNot);
      continue;
    }
    // The read must come after the call, in its block, in the same
    // function and not in a lambda.
    auto InBlock = [&] {
      for (const Stmt *A : U.Context.Ancestors) {
        if (isa<LambdaExpr, BlockExpr>(A))
          return false;
        if (A == P.Block)
          return true;
      }
      return false;
    };
    if (!InBlock() || U.Context.isInside(P.CallStmt) ||
        !SM.isBeforeInTranslationUnit(P.CallStmt->getEndLoc(),
                                      U.Access->getBeginLoc())) {
      R.fail("the field is read where the properties call does not reach");
      continue;
    }
    CharSourceRange Range = writtenRange(U.Access->getSourceRange(), Ctx);
    if (Range.isInvalid()) {
      R.fail("the read is written in a macro");
      continue;
    }
    auto Local = llvm::find_if(P.Locals, [&](const auto &L) {
      return L.first == U.Api;
    });
    if (Local == P.Locals.end()) {
      std::string Field = U.Api->Name.str();
      Field[0] = llvm::toUpper(Field[0]);
      std::string Name = V->getName().str() + Field;
      for (unsigned N = 2; !isNameFree(Name, U.Context.Function, Ctx); ++N)
        Name = V->getName().str() + Field + std::to_string(N);
      P.Locals.push_back({U.Api, Name});
      Local = std::prev(P.Locals.end());
    }
    R.Edits.push_back(FixItHint::CreateReplacement(Range, Local->second));
    VarOf[I] = V;
    if (P.Carrier < 0)
      P.Carrier = static_cast<int>(I);
  }

  // Reads left without a fix: on a note, the attribute of the current
  // device, for host code that only reads the field.
  for (size_t I = 0; I != Uses.Fields.size(); ++I) {
    const FieldUse &U = Uses.Fields[I];
    Rewrite &R = Out[I];
    if (R.ok() || U.Api->Fix != ApiFix::DeviceAttribute ||
        !U.Context.Function || isDeviceCode(U.Context.Function) ||
        isWritten(U.Access, U.Context))
      continue;
    CharSourceRange Range = writtenRange(U.Access->getSourceRange(), Ctx);
    if (Range.isInvalid())
      continue;
    R.NoteText = "if the properties are those of the current device, read "
                 "its attribute";
    R.NoteEdits.push_back(FixItHint::CreateReplacement(
        Range, "[] { int Value = 0, Device = 0; cudaGetDevice(&Device); "
               "cudaDeviceGetAttribute(&Value, " +
                   U.Api->Replacement.str() +
                   ", Device); return Value; }()"));
  }

  // The inserted locals go with the first fixed read of each variable.
  for (const VarDecl *V : Order) {
    VarPlan &P = Plans[V];
    if (P.Carrier < 0 || P.Locals.empty())
      continue;
    SourceLocation At = afterStatement(P.CallStmt, Ctx);
    std::string Indent =
        indentationOf(statementBegin(P.CallStmt, Ctx), SM);
    // Where a goto or a case label may jump past the locals, they are
    // declared without an initialiser and then set.
    bool Jumps = hasJumps(Uses.Fields[P.Carrier].Context.Function);
    std::string Text;
    for (const auto &[Api, Name] : P.Locals)
      Text += "\n" + Indent + "int " + Name +
              (Jumps ? ";\n" + Indent + Name + " = 0;" : " = 0;") + "\n" +
              Indent + "cudaDeviceGetAttribute(&" + Name + ", " +
              Api->Replacement.str() + ", " + P.Device + ");";
    Rewrite &Carrier = Out[P.Carrier];
    Carrier.Edits.insert(Carrier.Edits.begin(),
                         FixItHint::CreateInsertion(At, Text));
  }
  return Out;
}

} // namespace cuda_tidy
