//===--- CudaAST.cpp - CUDA-specific queries on the clang AST -------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/ast/CudaAST.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace cuda_tidy {

bool isKernel(const FunctionDecl *FD) {
  return FD && FD->hasAttr<CUDAGlobalAttr>();
}

/// The value of a `__launch_bounds__` argument when it is a non-negative
/// integer constant.
static std::optional<uint64_t> boundArgument(const Expr *E,
                                             const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->containsErrors())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  const llvm::APSInt &V = R.Val.getInt();
  if ((V.isSigned() && V.isNegative()) || V.getActiveBits() > 64)
    return std::nullopt;
  return V.getZExtValue();
}

std::optional<LaunchBounds> launchBoundsOf(const FunctionDecl *Kernel,
                                           const ASTContext &Ctx,
                                           bool FromPattern) {
  if (!Kernel)
    return std::nullopt;
  const auto *A = Kernel->getAttr<CUDALaunchBoundsAttr>();
  if (!A && FromPattern)
    if (const FunctionDecl *Pattern = Kernel->getTemplateInstantiationPattern())
      A = Pattern->getAttr<CUDALaunchBoundsAttr>();
  if (!A)
    return std::nullopt;
  LaunchBounds B;
  B.Attr = A;
  B.MaxThreads = boundArgument(A->getMaxThreads(), Ctx);
  B.MinBlocks = boundArgument(A->getMinBlocks(), Ctx);
  B.MaxCluster = boundArgument(A->getMaxBlocks(), Ctx);
  return B;
}

std::optional<uint64_t> launchBoundsMaxThreads(const FunctionDecl *Kernel,
                                               const ASTContext &Ctx) {
  std::optional<LaunchBounds> B = launchBoundsOf(Kernel, Ctx);
  if (!B || !B->MaxThreads || *B->MaxThreads == 0)
    return std::nullopt;
  return B->MaxThreads;
}

bool isDeviceCode(const FunctionDecl *FD) {
  return FD && (FD->hasAttr<CUDAGlobalAttr>() || FD->hasAttr<CUDADeviceAttr>());
}

bool isCudaHeaderDecl(const Decl *D, const SourceManager &SM) {
  if (!D)
    return false;
  const DeclContext *DC = D->getDeclContext()->getRedeclContext();
  while (DC && isa<LinkageSpecDecl>(DC))
    DC = DC->getParent();
  if (!DC || !DC->isTranslationUnit())
    return false;
  SourceLocation Loc = D->getCanonicalDecl()->getLocation();
  return Loc.isValid() && SM.isInSystemHeader(SM.getExpansionLoc(Loc));
}

bool isInSystemHeader(const Decl *D) {
  const SourceManager &SM = D->getASTContext().getSourceManager();
  SourceLocation Loc = D->getLocation();
  return Loc.isValid() && SM.isInSystemHeader(SM.getExpansionLoc(Loc));
}

bool SystemHeaderCache::isSystem(const Decl *D) {
  return isSystem(D->getLocation(), D->getASTContext().getSourceManager());
}

bool SystemHeaderCache::isSystem(SourceLocation Loc, const SourceManager &SM) {
  if (Loc.isInvalid())
    return false;
  if (Loc.isMacroID())
    Loc = SM.getExpansionLoc(Loc);
  // A file location's raw encoding is its offset.
  const unsigned Offset = Loc.getRawEncoding();
  if (Offset >= Begin && Offset < End)
    return System;
  const bool Result = SM.isInSystemHeader(Loc);
  FileID File = SM.getFileID(Loc);
  bool Invalid = false;
  const SrcMgr::SLocEntry &Entry = SM.getSLocEntry(File, &Invalid);
  if (!Invalid && Entry.isFile() && !Entry.getFile().hasLineDirectives()) {
    Begin = Entry.getOffset();
    End = Begin + SM.getFileIDSize(File);
    System = Result;
  }
  return Result;
}

static std::optional<BuiltinVar> builtinVarByName(StringRef Name) {
  return llvm::StringSwitch<std::optional<BuiltinVar>>(Name)
      .Case("threadIdx", BuiltinVar::ThreadIdx)
      .Case("blockIdx", BuiltinVar::BlockIdx)
      .Case("blockDim", BuiltinVar::BlockDim)
      .Case("gridDim", BuiltinVar::GridDim)
      .Default(std::nullopt);
}

static std::optional<unsigned> dimByName(StringRef Name) {
  // clang's headers name the property getters __fetch_builtin_x.
  Name.consume_front("__fetch_builtin_");
  return llvm::StringSwitch<std::optional<unsigned>>(Name)
      .Case("x", 0u)
      .Case("y", 1u)
      .Case("z", 2u)
      .Default(std::nullopt);
}

