//===--- FixItHelpers.cpp - Macro-aware edits for fix-its -----------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/ast/FixItHelpers.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace cuda_tidy {

CallEditLookup locateCallEdit(SourceLocation CalleeLoc, const SourceManager &SM,
                              const LangOptions &LangOpts) {
  CallEditLookup Result;
  if (CalleeLoc.isInvalid()) {
    Result.WhyNot = "the call has no source location";
    return Result;
  }
  bool InDefinition =
      CalleeLoc.isMacroID() && !SM.isMacroArgExpansion(CalleeLoc);
  SourceLocation Spelling = SM.getSpellingLoc(CalleeLoc);
  if (SM.isWrittenInScratchSpace(Spelling)) {
    Result.WhyNot = "the name is formed by token pasting in a macro";
    return Result;
  }
  if (SM.isInSystemHeader(Spelling)) {
    Result.WhyNot = "the call is spelled in a system header";
    return Result;
  }
  std::optional<Token> Next = Lexer::findNextToken(Spelling, SM, LangOpts);
  if (!Next || Next->isNot(tok::l_paren) ||
      SM.getFileID(Next->getLocation()) != SM.getFileID(Spelling)) {
    Result.WhyNot = "the call's '(' is not written after its name";
    return Result;
  }
  CallEditPoints Points;
  Points.Name = CharSourceRange::getTokenRange(Spelling, Spelling);
  Points.AfterLParen = Next->getEndLoc();
  Points.InMacroDefinition = InDefinition;
  Result.Points = Points;
  return Result;
}

static bool isPtxIdentChar(char C) {
  return llvm::isAlnum(C) || C == '_' || C == '$' || C == '%';
}

/// Whether the dot-separated opcode parts name a legacy warp instruction.
static bool isLegacyWarpOpcode(llvm::ArrayRef<llvm::StringRef> Parts) {
  if (Parts.size() != 3)
    return false;
  if (Parts[0] == "shfl")
    return llvm::is_contained({"up", "down", "bfly", "idx"}, Parts[1]) &&
           Parts[2] == "b32";
  if (Parts[0] == "vote")
    return (llvm::is_contained({"all", "any", "uni"}, Parts[1]) &&
            Parts[2] == "pred") ||
           (Parts[1] == "ballot" && Parts[2] == "b32");
  return false;
}

llvm::SmallVector<LegacyPtxInstruction, 2>
findLegacyWarpPtx(llvm::StringRef Asm) {
  llvm::SmallVector<LegacyPtxInstruction, 2> Found;
  size_t I = 0, N = Asm.size();
  auto SkipSpace = [&]() {
    while (I < N) {
      if (llvm::isSpace(Asm[I])) {
        ++I;
      } else if (Asm.substr(I).starts_with("//")) {
        while (I < N && Asm[I] != '\n')
          ++I;
      } else if (Asm.substr(I).starts_with("/*")) {
        size_t End = Asm.find("*/", I + 2);
        I = End == llvm::StringRef::npos ? N : End + 2;
      } else {
        break;
      }
    }
  };
  while (I < N) {
    SkipSpace();
    if (I >= N)
      break;
    if (Asm[I] == ';' || Asm[I] == '{' || Asm[I] == '}') {
      ++I;
      continue;
    }
    // Labels ("L1:") and a guard ("@p", "@!p") before the opcode.
    for (;;) {
      size_t J = I;
      while (J < N && isPtxIdentChar(Asm[J]))
        ++J;
      if (J > I && J < N && Asm[J] == ':') {
        I = J + 1;
        SkipSpace();
        continue;
      }
      if (I < N && Asm[I] == '@') {
        J = I + 1;
        if (J < N && Asm[J] == '!')
          ++J;
        while (J < N && isPtxIdentChar(Asm[J]))
          ++J;
        I = J;
        SkipSpace();
        continue;
      }
      break;
    }
    size_t Begin = I;
    while (I < N && (isPtxIdentChar(Asm[I]) || Asm[I] == '.'))
      ++I;
    llvm::StringRef Opcode = Asm.slice(Begin, I);
    size_t StatementEnd = Asm.find_first_of(";{}", I);
    if (StatementEnd == llvm::StringRef::npos)
      StatementEnd = N;
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    Opcode.split(Parts, '.');
    if (isLegacyWarpOpcode(Parts)) {
      LegacyPtxInstruction L;
      L.Opcode = Opcode.str();
      L.SyncOpcode = (Parts[0] + ".sync." + Parts[1] + "." + Parts[2]).str();
      L.Begin = Begin;
      L.SyncAt = Begin + Parts[0].size();
      if (StatementEnd < N && Asm[StatementEnd] == ';') {
        size_t Last = StatementEnd;
        while (Last > I && llvm::isSpace(Asm[Last - 1]))
          --Last;
        // An instruction with no operand is not one of these.
        if (Last > I)
          L.MaskAt = Last;
      }
      Found.push_back(std::move(L));
    }
    // Skip the rest of the statement, but not the separator itself.
    I = std::max(I, StatementEnd);
  }
  return Found;
}

