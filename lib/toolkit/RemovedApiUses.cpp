//===--- RemovedApiUses.cpp - Uses of removed CUDA APIs -------------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/toolkit/RemovedApiUses.h"
#include "lib/ast/CudaAST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_tidy {

std::pair<const Stmt *, const CompoundStmt *>
UseContext::statementInBlock(const Stmt *Use) const {
  const Stmt *Child = Use;
  for (const Stmt *A : Ancestors) {
    if (isa<LambdaExpr, BlockExpr>(A))
      return {nullptr, nullptr};
    // A block written in a macro's body (`do { ... } while (0)`) is part of
    // the statement the macro expands to.
    if (const auto *CS = dyn_cast<CompoundStmt>(A);
        CS && !CS->getLBracLoc().isMacroID())
      return {Child, CS};
    Child = A;
  }
  return {nullptr, nullptr};
}

const Stmt *UseContext::innermostLoop() const {
  for (const Stmt *A : Ancestors) {
    // The `do { ... } while (0)` of a macro runs once.
    if (const auto *Do = dyn_cast<DoStmt>(A); Do && Do->getDoLoc().isMacroID())
      continue;
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(A))
      return A;
  }
  return nullptr;
}

bool UseContext::isInside(const Stmt *S) const {
  return llvm::is_contained(Ancestors, S);
}

const FunctionDecl *patternOf(const FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  if (const FunctionTemplateDecl *FT = FD->getPrimaryTemplate())
    FD = FT->getTemplatedDecl();
  else if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
    FD = P;
  return FD->getCanonicalDecl();
}

bool isTextureReferenceType(QualType T, bool *IsSurface) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getCanonicalType()->getAsCXXRecordDecl());
  if (!Spec)
    return false;
  const ClassTemplateDecl *Template = Spec->getSpecializedTemplate();
  if (!Template || !Template->getIdentifier() ||
      !Template->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return false;
  StringRef Name = Template->getName();
  if (Name != "texture" && Name != "surface")
    return false;
  if (!isInSystemHeader(Template))
    return false;
  if (IsSurface)
    *IsSurface = Name == "surface";
  return true;
}

bool isCompatDeclaration(const Decl *D) {
  const SourceManager &SM = D->getASTContext().getSourceManager();
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(D->getLocation()));
  return P.isValid() && StringRef(P.getFilename()) == CompatDeclarationsName;
}

bool isDeclaredByToolkit(const FunctionDecl *FD) {
  return FD && llvm::any_of(FD->redecls(), [](const FunctionDecl *D) {
           return !isCompatDeclaration(D);
         });
}

/// Whether FD is a function the table names, declared by the CUDA headers
/// or the compatibility declarations.
static const RemovedApi *tableFunction(const NamedDecl *D,
                                       const SourceManager &SM) {
  if (!D || !D->getIdentifier())
    return nullptr;
  const RemovedApi *Api = findRemovedFunction(D->getName());
  if (!Api)
    return nullptr;
  const Decl *Decl = D;
  if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D))
    Decl = FT->getTemplatedDecl();
  if (!isCudaHeaderDecl(Decl, SM))
    return nullptr;
  // The texture and surface functions keep their names for objects: only
  // their reference forms are removed.
  if (Api->Kind == ApiKind::DeviceFunction) {
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || llvm::none_of(FD->parameters(), [](const ParmVarDecl *P) {
          return isTextureReferenceType(P->getType());
        }))
      return nullptr;
  }
  return Api;
}

/// Whether a call has a texture or surface reference as an argument.
static bool hasTextureReferenceArgument(const CallExpr *Call) {
  return Call && llvm::any_of(Call->arguments(), [](const Expr *Arg) {
           return isTextureReferenceType(Arg->IgnoreParenImpCasts()->getType());
         });
}

static bool isDevicePropRecord(const RecordDecl *RD) {
  return RD && RD->getIdentifier() && RD->getName() == "cudaDeviceProp" &&
         RD->getDeclContext()->getRedeclContext()->isTranslationUnit();
}

namespace {
class UsesVisitor : public UserCodeVisitor<UsesVisitor> {
  using Base = UserCodeVisitor<UsesVisitor>;

public:
  UsesVisitor(ASTContext &Ctx, const FieldErrorLocs &FieldErrors,
              RemovedApiUses &Out)
      : SM(Ctx.getSourceManager()), FieldErrors(FieldErrors), Out(Out) {}

  bool TraverseDecl(Decl *D) {
    const auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (!FD || !FD->doesThisDeclarationHaveABody())
      return Base::TraverseDecl(D);
    const FunctionDecl *SavedFn = CurFn;
    llvm::SmallVector<const Stmt *, 32> SavedStack;
    SavedStack.swap(Stack);
    CurFn = FD;
    bool Result = Base::TraverseDecl(D);
    CurFn = SavedFn;
    Stack.swap(SavedStack);
    return Result;
  }

