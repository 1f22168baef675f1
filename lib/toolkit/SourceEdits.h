//===--- SourceEdits.h - Text edits for the toolkit fixes -------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Small text-level helpers the removed-API fixes share: where an
/// expression or statement is written, its text, and a fix under
/// construction (Rewrite) that either holds all its edits or says why there
/// is none (a line's indentation is lib/ast/FixItHelpers.h's).
///
/// Model: an edit is made only on text written in a file; an expression
/// written in a macro argument is edited where the argument is written, one
/// written in a macro's body is not edited (writtenRange() is invalid).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_TOOLKIT_SOURCEEDITS_H
#define CUDA_TIDY_LIB_TOOLKIT_SOURCEEDITS_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class Decl;
class CallExpr;
class Expr;
class FunctionDecl;
class LangOptions;
class SourceManager;
class Stmt;
class VarDecl;
} // namespace clang

namespace cuda_tidy {

/// A fix: its edits, or why there is none (then Edits is empty).
struct Rewrite {
  llvm::SmallVector<clang::FixItHint, 4> Edits;
  std::string WhyNot;
  /// Where the reason is best shown; the use itself when invalid.
  clang::SourceLocation WhyNotLoc;
  /// Without a fix: an unproven one for a note (`--fix-notes`), and what it
  /// assumes.
  llvm::SmallVector<clang::FixItHint, 2> NoteEdits;
  std::string NoteText;

  bool ok() const { return WhyNot.empty(); }
  /// Records the first reason only; returns false.
  bool fail(const llvm::Twine &Why,
            clang::SourceLocation At = clang::SourceLocation());
};

/// The characters of Range as written in a file: the tokens of a macro
/// argument where the argument is written; invalid when any part comes from
/// a macro's body.
clang::CharSourceRange writtenRange(clang::SourceRange Range,
                                    const clang::ASTContext &Ctx);

/// The text writtenRange() covers, or std::nullopt.
std::optional<std::string> writtenText(clang::SourceRange Range,
                                       const clang::ASTContext &Ctx);

/// Just after the ';' that ends statement S, in the file; invalid when S is
/// not followed by a ';' written in the file (a compound statement, a
/// statement inside a macro's body).
clang::SourceLocation afterStatement(const clang::Stmt *S,
                                     const clang::ASTContext &Ctx);

/// The edit that removes statement S and its ';', with its whole line when
/// nothing else is on it; std::nullopt when S is not written in a file.
std::optional<clang::FixItHint> removeStatement(const clang::Stmt *S,
                                                const clang::ASTContext &Ctx);

/// The edit that removes a variable's declaration (written in a file,
/// declaring it alone) and its ';', with its whole line when nothing else
/// is on it; std::nullopt when it is not written so.
std::optional<clang::FixItHint> removeDeclaration(const clang::VarDecl *V,
                                                  const clang::ASTContext &Ctx);

/// Whether something named Name is declared inside D (its parameters
/// included).
bool declaresName(const clang::Decl *D, llvm::StringRef Name);

/// Whether Name is free to declare in function F: nothing in F and nothing
/// at file scope has it.
bool isNameFree(llvm::StringRef Name, const clang::FunctionDecl *F,
                clang::ASTContext &Ctx);

/// A call whose function name a macro pastes together (`#define cuda(fn)
/// ... cuda##fn ...` used as `cuda(ThreadSynchronize())`): the part written
/// in the file, and the prefix the macro adds.
struct PastedCall {
  /// The written part of the name (`ThreadSynchronize`).
  clang::CharSourceRange Suffix;
  /// From the written part of the name to the call's ')', in the file.
  clang::CharSourceRange Call;
  std::string Prefix;
};

/// The written parts of Call when its callee, named FullName, is formed by
/// token pasting in a macro and the rest of the call is written in a macro
/// argument; std::nullopt otherwise.
std::optional<PastedCall> pastedCall(const clang::CallExpr *Call,
                                     llvm::StringRef FullName,
                                     const clang::ASTContext &Ctx);

/// The replacement of a call's text (callee name to ')') by Text, which
/// starts with the callee's new name: where the call is written in the file
/// (or a macro argument), or, for a name pasted by a macro, from its written
/// part on with the macro's prefix taken off Text. std::nullopt when neither
/// applies or Text does not start with the prefix.
std::optional<clang::FixItHint> replaceCall(const clang::CallExpr *Call,
                                            llvm::StringRef FullName,
                                            llvm::StringRef Text,
                                            const clang::ASTContext &Ctx);

/// Whether control may jump past a declaration inserted in F: F has a
/// `goto` or a `switch`. A declaration with an initialiser must then not be
/// inserted ("jump bypasses variable initialization"); one without, of a
/// trivial type, followed by an assignment, may.
bool hasJumps(const clang::FunctionDecl *F);

/// Whether E is a null pointer constant (`0`, `NULL`, `nullptr`).
bool isNullPointerConstant(const clang::Expr *E, clang::ASTContext &Ctx);

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_TOOLKIT_SOURCEEDITS_H
