//===--- TargetCompatibilityCheck.cpp - Generations left with no code -----===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "checks/TargetCompatibilityCheck.h"
#include "checks/CallMatchers.h"
#include "lib/ast/Macros.h"
#include "lib/AnalysisContext.h"
#include "lib/OptionValues.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_tidy {

TargetCompatibilityCheck::TargetCompatibilityCheck(
    StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), ArchOverride(*Context) {
  if (ArchOverride.shouldReportError())
    configurationDiag("%0") << ArchOverride.error();
  if (std::optional<StringRef> Value =
          moduleOption(Context->getOptions().CheckOptions,
                       SupportedArchitecturesOptionName)) {
    std::string Error;
    if (auto List = parseSupportedArchitectures(*Value, Error)) {
      Supported.emplace();
      for (const ArchLimits *L : *List)
        Supported->push_back({L->cudaArch(), FeatureSet::Generic});
    } else {
      configurationDiag("%0")
          << invalidOptionMessage(SupportedArchitecturesOptionName, Error);
    }
  }
}

bool TargetCompatibilityCheck::isLanguageVersionSupported(
    const LangOptions &LangOpts) const {
  return LangOpts.CUDA;
}

void TargetCompatibilityCheck::registerPPCallbacks(const SourceManager &,
                                                   Preprocessor *PP,
                                                   Preprocessor *) {
  this->PP = PP;
}

void TargetCompatibilityCheck::registerMatchers(MatchFinder *Finder) {
  // Kernels and device functions; a template is read once, from its pattern.
  Finder->addMatcher(
      functionDecl(isDefinition(),
                   anyOf(hasAttr(attr::CUDAGlobal), hasAttr(attr::CUDADevice)),
                   unless(isExpansionInSystemHeader()),
                   unless(isTemplateInstantiation()))
          .bind("function"),
      this);
  // The instantiations, to tell which templates are compiled at all.
  Finder->addMatcher(
      functionDecl(isDefinition(),
                   anyOf(hasAttr(attr::CUDAGlobal), hasAttr(attr::CUDADevice)),
                   unless(isExpansionInSystemHeader()),
                   isTemplateInstantiation())
          .bind("instance"),
      this);
  // cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev):
  // what the variable holds (matched before the comparisons that follow).
  Finder->addMatcher(
      callExpr(
          calleeNamedAnyOf({"cudaDeviceGetAttribute", "cuDeviceGetAttribute"}),
          argumentCountIs(3), unless(isExpansionInSystemHeader()))
          .bind("attribute"),
      this);
  // Host code choosing by compute capability.
  auto Equality = binaryOperator(hasOperatorName("=="));
  Finder->addMatcher(
      ifStmt(unless(isExpansionInSystemHeader()),
             hasCondition(expr(anyOf(Equality, hasDescendant(Equality)))))
          .bind("if"),
      this);
  Finder->addMatcher(
      switchStmt(unless(isExpansionInSystemHeader())).bind("switch"), this);
}

/// The number a macro of the translation unit is defined to, if any.
static std::optional<unsigned> macroNumber(const Preprocessor *PP,
                                           StringRef Name) {
  if (!PP)
    return std::nullopt;
  return cuda_tidy::macroNumber(*PP, Name);
}

ArrayRef<CompileTarget>
TargetCompatibilityCheck::targets(const ASTContext &Ctx) {
  if (Targets)
    return *Targets;
  Targets.emplace();
  auto Add = [&](std::optional<CompileTarget> T) {
    if (T && !llvm::is_contained(*Targets, *T))
      Targets->push_back(*T);
  };
  // The driver's list of what the build compiles; else the one-parse list;
  // else the analysed compilation (or cuda.TargetArch).
  for (StringRef Macro : {BuildArchsMacroName, GpuArchListMacroName}) {
    if (!Targets->empty() || !PP)
      break;
    if (const MacroInfo *MI = macroNamed(*PP, Macro))
      for (const Token &T : MI->tokens())
        if (const IdentifierInfo *II = T.getIdentifierInfo())
          Add(parseCompileTarget(II->getName()));
  }
  if (Targets->empty()) {
    if (ArchOverride.arch())
      Add(parseCompileTarget(ArchOverride.arch()->Name));
    else if (Ctx.getTargetInfo().getTriple().isNVPTX())
      Add(parseCompileTarget(Ctx.getTargetInfo().getTargetOpts().CPU));
  }
  BuildTargets.assign(Targets->begin(), Targets->end());
  if (Supported)
    for (const CompileTarget &T : *Supported)
      Add(T);
  auto ByArch = [](const CompileTarget &A, const CompileTarget &B) {
    return std::make_pair(A.CudaArch, A.Features) <
           std::make_pair(B.CudaArch, B.Features);
  };
  llvm::sort(*Targets, ByArch);
  llvm::sort(BuildTargets, ByArch);
  return *Targets;
}

