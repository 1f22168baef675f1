//===--- LaunchResourcesCheck.cpp - Launches the runtime rejects ----------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "checks/LaunchResourcesCheck.h"
#include "lib/ast/Macros.h"
#include "lib/AnalysisContext.h"
#include "lib/OptionValues.h"
#include "lib/ast/CudaAST.h"
#include "lib/launch/ConstantEval.h"
#include "lib/launch/LaunchModel.h"
#include "lib/resources/ResourceUsage.h"
#include "lib/target/ArchLimits.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <limits>
#include <mutex>

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_tidy {

LaunchResourcesCheck::LaunchResourcesCheck(
    StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      Module(ModuleOptions::of(*Context, ModuleOptions::ReadsTargetArch)) {}

bool LaunchResourcesCheck::isLanguageVersionSupported(
    const LangOptions &LangOpts) const {
  return LangOpts.CUDA;
}

void LaunchResourcesCheck::registerPPCallbacks(const SourceManager &,
                                               Preprocessor *PP,
                                               Preprocessor *) {
  this->PP = PP;
}

void LaunchResourcesCheck::registerMatchers(MatchFinder *Finder) {
  // The whole translation unit at once: a kernel's launches are compared
  // with each other for the fix.
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// What the runtime returns, in the launch's API.
static StringRef invalidValue(const LaunchSite &L) {
  return isDriverApi(L.Api) ? "CUDA_ERROR_INVALID_VALUE"
                            : "cudaErrorInvalidValue";
}
static StringRef outOfResources(const LaunchSite &L) {
  return isDriverApi(L.Api) ? "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"
                            : "cudaErrorLaunchOutOfResources";
}

/// "this launch of 'k'", or "this launch" when the kernel is unknown.
static std::string thisLaunch(const LaunchSite &L) {
  if (!L.KernelKey)
    return "this launch";
  return "this launch of '" + L.kernelName() + "'";
}

/// thisLaunch for L launching Kernel (bound at a helper's call).
static std::string thisLaunch(const LaunchSite &L, const FunctionDecl *Kernel) {
  if (L.KernelKey || !Kernel)
    return thisLaunch(L);
  LaunchSite Named;
  Named.Kernel = Kernel;
  Named.KernelKey = Kernel->getCanonicalDecl();
  return thisLaunch(Named);
}

static const char *const DimName[3] = {"x", "y", "z"};

/// Where a diagnostic about an attribute goes: its macro's expansion.
static SourceLocation attrLoc(const Attr *A, const SourceManager &SM) {
  return SM.getExpansionLoc(A->getLocation());
}

//===----------------------------------------------------------------------===//
// Shapes and bounds
//===----------------------------------------------------------------------===//

bool LaunchResourcesCheck::checkShape(const LaunchSite &L, ASTContext &Ctx) {
  LaunchBinding Own;
  Own.Kernel = L.Kernel;
  Own.Grid = L.Grid;
  Own.Block = L.Block;
  if (checkShapeOf(L, Own, Ctx))
    return true;
  // A launch in a helper, with the values of each call of the helper.
  for (const LaunchBinding &B : L.Bindings)
    if (checkShapeOf(L, B, Ctx)) {
      const CallExpr *Via = B.Through.front();
      const FunctionDecl *Helper = Via->getDirectCallee();
      diag(Ctx.getSourceManager().getExpansionLoc(Via->getBeginLoc()),
           "with the arguments of this call of %0", DiagnosticIDs::Note)
          << Helper;
      return true;
    }
  return false;
}

bool LaunchResourcesCheck::checkShapeOf(const LaunchSite &L,
                                        const LaunchBinding &Shape,
                                        ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = SM.getExpansionLoc(L.Call->getBeginLoc());
  std::string What = thisLaunch(L, Shape.Kernel);
  if (Shape.Block) {
    const Dim3 &B = *Shape.Block;
    uint64_t Dims[3] = {B.X, B.Y, B.Z};
    if (B.X && B.Y && B.Z && B.product() > MaxThreadsPerBlock) {
      diag(Loc, "%0 with %1 threads per block fails with %2: a block has at "
                "most %3 threads")
          << What << std::to_string(B.product()) << invalidValue(L)
          << MaxThreadsPerBlock;
      return true;
    }
    for (unsigned I = 0; I < 3; ++I)
      if (Dims[I] > MaxBlockDim[I]) {
        diag(Loc, "%0 with a block of %1 fails with %2: a block's %3 "
                  "dimension is at most %4")
            << What << B.str() << invalidValue(L) << DimName[I]
            << MaxBlockDim[I];
        return true;
      }
  }
  if (Shape.Grid) {
    const Dim3 &G = *Shape.Grid;
    uint64_t Dims[3] = {G.X, G.Y, G.Z};
    for (unsigned I = 0; I < 3; ++I)
      if (Dims[I] > MaxGridDim[I]) {
        diag(Loc, "%0 with a grid of %1 fails with %2: a grid's %3 "
                  "dimension is at most %4")
            << What << G.str() << invalidValue(L) << DimName[I]
            << std::to_string(MaxGridDim[I]);
        return true;
      }
  }
  // More threads than the kernel's __launch_bounds__.
  if (!Shape.Block || !Shape.Kernel)
    return false;
  std::optional<LaunchBounds> Bounds =
      launchBoundsOf(Shape.Kernel, Ctx, /*FromPattern=*/true);
  uint64_t Threads = Shape.Block->product();
  if (!Bounds || !Bounds->MaxThreads || Threads <= *Bounds->MaxThreads)
    return false;
  diag(Loc, "%0 with %1 threads fails with %2: its '__launch_bounds__' "
            "allow at most %3 threads per block")
      << What << std::to_string(Threads) << invalidValue(L)
      << std::to_string(*Bounds->MaxThreads);
  diag(attrLoc(Bounds->Attr, SM), "the bound is set here", DiagnosticIDs::Note);
  return true;
}

namespace {
/// The kernels declared in user code, instantiations included.
class BoundedKernels : public DynamicUserCodeVisitor {
public:
  BoundedKernels() { ShouldVisitTemplateInstantiations = true; }
  // Kernels are declared at namespace or class scope, never in a body.
  bool TraverseStmt(Stmt *) override { return true; }
  bool VisitFunctionDecl(FunctionDecl *FD) override {
    if (isKernel(FD) && !FD->isDependentContext() &&
        FD->hasAttr<CUDALaunchBoundsAttr>())
      Kernels.push_back(FD);
    return true;
  }
  std::vector<const FunctionDecl *> Kernels;
};
} // namespace

void LaunchResourcesCheck::checkBounds(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  BoundedKernels Visitor;
  Visitor.TraverseAST(Ctx);
  auto Archs = Module->effectiveArchs(Ctx, PP);
  // One report per attribute spelling, rule and architecture.
  llvm::StringSet<> Reported;
  auto First = [&](SourceLocation Loc, StringRef What) {
    return Reported
        .insert(std::to_string(Loc.getRawEncoding()) + ":" + What.str())
        .second;
  };
  for (const FunctionDecl *K : Visitor.Kernels) {
    std::optional<LaunchBounds> B =
        launchBoundsOf(K, Ctx, /*FromPattern=*/true);
    if (!B)
      continue;
    SourceLocation Loc = attrLoc(B->Attr, SM);
    if (Loc.isInvalid() || SM.isInSystemHeader(Loc))
      continue;
    // Over 1024 threads: no GPU launches such a block.
    if (B->MaxThreads && *B->MaxThreads > MaxThreadsPerBlock &&
        First(Loc, "threads")) {
      diag(Loc, "'__launch_bounds__' allows %0 threads per block, but no GPU "
                "runs a block of more than %1")
          << std::to_string(*B->MaxThreads) << MaxThreadsPerBlock;
      diag(Loc,
           "ptxas accepts the bound where an SM holds that many threads and "
           "ignores it elsewhere; a launch with more than %0 threads fails "
           "with cudaErrorInvalidValue",
           DiagnosticIDs::Note)
          << MaxThreadsPerBlock;
    }
    // Clusters over the largest any GPU runs (cuda-cluster-size-portability
    // reports __cluster_dims__ and launches against the same table). clang
    // drops the argument for targets without clusters.
    if (B->MaxCluster && *B->MaxCluster > largestClusterAnyGpu() &&
        First(Loc, "cluster")) {
      diag(Loc, "'__launch_bounds__' allows clusters of %0 blocks, but no GPU "
                "runs a cluster of more than %1")
          << std::to_string(*B->MaxCluster) << largestClusterAnyGpu();
      diag(Loc,
           "clusters of more than %0 blocks need the non-portable cluster "
           "size opt-in; a launch with a larger cluster fails with "
           "cudaErrorInvalidClusterSize",
           DiagnosticIDs::Note)
          << PortableClusterSize;
    }
    for (const std::optional<GpuArch> &Arch : Archs) {
      if (!Arch || !Arch->Limits)
        continue;
      const ArchLimits &Lim = *Arch->Limits;
      if (B->MinBlocks && *B->MinBlocks > Lim.MaxBlocksPerSM) {
        if (First(Loc, "blocks" + Arch->Name)) {
          diag(Loc, "'__launch_bounds__' asks for %0 resident blocks per SM, "
                    "more than the %1 an SM of '%2' holds")
              << std::to_string(*B->MinBlocks) << Lim.MaxBlocksPerSM
              << Arch->Name;
          diag(Loc,
               "ptxas ignores the minimum ('minnctapersm out of range') and "
               "allocates registers as if it were not there",
               DiagnosticIDs::Note);
        }
      } else if (B->MinBlocks && B->MaxThreads &&
                 *B->MaxThreads <= MaxThreadsPerBlock) {
        uint64_t Warps = (*B->MaxThreads + 31) / 32;
        uint64_t Threads = Warps * 32 * *B->MinBlocks;
        if (Threads > Lim.maxThreadsPerSM() &&
            First(Loc, "threads" + Arch->Name)) {
          diag(Loc, "'__launch_bounds__' asks for %0 resident blocks of %1 "
                    "threads per SM, %2 threads, more than the %3 an SM of "
                    "'%4' holds")
              << std::to_string(*B->MinBlocks) << std::to_string(*B->MaxThreads)
              << std::to_string(Threads) << Lim.maxThreadsPerSM() << Arch->Name;
          diag(Loc,
               "ptxas ignores the minimum ('threads per SM out of range'); "
               "blocks count in whole warps of 32 threads",
               DiagnosticIDs::Note);
        }
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Registers
//===----------------------------------------------------------------------===//

/// The text between quotes of a string literal token's spelling.
static std::string unquote(StringRef Spelling) {
  if (!Spelling.consume_front("\"") || !Spelling.consume_back("\""))
    return "";
  std::string Out;
  for (size_t I = 0; I < Spelling.size(); ++I) {
    if (Spelling[I] == '\\' && I + 1 < Spelling.size())
      ++I;
    Out += Spelling[I];
  }
  return Out;
}

/// \p Path relative to the working folder when it is under it.
static std::string shownPath(StringRef Path) {
  SmallString<256> Cwd;
  if (llvm::sys::fs::current_path(Cwd))
    return Path.str();
  StringRef Rest = Path;
  if (Rest.consume_front(Cwd) && Rest.size() > 1 &&
      llvm::sys::path::is_separator(Rest.front()))
    return Rest.drop_front().str();
  return Path.str();
}

/// Says once per process and file why its register counts cannot be read.
static void reportUnreadable(clang::tidy::ClangTidyCheck &Check, StringRef Path,
                             StringRef Why) {
  static std::mutex Mutex;
  static llvm::StringSet<> Reported;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (!Reported.insert(Path).second)
      return;
  }
  Check.configurationDiag("cannot read kernel register counts from '%0': %1; "
                          "cuda-launch-resources does not check registers "
                          "against it")
      << Path << Why;
}

std::vector<LaunchResourcesCheck::UsageFile>
LaunchResourcesCheck::usageFiles(ASTContext &Ctx) {
  SmallVector<std::string, 2> Paths;
  std::string DriverName;
  if (!Module->resourceUsage().empty()) {
    SmallVector<StringRef, 2> Parts;
    Module->resourceUsage().split(Parts, ';', -1, /*KeepEmpty=*/false);
    for (StringRef P : Parts)
      if (!P.trim().empty())
        Paths.push_back(P.trim().str());
  } else if (PP) {
    // The cuda-tidy driver's object file (or the fatbin it compiled).
    auto StringMacro = [&](StringRef Name) -> std::string {
      const MacroInfo *MI = macroNamed(*PP, Name);
      if (!MI || MI->getNumTokens() != 1 ||
          !MI->getReplacementToken(0).is(tok::string_literal))
        return "";
      return unquote(PP->getSpelling(MI->getReplacementToken(0)));
    };
    std::string Path = StringMacro(ResourceUsageMacroName);
    if (!Path.empty())
      Paths.push_back(Path);
    DriverName = StringMacro(ResourceUsageNameMacroName);
  }
  std::vector<UsageFile> Out;
  FileManager &FM = Ctx.getSourceManager().getFileManager();
  for (const std::string &P : Paths) {
    if (P.empty())
      continue;
    // Relative to the compile command's folder, as the build wrote it.
    SmallString<256> Abs(P);
    FM.makeAbsolutePath(Abs);
    llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    auto Table = readResourceUsage(Abs);
    if (!Table) {
      reportUnreadable(*this, P, toString(Table.takeError()));
      continue;
    }
    llvm::sys::fs::file_status Status;
    if (llvm::sys::fs::status(Abs, Status))
      continue;
    // A fatbin the driver compiled for this run is never stale.
    int64_t Modified =
        DriverName.empty()
            ? int64_t(llvm::sys::toTimeT(Status.getLastModificationTime()))
            : std::numeric_limits<int64_t>::max();
    Out.push_back({DriverName.empty() ? shownPath(Abs) : DriverName,
                   std::move(*Table), Modified});
  }
  return Out;
}

struct LaunchResourcesCheck::RegisterFailure {
  const LaunchSite *Launch;
  uint64_t Threads;
  const ArchLimits *Arch;
  unsigned Registers;
  uint64_t Allocated;
  const LaunchResourcesCheck::UsageFile *From;
  /// Other architectures the launch fails on, and their registers.
  SmallVector<std::pair<const ArchLimits *, unsigned>, 2> AlsoOn;
};
using RegisterFailure = LaunchResourcesCheck::RegisterFailure;

namespace {
/// Uses of kernels other than the launches the model sees and the CUDA
/// API calls that only read them (attributes, occupancy): such a use may
/// launch the kernel with any block.
class OtherKernelUses : public DynamicUserCodeVisitor {
public:
  explicit OtherKernelUses(const llvm::DenseSet<const Expr *> &Launched)
      : Launched(Launched) {
    ShouldVisitTemplateInstantiations = true;
  }
  bool TraverseCallExpr(CallExpr *CE) override {
    // cudaFuncSetAttribute(k, ...), cudaOccupancy...(..., k, ...).
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (Callee && Callee->getIdentifier() && isInSystemHeader(Callee) &&
        !Callee->getName().contains("Launch") &&
        !Callee->getName().contains("launch")) {
      for (Stmt *Child : CE->children())
        if (auto *E = dyn_cast_or_null<Expr>(Child))
          if (!isKernelRef(E))
            TraverseStmt(E);
      return true;
    }
    return DynamicRecursiveASTVisitor::TraverseCallExpr(CE);
  }
  bool TraverseCUDAKernelCallExpr(CUDAKernelCallExpr *KCE) override {
    // The callee is the launch; its configuration and arguments are not.
    for (Stmt *Child : KCE->children())
      if (Child != KCE->getCallee())
        TraverseStmt(Child);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) override {
    const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl());
    if (!FD || !isKernel(FD) || Launched.contains(DRE))
      return true;
    const FunctionDecl *Key = FD->getTemplateInstantiationPattern()
                                  ? FD->getTemplateInstantiationPattern()
                                  : FD;
    Used.insert(Key->getCanonicalDecl());
    return true;
  }
  llvm::DenseSet<const FunctionDecl *> Used;

private:
  static bool isKernelRef(const Expr *E) {
    E = E->IgnoreParenCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      if (UO->getOpcode() == UO_AddrOf)
        E = UO->getSubExpr()->IgnoreParenCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *FD = DRE ? dyn_cast<FunctionDecl>(DRE->getDecl()) : nullptr;
    return FD && isKernel(FD);
  }
  const llvm::DenseSet<const Expr *> &Launched;
};
} // namespace

/// The declaration of \p K that the fix edits: the definition of its
/// template pattern or of the kernel itself.
static const FunctionDecl *fixTarget(const FunctionDecl *K) {
  if (const FunctionDecl *Pattern = K->getTemplateInstantiationPattern())
    K = Pattern;
  if (const FunctionTemplateDecl *T = K->getPrimaryTemplate())
    K = T->getTemplatedDecl();
  const FunctionDecl *Def = K->getDefinition();
  return Def ? Def : K;
}

/// The most registers per thread that let a block of \p Threads launch.
static unsigned registersThatFit(const ArchLimits &Lim, uint64_t Threads) {
  unsigned R = Lim.MaxRegistersPerThread;
  while (R > 0 &&
         allocatedRegistersPerBlock(Lim, R, Threads) > Lim.RegistersPerBlock)
    --R;
  return R;
}

/// The largest block (a multiple of 32 threads) that launches with
/// \p Registers per thread.
static uint64_t threadsThatFit(const ArchLimits &Lim, unsigned Registers) {
  uint64_t T = MaxThreadsPerBlock;
  while (T > 0 &&
         allocatedRegistersPerBlock(Lim, Registers, T) > Lim.RegistersPerBlock)
    T -= 32;
  return T;
}

/// The architectures register counts are compared on: the override alone,
/// else every one the files have cubins for. Every job of a file reads the
/// same object, so every job gives the same diagnostics, whatever
/// architecture it analyses.
static SmallVector<const ArchLimits *, 4>
registerArchs(const ModuleOptions &Module,
              ArrayRef<LaunchResourcesCheck::UsageFile> Files) {
  SmallVector<const ArchLimits *, 4> Archs;
  if (Module.targetArch()) {
    Archs.push_back(Module.targetArch()->Limits);
    return Archs;
  }
  for (const LaunchResourcesCheck::UsageFile &F : Files)
    for (unsigned Sm : F.Table->architectures())
      if (const ArchLimits *L = findArchLimits(Sm / 10, Sm % 10))
        if (!llvm::is_contained(Archs, L))
          Archs.push_back(L);
  llvm::sort(Archs, [](const ArchLimits *A, const ArchLimits *B) {
    return A->cudaArch() < B->cudaArch();
  });
  return Archs;
}

/// When the file holding Loc was last written.
static int64_t modifiedTime(SourceLocation Loc, const SourceManager &SM) {
  FileID ID = SM.getFileID(SM.getExpansionLoc(Loc));
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(ID);
  return FE ? int64_t(FE->getModificationTime()) : 0;
}

/// The launches that need more registers than an SM holds for one block,
/// each for its worst architecture, one per launch spelling (the first
/// instantiation that fails).
static std::vector<RegisterFailure>
findRegisterFailures(ArrayRef<const LaunchSite *> Launches,
                     ArrayRef<LaunchResourcesCheck::UsageFile> Files,
                     ArrayRef<const ArchLimits *> Archs,
                     const SourceManager &SM) {
  int64_t MainModified =
      modifiedTime(SM.getLocForStartOfFile(SM.getMainFileID()), SM);
  llvm::DenseMap<const FunctionDecl *, std::string> Names;
  std::vector<RegisterFailure> Failures;
  llvm::DenseSet<unsigned> FailedAt;
  for (const LaunchSite *L : Launches) {
    SourceLocation LaunchLoc = SM.getExpansionLoc(L->Call->getBeginLoc());
    if (FailedAt.contains(LaunchLoc.getRawEncoding()))
      continue;
    std::string &Name = Names[L->Kernel];
    if (Name.empty())
      Name = kernelDeviceName(L->Kernel);
    const FunctionDecl *Def = L->Kernel->getDefinition();
    int64_t KernelModified = std::max(
        MainModified, modifiedTime((Def ? Def : L->Kernel)->getLocation(), SM));
    uint64_t Threads = L->Block->product();
    std::optional<RegisterFailure> Worst;
    SmallVector<std::pair<const ArchLimits *, unsigned>, 2> AlsoOn;
    for (const ArchLimits *Arch : Archs) {
      for (const LaunchResourcesCheck::UsageFile &F : Files) {
        // Counts older than the kernel's code may be stale: stay silent.
        if (F.Modified < KernelModified)
          continue;
        std::optional<KernelResources> R =
            F.Table->lookup(Arch->smNumber(), Name);
        if (!R)
          continue;
        uint64_t Allocated =
            allocatedRegistersPerBlock(*Arch, R->Registers, Threads);
        if (Allocated > Arch->RegistersPerBlock) {
          // The most registers allocated, then the most per thread.
          if (!Worst || Allocated > Worst->Allocated ||
              (Allocated == Worst->Allocated &&
               R->Registers > Worst->Registers)) {
            if (Worst)
              AlsoOn.push_back({Worst->Arch, Worst->Registers});
            Worst = RegisterFailure{L,         Threads, Arch, R->Registers,
                                    Allocated, &F,      {}};
          } else {
            AlsoOn.push_back({Arch, R->Registers});
          }
        }
        break;
      }
    }
    if (!Worst)
      continue;
    FailedAt.insert(LaunchLoc.getRawEncoding());
    Worst->AlsoOn = std::move(AlsoOn);
    Failures.push_back(std::move(*Worst));
  }
  return Failures;
}

/// The `__launch_bounds__` fix of one kernel (all instantiations of a
/// template share one): the largest failing block, on the first of its
/// launches with that block.
struct LaunchResourcesCheck::KernelFix {
  uint64_t Threads = 0;
  const RegisterFailure *Carrier = nullptr;
  /// Why the fix goes on a note, if it does.
  std::string Unproven;
  /// Why there is no fix at all.
  std::string None;
};
using KernelFix = LaunchResourcesCheck::KernelFix;

/// Why Target cannot take `__launch_bounds__(Fix.Threads)`, or why the fix
/// is not proven, in Fix.None and Fix.Unproven.
static void judgeKernelFix(const FunctionDecl *Target, KernelFix &Fix,
                           const LaunchModel &Model,
                           const OtherKernelUses &Others, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (launchBoundsOf(Target, Ctx, /*FromPattern=*/true)) {
    Fix.None =
        "'" + Target->getNameAsString() + "' already has '__launch_bounds__'";
    return;
  }
  SourceLocation NameLoc = Target->getLocation();
  if (NameLoc.isMacroID() || SM.isInSystemHeader(NameLoc)) {
    Fix.None = "the kernel's name is written in a macro or a system header";
    return;
  }
  // nvcc rejects __launch_bounds__ beside __maxnreg__; clang drops the
  // latter, so look at the text.
  bool Invalid = false;
  StringRef Head = Lexer::getSourceText(
      CharSourceRange::getCharRange(SM.getExpansionLoc(Target->getBeginLoc()),
                                    NameLoc),
      SM, Ctx.getLangOpts(), &Invalid);
  if (!Invalid && Head.contains("maxnreg")) {
    Fix.None = "the kernel has '__maxnreg__', which nvcc does not accept "
               "beside '__launch_bounds__'";
    return;
  }
  // Every launch of the kernel (every instantiation) must have a known
  // block no larger than the bound.
  for (const LaunchSite &L : Model.launches()) {
    if (!L.Kernel || fixTarget(L.Kernel) != Target)
      continue;
    if (!L.Block)
      Fix.Unproven = "a launch of it has a block cuda-tidy cannot prove";
    else if (L.Block->product() > Fix.Threads)
      Fix.None = "a launch of it has a larger block";
  }
  if (!Fix.None.empty())
    return;
  if (Others.Used.contains(Target->getCanonicalDecl()))
    Fix.Unproven = "it is used where cuda-tidy cannot see its launches";
  for (const FunctionDecl *Redecl : Target->redecls())
    if (!SM.isInMainFile(SM.getExpansionLoc(Redecl->getLocation())) &&
        Target->isExternallyVisible())
      Fix.Unproven = "it is declared outside this file, so other files "
                     "may launch it with larger blocks";
}

/// The fix of each kernel with failures, keyed by the declaration it edits.
static llvm::DenseMap<const FunctionDecl *, KernelFix>
planKernelFixes(ArrayRef<RegisterFailure> Failures, const LaunchModel &Model,
                ASTContext &Ctx) {
  llvm::DenseMap<const FunctionDecl *, KernelFix> Fixes;
  for (const RegisterFailure &F : Failures) {
    KernelFix &Fix = Fixes[fixTarget(F.Launch->Kernel)];
    if (F.Threads > Fix.Threads) {
      Fix.Threads = F.Threads;
      Fix.Carrier = &F;
    }
  }
  // Launches of the same kernels that the fix would also bound.
  llvm::DenseSet<const Expr *> Launched;
  for (const LaunchSite &L : Model.launches())
    if (L.KernelExpr) {
      const Expr *E = L.KernelExpr->IgnoreParenCasts();
      if (const auto *UO = dyn_cast<UnaryOperator>(E))
        E = UO->getSubExpr()->IgnoreParenCasts();
      Launched.insert(E);
    }
  OtherKernelUses Others(Launched);
  Others.TraverseAST(Ctx);
  for (auto &[Target, Fix] : Fixes)
    judgeKernelFix(Target, Fix, Model, Others, Ctx);
  return Fixes;
}

/// How registers are allocated, when the count is not registers x threads:
/// per warp in allocation units, to warps in groups of the register file's
/// partitions. Empty when the allocation is the plain product.
static std::string allocationNote(const RegisterFailure &F) {
  if (F.Allocated == uint64_t(F.Registers) * F.Threads)
    return "";
  uint64_t Warps = (F.Threads + 31) / 32;
  uint64_t Unit = F.Arch->RegisterAllocationUnit;
  uint64_t PerWarp = (uint64_t(F.Registers) * 32 + Unit - 1) / Unit * Unit;
  uint64_t Parts = F.Arch->RegisterFilePartitions;
  uint64_t Counted = (Warps + Parts - 1) / Parts * Parts;
  std::string PerWarpText =
      "per warp in units of " + std::to_string(Unit) + " (" +
      std::to_string(F.Registers) +
      " x 32 = " + std::to_string(uint64_t(F.Registers) * 32) + " take " +
      std::to_string(PerWarp) + ")";
  std::string GroupText = "to the warps of a block in groups of " +
                          std::to_string(Parts) + " (" +
                          std::to_string(Warps) + " warps count as " +
                          std::to_string(Counted) + ")";
  std::string Text = "registers are allocated ";
  if (PerWarp != uint64_t(F.Registers) * 32)
    Text += PerWarpText + (Counted != Warps ? " and " + GroupText : "");
  else
    Text += GroupText;
  return Text;
}

void LaunchResourcesCheck::reportRegisterFailure(const RegisterFailure &F,
                                                 const FunctionDecl *Target,
                                                 const KernelFix &Fix,
                                                 const SourceManager &SM) {
  const LaunchSite &L = *F.Launch;
  SourceLocation Loc = SM.getExpansionLoc(L.Call->getBeginLoc());
  std::string Bound = "__launch_bounds__(" + std::to_string(Fix.Threads) + ")";
  std::optional<FixItHint> Hint;
  if (&F == Fix.Carrier && Fix.None.empty())
    Hint = FixItHint::CreateInsertion(Target->getLocation(), Bound + " ");
  {
    auto D = diag(Loc, "%0 with %1 threads fails with %2: it uses %3 "
                       "registers per thread on %4 (from %5), %6 in all, "
                       "over the %7 of an SM")
             << thisLaunch(L) << std::to_string(F.Threads)
             << outOfResources(L) << F.Registers
             << ("sm_" + std::to_string(F.Arch->smNumber())) << F.From->Shown
             << std::to_string(F.Allocated) << F.Arch->RegistersPerBlock;
    if (Hint && Fix.Unproven.empty())
      D << *Hint;
  }
  std::string Allocation = allocationNote(F);
  if (!Allocation.empty())
    diag(Loc, Allocation, DiagnosticIDs::Note);
  for (const auto &[Arch, Regs] : F.AlsoOn)
    diag(Loc, "it fails on sm_%0 too, with %1 registers per thread",
         DiagnosticIDs::Note)
        << std::to_string(Arch->smNumber()) << Regs;
  diag(Loc,
       "with %0 registers per thread '%1' launches with at most %2 threads "
       "per block",
       DiagnosticIDs::Note)
      << F.Registers << L.kernelName()
      << std::to_string(threadsThatFit(*F.Arch, F.Registers));
  if (&F != Fix.Carrier)
    return;
  SourceLocation At = SM.getExpansionLoc(Target->getLocation());
  if (!Fix.None.empty()) {
    diag(Loc, "no automatic fix: %0", DiagnosticIDs::Note) << Fix.None;
    return;
  }
  std::string Why =
      "'%0' makes ptxas fit '%1' in %2 registers per thread for blocks of "
      "%3 threads; it may spill registers to local memory";
  if (!Fix.Unproven.empty()) {
    auto D =
        diag(At, Why + "; not applied automatically: %4", DiagnosticIDs::Note)
        << Bound << Target->getNameAsString()
        << registersThatFit(*F.Arch, Fix.Threads)
        << std::to_string(Fix.Threads) << Fix.Unproven;
    D << *Hint;
  } else {
    diag(At, Why, DiagnosticIDs::Note)
        << Bound << Target->getNameAsString()
        << registersThatFit(*F.Arch, Fix.Threads)
        << std::to_string(Fix.Threads);
  }
}

void LaunchResourcesCheck::checkRegisters(
    const LaunchModel &Model, ASTContext &Ctx,
    llvm::ArrayRef<const LaunchSite *> Launches) {
  if (Launches.empty())
    return;
  std::vector<UsageFile> Files = usageFiles(Ctx);
  if (Files.empty())
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<RegisterFailure> Failures =
      findRegisterFailures(Launches, Files, registerArchs(*Module, Files), SM);
  if (Failures.empty())
    return;
  llvm::DenseMap<const FunctionDecl *, KernelFix> Fixes =
      planKernelFixes(Failures, Model, Ctx);
  for (const RegisterFailure &F : Failures) {
    const FunctionDecl *Target = fixTarget(F.Launch->Kernel);
    reportRegisterFailure(F, Target, Fixes[Target], SM);
  }
}

//===----------------------------------------------------------------------===//
// The check
//===----------------------------------------------------------------------===//

void LaunchResourcesCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = Ctx.getSourceManager();
  const LaunchModel &Model = Module->analysis(Ctx).launches();
  // One report per launch spelling, whatever the number of instantiations.
  llvm::DenseSet<unsigned> Reported;
  std::vector<const LaunchSite *> ForRegisters;
  for (const LaunchSite &L : Model.launches()) {
    SourceLocation Loc = SM.getExpansionLoc(L.Call->getBeginLoc());
    if (Reported.contains(Loc.getRawEncoding()))
      continue;
    if (checkShape(L, Ctx)) {
      Reported.insert(Loc.getRawEncoding());
      continue;
    }
    if (L.Kernel && L.Block && L.Block->product() > 0)
      ForRegisters.push_back(&L);
  }
  // A launch that failed a shape rule in one instantiation is not also
  // reported for its registers.
  llvm::erase_if(ForRegisters, [&](const LaunchSite *L) {
    SourceLocation Loc = SM.getExpansionLoc(L->Call->getBeginLoc());
    return Reported.contains(Loc.getRawEncoding());
  });
  checkRegisters(Model, Ctx, ForRegisters);
  checkBounds(Ctx);
}

} // namespace cuda_tidy
