//===--- TextureFixSyntax.cpp - Texture references in source -------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/toolkit/TextureFixSyntax.h"
#include "lib/ast/CudaAST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/EquivalenceClasses.h"

using namespace clang;

namespace cuda_tidy::texfix {

bool isTextureFunction(const RemovedApi *Api) {
  StringRef N = Api->Name;
  return N.starts_with("tex") || N.starts_with("surf") ||
         N.starts_with("cudaBindTexture") || N == "cudaUnbindTexture" ||
         N == "cudaGetTextureAlignmentOffset" ||
         N == "cudaBindSurfaceToArray";
}

/// The call Ref is an argument of (through casts, parentheses and '&'), and
/// whether '&' was taken.
const CallExpr *argumentOf(const VarUse &U, bool &AddressTaken,
                           unsigned &Index) {
  AddressTaken = false;
  const Stmt *Child = U.Ref;
  for (const Stmt *A : U.Context.Ancestors) {
    if (isa<ImplicitCastExpr, ParenExpr>(A)) {
      Child = A;
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(A);
        UO && UO->getOpcode() == UO_AddrOf && !AddressTaken) {
      AddressTaken = true;
      Child = A;
      continue;
    }
    if (const auto *Call = dyn_cast<CallExpr>(A)) {
      for (unsigned I = 0, E = Call->getNumArgs(); I != E; ++I)
        if (Call->getArg(I) == Child) {
          Index = I;
          return Call;
        }
      return nullptr;
    }
    // Copying the reference into a by-value parameter (the compatibility
    // declarations' device functions) goes through a constructor.
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(A)) {
      Child = Construct;
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

/// `tex.filterMode = X;` and `tex.addressMode[0] = X;` as a statement.
std::optional<Setting> settingOf(const VarUse &U, ASTContext &Ctx,
                                 std::string &WhyNot) {
  const MemberExpr *Member = nullptr;
  size_t I = 0;
  const auto &As = U.Context.Ancestors;
  for (; I < As.size(); ++I) {
    if (isa<ImplicitCastExpr, ParenExpr>(As[I]))
      continue;
    Member = dyn_cast<MemberExpr>(As[I]);
    break;
  }
  if (!Member || Member->getBase()->IgnoreParenImpCasts() != U.Ref)
    return std::nullopt;
  const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
  if (!Field || !Field->getIdentifier())
    return std::nullopt;
  StringRef Name = Field->getName();
  std::string DescField =
      llvm::StringSwitch<std::string>(Name)
          .Case("normalized", "normalizedCoords")
          .Cases({"filterMode", "sRGB", "maxAnisotropy", "mipmapFilterMode",
                  "mipmapLevelBias", "minMipmapLevelClamp",
                  "maxMipmapLevelClamp"},
                 Name.str())
          .Case("addressMode", "addressMode")
          .Default("");
  if (DescField.empty()) {
    WhyNot = "its field '" + Name.str() + "' is used";
    return std::nullopt;
  }
  const Expr *Target = Member;
  ++I;
  for (; I < As.size() && isa<ImplicitCastExpr, ParenExpr>(As[I]); ++I)
    Target = cast<Expr>(As[I]);
  if (DescField == "addressMode") {
    const auto *Sub = I < As.size() ? dyn_cast<ArraySubscriptExpr>(As[I])
                                    : nullptr;
    std::optional<llvm::APSInt> Index =
        Sub ? Sub->getIdx()->getIntegerConstantExpr(Ctx) : std::nullopt;
    if (!Index || Index->getExtValue() < 0 || Index->getExtValue() > 2) {
      WhyNot = "its 'addressMode' is used other than by assigning one "
               "dimension";
      return std::nullopt;
    }
    DescField += "[" + std::to_string(Index->getExtValue()) + "]";
    Target = Sub;
    ++I;
  }
  const auto *Assign = I < As.size() ? dyn_cast<BinaryOperator>(As[I])
                                     : nullptr;
  if (!Assign || Assign->getOpcode() != BO_Assign ||
      Assign->getLHS()->IgnoreParens() != Target) {
    WhyNot = "its field '" + Name.str() + "' is read";
    return std::nullopt;
  }
  const Expr *Value = Assign->getRHS();
  std::optional<std::string> Text =
      writtenText(Value->getSourceRange(), Ctx);
  if (!Value->isEvaluatable(Ctx) || !Text) {
    WhyNot = "'" + Name.str() + "' is set to a value that is not a constant "
             "written outside macros";
    return std::nullopt;
  }
  auto [S, Block] = U.Context.statementInBlock(Assign);
  const auto *SE = dyn_cast_or_null<Expr>(S);
  if (!SE || SE->IgnoreImplicit() != Assign) {
    WhyNot = "'" + Name.str() + "' is set inside another expression";
    return std::nullopt;
  }
  return Setting{DescField, *Text, S, Block};
}

/// The number of components of a texel type for the normalized-float read
/// mode (1 for char/short, N for charN/shortN), or 0.
unsigned normalizedComponents(QualType T) {
  T = T.getCanonicalType();
  if (const auto *B = T->getAs<BuiltinType>()) {
    switch (B->getKind()) {
    case BuiltinType::Char_S:
    case BuiltinType::Char_U:
    case BuiltinType::SChar:
    case BuiltinType::UChar:
    case BuiltinType::Short:
    case BuiltinType::UShort:
      return 1;
    default:
      return 0;
    }
  }
  const RecordDecl *RD = T->getAsRecordDecl();
  if (!RD || !RD->getIdentifier())
    return 0;
  StringRef Name = RD->getName();
  for (StringRef Base : {"char", "uchar", "short", "ushort"})
    for (unsigned N : {1u, 2u, 4u})
      if (Name == (Base + std::to_string(N)).str())
        return N;
  return 0;
}

/// The text of a call argument, or std::nullopt when it has side effects or
/// is not written in a file.
std::optional<std::string> argText(const CallExpr *Call, unsigned I,
                                   ASTContext &Ctx) {
  if (I >= Call->getNumArgs())
    return std::nullopt;
  const Expr *Arg = Call->getArg(I);
  if (isa<CXXDefaultArgExpr>(Arg) || Arg->HasSideEffects(Ctx))
    return std::nullopt;
  return writtenText(Arg->getSourceRange(), Ctx);
}

bool isChannelDescParam(const FunctionDecl *FD, unsigned I) {
  if (!FD || I >= FD->getNumParams())
    return false;
  QualType T = FD->getParamDecl(I)->getType().getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  const RecordDecl *RD = T->getAsRecordDecl();
  return RD && RD->getIdentifier() &&
         RD->getName() == "cudaChannelFormatDesc";
}

/// Whether the path from the bind call up to its statement keeps the order
/// of evaluation when the arguments move before the statement: the call's
/// result only flows into enclosing calls (error-checking wrappers),
/// comparisons, an assignment or an initialisation, and nothing beside it
/// has side effects.
bool bindStatementIsSimple(const CallExpr *Call, const Stmt *S,
                           const UseContext &C, ASTContext &Ctx) {
  const Stmt *Child = Call;
  for (const Stmt *A : C.Ancestors) {
    if (A == S)
      break;
    if (isa<ImplicitCastExpr, ParenExpr, ExprWithCleanups>(A)) {
      Child = A;
      continue;
    }
    if (const auto *Wrapper = dyn_cast<CallExpr>(A)) {
      for (const Expr *Arg : Wrapper->arguments())
        if (Arg != Child && Arg->HasSideEffects(Ctx))
          return false;
      Child = A;
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(A)) {
      const Expr *Other =
          BO->getLHS() == Child ? BO->getRHS() : BO->getLHS();
      if (BO->getRHS() == Child && BO->isAssignmentOp()) {
        if (BO->getLHS()->HasSideEffects(Ctx))
          return false;
      } else if (!BO->isComparisonOp() || Other->HasSideEffects(Ctx)) {
        return false;
      }
      Child = A;
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(A);
        UO && UO->getOpcode() == UO_LNot) {
      Child = A;
      continue;
    }
    if (isa<DeclStmt>(A)) {
      Child = A;
      continue;
    }
    // An error-checking macro's `do { cudaError_t e = call; ... } while (0)`:
    // the call comes first in the block and the loop runs once.
    if (const auto *CS = dyn_cast<CompoundStmt>(A)) {
      if (CS->body_empty() || CS->body_front() != Child)
        return false;
      Child = A;
      continue;
    }
    if (const auto *Do = dyn_cast<DoStmt>(A)) {
      std::optional<llvm::APSInt> Cond =
          Do->getCond()->getIntegerConstantExpr(Ctx);
      if (Do->getBody() != Child || !Cond || !Cond->isZero())
        return false;
      Child = A;
      continue;
    }
    return false;
  }
  if (const auto *If = dyn_cast<IfStmt>(S))
    return !If->getInit() && !If->getConditionVariable() &&
           If->getCond()->IgnoreParenImpCasts() ==
               cast<Expr>(Child)->IgnoreParenImpCasts();
  if (const auto *Do = dyn_cast<DoStmt>(S)) {
    std::optional<llvm::APSInt> Cond =
        Do->getCond()->getIntegerConstantExpr(Ctx);
    return Do->getBody() == Child && Cond && Cond->isZero();
  }
  return isa<Expr, DeclStmt, ReturnStmt>(S);
}

/// The references to one variable in a function, and the declaration
/// statement that declares it.
namespace {
class VarRefFinder : public DynamicRecursiveASTVisitor {
public:
  explicit VarRefFinder(const VarDecl *V) : V(V) {}
  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    if (E->getDecl() == V)
      Refs.push_back(E);
    return true;
  }
  bool VisitDeclStmt(DeclStmt *S) override {
    if (llvm::is_contained(S->decls(), V))
      Decl = S;
    return true;
  }
  const VarDecl *V;
  llvm::SmallVector<const DeclRefExpr *, 4> Refs;
  const DeclStmt *Decl = nullptr;
};
} // namespace

const VarDecl *unreadOffset(const Expr *Arg, const FunctionDecl *F,
                            const DeclStmt *&Decl, ASTContext &Ctx) {
  Decl = nullptr;
  const auto *Addr = dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts());
  if (!F || !F->hasBody() || !Addr || Addr->getOpcode() != UO_AddrOf)
    return nullptr;
  const auto *Ref = dyn_cast<DeclRefExpr>(Addr->getSubExpr()->IgnoreParens());
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || !V->isLocalVarDecl() || V->isStaticLocal() ||
      V->getDeclContext() != F || !V->getType()->isIntegerType())
    return nullptr;
  VarRefFinder Finder(V);
  Finder.TraverseStmt(F->getBody());
  if (Finder.Refs.size() != 1 || Finder.Refs.front() != Ref)
    return nullptr;
  // The declaration goes too when it declares nothing else and its
  // initialiser, if any, is a constant.
  if (Finder.Decl && Finder.Decl->isSingleDecl() &&
      (!V->getInit() || V->getInit()->isIntegerConstantExpr(Ctx)))
    Decl = Finder.Decl;
  return V;
}

} // namespace cuda_tidy::texfix