/// "sm_90", "sm_90 and sm_100", "sm_90, sm_100 and sm_120".
static std::string targetList(ArrayRef<CompileTarget> Targets) {
  std::string Out;
  for (size_t I = 0; I < Targets.size(); ++I) {
    if (I > 0)
      Out += I + 1 == Targets.size() ? " and " : ", ";
    Out += Targets[I].name();
  }
  return Out;
}

static StringRef directiveName(ConditionalBranch::BranchKind K) {
  switch (K) {
  case ConditionalBranch::If:
    return "#if";
  case ConditionalBranch::Ifdef:
    return "#ifdef";
  case ConditionalBranch::Ifndef:
    return "#ifndef";
  case ConditionalBranch::Elif:
    return "#elif";
  case ConditionalBranch::Elifdef:
    return "#elifdef";
  case ConditionalBranch::Elifndef:
    return "#elifndef";
  case ConditionalBranch::Else:
    return "#else";
  }
  return "#if";
}

void TargetCompatibilityCheck::checkFunction(const FunctionDecl *F,
                                             ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const auto *Body = dyn_cast_or_null<CompoundStmt>(F->getBody());
  if (!Body || Body->getLBracLoc().isMacroID() ||
      !SeenBodies.insert(Body->getLBracLoc().getRawEncoding()).second)
    return;
  ArrayRef<CompileTarget> Ts = targets(Ctx);
  if (Ts.empty())
    return;
  ToolkitVersion TK;
  if (auto Major = macroNumber(PP, "__CUDACC_VER_MAJOR__")) {
    TK.Major = *Major;
    TK.Minor = macroNumber(PP, "__CUDACC_VER_MINOR__").value_or(0);
  } else if (auto V = macroNumber(PP, "CUDA_VERSION")) {
    TK.Major = *V / 1000;
    TK.Minor = *V % 1000 / 10;
  }
  checkInstructions(F, Ctx, TK);
  if (!Paths)
    Paths = std::make_unique<ArchPathAnalysis>(Ctx, PP, TK);
  SmallVector<ArchPathFinding, 2> Findings = Paths->analyze(F, Ts);
  if (Findings.empty())
    return;

  bool Kernel = F->hasAttr<CUDAGlobalAttr>();
  std::string Name;
  {
    llvm::raw_string_ostream OS(Name);
    F->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/false);
  }
  if (isa<CXXMethodDecl>(F) && cast<CXXMethodDecl>(F)->getParent()->isLambda())
    Name = "lambda";
  SourceLocation Loc = SM.getExpansionLoc(F->getLocation());
  for (const ArchPathFinding &Fd : Findings) {
    std::string Archs = targetList(Fd.Targets);
    // The work sits under a feature or family macro the targets lack.
    auto NamesFeature = [](StringRef Condition) {
      return Condition.contains("__CUDA_ARCH_FEAT_") ||
             Condition.contains("_SPECIFIC__") ||
             Condition.contains("__CUDA_ARCH_HAS_FEATURE__") ||
             Condition.contains("__CUDA_HAS_ARCH");
    };
    bool Feature = Fd.Working.Features != FeatureSet::Generic &&
                   (Fd.Guard.isInvalid() || NamesFeature(Fd.GuardCondition) ||
                    NamesFeature(Fd.ChainCondition));
    switch (Fd.Kind) {
    case ArchPathFinding::EmptyBody:
      diag(Loc, "%select{device function|kernel}0 '%1' compiles to an empty "
                "body for %2")
          << Kernel << Name << Archs;
      break;
    case ArchPathFinding::TrapsOnly:
      if (Feature) {
        // CUTLASS's stub: the work is compiled for the `a`/`f` target only.
        diag(Loc, "%select{device function|kernel}0 '%1' is a stub on %2: "
                  "its work is compiled for %3 only")
            << Kernel << Name << Archs << Fd.Working.name();
        break;
      }
      diag(Loc, "%select{device function|kernel}0 '%1' only traps on %2",
           DiagnosticIDs::Remark)
          << Kernel << Name << Archs;
      break;
    case ArchPathFinding::NoResult:
      diag(Loc, "%select{the results of device function|the stores of "
                "kernel}0 '%1' are compiled out for %2")
          << Kernel << Name << Archs;
      break;
    }
    std::string Older = Fd.Working.name();
    StringRef What = Fd.Kind == ArchPathFinding::NoResult ? "the stores"
                                                          : "this code";
    if (Fd.Guard.isValid()) {
      switch (Fd.GuardKind) {
      case ConditionalBranch::If:
      case ConditionalBranch::Elif:
        diag(Fd.Guard, "'%0' is false for %1 (%2 compiles %3)",
             DiagnosticIDs::Note)
            << Fd.GuardCondition << Archs << Older << What;
        break;
      case ConditionalBranch::Ifdef:
      case ConditionalBranch::Elifdef:
        diag(Fd.Guard, "'%0' is not defined for %1 (%2 compiles %3)",
             DiagnosticIDs::Note)
            << Fd.GuardCondition << Archs << Older << What;
        break;
      case ConditionalBranch::Ifndef:
      case ConditionalBranch::Elifndef:
        diag(Fd.Guard, "'%0' is defined for %1 (%2 compiles %3)",
             DiagnosticIDs::Note)
            << Fd.GuardCondition << Archs << Older << What;
        break;
      case ConditionalBranch::Else:
        diag(Fd.Guard,
             "the '#else' is not taken for %1: an earlier condition such as "
             "'%0' holds (%2 compiles %3)",
             DiagnosticIDs::Note)
            << Fd.ChainCondition << Archs << Older << What;
        break;
      }
    }
    if (Fd.Taken.isValid())
      diag(Fd.Taken, "the '%0' branch taken for %1 %select{does no work|only "
                     "traps or prints|does not store}2",
           DiagnosticIDs::Note)
          << directiveName(Fd.TakenKind) << Archs
          << static_cast<unsigned>(Fd.Kind);
    if (Fd.ConstantReturn.isValid()) {
      diag(Fd.ConstantReturn,
           "for %0 it returns a constant, computed from none of its inputs",
           DiagnosticIDs::Note)
          << Archs;
      noteKernelCaller(F, Ctx);
    }
    if (Feature) {
      bool SameArch = llvm::all_of(Fd.Targets, [&](const CompileTarget &T) {
        return T.CudaArch == Fd.Working.CudaArch;
      });
      std::string Number = Fd.Working.name().substr(3);
      diag(Loc,
           "a GPU that runs the %0 code launches it and gets cudaSuccess "
           "with no results (or a trap)%select{: the work exists for %1 "
           "only|; build %1 code for it (nvcc '-gencode "
           "arch=compute_%2,code=%1', CMake '%2')}3",
           DiagnosticIDs::Note)
          << Archs << Fd.Working.name() << Number << SameArch;
    }
    if (Fd.Kind != ArchPathFinding::TrapsOnly || Feature)
      diag(Loc,
           "give %0 a path that does the work: an '#else' with portable "
           "code%select{, or a lower bound ('__CUDA_ARCH__ >= N') instead of "
           "a range|}1",
           DiagnosticIDs::Note)
          << Archs << Feature;
  }
}

