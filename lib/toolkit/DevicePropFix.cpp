//===--- DevicePropFix.cpp - Removed cudaDeviceProp fields ----------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/toolkit/DevicePropFix.h"
#include "lib/ast/CudaAST.h"
#include "lib/ast/FixItHelpers.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSet.h"
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
/// A `cudaGetDeviceProperties(&V, D)` call and what the fixes of the reads
/// it governs share.
struct CallPlan {
  std::string WhyNot;
  const FunctionUse *Use = nullptr;
  const VarDecl *Var = nullptr;
  /// The statement after which the locals go, and its block; or, for
  /// `if (cudaGetDeviceProperties(...) == cudaSuccess) { ... }`, the
  /// then-block, at whose start they go.
  const Stmt *Statement = nullptr;
  const CompoundStmt *Block = nullptr;
  bool AtBlockStart = false;
  std::string Device;
  /// The local of each field, in the order of first reads.
  llvm::SmallVector<std::pair<const RemovedApi *, std::string>, 2> Locals;
  /// The use whose diagnostic carries the insertion.
  int Carrier = -1;
};
} // namespace

/// The variable `V` of `cudaGetDeviceProperties(&V, D)`, or null.
static const VarDecl *filledVariable(const FunctionUse &U) {
  if (!U.Call || U.Call->getNumArgs() != 2)
    return nullptr;
  const auto *Addr =
      dyn_cast<UnaryOperator>(U.Call->getArg(0)->IgnoreParenImpCasts());
  const auto *Ref =
      Addr && Addr->getOpcode() == UO_AddrOf
          ? dyn_cast<DeclRefExpr>(Addr->getSubExpr()->IgnoreParenImpCasts())
          : nullptr;
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

/// Where a call's locals go: after its statement in a block, or at the
/// start of the then-block of an `if` whose condition it is in.
static bool placeCall(CallPlan &P, ASTContext &Ctx) {
  const CallExpr *Call = P.Use->Call;
  std::tie(P.Statement, P.Block) = P.Use->Context.statementInBlock(Call);
  if (!P.Statement) {
    P.WhyNot = "the 'cudaGetDeviceProperties' call is not a statement of a "
               "block";
    return false;
  }
  if (const auto *If = dyn_cast<IfStmt>(P.Statement);
      If && P.Use->Context.isInside(If->getCond())) {
    const auto *Then = dyn_cast<CompoundStmt>(If->getThen());
    if (!Then || Then->getLBracLoc().isMacroID()) {
      P.WhyNot = "the 'cudaGetDeviceProperties' call is the condition of an "
                 "'if' without a block";
      return false;
    }
    P.Block = Then;
    P.AtBlockStart = true;
  } else if (afterStatement(P.Statement, Ctx).isInvalid()) {
    P.WhyNot = "the 'cudaGetDeviceProperties' call is written in a macro";
    return false;
  }
  const Expr *Dev = Call->getArg(1);
  std::optional<std::string> DevText = writtenText(Dev->getSourceRange(), Ctx);
  if (Dev->HasSideEffects(Ctx) || !DevText) {
    P.WhyNot = "the device argument of 'cudaGetDeviceProperties' cannot be "
               "repeated after the call";
    return false;
  }
  P.Device = *DevText;
  return true;
}

/// Whether the read is where the call's locals are in scope and hold the
/// call's values: in its block after it, with no lambda between.
static bool governs(const CallPlan &P, const FieldUse &U,
                    const SourceManager &SM) {
  if (!P.Statement)
    return false;
  for (const Stmt *A : U.Context.Ancestors) {
    if (isa<LambdaExpr, BlockExpr>(A))
      return false;
    if (A == P.Block)
      return P.AtBlockStart ||
             (!U.Context.isInside(P.Statement) &&
              SM.isBeforeInTranslationUnit(P.Statement->getEndLoc(),
                                           U.Access->getBeginLoc()));
  }
  return false;
}

/// The call governing read U of V: the latest one on V in U's function
/// whose locals would be in scope there; or null, with why in R.
static CallPlan *governingCall(const FieldUse &U, const VarDecl *V,
                               MutableArrayRef<CallPlan> Plans, Rewrite &R,
                               const SourceManager &SM) {
  CallPlan *G = nullptr;
  unsigned Calls = 0;
  for (CallPlan &P : Plans) {
    if (P.Var != V || P.Use->Context.Function != U.Context.Function)
      continue;
    ++Calls;
    if (governs(P, U, SM) &&
        (!G || SM.isBeforeInTranslationUnit(G->Use->Call->getBeginLoc(),
                                            P.Use->Call->getBeginLoc())))
      G = &P;
  }
  if (Calls == 0) {
    R.fail("'" + V->getName().str() +
           "' is not filled by 'cudaGetDeviceProperties' in this function");
    return nullptr;
  }
  if (!G) {
    const CallPlan *Any = nullptr;
    for (const CallPlan &P : Plans)
      if (P.Var == V && !P.WhyNot.empty())
        Any = &P;
    R.fail(Any ? Any->WhyNot
               : "the field is read where no properties call reaches");
    return nullptr;
  }
  if (!G->WhyNot.empty()) {
    R.fail(G->WhyNot);
    return nullptr;
  }
  return G;
}

/// Whether something may change V between G's call and read U: another
/// properties call, an assignment, its address passed on, whether written
/// between them or later in a loop that repeats the read but not the call.
static bool changedBeforeRead(const FieldUse &U, const VarDecl *V,
                              const CallPlan &G, const RemovedApiUses &Uses,
                              const SourceManager &SM) {
  llvm::SmallVector<const Stmt *, 2> Loops;
  for (const Stmt *A : U.Context.Ancestors) {
    if (A == G.Block)
      break;
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(A))
      Loops.push_back(A);
  }
  auto Refs = Uses.VarRefs.find(V);
  if (Refs == Uses.VarRefs.end())
    return false;
  for (const VarUse &Other : Refs->second) {
    if (Other.Context.isInside(G.Use->Call) || isReadOnlyUse(Other) ||
        !Other.Context.isInside(G.Block))
      continue;
    bool AfterCall = G.AtBlockStart ||
                     SM.isBeforeInTranslationUnit(G.Statement->getEndLoc(),
                                                  Other.Ref->getBeginLoc());
    bool BeforeRead = SM.isBeforeInTranslationUnit(Other.Ref->getBeginLoc(),
                                                   U.Access->getBeginLoc());
    bool Repeated = llvm::any_of(
        Loops, [&](const Stmt *L) { return Other.Context.isInside(L); });
    if (AfterCall && (BeforeRead || Repeated))
      return true;
  }
  return false;
}

