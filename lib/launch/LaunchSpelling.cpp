//===--- LaunchSpelling.cpp - Launches and attributes as written ----------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// What the source says at a launch (lib/launch/LaunchModel.h): the
// `__cluster_dims__` macro's arguments, which clang drops over 8 blocks; the
// kernel and values as written; the fix-it that inserts a call before the
// launch.
//
//===----------------------------------------------------------------------===//

#include "lib/launch/LaunchModel.h"
#include "lib/ast/FixItHelpers.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;

namespace cuda_tidy {

//===----------------------------------------------------------------------===//
// __cluster_dims__
//===----------------------------------------------------------------------===//

namespace {
class ClusterDimsCallbacks : public PPCallbacks {
public:
  ClusterDimsCallbacks(ClusterDimsMacros &Out, Preprocessor &PP)
      : Out(Out), PP(PP), ClusterDims(PP.getIdentifierInfo("__cluster_dims__")) {}

  void MacroExpands(const Token &Name, const MacroDefinition &MD,
                    SourceRange Range, const MacroArgs *Args) override {
    // Every macro expansion of the translation unit comes here: one pointer
    // comparison (identifiers are unique in the preprocessor).
    if (!Args || Name.getIdentifierInfo() != ClusterDims)
      return;
    ClusterDimsSpelling S;
    S.Loc = PP.getSourceManager().getExpansionLoc(Name.getLocation());
    // cuda-tidy's compatibility header defines it to nothing.
    if (const MacroInfo *MI = MD.getMacroInfo())
      S.Empty = MI->getNumTokens() == 0;
    uint64_t V[3] = {1, 1, 1};
    bool Ok = true;
    unsigned N = Args->getNumMacroArguments();
    // A variadic macro has one argument holding "x, y, z": split on commas.
    unsigned Index = 0;
    for (unsigned I = 0; I < N && Ok; ++I) {
      const Token *T = Args->getUnexpArgument(I);
      llvm::SmallVector<const Token *, 2> Current;
      auto Flush = [&]() {
        if (Current.empty())
          return;
        std::optional<uint64_t> Value;
        if (Current.size() == 1)
          Value = tokenValue(*Current[0]);
        if (!Value || Index >= 3)
          Ok = false;
        else
          V[Index] = *Value;
        ++Index;
        Current.clear();
      };
      for (; T->isNot(tok::eof); ++T) {
        if (T->is(tok::comma)) {
          Flush();
          continue;
        }
        Current.push_back(T);
      }
      Flush();
    }
    if (Ok && Index > 0)
      S.Dims = Dim3{V[0], V[1], V[2]};
    Out.add(S);
  }

private:
  /// An integer literal, or a macro whose body is one.
  std::optional<uint64_t> tokenValue(const Token &T, unsigned Depth = 0) {
    if (T.is(tok::numeric_constant)) {
      StringRef Text(T.getLiteralData(), T.getLength());
      if (!T.getLiteralData())
        return std::nullopt;
      Text = Text.rtrim("uUlL");
      uint64_t V = 0;
      if (Text.getAsInteger(0, V))
        return std::nullopt;
      return V;
    }
    if (T.is(tok::identifier) && Depth < 4) {
      const MacroInfo *MI = PP.getMacroInfo(T.getIdentifierInfo());
      if (MI && MI->isObjectLike() && MI->getNumTokens() == 1)
        return tokenValue(MI->getReplacementToken(0), Depth + 1);
    }
    return std::nullopt;
  }