void TargetCompatibilityCheck::reportWrapper(const WrapperFinding &Fd,
                                             ASTContext &Ctx) {
  std::string Archs = targetList(Fd.Failing);
  std::string Name = Fd.Callee->getQualifiedNameAsString();
  bool Trap = Fd.Kind == WrapperFinding::Trap;
  if (Trap)
    diag(Fd.Call, "'%0' is compiled for %1, where CuTe puts a trap in place "
                  "of %select{its instruction|'%3'}2: a GPU that runs the %1 "
                  "code stops here")
        << Name << Archs << !Fd.Mnemonic.empty() << Fd.Mnemonic;
  else
    diag(Fd.Call, "'%0' is compiled for %1, where its header calls the "
                  "undefined '%2' in place of %select{its instruction|'%4'}3: "
                  "ptxas fails the build")
        << Name << Archs << Fd.Marker << !Fd.Mnemonic.empty() << Fd.Mnemonic;
  if (Fd.Guard.isValid())
    diag(Fd.Guard, "'%0' admits %1", DiagnosticIDs::Note)
        << Fd.GuardCondition << Archs;
  if (!Fd.WrapperCondition.empty()) {
    // The header's condition, in the architecture macros it stands for.
    std::string Fitting = Fd.WrapperCondition;
    for (StringRef Prefix : {"_CCCL_CUDA_COMPILER(NVHPC) || "})
      if (StringRef(Fitting).starts_with(Prefix))
        Fitting = Fitting.substr(Prefix.size());
    if (StringRef(Fitting).contains("ARCH_MMA_SM90A_ENABLED"))
      Fitting = "__CUDA_ARCH_FEAT_SM90_ALL";
    diag(Fd.Call,
         "'%0' compiles its instruction only under '%1'; guard the call "
         "with '%2'",
         DiagnosticIDs::Note)
        << Fd.Callee->getName() << Fd.WrapperCondition << Fitting;
  }
}

