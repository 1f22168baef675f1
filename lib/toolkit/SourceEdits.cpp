//===--- SourceEdits.cpp - Text edits for the toolkit fixes ---------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/toolkit/SourceEdits.h"
#include "lib/ast/FixItHelpers.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace cuda_tidy {

bool Rewrite::fail(const llvm::Twine &Why, SourceLocation At) {
  if (WhyNot.empty()) {
    WhyNot = Why.str();
    WhyNotLoc = At;
  }
  Edits.clear();
  return false;
}

CharSourceRange writtenRange(SourceRange Range, const ASTContext &Ctx) {
  if (Range.isInvalid())
    return {};
  return Lexer::makeFileCharRange(CharSourceRange::getTokenRange(Range),
                                  Ctx.getSourceManager(), Ctx.getLangOpts());
}

std::optional<std::string> writtenText(SourceRange Range,
                                       const ASTContext &Ctx) {
  CharSourceRange R = writtenRange(Range, Ctx);
  if (R.isInvalid())
    return std::nullopt;
  bool Invalid = false;
  StringRef Text = Lexer::getSourceText(R, Ctx.getSourceManager(),
                                        Ctx.getLangOpts(), &Invalid);
  if (Invalid)
    return std::nullopt;
  return Text.str();
}

SourceLocation afterStatement(const Stmt *S, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  SourceLocation E = S->getEndLoc();
  if (E.isMacroID()) {
    SourceLocation End;
    if (Lexer::isAtEndOfMacroExpansion(E, SM, LO, &End)) {
      E = SM.getExpansionLoc(End);
    } else {
      // A macro whose body is the statement and its ';' (`#define
      // CHECK(x) do { ... } while (0);`): the statement ends with the
      // macro's invocation, and a ';' written after it goes too.
      SourceLocation Begin = S->getBeginLoc();
      SourceLocation Start;
      if (!Begin.isMacroID() ||
          !Lexer::isAtStartOfMacroExpansion(Begin, SM, LO, &Start) ||
          SM.getExpansionLoc(Start) != SM.getExpansionLoc(E))
        return {};
      E = SM.getExpansionRange(E).getEnd();
      std::optional<Token> Next = Lexer::findNextToken(E, SM, LO);
      if (Next && Next->is(tok::semi))
        return Next->getEndLoc();
      return Lexer::getLocForEndOfToken(E, 0, SM, LO);
    }
  }
  Token Tok;
  if (!Lexer::getRawToken(E, Tok, SM, LO, /*IgnoreWhiteSpace=*/true) &&
      Tok.is(tok::semi))
    return Tok.getEndLoc();
  std::optional<Token> Next = Lexer::findNextToken(E, SM, LO);
  if (!Next || !Next->is(tok::semi))
    return {};
  return Next->getEndLoc();
}

namespace {
/// The removal of the text from B to E (file locations), with its whole
/// line when nothing else is on it.
std::optional<FixItHint> removeText(SourceLocation B, SourceLocation E,
                                    const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (B.isInvalid() || E.isInvalid() || !SM.isWrittenInSameFile(B, E))
    return std::nullopt;
  auto [FID, BOff] = SM.getDecomposedLoc(B);
  unsigned EOff = SM.getFileOffset(E);
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(FID, &Invalid);
  if (Invalid || EOff < BOff)
    return std::nullopt;
  // Take the whole line when only whitespace surrounds the statement.
  unsigned LineStart = BOff;
  while (LineStart > 0 &&
         (Buffer[LineStart - 1] == ' ' || Buffer[LineStart - 1] == '\t'))
    --LineStart;
  unsigned LineEnd = EOff;
  while (LineEnd < Buffer.size() &&
         (Buffer[LineEnd] == ' ' || Buffer[LineEnd] == '\t'))
    ++LineEnd;
  bool AloneOnLine = (LineStart == 0 || Buffer[LineStart - 1] == '\n') &&
                     (LineEnd == Buffer.size() || Buffer[LineEnd] == '\n');
  if (AloneOnLine && LineStart > 0) {
    // From the end of the line before to the end of this one: a range that
    // ends at the start of the next line is taken one character too far
    // when clang-tidy applies it.
    BOff = LineStart - 1;
    EOff = LineEnd;
  } else if (AloneOnLine) {
    BOff = 0;
    EOff = LineEnd < Buffer.size() ? LineEnd + 1 : LineEnd;
  }
  SourceLocation FileStart = SM.getLocForStartOfFile(FID);
  return FixItHint::CreateRemoval(CharSourceRange::getCharRange(
      FileStart.getLocWithOffset(BOff), FileStart.getLocWithOffset(EOff)));
}
} // namespace

std::optional<FixItHint> removeStatement(const Stmt *S,
                                         const ASTContext &Ctx) {
  return removeText(statementBegin(S, Ctx), afterStatement(S, Ctx), Ctx);
}

