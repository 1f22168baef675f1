//===--- DivergentBarrierCheck.cpp - cuda-divergent-barrier ---------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "checks/DivergentBarrierCheck.h"
#include "lib/AnalysisContext.h"
#include "lib/CudaAST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_tidy {

static constexpr unsigned MaxTraceNotes = 3;

DivergentBarrierCheck::DivergentBarrierCheck(
    StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      HIPCompatible(readBool(Name, "HIPCompatible", false)),
      BlockSizeMultipleOf32(readBool(Name, "BlockSizeMultipleOf32", true)) {}

/// Reads a boolean option from its text; clang-tidy's typed accessor for
/// bool is not exported to plugins.
bool DivergentBarrierCheck::readBool(StringRef CheckName, StringRef Option,
                                     bool Default) {
  StringRef Text = Options.get(Option, Default ? "true" : "false");
  std::optional<bool> Value =
      llvm::StringSwitch<std::optional<bool>>(Text.trim().lower())
          .Cases({"true", "1", "on", "yes"}, true)
          .Cases({"false", "0", "off", "no"}, false)
          .Default(std::nullopt);
  if (!Value) {
    configurationDiag("invalid value '%0' for option '%1.%2': expected "
                      "'true' or 'false'")
        << Text << CheckName << Option;
    return Default;
  }
  return *Value;
}

void DivergentBarrierCheck::storeOptions(
    clang::tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "HIPCompatible", HIPCompatible ? "true" : "false");
  Options.store(Opts, "BlockSizeMultipleOf32",
                BlockSizeMultipleOf32 ? "true" : "false");
}

bool DivergentBarrierCheck::isLanguageVersionSupported(
    const LangOptions &LangOpts) const {
  return LangOpts.CUDA;
}

void DivergentBarrierCheck::registerMatchers(MatchFinder *Finder) {
  // Every device-side function with a body: kernels, __device__ functions,
  // lambdas in device code and template instantiations of them.
  Finder->addMatcher(
      functionDecl(isDefinition(),
                   anyOf(hasAttr(attr::CUDAGlobal), hasAttr(attr::CUDADevice)))
          .bind("fn"),
      this);
}

void DivergentBarrierCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *F = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  const SourceManager &SM = *Result.SourceManager;
  if (!F || F->isDependentContext() || F->isInvalidDecl() ||
      SM.isInSystemHeader(SM.getExpansionLoc(F->getLocation())))
    return;
  UniformityOptions Opts;
  Opts.BlockSizeMultipleOf32 = BlockSizeMultipleOf32;
  Analysis = &AnalysisContext::get(*Result.Context).uniformity(Opts);
  const FunctionUniformity *FU = Analysis->analyze(F);
  if (!FU)
    return;
  for (const BarrierSite &B : FU->barriers()) {
    UniformValue Ctl = FU->controlAt(B.Site, HIPCompatible);
    Uniformity Level = Ctl.Base;
    if (B.WarpBarrier) {
      if (Level == Uniformity::Thread)
        addFinding(*FU, B, Level, SM);
      continue;
    }
    if (B.Callee)
      if (const FunctionSummary *S = Analysis->summary(B.Callee))
        Level = std::max(
            Level,
            FU->substitute(S->BarrierControl, cast<CallExpr>(B.Site)).Base);
    if (Level != Uniformity::Block)
      addFinding(*FU, B, Level, SM);
  }
}

void DivergentBarrierCheck::addFinding(const FunctionUniformity &FU,
                                       const BarrierSite &B, Uniformity Level,
                                       const SourceManager &SM) {
  this->SM = &SM;
  SourceLocation Loc = SM.getExpansionLoc(B.Site->getBeginLoc());
  if (Loc.isInvalid() || SM.isInSystemHeader(Loc))
    return;
  auto [It, Inserted] = Findings.try_emplace(Loc, Finding{&FU, B, Level});
  if (!Inserted && Level > It->second.Level)
    It->second = Finding{&FU, B, Level};
}

/// How a diagnostic names a function: quoted, or "the lambda".
static std::string functionName(const FunctionDecl *FD) {
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    if (MD->getParent()->isLambda())
      return "the lambda";
  return "'" + FD->getNameAsString() + "'";
}

void DivergentBarrierCheck::traceNotes(ArrayRef<TraceStep> Trace) {
  for (const TraceStep &Step : Trace)
    diag(Step.Loc, Step.Message, DiagnosticIDs::Note);
}