void TargetCompatibilityCheck::noteKernelCaller(const FunctionDecl *F,
                                                ASTContext &Ctx) {
  const CallGraphIndex &Calls = AnalysisContext::get(Ctx).callGraph();
  for (const CallSite &C : Calls.callersOf(F))
    if (C.Caller && C.Caller->hasAttr<CUDAGlobalAttr>()) {
      diag(Ctx.getSourceManager().getExpansionLoc(C.Call->getBeginLoc()),
           "kernel '%0' calls it here and gets that constant",
           DiagnosticIDs::Note)
          << C.Caller->getName();
      return;
    }
}

void TargetCompatibilityCheck::checkInstructions(const FunctionDecl *F,
                                                 ASTContext &Ctx,
                                                 ToolkitVersion TK) {
  if (BuildTargets.empty())
    return;
  if (!Instructions) {
    const CallGraphIndex &Calls = AnalysisContext::get(Ctx).callGraph();
    auto Callers = [&Calls, &Ctx](const FunctionDecl *Callee) {
      SmallVector<std::pair<const FunctionDecl *, SourceLocation>, 2> Out;
      if (Calls.isAddressTaken(Callee))
        Out.push_back({nullptr, SourceLocation()});
      for (const CallSite &C : Calls.callersOf(Callee))
        Out.push_back(
            {C.Caller, Ctx.getSourceManager().getExpansionLoc(
                           C.Call->getBeginLoc())});
      return Out;
    };
    Instructions =
        std::make_unique<ArchInstructionAnalysis>(Ctx, TK, std::move(Callers));
  }
  // One warning per guard that admits the failing targets (or per function,
  // for calls under none); the other wrapper calls are notes.
  SmallVector<const WrapperFinding *, 2> Reported;
  SmallVector<WrapperFinding, 1> Wrappers =
      Instructions->analyzeWrapperCalls(F, BuildTargets);
  for (const WrapperFinding &Fd : Wrappers) {
    auto Same = llvm::find_if(Reported, [&](const WrapperFinding *R) {
      return R->Guard == Fd.Guard && R->Kind == Fd.Kind &&
             R->Failing == Fd.Failing;
    });
    if (Same == Reported.end()) {
      reportWrapper(Fd, Ctx);
      Reported.push_back(&Fd);
      continue;
    }
    diag(Fd.Call, "'%0', under the same condition, is compiled the same way",
         DiagnosticIDs::Note)
        << Fd.Callee->getQualifiedNameAsString();
  }
  for (const InstructionFinding &Fd : Instructions->analyze(F, BuildTargets)) {
    std::string Archs = targetList(Fd.Rejecting);
    std::string Guard = fittingGuard(*Fd.Instruction, BuildTargets);
    diag(Fd.Asm, "inline PTX '%0' is compiled for %1, where ptxas rejects it "
                 "(it accepts it on %2): the build fails; guard it with '%3'")
        << Fd.Mnemonic << Archs << Fd.Instruction->Where << Guard;
    if (Fd.Guard.isValid())
      diag(Fd.Guard, "'%0' admits %1", DiagnosticIDs::Note)
          << Fd.GuardCondition << Archs;
    // nvcc's -arch=sm_90a also compiles compute_90 PTX (nvcc --dryrun).
    for (const CompileTarget &T : Fd.Rejecting)
      if (T.Features == FeatureSet::Generic &&
          llvm::is_contained(BuildTargets,
                             CompileTarget{T.CudaArch, FeatureSet::ArchSpecific})) {
        std::string Number = std::to_string(T.CudaArch / 10);
        diag(Fd.Asm,
             "the build compiles both compute_%0 and compute_%0a, as nvcc's "
             "'-arch=sm_%0a' does; '-gencode arch=compute_%0a,code=sm_%0a' "
             "compiles compute_%0a alone",
             DiagnosticIDs::Note)
            << Number;
        break;
      }
  }
}

