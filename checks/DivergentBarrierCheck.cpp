//===--- DivergentBarrierCheck.cpp - cuda-divergent-barrier ---------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "checks/DivergentBarrierCheck.h"
#include "lib/ast/Macros.h"
#include "lib/AnalysisContext.h"
#include "lib/OptionValues.h"
#include "lib/ast/CudaAST.h"
#include "lib/launch/LaunchModel.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_tidy {

static constexpr unsigned MaxTraceNotes = 3;

DivergentBarrierCheck::DivergentBarrierCheck(
    StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      HIPCompatible(readBool(Name, "HIPCompatible", false)),
      BlockSizeMultipleOf32(readBool(Name, "BlockSizeMultipleOf32", true)),
      ReportSkipThenExit(readBool(Name, "ReportSkipThenExit", true)) {}

/// Reads a boolean option from its text; clang-tidy's typed accessor for
/// bool is not exported to plugins.
bool DivergentBarrierCheck::readBool(StringRef CheckName, StringRef Option,
                                     bool Default) {
  StringRef Text = Options.get(Option, Default ? "true" : "false");
  std::optional<bool> Value = parseBoolOption(Text);
  if (!Value) {
    configurationDiag("%0") << invalidOptionMessage(CheckName + "." + Option,
                                                    notBooleanReason(Text));
    return Default;
  }
  return *Value;
}

void DivergentBarrierCheck::storeOptions(
    clang::tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "HIPCompatible", HIPCompatible ? "true" : "false");
  Options.store(Opts, "BlockSizeMultipleOf32",
                BlockSizeMultipleOf32 ? "true" : "false");
  Options.store(Opts, "ReportSkipThenExit",
                ReportSkipThenExit ? "true" : "false");
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
  if (!F || !isAnalysedBody(F) || F->isInvalidDecl() ||
      SM.isInSystemHeader(SM.getExpansionLoc(F->getLocation())))
    return;
  // Every finding is about a barrier the function reaches or, in a
  // kernel, an access to another block's shared memory: a function with
  // neither is not analysed (most device functions of user code).
  if (!mayHaveFindings(F, *Result.Context))
    return;
  // Where the parse broke, a barrier or what makes it uniform may be
  // missing from the AST (after a missing `#include`, `cg::sync(block)`).
  if (AnalysisContext::get(*Result.Context).parseBroke(F))
    return;
  UniformityOptions Opts;
  Opts.BlockSizeMultipleOf32 = BlockSizeMultipleOf32;
  Analysis = &AnalysisContext::get(*Result.Context).uniformity(Opts);
  const FunctionUniformity *FU = Analysis->analyze(F);
  if (!FU)
    return;
  checkClusterExit(*FU, *Result.Context);
  for (const BarrierSite &B : FU->barriers()) {
    UniformValue Ctl = FU->controlAt(B.Site, HIPCompatible);
    // Control that varies only through parameters' thread parts is the
    // callers' to judge, like any other that depends on parameters.
    Uniformity Level = ownLevel(Ctl);
    if (B.WarpBarrier) {
      // Only the lanes of the mask that have not exited must arrive (the
      // programming guide's rule for '__syncwarp'): lanes that skip it and
      // then only leave the kernel are not waited for.
      if (Level == Uniformity::Thread &&
          !skippersOnlyExit(*FU, B, Level, /*ByControl=*/true))
        addFinding(Finding{FU, B, Level}, SM);
      continue;
    }
    bool ByControl = Level != Uniformity::Block;
    Level = std::max(Level, calleeLevel(*FU, B));
    // In a template pattern, a barrier under `if constexpr (CGSize == 1)`
    // exists only where CGSize is 1: judged with that value.
    if (Level != Uniformity::Block && F->isTemplated())
      if (const FunctionUniformity *Pinned =
              Analysis->analyzePinnedAt(F, B.Site))
        if (std::max(ownLevel(Pinned->controlAt(B.Site, HIPCompatible)),
                     calleeLevel(*Pinned, B)) == Uniformity::Block)
          continue;
    if (Level != Uniformity::Block) {
      Finding Found{FU, B, Level};
      Found.SkipThenExit = skippersOnlyExit(*FU, B, Level, ByControl);
      if (Found.SkipThenExit && !ReportSkipThenExit)
        continue;
      addFinding(Found, SM);
      continue;
    }
    if (B.Scope != BarrierScope::Block)
      if (std::optional<Finding> Found = scopedFinding(F, B, *Result.Context)) {
        addFinding(*Found, SM);
        continue;
      }
    if (std::optional<LoopExit> Exit =
            FU->earlyLoopExit(B.Site, Uniformity::Warp)) {
      Finding Found{FU, B, Uniformity::Thread};
      Found.EarlyExit = Exit;
      addFinding(Found, SM);
    }
  }
}