void DivergentBarrierCheck::report(const Finding &Found,
                                   const SourceManager &SM) {
  const FunctionUniformity &FU = *Found.FU;
  const BarrierSite &B = Found.Barrier;
  Uniformity Level = Found.Level;
  SourceLocation Loc = SM.getExpansionLoc(B.Site->getBeginLoc());
  unsigned Who = Level == Uniformity::Thread ? 0 : 1;
  const FunctionDecl *F = FU.function();
  UniformValue Ctl = FU.controlAt(B.Site, HIPCompatible);
  bool ByControl = Ctl.Base >= Level;

  if (B.WarpBarrier)
    diag(Loc, "'%0' with a full mask is reached by only some lanes of the "
              "warp")
        << B.Name;
  else if (!B.Callee)
    diag(Loc, "'%0' is reached by only some %select{threads|warps}1 of the "
              "block")
        << B.Name << Who;
  else if (ByControl)
    diag(Loc, "%0 waits at '%1' and is called by only some "
              "%select{threads|warps}2 of the block")
        << functionName(B.Callee) << B.Name << Who;
  else
    diag(Loc, "%0 waits at '%1' under a condition that these arguments make "
              "differ between %select{threads|warps}2")
        << functionName(B.Callee) << B.Name << Who;

  if (ByControl) {
    std::optional<DivergenceCause> Cause =
        FU.causeAt(B.Site, Level, 0, HIPCompatible);
    if (Cause) {
      llvm::SmallVector<TraceStep, 4> Trace;
      std::string What =
          FU.describe(Cause->Condition, Level, &Trace, MaxTraceNotes);
      if (Cause->Return) {
        if (isKernel(F))
          diag(Cause->Return->getBeginLoc(),
               "threads that return here never reach the barrier; exited "
               "threads do not take part on NVIDIA GPUs, but on AMD GPUs the "
               "rest of the wavefront can wait forever",
               DiagnosticIDs::Note);
        else
          diag(Cause->Return->getBeginLoc(),
               "threads that return here leave %0 without reaching the "
               "barrier, and are still alive in the caller",
               DiagnosticIDs::Note)
              << functionName(F);
      }
      if (!Cause->Condition) {
        diag(Cause->Terminator->getBeginLoc(),
             "the control flow here differs between %select{threads|warps}0",
             DiagnosticIDs::Note)
            << Who;
      } else if (Cause->K == DivergenceCause::Loop) {
        diag(Cause->Terminator->getBeginLoc(),
             "the loop's trip count depends on %0, which differs between "
             "%select{threads|warps}1",
             DiagnosticIDs::Note)
            << What << Who;
      } else {
        diag(Cause->Condition->getBeginLoc(),
             "the condition depends on %0, which differs between "
             "%select{threads|warps}1",
             DiagnosticIDs::Note)
            << What << Who;
      }
      traceNotes(Trace);
    }
  } else if (B.Callee) {
    // The callee's own condition depends on a parameter the call passes a
    // varying value for.
    const auto *Call = cast<CallExpr>(B.Site);
    const FunctionSummary *S = Analysis->summary(B.Callee);
    unsigned Offset = 0;
    if (isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(B.Callee) &&
        !cast<CXXMethodDecl>(B.Callee)->isStatic())
      Offset = 1;
    for (unsigned I = 0; S && I < B.Callee->getNumParams(); ++I) {
      if (!(S->BarrierControl.Params & (uint64_t(1) << I)) ||
          I + Offset >= Call->getNumArgs())
        continue;
      const Expr *Arg = Call->getArg(I + Offset);
      if (FU.valueOf(Arg).Base < Level)
        continue;
      llvm::SmallVector<TraceStep, 4> Trace;
      std::string What = FU.describe(Arg, Level, &Trace, MaxTraceNotes);
      diag(Arg->getBeginLoc(),
           "parameter '%0' of %1 decides whether it reaches the barrier, and "
           "gets %2 here",
           DiagnosticIDs::Note)
          << B.Callee->getParamDecl(I)->getName() << functionName(B.Callee)
          << What;
      traceNotes(Trace);
      break;
    }
  }

  if (B.Callee && B.Barrier) {
    SourceLocation Inner = SM.getExpansionLoc(B.Barrier->getBeginLoc());
    if (Inner.isValid() && !SM.isInSystemHeader(Inner))
      diag(Inner, "'%0' is reached here", DiagnosticIDs::Note) << B.Name;
  }
}

void DivergentBarrierCheck::onEndOfTranslationUnit() {
  if (SM)
    for (const auto &Entry : Findings)
      report(Entry.second, *SM);
  Findings.clear();
  Analysis = nullptr;
  SM = nullptr;
}

} // namespace cuda_tidy
