//===--- SharedMemory.cpp - Static shared memory per kernel ---------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/launch/SharedMemory.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/MathExtras.h"

using namespace clang;

namespace cuda_tidy {

bool SharedMemoryAccounting::isCountedSharedVar(const VarDecl *VD) {
  if (!VD || !VD->hasAttr<CUDASharedAttr>() || VD->hasExternalStorage())
    return false;
  QualType T = VD->getType();
  return !T->isDependentType() && !T->isIncompleteType() &&
         T->isConstantSizeType() && !VD->isInvalidDecl();
}

template <typename Fn> static void forEachStmt(const Stmt *S, Fn &&F) {
  if (!S)
    return;
  F(S);
  for (const Stmt *Child : S->children())
    forEachStmt(Child, F);
}

const SharedMemoryAccounting::BodyUses &
SharedMemoryAccounting::usesOf(const FunctionDecl *F) {
  std::unique_ptr<BodyUses> &Slot = Uses[F];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<BodyUses>();
  BodyUses &U = *Slot;
  const FunctionDecl *Definition = nullptr;
  const Stmt *Body = F->getBody(Definition);
  if (!Body || Definition->isDependentContext())
    return U;
  llvm::SmallPtrSet<const Decl *, 16> Seen;
  auto Var = [&](const VarDecl *VD) {
    if (isCountedSharedVar(VD) && Seen.insert(VD).second)
      U.Vars.push_back(VD);
  };
  auto Reach = [&](const FunctionDecl *Callee) {
    if (Callee && Callee->hasBody() &&
        Seen.insert(Callee->getCanonicalDecl()).second)
      U.Callees.push_back(Callee->getCanonicalDecl());
  };
  forEachStmt(Body, [&](const Stmt *S) {
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          Var(VD);
    } else if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        Var(VD);
    } else if (const auto *ME = dyn_cast<MemberExpr>(S)) {
      // A static data member declared __shared__.
      if (const auto *VD = dyn_cast<VarDecl>(ME->getMemberDecl()))
        Var(VD);
    } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      Reach(Call->getDirectCallee());
    } else if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
      Reach(CE->getConstructor());
    }
  });
  return U;
}

const StaticSharedMemory &
SharedMemoryAccounting::of(const FunctionDecl *Kernel) {
  std::unique_ptr<StaticSharedMemory> &Slot = Cache[Kernel];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<StaticSharedMemory>();
  StaticSharedMemory &Result = *Slot;

  llvm::SetVector<const FunctionDecl *> Functions;
  llvm::SetVector<const VarDecl *> Vars;
  Functions.insert(Kernel);
  for (unsigned I = 0; I < Functions.size(); ++I) {
    const BodyUses &U = usesOf(Functions[I]);
    Vars.insert(U.Vars.begin(), U.Vars.end());
    Functions.insert(U.Callees.begin(), U.Callees.end());
  }

  for (const VarDecl *VD : Vars) {
    QualType T = VD->getType();
    uint64_t Size = Ctx.getTypeSizeInChars(T).getQuantity();
    uint64_t Align = std::max<int64_t>(1, Ctx.getDeclAlign(VD).getQuantity());
    Result.Variables.push_back({VD, Size, Align});
  }
  // The tightest layout: decreasing alignment.
  llvm::SmallVector<SharedVariable, 4> ByAlign(Result.Variables);
  llvm::stable_sort(ByAlign,
                    [](const SharedVariable &A, const SharedVariable &B) {
                      return A.Align > B.Align;
                    });
  uint64_t Offset = 0;
  for (const SharedVariable &V : ByAlign)
    Offset = llvm::alignTo(Offset, V.Align) + V.Size;
  Result.Total = Offset;
  llvm::stable_sort(Result.Variables,
                    [](const SharedVariable &A, const SharedVariable &B) {
                      return A.Size > B.Size;
                    });
  return Result;
}

} // namespace cuda_tidy
