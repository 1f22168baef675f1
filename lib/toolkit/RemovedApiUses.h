//===--- RemovedApiUses.h - Uses of removed CUDA APIs -----------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// One walk over the user's code of a translation unit that collects what
/// the fixes for removed toolkit APIs need: references to the table's
/// functions and types (RemovedApi.h), reads of removed `cudaDeviceProp`
/// fields, the texture and surface reference variables and every reference
/// to them, kernel launches and other references to kernels, and the
/// `cudaGetDeviceProperties` calls.
///
/// Model: a use is recorded with its ancestors up to the body of the
/// function it is in (the statement chain a fix needs to find the statement
/// to insert before or after). Template patterns are walked, instantiations
/// are not: a use written once is recorded once. Code in system headers is
/// not walked.
///
/// A removed `cudaDeviceProp` field does not exist in the CUDA 13 headers;
/// clang reports "no member named" and keeps a RecoveryExpr whose last token
/// is the member name. The caller passes the locations of those errors
/// (FieldErrorLocs, with the field names) and the walk takes the
/// RecoveryExpr ending there as the read. With a toolkit that still has the
/// field, the read is an ordinary MemberExpr.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_TOOLKIT_REMOVEDAPIUSES_H
#define CUDA_TIDY_LIB_TOOLKIT_REMOVEDAPIUSES_H

#include "lib/toolkit/RemovedApi.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/TypeLoc.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace clang {
class ASTContext;
class CompoundStmt;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace cuda_tidy {

/// Where a use sits: its function and its ancestors, innermost first, up to
/// and including the function body.
struct UseContext {
  const clang::FunctionDecl *Function = nullptr;
  llvm::SmallVector<const clang::Stmt *, 8> Ancestors;

  /// The nearest ancestor (the use itself excluded).
  const clang::Stmt *parent() const {
    return Ancestors.empty() ? nullptr : Ancestors.front();
  }
  /// The ancestor that is a direct child of a compound statement written in
  /// a file (not in a macro's body), and that compound statement; null when
  /// a lambda or block lies between, or none.
  std::pair<const clang::Stmt *, const clang::CompoundStmt *>
  statementInBlock(const clang::Stmt *Use) const;
  /// The innermost loop around the use, or null; a macro's
  /// `do { ... } while (0)` does not count.
  const clang::Stmt *innermostLoop() const;
  /// Whether S is one of the ancestors.
  bool isInside(const clang::Stmt *S) const;
};

/// A reference to a function of the table.
struct FunctionUse {
  const RemovedApi *Api = nullptr;
  /// The DeclRefExpr, or for a dependent call in a template pattern the
  /// UnresolvedLookupExpr.
  const clang::Expr *Ref = nullptr;
  /// The resolved declaration; null for a dependent call.
  const clang::FunctionDecl *Decl = nullptr;
  /// The call whose callee Ref is, or null.
  const clang::CallExpr *Call = nullptr;
  clang::SourceLocation NameLoc;
  UseContext Context;
};

/// A spelled type of the table (`double4`, `textureReference`, `texture<...>`).
struct TypeUse {
  const RemovedApi *Api = nullptr;
  clang::TypeLoc Loc;
  /// The declaration whose type this is written in, when it is a variable
  /// declaration's own type (`texture<float> tex;`), else null.
  const clang::VarDecl *OfVar = nullptr;
};

/// A read (or write) of a removed `cudaDeviceProp` field.
struct FieldUse {
  const RemovedApi *Api = nullptr;
  /// The MemberExpr, or the RecoveryExpr clang left for it.
  const clang::Expr *Access = nullptr;
  /// The object expression (`prop`, `*p`, `p` for `p->field`).
  const clang::Expr *Base = nullptr;
  bool IsArrow = false;
  clang::SourceLocation FieldLoc;
  UseContext Context;
};

/// A reference to a variable the fixes follow (a texture or surface
/// reference, a `cudaDeviceProp` object).
struct VarUse {
  const clang::DeclRefExpr *Ref = nullptr;
  UseContext Context;
};

/// A kernel launch (`k<<<...>>>(...)`).
struct LaunchUse {
  const clang::CUDAKernelCallExpr *Call = nullptr;
  /// The kernel: the function, or for a template its pattern.
  const clang::FunctionDecl *Kernel = nullptr;
  UseContext Context;
};

/// A reference to a kernel that is not the callee of a launch.
struct KernelRefUse {
  const clang::Expr *Ref = nullptr;
  const clang::FunctionDecl *Kernel = nullptr;
  UseContext Context;
};

/// Everything one walk found, in source order within each list.
struct RemovedApiUses {
  llvm::SmallVector<FunctionUse, 8> Functions;
  llvm::SmallVector<TypeUse, 8> Types;
  llvm::SmallVector<FieldUse, 4> Fields;
  /// Texture and surface reference variables at namespace scope.
  llvm::SmallVector<const clang::VarDecl *, 4> TextureRefs;
  llvm::DenseMap<const clang::VarDecl *, llvm::SmallVector<VarUse, 8>> VarRefs;
  llvm::SmallVector<LaunchUse, 8> Launches;
  llvm::SmallVector<KernelRefUse, 4> KernelRefs;
  /// `cudaGetDeviceProperties` calls.
  llvm::SmallVector<FunctionUse, 4> PropertiesCalls;
  /// Calls of `make_double4` and the other makers of the deprecated vector
  /// types; Api is the type's entry.
  llvm::SmallVector<FunctionUse, 4> VectorMakers;
  /// Calls of other CUDA header functions whose parameters or result have a
  /// deprecated vector type (`curand_normal4_double`): renaming the type in
  /// the user's code alone would not compile. Api is the type's entry.
  llvm::SmallVector<FunctionUse, 2> VectorBlockers;
};

/// The RecoveryExprs to take as removed-field reads: the location of the
/// member name clang could not find, and that name.
using FieldErrorLocs = llvm::DenseMap<clang::SourceLocation, std::string>;

/// Walks the user's code of Ctx's translation unit.
RemovedApiUses collectRemovedApiUses(clang::ASTContext &Ctx,
                                     const FieldErrorLocs &FieldErrors);

/// The kernel or function pattern a use of FD stands for: a function
/// template specialization's pattern, else FD's first declaration.
const clang::FunctionDecl *patternOf(const clang::FunctionDecl *FD);

/// Whether D is the texture or surface reference class template `texture`
/// or `surface` (the CUDA 11 headers' or the compatibility declarations').
bool isTextureReferenceType(clang::QualType T, bool *IsSurface = nullptr);

/// Whether D was declared by the compatibility declarations
/// (compatDeclarations()).
bool isCompatDeclaration(const clang::Decl *D);

/// Whether the CUDA headers themselves declare FD's form (some declaration
/// of it other than the compatibility declarations'): CUDA 12 and 13 keep
/// `cudaGraphInstantiate(exec, graph, errNode, log, size)` as an inline C++
/// overload that calls the new form and ignores the error outputs.
bool isDeclaredByToolkit(const clang::FunctionDecl *FD);

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_TOOLKIT_REMOVEDAPIUSES_H
