//===--- CudaAST.h - CUDA-specific queries on the clang AST -----*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Small AST queries the checks share: what is a kernel, what is device code,
/// which declarations come from the CUDA toolkit or clang's CUDA headers, and
/// the built-in variables (`threadIdx.x`, `blockDim.y`, ...).
///
/// Model: "from the CUDA headers" means declared in a system header at global
/// namespace scope. A user's function that shares a builtin's name is
/// declared in a user file or in a namespace and never counts.
/// Built-in variables are recognised by name and shape in both spellings
/// clang sees: the toolkit's/clang's `__declspec(property)` members, and the
/// plain struct members that hermetic test stubs may use.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_AST_CUDAAST_H
#define CUDA_TIDY_LIB_AST_CUDAAST_H

#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace clang {
class ASTContext;
class CUDALaunchBoundsAttr;
class Decl;
class CallExpr;
class Expr;
class FunctionDecl;
class SourceManager;
} // namespace clang

namespace cuda_tidy {

/// A `__global__` function.
bool isKernel(const clang::FunctionDecl *FD);

/// A kernel's `__launch_bounds__(MaxThreads, MinBlocks, MaxBlocksPerCluster)`
/// with each argument that is a non-negative integer constant. A
/// value-dependent argument (in a template pattern) is not read: its
/// instantiations carry their own bound.
struct LaunchBounds {
  const clang::CUDALaunchBoundsAttr *Attr = nullptr;
  std::optional<uint64_t> MaxThreads, MinBlocks, MaxCluster;
};

/// The launch bounds of Kernel, or std::nullopt when it has none. With
/// FromPattern, a specialization without the attribute takes its template
/// pattern's.
std::optional<LaunchBounds> launchBoundsOf(const clang::FunctionDecl *Kernel,
                                           const clang::ASTContext &Ctx,
                                           bool FromPattern = false);

/// The threads per block Kernel's `__launch_bounds__` allow, when the bound
/// is a positive constant.
std::optional<uint64_t>
launchBoundsMaxThreads(const clang::FunctionDecl *Kernel,
                       const clang::ASTContext &Ctx);

/// A function that runs on the GPU: `__global__`, or `__device__` (with or
/// without `__host__`).
bool isDeviceCode(const clang::FunctionDecl *FD);

/// Declared by the CUDA toolkit or clang's CUDA headers: in a system header,
/// at global scope (not in a namespace or class).
bool isCudaHeaderDecl(const clang::Decl *D, const clang::SourceManager &SM);

/// The CUDA built-in index variables.
enum class BuiltinVar { ThreadIdx, BlockIdx, BlockDim, GridDim };

/// One component of a built-in variable: `threadIdx.x` is {ThreadIdx, 0}.
struct BuiltinVarRef {
  BuiltinVar Var;
  unsigned Dim;
};

/// Recognises `threadIdx.x` and friends, looking through implicit casts and
/// parentheses. Returns std::nullopt for anything else.
std::optional<BuiltinVarRef> getBuiltinVarRef(const clang::Expr *E);

/// The source spelling of a built-in variable component ("threadIdx.x").
std::string builtinVarSpelling(BuiltinVarRef Ref);

/// A template pattern that the translation unit never instantiates (a
/// header's templates, analysed as written): neither its function template
/// nor an enclosing class template has a specialization. The analyses read
/// such a pattern directly; where instantiations exist they read those, which
/// prove more.
bool isUninstantiatedPattern(const clang::FunctionDecl *FD);

/// Code the analyses read: not a template pattern, unless one that is never
/// instantiated.
bool isAnalysedBody(const clang::FunctionDecl *FD);

/// The function a call runs: its direct callee, or, for a dependent call in
/// a template pattern, the one function or function template its name finds
/// (its pattern), member calls on objects of a class template's type
/// included. Null when the name finds several or the callee is an
/// expression.
const clang::FunctionDecl *resolveCallee(const clang::CallExpr *CE);

/// The object of a member call written `obj.f(...)` or `p->f(...)`,
/// dependent ones in a template pattern included; null otherwise.
const clang::Expr *memberCallBase(const clang::CallExpr *CE);

/// Whether D is written in a system header (the CUDA toolkit, thrust, cub,
/// the C++ library), template instantiations of such code included.
bool isInSystemHeader(const clang::Decl *D);

/// isInSystemHeader for the declarations of a walk, which come file by file:
/// the answer for the last file asked is kept with the file's range of
/// source locations (a file whose line markers may change the answer
/// within it is asked every time).
class SystemHeaderCache {
public:
  bool isSystem(const clang::Decl *D);
  /// SM.isInSystemHeader(SM.getExpansionLoc(Loc)).
  bool isSystem(clang::SourceLocation Loc, const clang::SourceManager &SM);

private:
  unsigned Begin = 1, End = 0;
  bool System = false;
};

/// A RecursiveASTVisitor for whole-translation-unit walks that does not
/// descend into declarations written in system headers. The checks report
/// nothing there, and thrust or cub make up most of a real CUDA translation
/// unit, so skipping them keeps each walk cheap. Derive from it as from
/// RecursiveASTVisitor.
///
/// Only a declaration written at namespace scope is asked where it is
/// written: one inside a class or a function is where its enclosing
/// declaration is (a file holds whole namespace-scope declarations).
///
/// Each instance compiles a whole RecursiveASTVisitor; DynamicUserCodeVisitor
/// below compiles none. Use this one only where the walk is hot enough that
/// the dynamic visitor's virtual calls show in the benchmark.
template <typename Derived>
class UserCodeVisitor : public clang::RecursiveASTVisitor<Derived> {
public:
  bool TraverseDecl(clang::Decl *D) {
    if (D && !llvm::isa<clang::TranslationUnitDecl>(D) &&
        D->getLexicalDeclContext()->getRedeclContext()->isFileContext() &&
        SystemFiles.isSystem(D))
      return true;
    return clang::RecursiveASTVisitor<Derived>::TraverseDecl(D);
  }

private:
  SystemHeaderCache SystemFiles;
};

/// UserCodeVisitor as a DynamicRecursiveASTVisitor (compiled once, in
/// libclang-cpp): derive from it as from DynamicRecursiveASTVisitor.
class DynamicUserCodeVisitor : public clang::DynamicRecursiveASTVisitor {
public:
  bool TraverseDecl(clang::Decl *D) override {
    if (D && !llvm::isa<clang::TranslationUnitDecl>(D) &&
        D->getLexicalDeclContext()->getRedeclContext()->isFileContext() &&
        SystemFiles.isSystem(D))
      return true;
    return clang::DynamicRecursiveASTVisitor::TraverseDecl(D);
  }

private:
  SystemHeaderCache SystemFiles;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_AST_CUDAAST_H