Uniformity DivergentBarrierCheck::calleeLevel(const FunctionUniformity &FU,
                                              const BarrierSite &B) {
  if (!B.Callee)
    return Uniformity::Block;
  const FunctionSummary *S = Analysis->summary(B.Callee);
  if (!S)
    return Uniformity::Block;
  const auto *Call = cast<CallExpr>(B.Site);
  // The callee's barriers vary only through parameters whose thread parts
  // the arguments may cancel: the callee analysed with them bound.
  if (S->BarrierControl.Mixed)
    return ownLevel(Analysis->boundBarrierControl(FU, Call, B.Callee));
  return FU.substitute(S->BarrierControl, Call).Base;
}

/// Calls that turn a local address into one in another block's shared
/// memory: `cluster.map_shared_rank(p, r)`, `__cluster_map_shared_rank`.
static bool isMapSharedRank(const CallExpr *Call) {
  const FunctionDecl *FD = resolveCallee(Call);
  if (!FD || !FD->getIdentifier())
    return false;
  return FD->getName() == "map_shared_rank" ||
         FD->getName() == "__cluster_map_shared_rank";
}

namespace {
/// The accesses to distributed shared memory of a function body: the
/// map_shared_rank calls, and the uses of locals initialised from them.
class RemoteAccesses : public RecursiveASTVisitor<RemoteAccesses> {
public:
  bool VisitCallExpr(CallExpr *Call) {
    if (!isMapSharedRank(Call))
      return true;
    Sites.push_back(Call);
    return true;
  }
  bool VisitVarDecl(VarDecl *V) {
    if (const Expr *Init = V->getInit())
      if (const auto *Call = dyn_cast<CallExpr>(Init->IgnoreParenCasts()))
        if (isMapSharedRank(Call))
          Remote.insert(V);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()); V && Remote.count(V))
      Sites.push_back(DRE);
    return true;
  }
  llvm::SmallPtrSet<const VarDecl *, 4> Remote;
  llvm::SmallVector<const Stmt *, 8> Sites;
};
} // namespace

bool DivergentBarrierCheck::mayHaveFindings(const FunctionDecl *F,
                                            ASTContext &Ctx) {
  if (!MayReach)
    MayReach.emplace(AnalysisContext::get(Ctx).barrierWalks(),
                     /*WarpBarriers=*/true, isMapSharedRank);
  return MayReach->mayReach(F);
}

std::optional<DivergentBarrierCheck::Finding>
DivergentBarrierCheck::scopedFinding(const FunctionDecl *F,
                                     const BarrierSite &B, ASTContext &Ctx) {
  UniformityOptions Opts;
  Opts.BlockSizeMultipleOf32 = BlockSizeMultipleOf32;
  Opts.Scope = B.Scope;
  UniformityAnalysis &Scoped = AnalysisContext::get(Ctx).uniformity(Opts);
  const FunctionUniformity *SFU = Scoped.analyze(F);
  if (!SFU)
    return std::nullopt;
  // A block that exits never arrives at a cluster or grid barrier: exits
  // count.
  Uniformity Level = SFU->controlAt(B.Site, /*CountKernelExits=*/true).Base;
  if (B.Callee)
    if (const FunctionSummary *S = Scoped.summary(B.Callee))
      Level = std::max(
          Level,
          SFU->substitute(S->BarrierControl, cast<CallExpr>(B.Site)).Base);
  if (Level == Uniformity::Block)
    return std::nullopt;
  Finding Found{SFU, B, Uniformity::Thread};
  Found.ScopedFU = SFU;
  if (B.Scope != BarrierScope::Cluster)
    return Found;
  // A cluster barrier that some blocks skip does not hang: the GPU lets the
  // others through. It matters when something after it relies on it: an
  // access to another block's shared memory, or another cluster barrier
  // (which the skipping blocks pair with this one).
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation After = B.Site->getEndLoc();
  if (F->getBody()) {
    RemoteAccesses Remote;
    Remote.TraverseStmt(F->getBody());
    for (const Stmt *S : Remote.Sites)
      if (SM.isBeforeInTranslationUnit(After, S->getBeginLoc())) {
        Found.ReliedOnBy = S;
        break;
      }
  }
  if (!Found.ReliedOnBy)
    for (const BarrierSite &Next : SFU->barriers())
      if (Next.Scope == BarrierScope::Cluster && Next.Site != B.Site &&
          SM.isBeforeInTranslationUnit(After, Next.Site->getBeginLoc())) {
        Found.ReliedOnBy = Next.Site;
        break;
      }
  if (!Found.ReliedOnBy)
    return std::nullopt;
  return Found;
}

