//===--- ClusterSizePortabilityCheck.cpp - Cluster sizes ------------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "checks/ClusterSizePortabilityCheck.h"
#include "lib/AnalysisContext.h"
#include "lib/target/ArchLimits.h"
#include "lib/launch/ConstantEval.h"
#include "lib/ast/CudaAST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_tidy {

ClusterSizePortabilityCheck::ClusterSizePortabilityCheck(
    StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      Module(ModuleOptions::of(*Context, ModuleOptions::ReadsTargetArch)) {}

bool ClusterSizePortabilityCheck::isLanguageVersionSupported(
    const LangOptions &LangOpts) const {
  return LangOpts.CUDA;
}

void ClusterSizePortabilityCheck::registerPPCallbacks(const SourceManager &,
                                                      Preprocessor *PP,
                                                      Preprocessor *) {
  PP->addPPCallbacks(Macros.makeCallbacks(*PP));
}

void ClusterSizePortabilityCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

namespace {
/// The kernels defined or declared in user code, instantiations included.
class KernelCollector : public DynamicUserCodeVisitor {
public:
  KernelCollector() { ShouldVisitTemplateInstantiations = true; }
  // Kernels are declared at namespace scope; bodies are not walked. A
  // kernel first declared in a body (`__global__ void k();` in a function)
  // is taken at its next declaration, as its first.
  bool TraverseStmt(Stmt *) override { return true; }
  bool VisitFunctionDecl(FunctionDecl *FD) override {
    if (!isKernel(FD) || FD->isDependentContext())
      return true;
    const FunctionDecl *First = FD->getFirstDecl();
    if ((FD == First ||
         First->getLexicalDeclContext()->isFunctionOrMethod()) &&
        Seen.insert(First).second)
      Kernels.push_back(First);
    return true;
  }
  std::vector<const FunctionDecl *> Kernels;

private:
  llvm::DenseSet<const FunctionDecl *> Seen;
};
} // namespace

/// Whether this is the first report of rule Kind (0 to 3) at Loc.
static bool firstReport(llvm::DenseSet<unsigned> &Reported, SourceLocation Loc,
                        unsigned Kind) {
  return Reported.insert(Loc.getRawEncoding() * 4 + Kind).second;
}

void ClusterSizePortabilityCheck::check(
    const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  llvm::DenseSet<unsigned> Reported;
  checkKernelClusters(Ctx, Reported);
  for (const LaunchSite &L : Module->analysis(Ctx).launches().launches())
    if (L.KernelKey)
      checkLaunch(L, Ctx, Reported);
}

void ClusterSizePortabilityCheck::checkKernelClusters(
    ASTContext &Ctx, llvm::DenseSet<unsigned> &Reported) {
  const SourceManager &SM = Ctx.getSourceManager();
  ConstantEvaluator &Eval = Module->analysis(Ctx).constants();
  const unsigned Largest = largestClusterAnyGpu();
  KernelCollector Kernels;
  Kernels.TraverseAST(Ctx);
  for (const FunctionDecl *K : Kernels.Kernels) {
    SourceLocation At;
    std::optional<Dim3> Dims = kernelClusterDims(K, &Macros, Eval, &At);
    if (!Dims || At.isInvalid())
      continue;
    At = SM.getExpansionLoc(At);
    if (SM.isInSystemHeader(At) || Dims->product() <= Largest ||
        !firstReport(Reported, At, 0))
      continue;
    diag(At, "a cluster of %0 blocks %1 is larger than any GPU runs")
        << std::to_string(Dims->product()) << Dims->str();
    diag(At,
         "the largest cluster is %0 blocks, with the non-portable cluster "
         "size opt-in",
         DiagnosticIDs::Note)
        << Largest;
  }
}

struct ClusterSizePortabilityCheck::LaunchCluster {
  Dim3 Shape;
  /// Where the shape is set (the launch when nothing closer is known).
  SourceLocation From;
  /// Set by the kernel's `__cluster_dims__`, through a macro in FromMacro.
  bool FromKernel = false;
  bool FromMacro = false;
};

std::optional<ClusterSizePortabilityCheck::LaunchCluster>
ClusterSizePortabilityCheck::clusterOf(const LaunchSite &L, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  AnalysisContext &Shared = Module->analysis(Ctx);
  ConstantEvaluator &Eval = Shared.constants();
  std::optional<Dim3> Shape;
  LaunchCluster C;
  if (L.HasClusterAttr) {
    Shape = L.Cluster;
    if (L.ClusterExpr)
      C.From = L.ClusterExpr->getExprLoc();
  } else if (L.Kernel && kernelClusterDims(L.Kernel, &Macros, Eval, &C.From)) {
    Shape = kernelClusterDims(L.Kernel, &Macros, Eval, &C.From, &C.FromMacro);
    C.FromKernel = true;
  } else {
    const CallExpr *Where = nullptr;
    Shape = Shared.launches().requiredClusterFor(L, &Where);
    if (Where)
      C.From = Where->getBeginLoc();
  }
  if (!Shape || Shape->product() == 0)
    return std::nullopt;
  C.Shape = *Shape;
  C.From = C.From.isValid() ? SM.getExpansionLoc(C.From)
                            : SM.getExpansionLoc(L.Call->getBeginLoc());
  return C;
}

void ClusterSizePortabilityCheck::noteFrom(const LaunchCluster &Cluster) {
  diag(Cluster.From, "the cluster shape %0 is set here", DiagnosticIDs::Note)
      << Cluster.Shape.str();
}

void ClusterSizePortabilityCheck::checkLaunch(
    const LaunchSite &L, ASTContext &Ctx, llvm::DenseSet<unsigned> &Reported) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = SM.getExpansionLoc(L.Call->getBeginLoc());
  std::optional<LaunchCluster> Cluster = clusterOf(L, Ctx);
  if (!Cluster)
    return;
  const unsigned Largest = largestClusterAnyGpu();
  uint64_t Blocks = Cluster->Shape.product();
  if (Blocks > Largest) {
    // A kernel's own __cluster_dims__ is reported once, at the kernel.
    if (!Cluster->FromKernel && firstReport(Reported, Loc, 1)) {
      diag(Loc, "'%0' is launched with a cluster of %1 blocks, larger than "
                "any GPU runs")
          << L.kernelName() << std::to_string(Blocks);
      noteFrom(*Cluster);
      diag(Loc,
           "the largest cluster is %0 blocks, with the non-portable "
           "cluster size opt-in",
           DiagnosticIDs::Note)
          << Largest;
    }
  } else if (Blocks > PortableClusterSize) {
    bool Allowed = false;
    const FuncAttributeCall *OncePerProcess = nullptr;
    // A setting for a kernel that cannot be followed is trusted.
    for (const FuncAttributeCall *A :
         Module->analysis(Ctx).launches().settingsFor(
             L, FuncAttr::NonPortableClusterSizeAllowed,
             /*IncludeUnknown=*/true)) {
      if (A->Value && *A->Value == 0)
        continue;
      if (A->Guard && !A->KernelUnknown) {
        OncePerProcess = OncePerProcess ? OncePerProcess : A;
        continue;
      }
      Allowed = true;
    }
    if (!Allowed && firstReport(Reported, Loc, 2))
      reportNotAllowed(L, *Cluster, OncePerProcess, Ctx);
  }

  const Dim3 &Shape = Cluster->Shape;
  if (L.Grid &&
      (L.Grid->X % Shape.X || L.Grid->Y % Shape.Y || L.Grid->Z % Shape.Z) &&
      firstReport(Reported, Loc, 3)) {
    diag(Loc, "the grid %0 of '%1' is not a multiple of its cluster shape "
              "%2")
        << L.Grid->str() << L.kernelName() << Shape.str();
    noteFrom(*Cluster);
  }
}