  bool TraverseStmt(Stmt *S) {
    if (!S)
      return true;
    Stack.push_back(S);
    bool Result = Base::TraverseStmt(S);
    Stack.pop_back();
    return Result;
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const ValueDecl *D = E->getDecl();
    if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
      if (const RemovedApi *Api = tableFunction(FD, SM))
        Out.Functions.push_back(functionUse(Api, E, FD, E->getLocation()));
      else if (FD->getIdentifier() &&
               FD->getName() == "cudaGetDeviceProperties" &&
               isCudaHeaderDecl(FD, SM))
        Out.PropertiesCalls.push_back(
            functionUse(nullptr, E, FD, E->getLocation()));
      if (const RemovedApi *Vec = vectorMaker(FD))
        Out.VectorMakers.push_back(functionUse(Vec, E, FD, E->getLocation()));
      else if (const RemovedApi *Vec = vectorInSignature(FD))
        Out.VectorBlockers.push_back(
            functionUse(Vec, E, FD, E->getLocation()));
      if (isKernel(FD) && !isLaunchCallee(E))
        Out.KernelRefs.push_back({E, patternOf(FD), context()});
      return true;
    }
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD)
      return true;
    if (isTextureReferenceType(VD->getType()) ||
        (VD->isLocalVarDecl() &&
         isDevicePropRecord(VD->getType()->getAsRecordDecl())))
      Out.VarRefs[VD].push_back({E, context()});
    return true;
  }

  bool VisitUnresolvedLookupExpr(UnresolvedLookupExpr *E) {
    const RemovedApi *Api = nullptr;
    const FunctionDecl *KernelPattern = nullptr;
    for (const NamedDecl *D : E->decls()) {
      D = D->getUnderlyingDecl();
      if (!Api && D->getIdentifier())
        if (const RemovedApi *Named = findRemovedFunction(D->getName());
            Named && isCudaHeaderDecl(D->getAsFunction(), SM))
          Api = Named;
      if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D))
        if (isKernel(FT->getTemplatedDecl()))
          KernelPattern = patternOf(FT->getTemplatedDecl());
    }
    if (Api) {
      FunctionUse U = functionUse(Api, E, nullptr, E->getNameLoc());
      // A dependent texture read is one of a reference when it is given one.
      if (Api->Kind != ApiKind::DeviceFunction ||
          hasTextureReferenceArgument(U.Call))
        Out.Functions.push_back(std::move(U));
    }
    if (KernelPattern && !isLaunchCallee(E))
      Out.KernelRefs.push_back({E, KernelPattern, context()});
    return true;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *E) {
    const FunctionDecl *Kernel = nullptr;
    if (const FunctionDecl *FD = E->getDirectCallee())
      Kernel = patternOf(FD);
    else if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(
                 E->getCallee()->IgnoreParenImpCasts()))
      for (const NamedDecl *D : ULE->decls())
        if (const auto *FT =
                dyn_cast<FunctionTemplateDecl>(D->getUnderlyingDecl()))
          Kernel = patternOf(FT->getTemplatedDecl());
    if (Kernel)
      Out.Launches.push_back({E, Kernel, context()});
    return true;
  }

  bool VisitMemberExpr(MemberExpr *E) {
    const auto *FD = dyn_cast<FieldDecl>(E->getMemberDecl());
    if (!FD || !FD->getIdentifier() || !isDevicePropRecord(FD->getParent()))
      return true;
    if (const RemovedApi *Api = findRemovedDevicePropField(FD->getName()))
      Out.Fields.push_back({Api, E, E->getBase(), E->isArrow(),
                            E->getMemberLoc(), context()});
    return true;
  }

  bool VisitRecoveryExpr(RecoveryExpr *E) {
    if (FieldErrors.empty())
      return true;
    auto It = FieldErrors.find(E->getEndLoc());
    if (It == FieldErrors.end())
      return true;
    const RemovedApi *Api = findRemovedDevicePropField(It->second);
    if (!Api)
      return true;
    const Expr *Base = nullptr;
    if (!E->subExpressions().empty())
      Base = E->subExpressions().front();
    // "p->field": the base is a pointer to the struct.
    bool IsArrow = Base && Base->getType()->isPointerType();
    Out.Fields.push_back(
        {Api, E, Base, IsArrow, E->getEndLoc(), context()});
    return true;
  }

  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getDeclContext()->isFileContext() && !isa<ParmVarDecl>(VD) &&
        isTextureReferenceType(VD->getType()))
      Out.TextureRefs.push_back(VD);
    return true;
  }

  bool VisitTypedefTypeLoc(TypedefTypeLoc TL) {
    recordType(TL, TL.getDecl());
    return true;
  }

  bool VisitRecordTypeLoc(RecordTypeLoc TL) {
    recordType(TL, TL.getDecl());
    return true;
  }

  bool VisitTemplateSpecializationTypeLoc(TemplateSpecializationTypeLoc TL) {
    const TemplateDecl *TD =
        TL.getTypePtr()->getTemplateName().getAsTemplateDecl();
    recordType(TL, TD);
    return true;
  }