/// The name of G's local for U's field, made on first use: V's name and
/// the field's, numbered when the function has the name already.
static const std::string &
localFor(CallPlan &G, const FieldUse &U, const VarDecl *V,
         llvm::DenseMap<const FunctionDecl *, llvm::StringSet<>> &Taken,
         ASTContext &Ctx) {
  auto Local =
      llvm::find_if(G.Locals, [&](const auto &L) { return L.first == U.Api; });
  if (Local != G.Locals.end())
    return Local->second;
  std::string Field = U.Api->Name.str();
  Field[0] = llvm::toUpper(Field[0]);
  std::string Base = V->getName().str() + Field;
  std::string Name = Base;
  llvm::StringSet<> &Names = Taken[U.Context.Function];
  for (unsigned N = 2;
       Names.contains(Name) || !isNameFree(Name, U.Context.Function, Ctx); ++N)
    Name = Base + std::to_string(N);
  Names.insert(Name);
  G.Locals.push_back({U.Api, Name});
  return G.Locals.back().second;
}

/// The fix of field read U (Uses.Fields[Index]) into R.
static void
planFieldRead(const FieldUse &U, size_t Index, const RemovedApiUses &Uses,
              MutableArrayRef<CallPlan> Plans,
              llvm::DenseMap<const FunctionDecl *, llvm::StringSet<>> &Taken,
              Rewrite &R, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (U.Api->Fix != ApiFix::DeviceAttribute) {
    R.fail(U.Api->Advice);
    return;
  }
  const auto *Ref =
      U.Base ? dyn_cast<DeclRefExpr>(U.Base->IgnoreParenImpCasts()) : nullptr;
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (U.IsArrow || !V || !V->isLocalVarDecl() ||
      V->getType()->isReferenceType()) {
    R.fail("the field is not read from a local 'cudaDeviceProp' variable");
    return;
  }
  if (isWritten(U.Access, U.Context)) {
    R.fail("the field is written or its address taken");
    return;
  }
  CallPlan *G = governingCall(U, V, Plans, R, SM);
  if (!G)
    return;
  if (changedBeforeRead(U, V, *G, Uses, SM)) {
    R.fail("'" + V->getName().str() +
           "' is also changed or passed on after the properties call, "
           "where the fix cannot follow it");
    return;
  }
  CharSourceRange Range = writtenRange(U.Access->getSourceRange(), Ctx);
  if (Range.isInvalid()) {
    R.fail("the read is written in a macro");
    return;
  }
  R.Edits.push_back(
      FixItHint::CreateReplacement(Range, localFor(*G, U, V, Taken, Ctx)));
  if (G->Carrier < 0)
    G->Carrier = static_cast<int>(Index);
}