void ClusterSizePortabilityCheck::reportNotAllowed(
    const LaunchSite &L, const LaunchCluster &Cluster,
    const FuncAttributeCall *OncePerProcess, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = SM.getExpansionLoc(L.Call->getBeginLoc());
  std::string Blocks = std::to_string(Cluster.Shape.product());
  OptInSpelling Spell = optInSpelling(L.Api);
  if (OncePerProcess) {
    diag(Loc, "'%0' is launched with a cluster of %1 blocks but allows "
              "non-portable cluster sizes once per process, for one "
              "device")
        << L.kernelName() << Blocks;
    noteFrom(Cluster);
    diag(SM.getExpansionLoc(OncePerProcess->Site->getBeginLoc()),
         "non-portable cluster sizes are allowed here", DiagnosticIDs::Note);
    diag(SM.getExpansionLoc(OncePerProcess->Guard->Loc),
         "%0 makes the call run only once", DiagnosticIDs::Note)
        << describeGuard(*OncePerProcess->Guard);
    diag(Loc,
         "'%0' applies to the current device only: on any other device "
         "this launch fails with cudaErrorInvalidClusterSize; set it once "
         "per device",
         DiagnosticIDs::Note)
        << Spell.SetAttribute;
    return;
  }
  std::string WhyNot;
  std::optional<FixItHint> Fix;
  if (std::optional<std::string> KernelText = writtenKernel(L, Ctx))
    Fix = insertBeforeLaunch(L, Ctx,
                             (Spell.SetAttribute + "(" + *KernelText + ", " +
                              Spell.NonPortableCluster + ", 1)")
                                 .str(),
                             WhyNot);
  else
    WhyNot = "the kernel is not named in the source at the launch";
  {
    auto D = diag(Loc, "'%0' is launched with a cluster of %1 blocks "
                       "without allowing non-portable cluster sizes")
             << L.kernelName() << Blocks;
    if (Fix)
      D << *Fix;
  }
  noteFrom(Cluster);
  if (Cluster.FromMacro)
    diag(Cluster.From,
         "clang rejects '__cluster_dims__' over %0 blocks with an error "
         "here; nvcc builds it and the GPU runs it with the opt-in",
         DiagnosticIDs::Note)
        << PortableClusterSize;
  diag(Loc,
       "clusters over %0 blocks fail with cudaErrorInvalidClusterSize "
       "unless '%1' sets '%2' to 1 first",
       DiagnosticIDs::Note)
      << PortableClusterSize << Spell.SetAttribute << Spell.NonPortableCluster;
  if (!Fix)
    diag(Loc, "no automatic fix: %0", DiagnosticIDs::Note) << WhyNot;
}

} // namespace cuda_tidy
