//===--- GridDependencyImpl.h - Internal to lib/pdl ------------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Internal to lib/pdl: the state of GridDependencyAnalysis, shared by
/// GridDependency.cpp (the wait state along each path, the walk for
/// accesses, the public entry points) and PointerSpaces.cpp (where objects
/// and the targets of pointers live).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_PDL_GRIDDEPENDENCYIMPL_H
#define CUDA_TIDY_LIB_PDL_GRIDDEPENDENCYIMPL_H

#include "lib/pdl/GridDependency.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>
#include <vector>

namespace cuda_tidy {
namespace pdl_detail {
using namespace clang;

/// Where an object, or a pointer's target, lives. None is the start of a
/// join (no value seen yet).
enum class Space : uint8_t { None, Global, Other, Unknown };

inline Space join(Space A, Space B) {
  if (A == Space::None)
    return B;
  if (B == Space::None)
    return A;
  return A == B ? A : Space::Unknown;
}

/// An object: where it lives, and where the pointers stored in it point.
struct ObjInfo {
  Space Where = Space::Unknown;
  Space Inner = Space::Unknown;
};

/// One call being analysed: the function and how its parameters are bound.
struct Frame {
  const FunctionDecl *Fn = nullptr;
  const Frame *Parent = nullptr;
  /// The CallExpr or CXXConstructExpr in Parent.
  const Expr *Call = nullptr;
  /// A member call's object, in Parent (a pointer when ObjectIsPointer).
  const Expr *Object = nullptr;
  bool ObjectIsPointer = false;
  /// The first argument of Call that binds a parameter (1 for a member
  /// operator call, whose first argument is the object).
  unsigned ArgOffset = 0;
};

/// Whether the paths reaching a point have waited.
struct WaitState {
  bool Must = false; ///< every path
  bool May = false;  ///< some path
  bool operator==(const WaitState &O) const {
    return Must == O.Must && May == O.May;
  }
};

/// What a statement of the CFG does to the wait state.
enum class Effect { None, Wait, MayWait, Barrier };

inline WaitState apply(WaitState S, Effect E) {
  switch (E) {
  case Effect::Wait:
    return {true, true};
  case Effect::MayWait:
    S.May = true;
    return S;
  case Effect::Barrier:
    if (S.May)
      S.Must = true;
    return S;
  case Effect::None:
    return S;
  }
  return S;
}

/// The CFG of one function, the wait state at each block's entry, and the
/// values its local pointers are given.
struct FunctionInfo {
  std::unique_ptr<CFG> Cfg;
  std::vector<WaitState> In;
  std::vector<bool> Reached;
  WaitState Exit;
  bool ExitReached = false;
  bool InProgress = true;
};

/// The values one function's local variables are given.
struct LocalFacts {
  /// The values assigned to each local variable (its initialiser too).
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const Expr *, 2>> Values;
  /// Locals whose address is taken.
  llvm::DenseSet<const VarDecl *> Escaped;
};

inline StringRef calleeName(const FunctionDecl *F) {
  return F && F->getIdentifier() ? F->getName() : StringRef();
}

inline bool isBarrierName(StringRef N) {
  return N == "__syncthreads" || N == "__syncthreads_count" ||
         N == "__syncthreads_and" || N == "__syncthreads_or" ||
         N == "__barrier_sync";
}

/// Calls that touch no memory through their pointer arguments.
inline bool isAddressOnly(StringRef N) {
  return N.starts_with("__cvta") || N.starts_with("__isGlobal") ||
         N.starts_with("__isShared") || N.starts_with("__isConstant") ||
         N.starts_with("__isLocal") || N.contains_insensitive("prefetch") ||
         N == "printf" || N == "cudaTriggerProgrammaticLaunchCompletion";
}

/// The lvalue an argument passes, through copies and temporaries.
inline const Expr *objectArg(const Expr *E) {
  while (E) {
    E = E->IgnoreParens();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = M->getSubExpr();
      continue;
    }
    if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
      if (C->getNumArgs() == 1 &&
          C->getConstructor()->isCopyOrMoveConstructor()) {
        E = C->getArg(0);
        continue;
      }
      return E;
    }
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(E)) {
      if (IC->getCastKind() == CK_NoOp ||
          IC->getCastKind() == CK_DerivedToBase ||
          IC->getCastKind() == CK_UncheckedDerivedToBase) {
        E = IC->getSubExpr();
        continue;
      }
    }
    if (const auto *EW = dyn_cast<ExprWithCleanups>(E)) {
      E = EW->getSubExpr();
      continue;
    }
    return E;
  }
  return E;
}

} // namespace pdl_detail

