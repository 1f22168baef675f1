//===--- TextureFixSyntax.h - Texture references in source ------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Private to lib/toolkit: how a texture reference's uses are written (the
/// call a reference is an argument of, settings of its fields, argument
/// text, bind statements whose arguments can move), read by the texture
/// object planner (TextureObjectFix.cpp).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_TOOLKIT_TEXTUREFIXSYNTAX_H
#define CUDA_TIDY_LIB_TOOLKIT_TEXTUREFIXSYNTAX_H

#include "lib/toolkit/TextureObjectFix.h"
#include "clang/AST/ASTContext.h"
#include <optional>
#include <string>

namespace cuda_tidy::texfix {

/// A setting of the reference: `tex.filterMode = cudaFilterModeLinear;`.
struct Setting {
  /// The texture descriptor's field it sets ("filterMode",
  /// "addressMode[1]", "normalizedCoords").
  std::string Field;
  std::string Value;
  const clang::Stmt *Statement = nullptr;
  const clang::CompoundStmt *Block = nullptr;
};

/// Whether Api is a texture or surface function (reads, binds, unbinds).
bool isTextureFunction(const RemovedApi *Api);
/// The call U's reference is an argument of (through casts, parentheses and
/// '&'), whether '&' was taken, and the argument's index.
const clang::CallExpr *argumentOf(const VarUse &U, bool &AddressTaken,
                                  unsigned &Index);
/// `tex.filterMode = X;` and `tex.addressMode[0] = X;` as a statement.
std::optional<Setting> settingOf(const VarUse &U, clang::ASTContext &Ctx,
                                 std::string &WhyNot);
/// The number of components of a texel type for the normalized-float read
/// mode (1 for char/short, N for charN/shortN), or 0.
unsigned normalizedComponents(clang::QualType T);
/// The text of a call argument, or std::nullopt when it has side effects or
/// is not written in a file.
std::optional<std::string> argText(const clang::CallExpr *Call, unsigned I,
                                   clang::ASTContext &Ctx);
/// Whether parameter I of FD is a channel descriptor.
bool isChannelDescParam(const clang::FunctionDecl *FD, unsigned I);
/// Whether the bind call's arguments can move before its statement S.
bool bindStatementIsSimple(const clang::CallExpr *Call, const clang::Stmt *S,
                           const UseContext &C, clang::ASTContext &Ctx);
/// A binding's offset argument `&offset` whose local the program never
/// reads again, or null; Decl is its declaration when that declares nothing
/// else and initialises it with a constant, if at all.
const clang::VarDecl *unreadOffset(const clang::Expr *Arg,
                                   const clang::FunctionDecl *F,
                                   const clang::DeclStmt *&Decl,
                                   clang::ASTContext &Ctx);

} // namespace cuda_tidy::texfix

#endif // CUDA_TIDY_LIB_TOOLKIT_TEXTUREFIXSYNTAX_H