static std::optional<BuiltinVar> builtinVarOfBase(const Expr *Base) {
  Base = Base->IgnoreParenImpCasts();
  // The property reference's base is wrapped in an opaque value.
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(Base))
    if (OVE->getSourceExpr())
      Base = OVE->getSourceExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(Base);
  if (!DRE)
    return std::nullopt;
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || !VD->hasGlobalStorage() || !VD->getDeclContext()->isFileContext())
    return std::nullopt;
  return builtinVarByName(VD->getName());
}

std::optional<BuiltinVarRef> getBuiltinVarRef(const Expr *E) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E))
    E = POE->getSyntacticForm()->IgnoreParenImpCasts();
  if (const auto *Prop = dyn_cast<MSPropertyRefExpr>(E)) {
    auto Var = builtinVarOfBase(Prop->getBaseExpr());
    auto Dim = dimByName(Prop->getPropertyDecl()->getName());
    if (Var && Dim)
      return BuiltinVarRef{*Var, *Dim};
    return std::nullopt;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    auto Var = builtinVarOfBase(ME->getBase());
    auto Dim = dimByName(ME->getMemberDecl()->getName());
    if (Var && Dim)
      return BuiltinVarRef{*Var, *Dim};
  }
  return std::nullopt;
}

std::string builtinVarSpelling(BuiltinVarRef Ref) {
  static const char *const Vars[] = {"threadIdx", "blockIdx", "blockDim",
                                     "gridDim"};
  static const char *const Dims[] = {".x", ".y", ".z"};
  return std::string(Vars[static_cast<unsigned>(Ref.Var)]) + Dims[Ref.Dim];
}

bool isUninstantiatedPattern(const FunctionDecl *FD) {
  if (!FD->isDependentContext())
    return false;
  if (const FunctionTemplateDecl *FTD = FD->getDescribedFunctionTemplate())
    if (!FTD->specializations().empty())
      return false;
  for (const DeclContext *DC = FD->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *RD = dyn_cast<CXXRecordDecl>(DC)) {
      if (RD->isLambda())
        return false;
      if (const ClassTemplateDecl *CTD = RD->getDescribedClassTemplate())
        if (!CTD->specializations().empty())
          return false;
      if (isa<ClassTemplatePartialSpecializationDecl>(RD))
        return false;
    }
  return true;
}

bool isAnalysedBody(const FunctionDecl *FD) {
  return !FD->isDependentContext() || isUninstantiatedPattern(FD);
}

/// The function a single declaration found by name stands for.
static const FunctionDecl *asFunction(const NamedDecl *D) {
  if (!D)
    return nullptr;
  D = D->getUnderlyingDecl();
  if (const auto *FTD = dyn_cast<FunctionTemplateDecl>(D))
    return FTD->getTemplatedDecl();
  return dyn_cast<FunctionDecl>(D);
}

/// The class (a class template's pattern) that a dependent object type
/// names: `BlockSum<T, N>`, `BlockSum<T, N> *`, the injected class name.
static const CXXRecordDecl *patternRecord(QualType T) {
  if (T.isNull())
    return nullptr;
  if (const auto *PT = T->getAs<PointerType>())
    T = PT->getPointeeType();
  if (const auto *TST = T->getAs<TemplateSpecializationType>())
    if (const auto *CTD = dyn_cast_or_null<ClassTemplateDecl>(
            TST->getTemplateName().getAsTemplateDecl()))
      return CTD->getTemplatedDecl();
  return T->getAsCXXRecordDecl();
}

const FunctionDecl *resolveCallee(const CallExpr *CE) {
  if (const FunctionDecl *Callee = CE->getDirectCallee())
    return Callee;
  const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
  if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(Callee))
    return ULE->getNumDecls() == 1 ? asFunction(*ULE->decls_begin())
                                   : nullptr;
  if (const auto *UME = dyn_cast<UnresolvedMemberExpr>(Callee))
    return UME->getNumDecls() == 1 ? asFunction(*UME->decls_begin())
                                   : nullptr;
  // `obj.member(...)` on an object of a dependent class template type: the
  // one member of that name in the template's pattern.
  if (const auto *DSME = dyn_cast<CXXDependentScopeMemberExpr>(Callee)) {
    const CXXRecordDecl *RD = patternRecord(DSME->getBaseType());
    if (!RD || !RD->hasDefinition() || !DSME->getMember().isIdentifier())
      return nullptr;
    DeclContextLookupResult Found =
        RD->getDefinition()->lookup(DSME->getMember());
    if (Found.empty() || std::next(Found.begin()) != Found.end())
      return nullptr;
    return asFunction(Found.front());
  }
  return nullptr;
}

const Expr *memberCallBase(const CallExpr *CE) {
  const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(Callee))
    return ME->getBase();
  if (const auto *DSME = dyn_cast<CXXDependentScopeMemberExpr>(Callee))
    return DSME->isImplicitAccess() ? nullptr : DSME->getBase();
  if (const auto *UME = dyn_cast<UnresolvedMemberExpr>(Callee))
    return UME->isImplicitAccess() ? nullptr : UME->getBase();
  return nullptr;
}

} // namespace cuda_tidy