private:
  /// The entry of the deprecated vector type that FD (`make_double4`) makes.
  const RemovedApi *vectorMaker(const FunctionDecl *FD) const {
    if (!FD->getIdentifier() || !FD->getName().starts_with("make_"))
      return nullptr;
    const RemovedApi *Api = findRemovedType(FD->getName().drop_front(5));
    if (!Api || Api->Fix != ApiFix::VectorType16a || !isCudaHeaderDecl(FD, SM))
      return nullptr;
    return Api;
  }

  /// The entry of a deprecated vector type in the signature of FD, a
  /// function of the system headers.
  const RemovedApi *vectorInSignature(const FunctionDecl *FD) const {
    // The vector types' own members (an implicit copy assignment) take
    // whichever type they belong to.
    if (!isInSystemHeader(FD) || FD->isImplicit() || isa<CXXMethodDecl>(FD))
      return nullptr;
    // A template's deduced arguments follow the rename (`cudaMalloc(T **)`
    // with T = double4): only the signature as written counts.
    if (const FunctionTemplateDecl *FT = FD->getPrimaryTemplate())
      FD = FT->getTemplatedDecl();
    auto Of = [](QualType T) -> const RemovedApi * {
      while (true) {
        if (T->isPointerType() || T->isReferenceType())
          T = T->getPointeeType();
        else if (const ArrayType *AT = T->getAsArrayTypeUnsafe())
          T = AT->getElementType();
        else
          break;
      }
      const RecordDecl *RD = T->getAsRecordDecl();
      if (!RD || !RD->getIdentifier())
        return nullptr;
      const RemovedApi *Api = findRemovedType(RD->getName());
      return Api && Api->Fix == ApiFix::VectorType16a ? Api : nullptr;
    };
    if (const RemovedApi *Api = Of(FD->getReturnType()))
      return Api;
    for (const ParmVarDecl *P : FD->parameters())
      if (const RemovedApi *Api = Of(P->getType()))
        return Api;
    return nullptr;
  }

  void recordType(TypeLoc TL, const NamedDecl *D) {
    if (!D || !D->getIdentifier())
      return;
    const RemovedApi *Api = findRemovedType(D->getName());
    if (!Api || !isCudaHeaderDecl(D, SM))
      return;
    Out.Types.push_back({Api, TL, nullptr});
  }

  UseContext context() const {
    UseContext C;
    C.Function = CurFn;
    // The top of the stack is the use itself.
    for (size_t I = Stack.size(); I-- > 1;)
      C.Ancestors.push_back(Stack[I - 1]);
    return C;
  }

  /// Whether E is the callee of the launch that encloses it.
  bool isLaunchCallee(const Expr *E) const {
    for (size_t I = Stack.size(); I-- > 1;) {
      const Stmt *A = Stack[I - 1];
      if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(A))
        return Launch->getCallee()->IgnoreParenImpCasts() == E;
      if (!isa<ImplicitCastExpr, ParenExpr>(A))
        return false;
    }
    return false;
  }

  FunctionUse functionUse(const RemovedApi *Api, const Expr *Ref,
                          const FunctionDecl *FD, SourceLocation NameLoc) {
    FunctionUse U;
    U.Api = Api;
    U.Ref = Ref;
    U.Decl = FD;
    U.NameLoc = NameLoc;
    U.Context = context();
    for (const Stmt *A : U.Context.Ancestors) {
      if (const auto *Call = dyn_cast<CallExpr>(A)) {
        if (Call->getCallee()->IgnoreParenImpCasts() == Ref)
          U.Call = Call;
        break;
      }
      if (!isa<ImplicitCastExpr, ParenExpr>(A))
        break;
    }
    return U;
  }

  const SourceManager &SM;
  const FieldErrorLocs &FieldErrors;
  RemovedApiUses &Out;
  const FunctionDecl *CurFn = nullptr;
  llvm::SmallVector<const Stmt *, 32> Stack;
};
} // namespace

RemovedApiUses collectRemovedApiUses(ASTContext &Ctx,
                                     const FieldErrorLocs &FieldErrors) {
  RemovedApiUses Out;
  UsesVisitor V(Ctx, FieldErrors, Out);
  V.TraverseDecl(Ctx.getTranslationUnitDecl());
  return Out;
}

} // namespace cuda_tidy
