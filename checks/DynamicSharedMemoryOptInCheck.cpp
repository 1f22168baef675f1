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
    : ClangTidyCheck(Name, Context),
      Module(ModuleOptions::of(*Context, ModuleOptions::ReadsTargetArch)) {}

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
       Module->effectiveArchs(*Result.Context, PP))
    checkFor(Arch, *Result.Context, *Result.SourceManager);
}

void DynamicSharedMemoryOptInCheck::checkFor(const std::optional<GpuArch> &Arch,
                                             ASTContext &Ctx,
                                             const SourceManager &SM) {
  const LaunchModel &Model = Module->analysis(Ctx).launches();
  // One report per launch spelling, whatever the number of instantiations.
  llvm::DenseSet<unsigned> Reported;
  for (const LaunchSite &L : Model.launches()) {
    if (!L.KernelKey || !L.DynamicSmem)
      continue;
    SourceLocation Loc = SM.getExpansionLoc(L.Call->getBeginLoc());
    if (Reported.contains(Loc.getRawEncoding()))
      continue;
    if (checkLaunch(L, Arch, Ctx))
      Reported.insert(Loc.getRawEncoding());
  }
  if (Arch && Arch->Limits)
    checkRefusedOptIns(*Arch, Ctx);
}

void DynamicSharedMemoryOptInCheck::noteBytes(const LaunchSite &L,
                                              const SourceManager &SM) {
  if (!L.DynamicSmemExpr)
    return;
  SourceLocation Loc = SM.getExpansionLoc(L.Call->getBeginLoc());
  SourceLocation BytesLoc = SM.getExpansionLoc(L.DynamicSmemExpr->getExprLoc());
  if (SM.isBeforeInTranslationUnit(BytesLoc, Loc) ||
      SM.isBeforeInTranslationUnit(SM.getExpansionLoc(L.Call->getEndLoc()),
                                   BytesLoc))
    diag(BytesLoc, "the dynamic shared memory size is set here",
         DiagnosticIDs::Note);
}

void DynamicSharedMemoryOptInCheck::noteOptInSite(
    const FuncAttributeCall &OptIn, const SourceManager &SM) {
  SourceLocation At = SM.getExpansionLoc(OptIn.Site->getBeginLoc());
  const FunctionDecl *Wrapper =
      OptIn.Through.empty() ? nullptr : OptIn.Site->getDirectCallee();
  if (Wrapper)
    diag(At, "the opt-in is set here, through '%0'", DiagnosticIDs::Note)
        << Wrapper->getName();
  else
    diag(At, "the opt-in is set here", DiagnosticIDs::Note);
}

namespace {
/// The opt-ins that may apply to a launch, judged against its dynamic size.
struct OptInVerdict {
  /// One is large enough, or of unproven size, or for a kernel that cannot
  /// be followed (the benefit of the doubt).
  bool Enough = false;
  /// The largest that is too small; on ties the later call, closer to the
  /// launch.
  const FuncAttributeCall *Largest = nullptr;
  /// The first large enough one that runs once per process.
  const FuncAttributeCall *OncePerProcess = nullptr;
};
} // namespace

static OptInVerdict judgeOptIns(ArrayRef<const FuncAttributeCall *> OptIns,
                                uint64_t Dynamic) {
  OptInVerdict V;
  for (const FuncAttributeCall *A : OptIns) {
    if (!A->Value || *A->Value >= Dynamic) {
      if (A->Guard && !A->KernelUnknown) {
        V.OncePerProcess = V.OncePerProcess ? V.OncePerProcess : A;
        continue;
      }
      V.Enough = true;
      return V;
    }
    if (A->KernelUnknown)
      continue;
    if (!V.Largest || *A->Value >= *V.Largest->Value)
      V.Largest = A;
  }
  return V;
}

bool DynamicSharedMemoryOptInCheck::checkLaunch(
    const LaunchSite &L, const std::optional<GpuArch> &Arch, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  AnalysisContext &Shared = Module->analysis(Ctx);
  SourceLocation Loc = SM.getExpansionLoc(L.Call->getBeginLoc());
  uint64_t Dynamic = *L.DynamicSmem;
  // The kernel's static shared memory, as cuda-static-shared-memory-limit
  // counts it.
  const StaticSharedMemory *StaticUse = nullptr;
  if (L.Kernel)
    if (const FunctionDecl *Def = L.Kernel->getDefinition())
      StaticUse = &Shared.sharedMemory().of(Def);
  uint64_t Static = StaticUse ? StaticUse->Total : 0;

  // Static plus dynamic over the target's per-block maximum: no opt-in
  // helps. Static shared memory alone is cuda-static-shared-memory-limit's.
  if (Arch && Arch->Limits) {
    uint64_t Max = Arch->Limits->MaxSharedMemPerBlock;
    if (Dynamic > 0 && Static + Dynamic > Max) {
      diag(Loc, "'%0' needs %1 bytes of shared memory per block, more than "
                "the %2 bytes '%3' allows")
          << L.kernelName() << std::to_string(Static + Dynamic)
          << std::to_string(Max) << Arch->Name;
      noteBytes(L, SM);
      if (Static)
        diag(Loc, "%0 bytes of static and %1 bytes of dynamic shared memory",
             DiagnosticIDs::Note)
            << std::to_string(Static) << std::to_string(Dynamic);
      return true;
    }
  }

  // Without an opt-in a block gets 48 KiB minus its static shared memory.
  if (Dynamic == 0 || Static + Dynamic <= DefaultSharedMemPerBlock)
    return false;
  OptInVerdict V = judgeOptIns(
      Shared.launches().settingsFor(L, FuncAttr::MaxDynamicSharedMemorySize,
                                    /*IncludeUnknown=*/true),
      Dynamic);
  if (V.Enough)
    return false;
  if (V.OncePerProcess && !V.Largest)
    reportOncePerProcess(L, *V.OncePerProcess, SM);
  else
    reportMissingOptIn(L, StaticUse, V.Largest, Ctx);
  return true;
}

