//===--- Macros.h - Identifiers and macros of a translation unit -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Lookups of identifiers and macro definitions that also work where the
// translation unit's headers come from a precompiled header or a clangd
// preamble: the identifier table holds only what has been loaded so far,
// and tokens read back from such a file carry no literal data.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_AST_MACROS_H
#define CUDA_TIDY_LIB_AST_MACROS_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace clang {
class IdentifierInfo;
class IdentifierTable;
class MacroInfo;
class Preprocessor;
class Token;
} // namespace clang

namespace cuda_tidy {

/// The identifier Name if the translation unit (or a precompiled header or
/// preamble it reads) has one; null otherwise. Creates none.
const clang::IdentifierInfo *lookupIdentifier(const clang::IdentifierTable &Ids,
                                              llvm::StringRef Name);

/// The definition of macro Name as the translation unit ends, or null.
const clang::MacroInfo *macroNamed(const clang::Preprocessor &PP,
                                   llvm::StringRef Name);

/// The spelling of token T of a macro's replacement list.
std::string tokenSpelling(const clang::Preprocessor &PP, const clang::Token &T);

/// The value of a macro defined to one decimal integer literal.
std::optional<unsigned> macroNumber(const clang::Preprocessor &PP,
                                    llvm::StringRef Name);

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_AST_MACROS_H
