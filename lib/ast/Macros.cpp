//===--- Macros.cpp - Identifiers and macros of a translation unit --------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/ast/Macros.h"
#include "clang/Basic/IdentifierTable.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;

namespace cuda_tidy {

const IdentifierInfo *lookupIdentifier(const IdentifierTable &Ids,
                                       llvm::StringRef Name) {
  auto It = Ids.find(Name);
  if (It != Ids.end() && It->getValue())
    return It->getValue();
  // Not loaded yet: the precompiled header or preamble knows it, if any.
  if (IdentifierInfoLookup *External = Ids.getExternalIdentifierLookup())
    return External->get(Name);
  return nullptr;
}

const MacroInfo *macroNamed(const Preprocessor &PP, llvm::StringRef Name) {
  const IdentifierInfo *II = lookupIdentifier(PP.getIdentifierTable(), Name);
  return II ? PP.getMacroInfo(II) : nullptr;
}

std::string tokenSpelling(const Preprocessor &PP, const Token &T) {
  bool Invalid = false;
  std::string Spelling = PP.getSpelling(T, &Invalid);
  return Invalid ? std::string() : Spelling;
}

std::optional<unsigned> macroNumber(const Preprocessor &PP,
                                    llvm::StringRef Name) {
  const MacroInfo *MI = macroNamed(PP, Name);
  if (!MI || MI->getNumTokens() != 1 ||
      !MI->getReplacementToken(0).is(tok::numeric_constant))
    return std::nullopt;
  unsigned Value;
  if (llvm::StringRef(tokenSpelling(PP, MI->getReplacementToken(0)))
          .getAsInteger(10, Value))
    return std::nullopt;
  return Value;
}

} // namespace cuda_tidy