void DivergentBarrierCheck::checkClusterExit(const FunctionUniformity &FU,
                                             ASTContext &Ctx) {
  const FunctionDecl *F = FU.function();
  if (!isKernel(F) || !F->getBody())
    return;
  // No access without a function of that name in the translation unit
  // (cooperative_groups declares it): the body is not walked.
  if (!lookupIdentifier(Ctx.Idents, "map_shared_rank") &&
      !lookupIdentifier(Ctx.Idents, "__cluster_map_shared_rank"))
    return;
  RemoteAccesses Remote;
  Remote.TraverseStmt(F->getBody());
  if (Remote.Sites.empty())
    return;
  auto IsClusterBarrier = [&](const Stmt *S) {
    std::optional<BarrierSite> B = recognizeBarrier(S, Ctx);
    return B && B->Scope == BarrierScope::Cluster;
  };
  const SourceManager &SM = Ctx.getSourceManager();
  const Stmt *Last = nullptr;
  for (const Stmt *S : Remote.Sites)
    if (FU.exitAvoiding(S, IsClusterBarrier) &&
        (!Last || SM.isBeforeInTranslationUnit(Last->getBeginLoc(),
                                               S->getBeginLoc())))
      Last = S;
  if (!Last)
    return;
  SourceLocation Loc = SM.getExpansionLoc(Last->getBeginLoc());
  if (Loc.isInvalid() || SM.isInSystemHeader(Loc) ||
      !ReportedExits.insert(Loc).second)
    return;
  diag(Loc, "this block accesses another block's shared memory here and can "
            "reach the end of the kernel with no cluster barrier after it; "
            "the block that owns the memory may already have exited");
  diag(Loc, "add 'cluster.sync()' after the last access to distributed "
            "shared memory, before the blocks of the cluster can exit",
       DiagnosticIDs::Note);
}

bool DivergentBarrierCheck::skippersOnlyExit(const FunctionUniformity &FU,
                                             const BarrierSite &B,
                                             Uniformity Level,
                                             bool ByControl) {
  // Only a kernel's threads can leave for good; HIP's wavefronts wait for
  // exited lanes, so there every skip is a hang.
  if (HIPCompatible || !isKernel(FU.function()))
    return false;
  if (ByControl)
    return FU.skippersOnlyLeave(B.Site, Level);
  // The callee decides from its parameters: its skippers return to the
  // kernel, which must then do nothing more.
  const FunctionSummary *S = B.Callee ? Analysis->summary(B.Callee) : nullptr;
  const FunctionUniformity *Callee =
      B.Callee ? Analysis->analyze(B.Callee) : nullptr;
  if (!S || !Callee || !FU.quietAfter(B.Site))
    return false;
  bool Any = false;
  for (const BarrierSite &Inner : Callee->barriers()) {
    if (Inner.WarpBarrier)
      continue;
    Any = true;
    if (Inner.Callee ||
        !Callee->skippersOnlyLeave(Inner.Site, Uniformity::Thread,
                                   S->BarrierControl.Params))
      return false;
  }
  return Any;
}