using namespace pdl_detail;

class GridDependencyAnalysis::Impl {
public:
  explicit Impl(ASTContext &Ctx) : Ctx(Ctx) {}

  FunctionInfo *info(const FunctionDecl *F);
  Effect effectOf(const Stmt *S);
  void walkFunction(const Frame &F, unsigned Depth,
                    llvm::SmallVectorImpl<const Expr *> &Calls,
                    KernelDependency &Out);
  void collectWaits(const FunctionDecl *Kernel, KernelDependency &Out);

  ASTContext &Ctx;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<FunctionInfo>> Infos;
  /// User functions that wait on every path, in the order found.
  llvm::SmallVector<const FunctionDecl *, 2> Wrappers;

private:
  void solve(FunctionInfo &I);
  void scanValues(const Stmt *S, LocalFacts &I);
  const LocalFacts &localFacts(const FunctionDecl *Def);
  Effect callEffect(const FunctionDecl *Callee);
  bool shallowWait(const FunctionDecl *F);
  bool mayWait(const FunctionDecl *F);
  bool stmtMayWait(const Stmt *S);
  void walkAll(const Stmt *S, const Frame &F, unsigned Depth,
               llvm::SmallVectorImpl<const Expr *> &Calls,
               KernelDependency &Out);

  void inspect(const Stmt *S, const Frame &F, unsigned Depth,
               llvm::SmallVectorImpl<const Expr *> &Calls,
               KernelDependency &Out);
  void inspectCall(const CallExpr *CE, const Frame &F, unsigned Depth,
                   llvm::SmallVectorImpl<const Expr *> &Calls,
                   KernelDependency &Out);
  void inspectConstruct(const CXXConstructExpr *CE, const Frame &F,
                        unsigned Depth,
                        llvm::SmallVectorImpl<const Expr *> &Calls,
                        KernelDependency &Out);
  void inspectOpaqueArgs(const Stmt *Call, const FunctionDecl *Callee,
                         llvm::ArrayRef<const Expr *> Args, const Frame &F,
                         llvm::SmallVectorImpl<const Expr *> &Calls,
                         KernelDependency &Out);
  void add(const Stmt *Access, const Expr *Through, bool Write,
           llvm::ArrayRef<const Expr *> Calls, KernelDependency &Out);

  ObjInfo objectInfo(const Expr *E, const Frame &F, unsigned Depth = 0);
  Space pointee(const Expr *E, const Frame &F, unsigned Depth = 0);
  Space loadedPointer(const Expr *L, const Frame &F, unsigned Depth);
  Space localValues(const VarDecl *V, const Frame &F, unsigned Depth);
  ObjInfo variableInfo(const VarDecl *V, const Frame &F, unsigned Depth);
  ObjInfo thisInfo(const Frame &F, unsigned Depth);
  const Expr *argumentFor(const Frame &F, const ParmVarDecl *P) const;
  const Frame *frameOf(const Decl *Owner, const Frame &F) const;

  llvm::DenseSet<const VarDecl *> Visiting;
  /// Whether a function's body, or a function it calls, may wait.
  llvm::DenseMap<const FunctionDecl *, bool> MayWaitCache;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<LocalFacts>> Locals;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_PDL_GRIDDEPENDENCYIMPL_H