std::optional<FixItHint> removeDeclaration(const VarDecl *V,
                                           const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation B = V->getOuterLocStart();
  SourceLocation E = V->getEndLoc();
  if (!B.isFileID() || !E.isFileID())
    return std::nullopt;
  std::optional<Token> Next =
      Lexer::findNextToken(E, SM, Ctx.getLangOpts());
  if (!Next || !Next->is(tok::semi) || !Next->getLocation().isFileID())
    return std::nullopt;
  return removeText(B, Next->getEndLoc(), Ctx);
}

namespace {
/// Whether a name is declared in a function.
class NameFinder : public DynamicRecursiveASTVisitor {
public:
  explicit NameFinder(StringRef Name) : Name(Name) {}
  bool VisitNamedDecl(NamedDecl *D) override {
    if (D->getIdentifier() && D->getName() == Name)
      Found = true;
    return !Found;
  }
  StringRef Name;
  bool Found = false;
};
} // namespace

bool declaresName(const Decl *D, StringRef Name) {
  if (!D)
    return false;
  NameFinder Finder(Name);
  Finder.TraverseDecl(const_cast<Decl *>(D));
  return Finder.Found;
}

bool isNameFree(StringRef Name, const FunctionDecl *F, ASTContext &Ctx) {
  if (!Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get(Name)).empty())
    return false;
  return !declaresName(F, Name);
}

std::optional<PastedCall> pastedCall(const CallExpr *Call, StringRef FullName,
                                     const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Callee = Call->getCallee()->getExprLoc();
  if (!Callee.isMacroID() ||
      !SM.isWrittenInScratchSpace(SM.getSpellingLoc(Callee)))
    return std::nullopt;
  SourceLocation RParen = Call->getRParenLoc();
  if (RParen.isMacroID()) {
    if (!SM.isMacroArgExpansion(RParen))
      return std::nullopt;
    RParen = SM.getSpellingLoc(RParen);
  }
  auto [FID, Offset] = SM.getDecomposedLoc(RParen);
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(FID, &Invalid);
  if (Invalid || Offset >= Buffer.size() || Buffer[Offset] != ')')
    return std::nullopt;
  // The matching '(' (string and character literals are not expected in
  // the arguments of these calls; one stops the search).
  unsigned Depth = 0, I = Offset;
  while (true) {
    char C = Buffer[I];
    if (C == '"' || C == '\'')
      return std::nullopt;
    if (C == ')')
      ++Depth;
    else if (C == '(' && --Depth == 0)
      break;
    if (I == 0)
      return std::nullopt;
    --I;
  }
  unsigned End = I;
  while (End > 0 && (Buffer[End - 1] == ' ' || Buffer[End - 1] == '\t'))
    --End;
  unsigned Begin = End;
  while (Begin > 0 &&
         (isAlphanumeric(Buffer[Begin - 1]) || Buffer[Begin - 1] == '_'))
    --Begin;
  StringRef Written = Buffer.slice(Begin, End);
  if (Written.empty() || !FullName.ends_with(Written) ||
      FullName.size() == Written.size())
    return std::nullopt;
  SourceLocation Start = SM.getLocForStartOfFile(FID);
  PastedCall P;
  P.Suffix = CharSourceRange::getCharRange(Start.getLocWithOffset(Begin),
                                           Start.getLocWithOffset(End));
  P.Call = CharSourceRange::getCharRange(Start.getLocWithOffset(Begin),
                                         Start.getLocWithOffset(Offset + 1));
  P.Prefix = FullName.drop_back(Written.size()).str();
  return P;
}

std::optional<FixItHint> replaceCall(const CallExpr *Call, StringRef FullName,
                                     StringRef Text, const ASTContext &Ctx) {
  CharSourceRange Range = writtenRange(Call->getSourceRange(), Ctx);
  if (Range.isValid())
    return FixItHint::CreateReplacement(Range, Text);
  std::optional<PastedCall> P = pastedCall(Call, FullName, Ctx);
  if (!P || !Text.starts_with(P->Prefix))
    return std::nullopt;
  return FixItHint::CreateReplacement(P->Call,
                                      Text.drop_front(P->Prefix.size()));
}

namespace {
class JumpFinder : public DynamicRecursiveASTVisitor {
public:
  bool VisitGotoStmt(GotoStmt *) override { return !(Found = true); }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *) override {
    return !(Found = true);
  }
  bool VisitSwitchStmt(SwitchStmt *) override { return !(Found = true); }
  bool Found = false;
};
} // namespace

bool hasJumps(const FunctionDecl *F) {
  if (!F || !F->getBody())
    return false;
  JumpFinder Finder;
  Finder.TraverseStmt(F->getBody());
  return Finder.Found;
}

bool isNullPointerConstant(const Expr *E, ASTContext &Ctx) {
  return E && E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull) !=
                  Expr::NPCK_NotNull;
}

} // namespace cuda_tidy
