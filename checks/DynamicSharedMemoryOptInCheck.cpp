//===--- DynamicSharedMemoryOptInCheck.cpp - dynamic smem opt-in ----------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "checks/DynamicSharedMemoryOptInCheck.h"
#include "lib/AnalysisContext.h"
#include "lib/ArchLimits.h"
#include "lib/ConstantEval.h"
#include "lib/LaunchModel.h"
#include "lib/SharedMemory.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_tidy {

DynamicSharedMemoryOptInCheck::DynamicSharedMemoryOptInCheck(
    StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), ArchOverride(*Context) {
  if (ArchOverride.shouldReportError())
    configurationDiag("%0") << ArchOverride.error();
}

bool DynamicSharedMemoryOptInCheck::isLanguageVersionSupported(
    const LangOptions &LangOpts) const {
  return LangOpts.CUDA;
}

void DynamicSharedMemoryOptInCheck::registerMatchers(MatchFinder *Finder) {
  // The whole translation unit at once: launches and opt-ins may be in
  // different functions.
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

void DynamicSharedMemoryOptInCheck::check(
    const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  AnalysisContext &Shared = AnalysisContext::get(Ctx);
  const LaunchModel &Model = Shared.launches();
  SharedMemoryAccounting &Smem = Shared.sharedMemory();
  std::optional<GpuArch> Arch = effectiveGpuArch(ArchOverride, Ctx);
  // One report per launch spelling, whatever the number of instantiations.
  llvm::DenseSet<unsigned> Reported;

  for (const LaunchSite &L : Model.launches()) {
    if (!L.KernelKey || !L.DynamicSmem)
      continue;
    SourceLocation Loc = SM.getExpansionLoc(L.Call->getBeginLoc());
    if (Reported.contains(Loc.getRawEncoding()))
      continue;
    uint64_t Dynamic = *L.DynamicSmem;
    std::string Kernel = L.kernelName();
    // A note at the byte count when it is set away from the launch.
    auto NoteBytes = [&]() {
      if (!L.DynamicSmemExpr)
        return;
      SourceLocation BytesLoc =
          SM.getExpansionLoc(L.DynamicSmemExpr->getExprLoc());
      if (SM.isBeforeInTranslationUnit(BytesLoc, Loc) ||
          SM.isBeforeInTranslationUnit(SM.getExpansionLoc(L.Call->getEndLoc()),
                                       BytesLoc))
        diag(BytesLoc, "the dynamic shared memory size is set here",
             DiagnosticIDs::Note);
    };

    // Static plus dynamic over the target's per-block maximum: no opt-in
    // helps.
    if (Arch && Arch->Limits) {
      uint64_t Static = 0;
      if (L.Kernel)
        if (const FunctionDecl *Def = L.Kernel->getDefinition())
          Static = Smem.of(Def).Total;
      uint64_t Max = Arch->Limits->MaxSharedMemPerBlock;
      // Static shared memory alone is cuda-static-shared-memory-limit's.
      if (Dynamic > 0 && Static + Dynamic > Max) {
        Reported.insert(Loc.getRawEncoding());
        diag(Loc, "'%0' needs %1 bytes of shared memory per block, more than "
                  "the %2 bytes '%3' allows")
            << Kernel << std::to_string(Static + Dynamic) << std::to_string(Max)
            << Arch->Name;
        NoteBytes();
        if (Static)
          diag(Loc, "%0 bytes of static and %1 bytes of dynamic shared memory",
               DiagnosticIDs::Note)
              << std::to_string(Static) << std::to_string(Dynamic);
        continue;
      }
    }

    if (Dynamic <= DefaultSharedMemPerBlock)
      continue;
    auto OptIns = Model.settingsFor(L, FuncAttr::MaxDynamicSharedMemorySize);
    const FuncAttributeCall *Largest = nullptr;
    bool Enough = false;
    for (const FuncAttributeCall *A : OptIns) {
      // An opt-in of unproven size is given the benefit of the doubt.
      if (!A->Value || *A->Value >= Dynamic) {
        Enough = true;
        break;
      }
      // On ties the later call, closer to the launch, is shown.
      if (!Largest || *A->Value >= *Largest->Value)
        Largest = A;
    }
    if (Enough)
      continue;
    Reported.insert(Loc.getRawEncoding());

    OptInSpelling Spell = optInSpelling(L.Api);
    std::string WhyNot;
    std::optional<FixItHint> Fix;
    std::optional<std::string> KernelText = writtenKernel(L, Ctx);
    std::optional<std::string> BytesText;
    if (L.ConfigVar)
      BytesText =
          L.ConfigVar->getName().str() +
          (isDriverApi(L.Api) ? ".sharedMemBytes" : ".dynamicSmemBytes");
    else if (L.DynamicSmemExpr && !L.DynamicSmemExpr->HasSideEffects(Ctx))
      BytesText = writtenText(L.DynamicSmemExpr, Ctx);
    if (!KernelText)
      WhyNot = "the kernel is not named in the source at the launch";
    else if (!BytesText)
      WhyNot = "the byte count cannot be repeated before the launch";
    else
      Fix = insertBeforeLaunch(L, Ctx,
                               (Spell.SetAttribute + "(" + *KernelText + ", " +
                                Spell.MaxDynamicSmem + ", " + *BytesText + ")")
                                   .str(),
                               WhyNot);

    {
      auto D =
          diag(Loc, Largest ? "'%0' is launched with %1 bytes of dynamic "
                              "shared memory but opted in to only %2"
                            : "'%0' is launched with %1 bytes of dynamic "
                              "shared memory without opting in above %2 bytes")
          << Kernel << std::to_string(Dynamic)
          << std::to_string(Largest ? *Largest->Value
                                    : DefaultSharedMemPerBlock);
      if (Fix)
        D << *Fix;
    }
    NoteBytes();
    if (Largest)
      diag(SM.getExpansionLoc(Largest->Call->getBeginLoc()),
           "the opt-in is set here", DiagnosticIDs::Note);
    diag(Loc,
         "launches over %0 bytes fail with cudaErrorInvalidValue unless "
         "'%1' raises '%2' to at least the launch's size first",
         DiagnosticIDs::Note)
        << std::to_string(DefaultSharedMemPerBlock) << Spell.SetAttribute
        << Spell.MaxDynamicSmem;
    if (!Fix)
      diag(Loc, "no automatic fix: %0", DiagnosticIDs::Note) << WhyNot;
  }
}

} // namespace cuda_tidy