LineIndent lineIndentOf(SourceLocation Loc, const SourceManager &SM) {
  LineIndent Out;
  Out.Indent = Lexer::getIndentationForLine(Loc, SM);
  if (!Out.Indent.data())
    return Out;
  auto [FID, Offset] = SM.getDecomposedLoc(Loc);
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(FID, &Invalid);
  size_t At = std::min<size_t>(Offset, Buffer.size());
  Out.StartsLine = !Invalid && Out.Indent.end() == Buffer.data() + At;
  return Out;
}

namespace {
/// The identifiers a function declares or refers to.
class NameCollector : public DynamicRecursiveASTVisitor {
public:
  bool VisitNamedDecl(NamedDecl *D) override {
    if (D->getDeclName().isIdentifier())
      Names.insert(D->getName());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    if (E->getDecl()->getDeclName().isIdentifier())
      Names.insert(E->getDecl()->getName());
    return true;
  }
  llvm::StringSet<> Names;
};
} // namespace

llvm::StringSet<> namesUsedIn(const FunctionDecl *Function) {
  NameCollector Collector;
  Collector.TraverseDecl(const_cast<FunctionDecl *>(Function));
  return std::move(Collector.Names);
}

std::string freshName(StringRef Base, const llvm::StringSet<> &Used) {
  std::string Name = Base.str();
  for (unsigned N = 2; Used.contains(Name); ++N)
    Name = Base.str() + std::to_string(N);
  return Name;
}

clang::SourceLocation statementBegin(const clang::Stmt *S,
                                     const clang::ASTContext &Ctx) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::SourceLocation B = S->getBeginLoc();
  if (B.isFileID())
    return B;
  clang::SourceLocation Start;
  if (!clang::Lexer::isAtStartOfMacroExpansion(B, SM, Ctx.getLangOpts(),
                                               &Start))
    return {};
  return SM.getExpansionLoc(Start);
}

/// An expression that needs no parentheses as the right operand of a binary
/// operator.
static bool isPrimary(const clang::Expr *E) {
  E = E->IgnoreImpCasts();
  return llvm::isa<clang::ParenExpr, clang::DeclRefExpr,
                   clang::ArraySubscriptExpr, clang::IntegerLiteral,
                   clang::FloatingLiteral, clang::CallExpr, clang::MemberExpr,
                   clang::CharacterLiteral>(E);
}

std::optional<AssignmentSplit>
splitAssignment(const clang::BinaryOperator *Assign,
                const clang::Expr *TypedLHS, const clang::SourceManager &SM,
                const clang::LangOptions &LO) {
  auto Text = [&](const clang::Expr *E) {
    return clang::Lexer::getSourceText(
               clang::CharSourceRange::getTokenRange(E->getSourceRange()), SM,
               LO)
        .str();
  };
  AssignmentSplit Out;
  Out.LHS = Text(Assign->getLHS());
  std::string RHS = Text(Assign->getRHS());
  if (Out.LHS.empty() || RHS.empty())
    return std::nullopt;
  if (Assign->getOpcode() == clang::BO_Assign) {
    Out.Value = RHS;
  } else {
    clang::BinaryOperatorKind Op =
        clang::BinaryOperator::getOpForCompoundAssignment(Assign->getOpcode());
    Out.Value = Out.LHS + " " + clang::BinaryOperator::getOpcodeStr(Op).str() +
                " " + (isPrimary(Assign->getRHS()) ? RHS : "(" + RHS + ")");
  }
  clang::PrintingPolicy Policy(LO);
  Policy.SuppressTagKeyword = true;
  Out.Type = TypedLHS->getType().getUnqualifiedType().getAsString(Policy);
  return Out;
}

} // namespace cuda_tidy