  ClusterDimsMacros &Out;
  Preprocessor &PP;
  const IdentifierInfo *ClusterDims;
};
} // namespace

std::unique_ptr<PPCallbacks>
ClusterDimsMacros::makeCallbacks(Preprocessor &PP) {
  return std::make_unique<ClusterDimsCallbacks>(*this, PP);
}

const ClusterDimsSpelling *
ClusterDimsMacros::find(const FunctionDecl *FD, const SourceManager &SM) const {
  for (const FunctionDecl *Redecl : FD->redecls()) {
    SourceLocation Begin = SM.getExpansionLoc(Redecl->getBeginLoc());
    SourceLocation Name = SM.getExpansionLoc(Redecl->getLocation());
    for (const ClusterDimsSpelling &S : Spellings)
      if (SM.getFileID(S.Loc) == SM.getFileID(Name) &&
          !SM.isBeforeInTranslationUnit(S.Loc, Begin) &&
          SM.isBeforeInTranslationUnit(S.Loc, Name))
        return &S;
  }
  return nullptr;
}

std::optional<Dim3> kernelClusterDims(const FunctionDecl *Kernel,
                                      const ClusterDimsMacros *Macros,
                                      ConstantEvaluator &Eval,
                                      SourceLocation *Loc, bool *FromMacro) {
  if (FromMacro)
    *FromMacro = false;
  if (!Kernel)
    return std::nullopt;
  const SourceManager &SM = Kernel->getASTContext().getSourceManager();
  // The pattern of a template specialisation carries the written attribute.
  const FunctionDecl *Candidates[] = {
      Kernel, Kernel->getTemplateInstantiationPattern()};
  for (const FunctionDecl *FD : Candidates) {
    if (!FD)
      continue;
    if (const auto *A = FD->getAttr<CUDAClusterDimsAttr>()) {
      std::optional<uint64_t> V[3] = {1, 1, 1};
      const Expr *E[3] = {A->getX(), A->getY(), A->getZ()};
      for (unsigned I = 0; I < 3; ++I)
        if (E[I])
          V[I] = Eval.evaluateInt(E[I]);
      if (Loc)
        *Loc = A->getLocation();
      if (V[0] && V[1] && V[2])
        return Dim3{*V[0], *V[1], *V[2]};
      return std::nullopt;
    }
    if (Macros)
      if (const ClusterDimsSpelling *S = Macros->find(FD, SM)) {
        if (Loc)
          *Loc = S->Loc;
        // Only an attribute clang dropped with an error is news to the
        // user; an empty compatibility macro is not.
        if (FromMacro)
          *FromMacro = !S->Empty;
        return S->Dims;
      }
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Written text and fix-its
//===----------------------------------------------------------------------===//

std::optional<std::string> writtenText(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()), SM,
      Ctx.getLangOpts());
  if (Range.isInvalid() || SM.isInSystemHeader(Range.getBegin()))
    return std::nullopt;
  bool Invalid = false;
  StringRef Text = Lexer::getSourceText(Range, SM, Ctx.getLangOpts(), &Invalid);
  if (Invalid || Text.empty())
    return std::nullopt;
  return Text.str();
}

std::optional<std::string> writtenKernel(const LaunchSite &L,
                                         const ASTContext &Ctx) {
  const Expr *E = L.KernelExpr;
  if (!E)
    return std::nullopt;
  if (!isDriverApi(L.Api)) {
    E = E->IgnoreParenCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      if (UO->getOpcode() == UO_AddrOf)
        E = UO->getSubExpr()->IgnoreParenCasts();
    if (!isa<DeclRefExpr>(E))
      return std::nullopt;
  }
  return writtenText(E, Ctx);
}

std::optional<FixItHint> insertBeforeLaunch(const LaunchSite &L,
                                            ASTContext &Ctx, StringRef Call,
                                            std::string &WhyNot) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (!L.Caller || !L.Caller->getBody()) {
    WhyNot = "the launch is not inside a function body";
    return std::nullopt;
  }
  // The launching function's own parent index: the fix is rare, and
  // ASTContext::getParents would index the whole translation unit.
  LocalParents Index(L.Caller->getBody());
  DynTypedNode Node = DynTypedNode::create(*static_cast<const Stmt *>(L.Call));
  const Stmt *Statement = nullptr;
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    llvm::SmallVector<DynTypedNode, 1> Parents;
    if (DynTypedNode P = Index.parent(Node); !P.getNodeKind().isNone())
      Parents.push_back(P);
    if (Parents.size() != 1) {
      WhyNot = "the launch is not inside a function body";
      return std::nullopt;
    }
    if (Parents[0].get<CompoundStmt>()) {
      Statement = Node.get<Stmt>();
      break;
    }
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P || !(isa<Expr>(P) || isa<DeclStmt>(P) || isa<ReturnStmt>(P))) {
      if (Parents[0].get<VarDecl>()) {
        Node = Parents[0];
        continue;
      }
      WhyNot = "the launch is not a statement of a block";
      return std::nullopt;
    }
    Node = Parents[0];
  }
  if (!Statement) {
    WhyNot = "the launch is not a statement of a block";
    return std::nullopt;
  }
  SourceLocation Begin = Statement->getBeginLoc();
  if (Begin.isMacroID()) {
    SourceLocation MacroStart;
    if (!Lexer::isAtStartOfMacroExpansion(Begin, SM, Ctx.getLangOpts(),
                                          &MacroStart)) {
      WhyNot = "the statement starts inside a macro";
      return std::nullopt;
    }
    Begin = SM.getExpansionLoc(MacroStart);
  }
  if (Begin.isInvalid() || SM.isInSystemHeader(Begin)) {
    WhyNot = "the launch is in a system header";
    return std::nullopt;
  }
  LineIndent Line = lineIndentOf(Begin, SM);
  std::string Text = Call.str() + ";";
  Text += Line.StartsLine ? "\n" + Line.Indent.str() : std::string(" ");
  return FixItHint::CreateInsertion(Begin, Text);
}

} // namespace cuda_tidy