void DivergentBarrierCheck::addFinding(Finding F, const SourceManager &SM) {
  this->SM = &SM;
  SourceLocation Loc = SM.getExpansionLoc(F.Barrier.Site->getBeginLoc());
  if (Loc.isInvalid() || SM.isInSystemHeader(Loc))
    return;
  auto [It, Inserted] = Findings.try_emplace(Loc, F);
  if (Inserted)
    return;
  // Across instantiations, the worst wins: a skip followed by work over one
  // followed only by the exit, then the least uniform.
  Finding &Old = It->second;
  if (std::make_pair(!F.SkipThenExit, F.Level) >
      std::make_pair(!Old.SkipThenExit, Old.Level))
    Old = F;
}

/// How a diagnostic names a function: quoted, or "the lambda".
static std::string functionName(const FunctionDecl *FD) {
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    if (MD->getParent()->isLambda())
      return "the lambda";
  return "'" + FD->getNameAsString() + "'";
}

/// A value's source as the notes name it: "'tid'", "the result of
/// 'atomicAdd'".
static std::string wordsFor(const ValueSource &Source) {
  switch (Source.Kind) {
  case ValueSource::Named:
    return "'" + Source.Name + "'";
  case ValueSource::CallResult:
    return Source.Name.empty() ? "the result of a call"
                               : "the result of '" + Source.Name + "'";
  case ValueSource::Object:
    return "the object";
  case ValueSource::Varying:
    break;
  }
  return "a value that differs between threads";
}

/// A trace step's note: "'tid' is set from 'threadIdx.x' here".
static std::string wordsFor(const TraceStep &Step) {
  std::string Var = "'" + Step.Var + "'";
  switch (Step.How) {
  case TraceStep::From:
    return Var + " is set from " + wordsFor(Step.Source) + " here";
  case TraceStep::UnderCondition:
    return Var + " is set under a condition on " + wordsFor(Step.Source) +
           " here";
  case TraceStep::UnderLoop:
    return Var + " is set under a loop here";
  case TraceStep::UnderVaryingControl:
    return Var + " is set under a condition that differs between threads "
                 "here";
  case TraceStep::ByCallOrAsm:
    break;
  }
  return Var + " is set here by a call or inline assembly whose result "
               "differs between threads";
}

