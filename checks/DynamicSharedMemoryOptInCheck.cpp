//===--- DynamicSharedMemoryOptInCheck.cpp - dynamic smem opt-in ----------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "checks/DynamicSharedMemoryOptInCheck.h"
#include "lib/AnalysisContext.h"
#include "lib/target/ArchLimits.h"
#include "lib/launch/ConstantEval.h"
#include "lib/launch/LaunchModel.h"
#include "lib/launch/SharedMemory.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Preprocessor.h"
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

void DynamicSharedMemoryOptInCheck::registerPPCallbacks(const SourceManager &,
                                                        Preprocessor *PP,
                                                        Preprocessor *) {
  this->PP = PP;
}

void DynamicSharedMemoryOptInCheck::check(
    const MatchFinder::MatchResult &Result) {
  // Each architecture as its own job would check it; clang-tidy merges the
  // diagnostics that are the same.
  for (const std::optional<GpuArch> &Arch :
       effectiveGpuArchs(ArchOverride, *Result.Context, PP))
    checkFor(Arch, *Result.Context, *Result.SourceManager);
}

void DynamicSharedMemoryOptInCheck::checkFor(const std::optional<GpuArch> &Arch,
                                             ASTContext &Ctx,
                                             const SourceManager &SM) {
  AnalysisContext &Shared = AnalysisContext::get(Ctx);
  const LaunchModel &Model = Shared.launches();
  SharedMemoryAccounting &Smem = Shared.sharedMemory();
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

    // The kernel's static shared memory, as cuda-static-shared-memory-limit
    // counts it.
    const StaticSharedMemory *StaticUse = nullptr;
    if (L.Kernel)
      if (const FunctionDecl *Def = L.Kernel->getDefinition())
        StaticUse = &Smem.of(Def);
    uint64_t Static = StaticUse ? StaticUse->Total : 0;
    auto NoteLargestStatic = [&]() {
      if (!StaticUse || StaticUse->Variables.empty())
        return;
      const SharedVariable &V = StaticUse->Variables.front();
      diag(SM.getExpansionLoc(V.Var->getLocation()),
           "'%0' takes %1 bytes of static shared memory", DiagnosticIDs::Note)
          << V.Var->getName() << std::to_string(V.Size);
    };

    // Static plus dynamic over the target's per-block maximum: no opt-in
    // helps.
    if (Arch && Arch->Limits) {
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

    // Without an opt-in a block gets 48 KiB minus its static shared memory.
    if (Dynamic == 0 || Static + Dynamic <= DefaultSharedMemPerBlock)
      continue;
    auto OptIns = Model.settingsFor(L, FuncAttr::MaxDynamicSharedMemorySize,
                                    /*IncludeUnknown=*/true);
    const FuncAttributeCall *Largest = nullptr;
    const FuncAttributeCall *OncePerProcess = nullptr;
    bool Enough = false;
    for (const FuncAttributeCall *A : OptIns) {
      // An opt-in of unproven size, or for a kernel that cannot be
      // followed, is given the benefit of the doubt.
      if (!A->Value || *A->Value >= Dynamic) {
        if (A->Guard && !A->KernelUnknown) {
          OncePerProcess = OncePerProcess ? OncePerProcess : A;
          continue;
        }
        Enough = true;
        break;
      }
      if (A->KernelUnknown)
        continue;
      // On ties the later call, closer to the launch, is shown.
      if (!Largest || *A->Value >= *Largest->Value)
        Largest = A;
    }
    if (Enough)
      continue;
    Reported.insert(Loc.getRawEncoding());
    auto NoteSite = [&](const FuncAttributeCall *A) {
      SourceLocation At = SM.getExpansionLoc(A->Site->getBeginLoc());
      const FunctionDecl *Wrapper =
          A->Through.empty() ? nullptr : A->Site->getDirectCallee();
      if (Wrapper)
        diag(At, "the opt-in is set here, through '%0'", DiagnosticIDs::Note)
            << Wrapper->getName();
      else
        diag(At, "the opt-in is set here", DiagnosticIDs::Note);
    };

    if (OncePerProcess && !Largest) {
      // The opt-in is there, but only for the device current when it ran.
      diag(Loc, "'%0' is launched with %1 bytes of dynamic shared memory but "
                "its opt-in runs once per process, for one device")
          << Kernel << std::to_string(Dynamic);
      NoteBytes();
      NoteSite(OncePerProcess);
      diag(SM.getExpansionLoc(OncePerProcess->Guard->Loc),
           "%0 makes the opt-in run only once", DiagnosticIDs::Note)
          << describeGuard(*OncePerProcess->Guard);
      diag(Loc,
           "'%0' applies to the current device only: on any other device "
           "this launch fails with cudaErrorInvalidValue; opt in once per "
           "device",
           DiagnosticIDs::Note)
          << optInSpelling(L.Api).SetAttribute;
      continue;
    }

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

    if (Static == 0) {
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
    } else {
      auto D = diag(Loc, Largest
                             ? "'%0' is launched with %1 bytes of dynamic "
                               "shared memory on top of %2 bytes of static "
                               "shared memory but opted in to only %3"
                             : "'%0' is launched with %1 bytes of dynamic "
                               "shared memory on top of %2 bytes of static "
                               "shared memory, %3 bytes in all, without "
                               "opting in")
               << Kernel << std::to_string(Dynamic) << std::to_string(Static)
               << std::to_string(Largest ? *Largest->Value : Static + Dynamic);
      if (Fix)
        D << *Fix;
    }
    NoteBytes();
    if (Largest)
      NoteSite(Largest);
    NoteLargestStatic();
    if (Static == 0)
      diag(Loc,
           "launches over %0 bytes fail with cudaErrorInvalidValue unless "
           "'%1' raises '%2' to at least the launch's size first",
           DiagnosticIDs::Note)
          << std::to_string(DefaultSharedMemPerBlock) << Spell.SetAttribute
          << Spell.MaxDynamicSmem;
    else
      diag(Loc,
           "without an opt-in a block gets %0 bytes minus its static shared "
           "memory; the launch fails with cudaErrorInvalidValue unless '%1' "
           "raises '%2' to at least the dynamic size first",
           DiagnosticIDs::Note)
          << std::to_string(DefaultSharedMemPerBlock) << Spell.SetAttribute
          << Spell.MaxDynamicSmem;
    if (!Fix)
      diag(Loc, "no automatic fix: %0", DiagnosticIDs::Note) << WhyNot;
  }

  // Opt-ins that the architecture refuses: static plus opted-in dynamic
  // shared memory over the per-block maximum.
  if (!Arch || !Arch->Limits)
    return;
  uint64_t Max = Arch->Limits->MaxSharedMemPerBlock;
  llvm::DenseSet<unsigned> ReportedOptIns;
  for (const FuncAttributeCall &A : Model.attributeCalls()) {
    const auto *Kernel = dyn_cast_or_null<FunctionDecl>(A.KernelKey);
    if (A.Attr != FuncAttr::MaxDynamicSharedMemorySize || A.Driver ||
        !Kernel || !A.Value)
      continue;
    const FunctionDecl *Def = Kernel->getDefinition();
    uint64_t Static = Def ? Smem.of(Def).Total : 0;
    if (Static == 0 || Static + *A.Value <= Max)
      continue;
    SourceLocation At = SM.getExpansionLoc(A.Site->getBeginLoc());
    if (!ReportedOptIns.insert(At.getRawEncoding()).second)
      continue;
    std::string Name;
    {
      llvm::raw_string_ostream OS(Name);
      Kernel->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(),
                                   /*Qualified=*/false);
    }
    diag(At, "the opt-in of %0 bytes for '%1' and its %2 bytes of static "
             "shared memory exceed the %3 bytes '%4' allows per block")
        << std::to_string(*A.Value) << Name << std::to_string(Static)
        << std::to_string(Max) << Arch->Name;
    diag(At,
         "the call fails with cudaErrorInvalidValue; at most %0 bytes can be "
         "opted in for this kernel",
         DiagnosticIDs::Note)
        << std::to_string(Max - Static);
  }
}

} // namespace cuda_tidy