namespace {
/// How a condition tests the compute capability.
struct CapabilityTests {
  bool Equality = false;
  bool Ordered = false;
  /// The largest N of `major == N` tests, when every equality test is one.
  std::optional<int64_t> MaxMajor;
  bool OtherEquality = false;
};
} // namespace

/// Whether \p E is the major version of a compute capability.
static bool isMajor(const Expr *E, const llvm::DenseSet<const Decl *> &Holders,
                    int Depth = 0) {
  if (!E || Depth > 4)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (Holders.contains(ME->getMemberDecl()))
      return true;
    if (ME->getMemberDecl()->getName() != "major")
      return false;
    QualType Base = ME->getBase()->getType();
    if (ME->isArrow() && Base->isPointerType())
      Base = Base->getPointeeType();
    const auto *RD = Base->getAsRecordDecl();
    return RD && RD->getName().starts_with("cudaDeviceProp");
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return false;
    // A variable that holds one: `int major = prop.major;`.
    return Holders.contains(V) || isMajor(V->getInit(), Holders, Depth + 1);
  }
  return false;
}

static bool containsMajor(const Expr *E,
                          const llvm::DenseSet<const Decl *> &Holders) {
  if (!E)
    return false;
  if (isMajor(E, Holders))
    return true;
  for (const Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      if (containsMajor(CE, Holders))
        return true;
  return false;
}

static void collectTests(const Expr *E, const ASTContext &Ctx,
                         const llvm::DenseSet<const Decl *> &Holders,
                         CapabilityTests &Out) {
  if (!E)
    return;
  E = E->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isLogicalOp()) {
      collectTests(BO->getLHS(), Ctx, Holders, Out);
      collectTests(BO->getRHS(), Ctx, Holders, Out);
      return;
    }
    if (BO->isComparisonOp()) {
      const Expr *L = BO->getLHS(), *R = BO->getRHS();
      bool LM = containsMajor(L, Holders), RM = containsMajor(R, Holders);
      if (!LM && !RM)
        return;
      if (BO->getOpcode() != BO_EQ) {
        Out.Ordered = true;
        return;
      }
      const Expr *Cap = LM ? L : R, *Other = LM ? R : L;
      std::optional<llvm::APSInt> N = Other->getIntegerConstantExpr(Ctx);
      if (!N)
        return;
      Out.Equality = true;
      if (isMajor(Cap, Holders))
        Out.MaxMajor = std::max(Out.MaxMajor.value_or(0), N->getExtValue());
      else
        Out.OtherEquality = true;
      return;
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    collectTests(UO->getSubExpr(), Ctx, Holders, Out);
}

/// Whether \p S launches a kernel (or names one, to pick it).
static bool launchesKernel(const Stmt *S) {
  if (!S)
    return false;
  if (isa<CUDAKernelCallExpr>(S))
    return true;
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = CE->getDirectCallee())
      if (FD->getIdentifier() &&
          llvm::is_contained({"cudaLaunchKernel", "cudaLaunchKernelEx",
                              "cudaLaunchCooperativeKernel", "cuLaunchKernel",
                              "cuLaunchKernelEx"},
                             FD->getName()))
        return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
      if (FD->hasAttr<CUDAGlobalAttr>())
        return true;
  for (const Stmt *C : S->children())
    if (launchesKernel(C))
      return true;
  return false;
}

/// Whether \p S ends by leaving (the code after the chain then serves the
/// other versions).
static bool endsInJump(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    return !CS->body_empty() && endsInJump(CS->body_back());
  if (!S)
    return false;
  if (isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt, CXXThrowExpr>(S))
    return true;
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = CE->getDirectCallee())
      return FD->isNoReturn();
  return false;
}