void DivergentBarrierCheck::traceNotes(ArrayRef<TraceStep> Trace) {
  for (const TraceStep &Step : Trace)
    diag(Step.Loc, wordsFor(Step), DiagnosticIDs::Note);
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
  bool ByControl = ownLevel(Ctl) >= Level;

  if (Found.ScopedFU) {
    reportScoped(Found, SM);
    return;
  }
  if (Found.EarlyExit) {
    const LoopExit &Exit = *Found.EarlyExit;
    diag(Loc, "'%0' is reached early by threads that leave the loop before "
              "it while the others still wait at the loop's barrier")
        << B.Name;
    diag(Exit.Exit->getBeginLoc(),
         "threads leave the loop here under a condition that differs between "
         "threads",
         DiagnosticIDs::Note);
    diag(Exit.LoopBarrier->getBeginLoc(),
         "the threads still in the loop wait here; both groups then pass "
         "their barriers with different threads, or hang",
         DiagnosticIDs::Note);
    return;
  }
  if (Found.SkipThenExit) {
    if (B.Callee && !ByControl)
      diag(Loc, "%0 waits at '%1', and threads that it sends back without "
                "reaching the barrier leave the kernel without reaching "
                "another; this works on current NVIDIA GPUs but is undefined "
                "in CUDA and hangs on AMD")
          << functionName(B.Callee) << B.Name;
    else if (B.Callee)
      diag(Loc, "threads that skip this call to %0, which waits at '%1', "
                "leave the kernel without reaching another barrier; this "
                "works on current NVIDIA GPUs but is undefined in CUDA and "
                "hangs on AMD")
          << functionName(B.Callee) << B.Name;
    else
      diag(Loc, "threads that skip this '%0' leave the kernel without "
                "reaching another; this works on current NVIDIA GPUs but is "
                "undefined in CUDA and hangs on AMD")
          << B.Name;
  } else if (B.WarpBarrier)
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
          wordsFor(FU.describe(Cause->Condition, Level, &Trace, MaxTraceNotes));
      if (Cause->Exit)
        diag(Cause->Exit->getBeginLoc(),
             "threads that leave the loop here no longer reach its barrier; "
             "they go on to the next barrier after the loop",
             DiagnosticIDs::Note);
      if (Cause->Return) {
        if (isKernel(F))
          diag(Cause->Return->getBeginLoc(),
               "threads that return here never reach the barrier%select{|; "
               "exited threads do not take part on NVIDIA GPUs, but on AMD "
               "GPUs the rest of the wavefront can wait forever}0",
               DiagnosticIDs::Note)
              << HIPCompatible;
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
        if (B.WarpBarrier)
          noteUnknownShape(F, What, Cause->Condition);
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
      std::string What =
          wordsFor(FU.describe(Arg, Level, &Trace, MaxTraceNotes));
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

void DivergentBarrierCheck::reportScoped(const Finding &Found,
                                         const SourceManager &SM) {
  const FunctionUniformity &FU = *Found.ScopedFU;
  const BarrierSite &B = Found.Barrier;
  StringRef Scope = barrierScopeName(B.Scope);
  SourceLocation Loc = SM.getExpansionLoc(B.Site->getBeginLoc());
  diag(Loc, "'%0' is reached by only some blocks of the %1; every thread of "
            "every block of the %1 must arrive")
      << B.Name << Scope;
  if (std::optional<DivergenceCause> Cause =
          FU.causeAt(B.Site, Uniformity::Thread, 0, /*CountKernelExits=*/true)) {
    llvm::SmallVector<TraceStep, 4> Trace;
    std::string What = wordsFor(FU.describe(
        Cause->Condition, Uniformity::Thread, &Trace, MaxTraceNotes));
    if (Cause->Return)
      diag(Cause->Return->getBeginLoc(),
           "blocks that return here never arrive at the %0 barrier",
           DiagnosticIDs::Note)
          << Scope;
    if (!Cause->Condition)
      diag(Cause->Terminator->getBeginLoc(),
           "the control flow here differs between blocks of the %0",
           DiagnosticIDs::Note)
          << Scope;
    else if (Cause->K == DivergenceCause::Loop)
      diag(Cause->Terminator->getBeginLoc(),
           "the loop's trip count depends on %0, which differs between "
           "blocks of the %1",
           DiagnosticIDs::Note)
          << What << Scope;
    else
      diag(Cause->Condition->getBeginLoc(),
           "the condition depends on %0, which differs between blocks of the "
           "%1",
           DiagnosticIDs::Note)
          << What << Scope;
    traceNotes(Trace);
  }
  if (B.Scope == BarrierScope::Grid)
    diag(Loc, "in a cooperative launch the blocks that arrive wait for the "
              "others forever",
         DiagnosticIDs::Note);
  if (Found.ReliedOnBy) {
    if (std::optional<BarrierSite> Next =
            recognizeBarrier(Found.ReliedOnBy, Found.FU->function()->getASTContext()))
      diag(Found.ReliedOnBy->getBeginLoc(),
           "the blocks that skipped the first barrier pair this one with the "
           "others' first: the cluster no longer agrees on which barrier it "
           "is at",
           DiagnosticIDs::Note);
    else
      diag(Found.ReliedOnBy->getBeginLoc(),
           "the hardware does not wait for the skipping blocks: this access "
           "to another block's shared memory can run before that block has "
           "written it, or after it has exited",
           DiagnosticIDs::Note);
  }
}

void DivergentBarrierCheck::noteUnknownShape(const FunctionDecl *F,
                                             StringRef What,
                                             const Expr *Condition) {
  bool Y = What == "'threadIdx.y'", Z = What == "'threadIdx.z'";
  if (!(Y || Z) || !isKernel(F))
    return;
  const FunctionDecl *Canon = F->getCanonicalDecl();
  for (const LaunchSite &L :
       AnalysisContext::get(F->getASTContext()).launches().launches())
    if (L.Kernel && L.Kernel->getCanonicalDecl() == Canon)
      return;
  diag(Condition->getBeginLoc(),
       "no launch of %0 in this file shows its block's shape; '%select{"
       "threadIdx.y|threadIdx.z}1' is the same in every lane of a warp only "
       "where the block's %select{x|x times y}1 extent is a multiple of 32",
       DiagnosticIDs::Note)
      << functionName(F) << Z;
}

const Stmt *DivergentBarrierCheck::causeOf(const Finding &Found,
                                           DivergenceCause::Kind &K) {
  if (Found.ScopedFU || Found.EarlyExit)
    return nullptr;
  const FunctionUniformity &FU = *Found.FU;
  const Stmt *Site = Found.Barrier.Site;
  if (ownLevel(FU.controlAt(Site, HIPCompatible)) < Found.Level)
    return nullptr;
  std::optional<DivergenceCause> Cause =
      FU.causeAt(Site, Found.Level, 0, HIPCompatible);
  if (!Cause || !Cause->Terminator)
    return nullptr;
  K = Cause->K;
  return Cause->Terminator;
}

void DivergentBarrierCheck::noteSameCause(ArrayRef<const Finding *> Others,
                                          DivergenceCause::Kind K,
                                          const SourceManager &SM) {
  for (const Finding *Other : Others) {
    const BarrierSite &B = Other->Barrier;
    SourceLocation Loc = SM.getExpansionLoc(B.Site->getBeginLoc());
    if (B.Callee)
      diag(Loc, "%0, which waits at '%1', is called here %select{under the "
                "same condition|in the same loop}2",
           DiagnosticIDs::Note)
          << functionName(B.Callee) << B.Name
          << (K == DivergenceCause::Loop);
    else
      diag(Loc, "'%0' here is %select{under the same condition|in the same "
                "loop}1",
           DiagnosticIDs::Note)
          << B.Name << (K == DivergenceCause::Loop);
  }
}

void DivergentBarrierCheck::onEndOfTranslationUnit() {
  if (SM) {
    // One warning per cause: the barriers that one divergent branch or
    // loop makes diverge in the same way are reported at the first, with
    // the others as notes. Barriers whose skippers then only exit share
    // the group of those whose skippers go on; one of the latter leads
    // (the graver report).
    struct Group {
      DivergenceCause::Kind K = DivergenceCause::Branch;
      llvm::SmallVector<const Finding *, 2> Members;
    };
    llvm::MapVector<std::tuple<unsigned, unsigned, unsigned>, Group> Groups;
    unsigned Alone = 0;
    for (const auto &Entry : Findings) {
      const Finding &F = Entry.second;
      DivergenceCause::Kind K = DivergenceCause::Branch;
      const Stmt *Cause = causeOf(F, K);
      // Findings without a shared cause each make a group of their own
      // (keys with a zero location never collide with a cause's).
      auto Key =
          Cause
              ? std::make_tuple(
                    SM->getExpansionLoc(Cause->getBeginLoc()).getRawEncoding(),
                    unsigned(F.Level), unsigned(F.Barrier.WarpBarrier))
              : std::make_tuple(0u, ++Alone, 0u);
      Group &G = Groups[Key];
      if (G.Members.empty())
        G.K = K;
      G.Members.push_back(&F);
    }
    auto Where = [&](const Finding *X) {
      return SM->getExpansionLoc(X->Barrier.Site->getBeginLoc());
    };
    for (auto &Entry : Groups) {
      Group &G = Entry.second;
      // The graver report leads (skippers that go on), then the earliest;
      // the others follow in source order.
      llvm::sort(G.Members, [&](const Finding *A, const Finding *B) {
        return SM->isBeforeInTranslationUnit(Where(A), Where(B));
      });
      auto Lead = llvm::find_if(
          G.Members, [](const Finding *F) { return !F->SkipThenExit; });
      if (Lead == G.Members.end())
        Lead = G.Members.begin();
      const Finding *L = *Lead;
      G.Members.erase(Lead);
      report(*L, *SM);
      noteSameCause(G.Members, G.K, *SM);
    }
  }
  Findings.clear();
  ReportedExits.clear();
  MayReach.reset();
  Analysis = nullptr;
  SM = nullptr;
}

} // namespace cuda_tidy
