//===--- ProgrammaticDependentLaunchCheck.h - PDL ordering ------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_PROGRAMMATICDEPENDENTLAUNCHCHECK_H
#define CUDA_TIDY_CHECKS_PROGRAMMATICDEPENDENTLAUNCHCHECK_H

#include "checks/TargetArchOption.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "lib/target/ArchPaths.h"
#include "lib/target/TargetDispatch.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Regex.h"
#include <optional>
#include <string>
#include <vector>

namespace cuda_tidy {

class EarlierKernels;
class EarlyLaunches;
struct EarlierWriter;
struct EarlyAccess;
class GridDependencyAnalysis;
struct CompiledOutWait;
struct KernelDependency;
struct ProgrammaticLaunch;

/// Finds kernels that may start before the previous kernel in the stream
/// has finished (Programmatic Dependent Launch) and touch global memory
/// before they wait for it, kernels launched that way that never wait (or
/// whose wait a compilation of the build leaves out), and
/// `griddepcontrol.wait` asm with no "memory" clobber. The device side is
/// lib/pdl/GridDependency.h, the host side lib/pdl/EarlyLaunch.h.
///
/// For the user-facing documentation see
/// docs/checks/cuda-programmatic-dependent-launch.md.
class ProgrammaticDependentLaunchCheck : public clang::tidy::ClangTidyCheck {
public:
  ProgrammaticDependentLaunchCheck(llvm::StringRef Name,
                                   clang::tidy::ClangTidyContext *Context);
  bool isLanguageVersionSupported(
      const clang::LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void registerPPCallbacks(const clang::SourceManager &SM,
                           clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;

private:
  llvm::SmallVector<CompileTarget, 4> buildTargets() const;
  bool dispatchesWait() const;
  void checkAsmClobber(const clang::GCCAsmStmt *Asm);
  void checkKernel(const clang::FunctionDecl *Kernel, EarlyLaunches &Launches,
                   GridDependencyAnalysis &Deps, EarlierKernels &Earlier,
                   llvm::ArrayRef<CompileTarget> Targets);
  void reportEarlyAccesses(const clang::FunctionDecl *Kernel,
                           const KernelDependency &D,
                           llvm::ArrayRef<ProgrammaticLaunch> Launches,
                           GridDependencyAnalysis &Deps,
                           EarlierKernels &Earlier);
  void noteEarlierWriter(const clang::FunctionDecl *Kernel,
                         const EarlyAccess &A, const EarlierWriter &W);
  void noteUntraceable(const clang::FunctionDecl *Kernel, const EarlyAccess &A,
                       const EarlierWriter &W);
  void reportCompiledOut(const clang::FunctionDecl *Kernel,
                         llvm::ArrayRef<CompiledOutWait> Off,
                         llvm::ArrayRef<ProgrammaticLaunch> Launches);
  void reportNoWait(const clang::FunctionDecl *Kernel,
                    const KernelDependency &D,
                    llvm::ArrayRef<ProgrammaticLaunch> Launches,
                    GridDependencyAnalysis &Deps);
  void noteWhyEarly(const clang::FunctionDecl *Kernel,
                    llvm::ArrayRef<ProgrammaticLaunch> Launches,
                    bool ForAccess = false);
  std::string spell(const clang::Expr *E) const;

  TargetArchOverride ArchOverride;
  /// `EarlyReadable`: a regular expression; reads (not writes) through a
  /// pointer whose spelling matches it (`weight`, `SeqLens`) may come
  /// before the wait. Empty: none.
  const std::string EarlyReadable;
  std::optional<llvm::Regex> EarlyReadableRegex;
  const clang::Preprocessor *PP = nullptr;
  /// The `NV_IF_TARGET`-style dispatches of the translation unit.
  TargetDispatches Dispatches;
  clang::ASTContext *Ctx = nullptr;
  /// Set when the translation unit sets the attribute or waits: the rest
  /// of the analysis runs only then.
  bool Relevant = false;
  std::vector<const clang::FunctionDecl *> Kernels;
  llvm::DenseSet<const clang::FunctionDecl *> SeenKernels;
  llvm::DenseSet<clang::SourceLocation> Reported;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_PROGRAMMATICDEPENDENTLAUNCHCHECK_H
