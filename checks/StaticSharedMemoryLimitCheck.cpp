//===--- StaticSharedMemoryLimitCheck.cpp - Static smem -------------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "checks/StaticSharedMemoryLimitCheck.h"
#include "lib/AnalysisContext.h"
#include "lib/OptionValues.h"
#include "lib/target/ArchLimits.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_tidy {

StaticSharedMemoryLimitCheck::StaticSharedMemoryLimitCheck(
    StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      WarnArchSpecificOnly(
          parseBoolOption(Options.get("WarnArchSpecificOnly", "true"))),
      Module(ModuleOptions::of(*Context, ModuleOptions::ReadsTargetArch)) {
  if (!WarnArchSpecificOnly.has_value())
    configurationDiag("%0") << invalidOptionMessage(
        Name + ".WarnArchSpecificOnly",
        notBooleanReason(Options.get("WarnArchSpecificOnly", "true")));
}

void StaticSharedMemoryLimitCheck::storeOptions(
    clang::tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "WarnArchSpecificOnly",
                WarnArchSpecificOnly.value_or(true) ? "true" : "false");
}

bool StaticSharedMemoryLimitCheck::isLanguageVersionSupported(
    const LangOptions &LangOpts) const {
  return LangOpts.CUDA;
}

void StaticSharedMemoryLimitCheck::registerPPCallbacks(const SourceManager &,
                                                       Preprocessor *PP,
                                                       Preprocessor *) {
  this->PP = PP;
}

void StaticSharedMemoryLimitCheck::registerMatchers(MatchFinder *Finder) {
  // Kernel definitions, template instantiations included (each is accounted
  // on its own).
  Finder->addMatcher(functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal),
                                  unless(isExpansionInSystemHeader()))
                         .bind("kernel"),
                     this);
}

void StaticSharedMemoryLimitCheck::check(
    const MatchFinder::MatchResult &Result) {
  const auto *Kernel = Result.Nodes.getNodeAs<FunctionDecl>("kernel");
  if (!Kernel || Kernel->isDependentContext() || Kernel->isInvalidDecl() ||
      !Seen.insert(Kernel).second)
    return;
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  const StaticSharedMemory &Usage =
      Module->analysis(Ctx).sharedMemory().of(Kernel);
  if (Usage.Total <= DefaultSharedMemPerBlock)
    return;

  std::string Name;
  {
    llvm::raw_string_ostream OS(Name);
    Kernel->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(),
                                 /*Qualified=*/false);
  }
  SourceLocation Loc = SM.getExpansionLoc(Kernel->getLocation());
  // Each architecture as its own job would report it; clang-tidy merges the
  // diagnostics that are the same.
  for (const std::optional<GpuArch> &Arch : Module->effectiveArchs(Ctx, PP))
    reportFor(Arch, Kernel, Usage, Name, Loc, SM);
}

void StaticSharedMemoryLimitCheck::reportFor(const std::optional<GpuArch> &Arch,
                                             const FunctionDecl *Kernel,
                                             const StaticSharedMemory &Usage,
                                             StringRef Name, SourceLocation Loc,
                                             const SourceManager &SM) {
  bool ArchSpecific = Arch && Arch->allowsLargeStaticSharedMemory();
  std::string Total = std::to_string(Usage.Total);
  if (!ArchSpecific) {
    diag(Loc, "kernel '%0' uses %1 bytes of static shared memory, more than "
              "the %2 bytes ptxas accepts")
        << Name << Total << std::to_string(DefaultSharedMemPerBlock);
  } else if (Usage.Total > Arch->Limits->MaxSharedMemPerBlock) {
    diag(Loc, "kernel '%0' uses %1 bytes of static shared memory, more than "
              "the %2 bytes '%3' allows per block")
        << Name << Total << std::to_string(Arch->Limits->MaxSharedMemPerBlock)
        << Arch->Name;
  } else if (WarnArchSpecificOnly.value_or(true)) {
    diag(Loc, "kernel '%0' uses %1 bytes of static shared memory and builds "
              "only for architecture-specific targets such as '%2'")
        << Name << Total << Arch->Name;
  } else {
    return;
  }

  if (Kernel->isTemplateInstantiation()) {
    SourceLocation Inst = Kernel->getPointOfInstantiation();
    if (Inst.isValid())
      diag(SM.getExpansionLoc(Inst), "in the instantiation '%0' requested here",
           DiagnosticIDs::Note)
          << Name;
  }
  for (const SharedVariable &V : Usage.Variables)
    diag(SM.getExpansionLoc(V.Var->getLocation()),
         "'%0' takes %1 bytes of shared memory", DiagnosticIDs::Note)
        << V.Var->getName() << std::to_string(V.Size);
  if (!ArchSpecific)
    diag(Loc,
         "move the largest arrays to 'extern __shared__' dynamic shared "
         "memory, which can be raised above %0 bytes with "
         "cudaFuncAttributeMaxDynamicSharedMemorySize",
         DiagnosticIDs::Note)
        << std::to_string(DefaultSharedMemPerBlock);
}

void StaticSharedMemoryLimitCheck::onEndOfTranslationUnit() { Seen.clear(); }

} // namespace cuda_tidy