/// Reads left without a fix: on a note, the attribute of the current
/// device, for host code that only reads the field.
static void noteCurrentDeviceReads(const RemovedApiUses &Uses,
                                   std::vector<Rewrite> &Out, ASTContext &Ctx) {
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
}

/// The insertion of P's locals, which goes with the first fixed read.
static FixItHint insertLocals(const CallPlan &P, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation At;
  std::string Indent;
  if (P.AtBlockStart) {
    At = Lexer::getLocForEndOfToken(P.Block->getLBracLoc(), 0, SM,
                                    Ctx.getLangOpts());
    const Stmt *First = P.Block->body_empty() ? nullptr : P.Block->body_front();
    Indent = First ? lineIndentOf(statementBegin(First, Ctx), SM).Indent.str()
                   : lineIndentOf(statementBegin(P.Statement, Ctx), SM)
                             .Indent.str() +
                         "  ";
  } else {
    At = afterStatement(P.Statement, Ctx);
    Indent = lineIndentOf(statementBegin(P.Statement, Ctx), SM).Indent.str();
  }
  // Where a goto or a case label may jump past the locals, they are
  // declared without an initialiser and then set.
  bool Jumps = hasJumps(P.Use->Context.Function);
  std::string Text;
  for (const auto &[Api, Name] : P.Locals)
    Text += "\n" + Indent + "int " + Name +
            (Jumps ? ";\n" + Indent + Name + " = 0;" : " = 0;") + "\n" +
            Indent + "cudaDeviceGetAttribute(&" + Name + ", " +
            Api->Replacement.str() + ", " + P.Device + ");";
  return FixItHint::CreateInsertion(At, Text);
}

std::vector<Rewrite> planDevicePropFixes(const RemovedApiUses &Uses,
                                         ASTContext &Ctx) {
  std::vector<Rewrite> Out(Uses.Fields.size());
  // One plan per properties call, in source order.
  std::vector<CallPlan> Plans;
  for (const FunctionUse &U : Uses.PropertiesCalls) {
    CallPlan P;
    P.Use = &U;
    P.Var = filledVariable(U);
    if (P.Var)
      placeCall(P, Ctx);
    Plans.push_back(std::move(P));
  }
  // Names given to locals per function, before they exist in the AST.
  llvm::DenseMap<const FunctionDecl *, llvm::StringSet<>> Taken;
  for (size_t I = 0; I != Uses.Fields.size(); ++I)
    planFieldRead(Uses.Fields[I], I, Uses, Plans, Taken, Out[I], Ctx);
  noteCurrentDeviceReads(Uses, Out, Ctx);
  for (const CallPlan &P : Plans) {
    if (P.Carrier < 0 || P.Locals.empty())
      continue;
    Rewrite &Carrier = Out[P.Carrier];
    Carrier.Edits.insert(Carrier.Edits.begin(), insertLocals(P, Ctx));
  }
  return Out;
}

} // namespace cuda_tidy
