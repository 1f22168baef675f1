//===--- FixItHelpers.h - Macro-aware edits for fix-its ---------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Where a fix-it may edit the text of a call, given that the call may be
/// spelled in a macro.
///
/// Model: an edit is made at the spelling location of the tokens it changes.
/// A call spelled in the body of a user's macro is edited once, at the
/// macro's definition; one spelled in a macro argument is edited where the
/// argument is written. No edit is ever made in a system header, in text
/// produced by token pasting, or when the callee's name and its '(' are not
/// written next to each other in one file.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_AST_FIXITHELPERS_H
#define CUDA_TIDY_LIB_AST_FIXITHELPERS_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class BinaryOperator;
class Expr;
class FunctionDecl;
class LangOptions;
class SourceManager;
class Stmt;
} // namespace clang

namespace cuda_tidy {

/// The places to edit so that `name(args)` becomes `new_name(extra, args)`.
struct CallEditPoints {
  /// The callee's name token, at its spelling location.
  clang::CharSourceRange Name;
  /// Just after the call's '(', at its spelling location.
  clang::SourceLocation AfterLParen;
  /// True when the name is spelled in the body of a macro definition.
  bool InMacroDefinition = false;
};

/// The result of locateCallEdit(): the edit points, or why there are none.
struct CallEditLookup {
  std::optional<CallEditPoints> Points;
  std::string WhyNot;
};

/// Finds where to edit a call whose callee name is at CalleeLoc (possibly a
/// macro location).
CallEditLookup locateCallEdit(clang::SourceLocation CalleeLoc,
                              const clang::SourceManager &SM,
                              const clang::LangOptions &LangOpts);

/// The indentation of a line, for text a fix inserts on a line of its own.
struct LineIndent {
  /// The blanks that start the line (Lexer::getIndentationForLine).
  llvm::StringRef Indent;
  /// Whether only those blanks come before the location on its line.
  bool StartsLine = false;
};

/// The indentation of Loc's line (a file location; empty for a macro
/// location).
LineIndent lineIndentOf(clang::SourceLocation Loc,
                        const clang::SourceManager &SM);

/// Every identifier Function declares or refers to (parameters, locals,
/// what its body names), so that a name a fix introduces shadows none.
llvm::StringSet<> namesUsedIn(const clang::FunctionDecl *Function);

/// The first of Base, Base2, Base3, ... that Used does not hold.
std::string freshName(llvm::StringRef Base, const llvm::StringSet<> &Used);

/// Where S starts in the file: its location, or the start of the macro it
/// begins with (`__shared__ float t[32];`); invalid when S starts in a
/// macro's body other than at the start of the macro's expansion.
clang::SourceLocation statementBegin(const clang::Stmt *S,
                                     const clang::ASTContext &Ctx);

/// An assignment `lhs = rhs` or `lhs op= rhs` to be split through a
/// temporary (`T v = value; <barrier> lhs = v;`), as both barrier planners
/// split one: the left side's text, the value to store (`rhs`, or `lhs op
/// rhs` with rhs in parentheses unless it is primary) and the temporary's
/// type (TypedLHS's, unqualified, with no tag keyword; TypedLHS is the left
/// side as a template pattern spells it, or the assignment's own).
struct AssignmentSplit {
  std::string LHS, Value, Type;
};
/// std::nullopt when a side's source text cannot be read.
std::optional<AssignmentSplit>
splitAssignment(const clang::BinaryOperator *Assign,
                const clang::Expr *TypedLHS, const clang::SourceManager &SM,
                const clang::LangOptions &LO);

/// A warp instruction without `.sync` in a PTX string (`shfl.up.b32`,
/// `vote.ballot.b32`, `vote.all.pred`), with the byte offsets (into the
/// string) of the edits that make it the `.sync` form with a member mask.
struct LegacyPtxInstruction {
  /// The opcode as written ("shfl.up.b32") and its `.sync` form
  /// ("shfl.sync.up.b32").
  std::string Opcode;
  std::string SyncOpcode;
  /// Where the opcode starts.
  size_t Begin = 0;
  /// Where ".sync" goes: just after "shfl" or "vote".
  size_t SyncAt = 0;
  /// Where ", MASK" goes: after the last operand, before the ';'. Unset when
  /// the statement has no ';' in the string.
  std::optional<size_t> MaskAt;
};

/// The legacy warp instructions in the PTX text Asm, in order. Statements are
/// separated by ';', '{' and '}'; a statement may start with labels and a
/// guard predicate (`@p`, `@!p`). Forms already carrying `.sync` and other
/// opcodes are not returned.
llvm::SmallVector<LegacyPtxInstruction, 2>
findLegacyWarpPtx(llvm::StringRef Asm);

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_AST_FIXITHELPERS_H
