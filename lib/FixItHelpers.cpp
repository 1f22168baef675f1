//===--- FixItHelpers.cpp - Macro-aware edits for fix-its -----------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/FixItHelpers.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

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

} // namespace cuda_tidy
