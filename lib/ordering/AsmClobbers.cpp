//===--- AsmClobbers.cpp - Waiting asm without a "memory" clobber ---------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/ordering/MemoryOrderingImpl.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace cuda_tidy {

/// The opcodes (up to a '.' or the end) that wait or order memory.
static constexpr llvm::StringLiteral OrderingPrefixes[] = {
    "bar.sync",
    "bar.arrive",
    "bar.red",
    "bar.cta.sync",
    "bar.cta.arrive",
    "bar.cta.red",
    "barrier.sync",
    "barrier.arrive",
    "barrier.red",
    "barrier.cta",
    "barrier.cluster",
    "mbarrier.test_wait",
    "mbarrier.try_wait",
    "griddepcontrol.wait",
    "fence",
    "membar",
    "cp.async.wait_group",
    "cp.async.wait_all",
    "cp.async.bulk.wait_group"};

static bool isOrderingOpcode(StringRef Opcode) {
  // A relaxed arrive or wait orders no memory (the PTX ISA's `.relaxed`
  // semantics); libcu++'s own wrappers give them no "memory" clobber.
  if (Opcode.contains(".relaxed"))
    return false;
  for (StringRef Prefix : OrderingPrefixes)
    if (Opcode.starts_with(Prefix) &&
        (Opcode.size() == Prefix.size() || Opcode[Prefix.size()] == '.'))
      return true;
  return false;
}

std::string firstOrderingInstruction(StringRef Ptx) {
  // Instructions end at ';' and braces open and close scopes; a predicate
  // guard (`@p`, `@!p`) and labels (`L1:`) come before the opcode.
  while (!Ptx.empty()) {
    size_t End = Ptx.find_first_of(";{}");
    StringRef Instr = Ptx.take_front(End).trim();
    Ptx = End == StringRef::npos ? StringRef() : Ptx.drop_front(End + 1);
    // Comments are whole lines in the strings kernels write.
    if (Instr.starts_with("//"))
      Instr = Instr.drop_until([](char C) { return C == '\n'; }).trim();
    auto Space = [](char C) { return llvm::isSpace(C); };
    StringRef First = Instr.take_until(Space);
    if (First.ends_with(":") && !First.contains('.'))
      Instr = Instr.drop_front(First.size()).trim();
    if (Instr.starts_with("@"))
      Instr = Instr.drop_until(Space).trim();
    StringRef Opcode = Instr.take_until(Space);
    if (isOrderingOpcode(Opcode))
      return Opcode.str();
  }
  return "";
}

/// The number of top-level ':' between the asm string and the ')' closing
/// the statement, by lexing its text; -1 if it cannot be read.
static int countSectionColons(const GCCAsmStmt &Asm, const SourceManager &SM,
                              const LangOptions &LangOpts) {
  SourceLocation From = Lexer::getLocForEndOfToken(
      Asm.getAsmStringExpr()->getEndLoc(), 0, SM, LangOpts);
  SourceLocation To = Asm.getRParenLoc();
  if (From.isInvalid() || To.isInvalid() || From.isMacroID() ||
      To.isMacroID() || SM.getFileID(From) != SM.getFileID(To))
    return -1;
  StringRef Text = SM.getBufferData(SM.getFileID(From))
                       .slice(SM.getFileOffset(From), SM.getFileOffset(To));
  // The operands hold string literals (constraints), parentheses and
  // brackets; comments may sit between them. '::' counts as two colons.
  int Colons = 0, Depth = 0;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '"' || C == '\'') {
      for (++I; I < Text.size() && Text[I] != C; ++I)
        if (Text[I] == '\\')
          ++I;
    } else if (Text.substr(I).starts_with("//")) {
      I = std::min(Text.size(), Text.find('\n', I));
    } else if (Text.substr(I).starts_with("/*")) {
      size_t End = Text.find("*/", I + 2);
      if (End == StringRef::npos)
        return -1;
      I = End + 1;
    } else if (C == '(' || C == '[') {
      ++Depth;
    } else if (C == ')' || C == ']') {
      --Depth;
    } else if (C == ':' && Depth == 0) {
      ++Colons;
    }
  }
  return Colons;
}

std::optional<AsmClobberFinding>
findAsmWithoutMemoryClobber(const GCCAsmStmt &Asm, const ASTContext &Ctx) {
  for (unsigned I = 0; I < Asm.getNumClobbers(); ++I)
    if (Asm.getClobber(I) == "memory")
      return std::nullopt;
  AsmClobberFinding Found;
  Found.Instruction = firstOrderingInstruction(Asm.getAsmString());
  if (Found.Instruction.empty())
    return std::nullopt;

  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LangOpts = Ctx.getLangOpts();
  if (Asm.getBeginLoc().isMacroID() || Asm.getRParenLoc().isMacroID()) {
    Found.WhyNoFix = "the asm statement is written in a macro";
    return Found;
  }
  int Colons = countSectionColons(Asm, SM, LangOpts);
  if (Colons < 0) {
    Found.WhyNoFix = "the operands of the asm statement could not be read";
    return Found;
  }
  if (Colons == 0 && Asm.getAsmString().find('%') != std::string::npos) {
    // Basic asm passes '%' through; with operand sections it would start an
    // operand, so the string itself would have to change.
    Found.WhyNoFix = "the string's '%' would have to be written '%%' once the "
                     "statement has operand sections";
    return Found;
  }
  if (Asm.getNumClobbers() > 0) {
    SourceLocation Last =
        Asm.getClobberExpr(Asm.getNumClobbers() - 1)->getEndLoc();
    Found.InsertAt = Lexer::getLocForEndOfToken(Last, 0, SM, LangOpts);
    Found.Text = ", \"memory\"";
  } else if (Colons <= 3 && !Asm.isAsmGoto()) {
    // Open the sections up to the clobber list, before the closing ')'.
    static constexpr llvm::StringLiteral Texts[] = {
        " ::: \"memory\"", " : : \"memory\"", " : \"memory\"", " \"memory\""};
    Found.InsertAt = Asm.getRParenLoc();
    Found.Text = Texts[Colons].str();
  } else {
    Found.WhyNoFix = "the clobber list of an 'asm goto' has no entry to "
                     "extend";
  }
  if (Found.InsertAt.isValid() && Found.InsertAt.isMacroID()) {
    Found.InsertAt = SourceLocation();
    Found.Text.clear();
    Found.WhyNoFix = "the clobber list is written in a macro";
  }
  return Found;
}

} // namespace cuda_tidy