void TargetCompatibilityCheck::checkDispatch(const Stmt *S, ASTContext &Ctx) {
  if (!SeenDispatch.insert(S).second)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  CapabilityTests Tests;
  SmallVector<const Stmt *, 4> Branches;
  bool HasDefault = false;
  SourceLocation Last;
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    for (const IfStmt *I = If; I;) {
      SeenDispatch.insert(I);
      collectTests(I->getCond(), Ctx, MajorHolders, Tests);
      Branches.push_back(I->getThen());
      Last = I->getIfLoc();
      const Stmt *Else = I->getElse();
      I = dyn_cast_or_null<IfStmt>(Else);
      if (Else && !I) {
        HasDefault = true;
        Branches.push_back(Else);
      }
    }
  } else if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
    if (!isMajor(Sw->getCond(), MajorHolders))
      return;
    for (const SwitchCase *SC = Sw->getSwitchCaseList(); SC;
         SC = SC->getNextSwitchCase()) {
      if (isa<DefaultStmt>(SC)) {
        HasDefault = true;
        continue;
      }
      Tests.Equality = true;
      if (const auto *CS = dyn_cast<CaseStmt>(SC))
        if (auto N = CS->getLHS()->getIntegerConstantExpr(Ctx))
          Tests.MaxMajor = std::max(Tests.MaxMajor.value_or(0), N->getExtValue());
    }
    Branches.push_back(Sw->getBody());
    Last = Sw->getSwitchLoc();
  }
  if (!Tests.Equality || Tests.Ordered || HasDefault ||
      llvm::none_of(Branches, launchesKernel) ||
      (isa<IfStmt>(S) && llvm::any_of(Branches, endsInJump)))
    return;
  SourceLocation Loc = SM.getExpansionLoc(S->getBeginLoc());
  diag(Loc, "the kernel is chosen by compute capability with no branch for "
            "later versions",
       DiagnosticIDs::Remark);
  if (Tests.MaxMajor && !Tests.OtherEquality)
    diag(SM.getExpansionLoc(Last),
         "a GPU of compute capability %0.0 or later takes none of these "
         "branches and launches no kernel here",
         DiagnosticIDs::Note)
        << static_cast<int>(*Tests.MaxMajor + 1);
  else
    diag(SM.getExpansionLoc(Last),
         "a GPU whose compute capability no condition names takes none of "
         "these branches and launches no kernel here",
         DiagnosticIDs::Note);
  diag(SM.getExpansionLoc(Last),
       "add %select{an 'else'|a 'default'}0 that handles later versions, or "
       "compare with '>='",
       DiagnosticIDs::Note)
      << isa<SwitchStmt>(S);
}

void TargetCompatibilityCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  if (const auto *F = Result.Nodes.getNodeAs<FunctionDecl>("function")) {
    if (F->isInvalidDecl())
      return;
    // A template is compiled only as its instantiations, which the
    // traversal reaches after it: decided at the end (one never
    // instantiated is compiled for no target).
    if (F->isTemplated()) {
      PendingTemplates.push_back(F);
      this->Ctx = &Ctx;
    } else {
      checkFunction(F, Ctx);
    }
    return;
  }
  if (const auto *I = Result.Nodes.getNodeAs<FunctionDecl>("instance")) {
    for (const FunctionDecl *P = I->getTemplateInstantiationPattern(); P;
         P = P->getTemplateInstantiationPattern()) {
      InstantiatedPatterns.insert(P->getCanonicalDecl());
      if (P->getTemplateInstantiationPattern() == P)
        break;
    }
    return;
  }
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("attribute")) {
    const auto *Attr = dyn_cast<DeclRefExpr>(Call->getArg(1)->IgnoreParenImpCasts());
    if (!Attr || !Attr->getDecl()->getIdentifier())
      return;
    StringRef Name = Attr->getDecl()->getName();
    if (Name != "cudaDevAttrComputeCapabilityMajor" &&
        Name != "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR")
      return;
    const auto *Addr = dyn_cast<UnaryOperator>(Call->getArg(0)->IgnoreParenImpCasts());
    if (!Addr || Addr->getOpcode() != UO_AddrOf)
      return;
    const Expr *Target = Addr->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Target))
      MajorHolders.insert(DRE->getDecl());
    else if (const auto *ME = dyn_cast<MemberExpr>(Target))
      MajorHolders.insert(ME->getMemberDecl());
    return;
  }
  if (const auto *If = Result.Nodes.getNodeAs<IfStmt>("if")) {
    checkDispatch(If, Ctx);
    return;
  }
  if (const auto *Sw = Result.Nodes.getNodeAs<SwitchStmt>("switch"))
    checkDispatch(Sw, Ctx);
}

void TargetCompatibilityCheck::onEndOfTranslationUnit() {
  for (const FunctionDecl *F : PendingTemplates)
    if (InstantiatedPatterns.contains(F->getCanonicalDecl()))
      checkFunction(F, *Ctx);
  PendingTemplates.clear();
  InstantiatedPatterns.clear();
  SeenBodies.clear();
  SeenDispatch.clear();
  MajorHolders.clear();
  Targets.reset();
  BuildTargets.clear();
  Paths.reset();
  Instructions.reset();
}

} // namespace cuda_tidy