void DynamicSharedMemoryOptInCheck::reportOncePerProcess(
    const LaunchSite &L, const FuncAttributeCall &OncePerProcess,
    const SourceManager &SM) {
  // The opt-in is there, but only for the device current when it ran.
  SourceLocation Loc = SM.getExpansionLoc(L.Call->getBeginLoc());
  diag(Loc, "'%0' is launched with %1 bytes of dynamic shared memory but "
            "its opt-in runs once per process, for one device")
      << L.kernelName() << std::to_string(*L.DynamicSmem);
  noteBytes(L, SM);
  noteOptInSite(OncePerProcess, SM);
  diag(SM.getExpansionLoc(OncePerProcess.Guard->Loc),
       "%0 makes the opt-in run only once", DiagnosticIDs::Note)
      << describeGuard(*OncePerProcess.Guard);
  diag(Loc,
       "'%0' applies to the current device only: on any other device "
       "this launch fails with cudaErrorInvalidValue; opt in once per "
       "device",
       DiagnosticIDs::Note)
      << optInSpelling(L.Api).SetAttribute;
}

/// The opt-in call inserted before L, or why there is none (WhyNot).
static std::optional<FixItHint> optInFix(const LaunchSite &L, ASTContext &Ctx,
                                         std::string &WhyNot) {
  OptInSpelling Spell = optInSpelling(L.Api);
  std::optional<std::string> KernelText = writtenKernel(L, Ctx);
  std::optional<std::string> BytesText;
  if (L.ConfigVar)
    BytesText = L.ConfigVar->getName().str() +
                (isDriverApi(L.Api) ? ".sharedMemBytes" : ".dynamicSmemBytes");
  else if (L.DynamicSmemExpr && !L.DynamicSmemExpr->HasSideEffects(Ctx))
    BytesText = writtenText(L.DynamicSmemExpr, Ctx);
  if (!KernelText) {
    WhyNot = "the kernel is not named in the source at the launch";
    return std::nullopt;
  }
  if (!BytesText) {
    WhyNot = "the byte count cannot be repeated before the launch";
    return std::nullopt;
  }
  return insertBeforeLaunch(L, Ctx,
                            (Spell.SetAttribute + "(" + *KernelText + ", " +
                             Spell.MaxDynamicSmem + ", " + *BytesText + ")")
                                .str(),
                            WhyNot);
}

void DynamicSharedMemoryOptInCheck::reportMissingOptIn(
    const LaunchSite &L, const StaticSharedMemory *StaticUse,
    const FuncAttributeCall *Largest, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = SM.getExpansionLoc(L.Call->getBeginLoc());
  uint64_t Dynamic = *L.DynamicSmem;
  uint64_t Static = StaticUse ? StaticUse->Total : 0;
  std::string Kernel = L.kernelName();
  OptInSpelling Spell = optInSpelling(L.Api);
  std::string WhyNot;
  std::optional<FixItHint> Fix = optInFix(L, Ctx, WhyNot);
  if (Static == 0) {
    auto D =
        diag(Loc, Largest ? "'%0' is launched with %1 bytes of dynamic "
                            "shared memory but opted in to only %2"
                          : "'%0' is launched with %1 bytes of dynamic "
                            "shared memory without opting in above %2 bytes")
        << Kernel << std::to_string(Dynamic)
        << std::to_string(Largest ? *Largest->Value : DefaultSharedMemPerBlock);
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
  noteBytes(L, SM);
  if (Largest)
    noteOptInSite(*Largest, SM);
  if (StaticUse && !StaticUse->Variables.empty()) {
    const SharedVariable &V = StaticUse->Variables.front();
    diag(SM.getExpansionLoc(V.Var->getLocation()),
         "'%0' takes %1 bytes of static shared memory", DiagnosticIDs::Note)
        << V.Var->getName() << std::to_string(V.Size);
  }
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

void DynamicSharedMemoryOptInCheck::checkRefusedOptIns(const GpuArch &Arch,
                                                       ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  AnalysisContext &Shared = Module->analysis(Ctx);
  SharedMemoryAccounting &Smem = Shared.sharedMemory();
  uint64_t Max = Arch.Limits->MaxSharedMemPerBlock;
  llvm::DenseSet<unsigned> ReportedOptIns;
  for (const FuncAttributeCall &A : Shared.launches().attributeCalls()) {
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
        << std::to_string(Max) << Arch.Name;
    diag(At,
         "the call fails with cudaErrorInvalidValue; at most %0 bytes can be "
         "opted in for this kernel",
         DiagnosticIDs::Note)
        << std::to_string(Max - Static);
  }
}

} // namespace cuda_tidy
