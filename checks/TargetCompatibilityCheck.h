//===--- TargetCompatibilityCheck.h - Generations left with no code -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_TARGETCOMPATIBILITYCHECK_H
#define CUDA_TIDY_CHECKS_TARGETCOMPATIBILITYCHECK_H

#include "checks/ModuleOptions.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "lib/target/ArchInstructions.h"
#include "lib/target/ArchPaths.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>

namespace cuda_tidy {

/// Finds code that leaves a GPU generation without the work:
///  - kernels and device functions whose statements are all under
///    `__CUDA_ARCH__` conditions false for an architecture the file is built
///    for (or one of `cuda.SupportedArchitectures`), while an older one keeps
///    them; a remark when what those architectures keep only traps;
///  - the same for the part of the body that stores the results;
///  - inline PTX that ptxas accepts on `a`/`f` targets only (wgmma, tcgen05)
///    reached under a guard that admits a target of the build lacking it
///    (lib/target/ArchInstructions.h);
///  - host code that picks a kernel by the device's compute capability with
///    `==` and has no branch for later versions (a remark).
/// The architecture paths are read by lib/target/ArchPaths.h.
///
/// For the user-facing documentation see
/// docs/checks/cuda-target-compatibility.md.
class TargetCompatibilityCheck : public clang::tidy::ClangTidyCheck {
public:
  TargetCompatibilityCheck(llvm::StringRef Name,
                           clang::tidy::ClangTidyContext *Context);
  bool
  isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override;
  void registerPPCallbacks(const clang::SourceManager &SM,
                           clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  /// The compile targets of this translation unit, computed once.
  llvm::ArrayRef<CompileTarget> targets(const clang::ASTContext &Ctx);
  void checkFunction(const clang::FunctionDecl *F, clang::ASTContext &Ctx);
  void reportWrapper(const WrapperFinding &Fd, clang::ASTContext &Ctx);
  /// A note at the first call of \p F from a kernel, if any.
  void noteKernelCaller(const clang::FunctionDecl *F, clang::ASTContext &Ctx);
  void checkDispatch(const clang::Stmt *S, clang::ASTContext &Ctx);
  void checkInstructions(const clang::FunctionDecl *F, clang::ASTContext &Ctx,
                         ToolkitVersion TK);

  std::shared_ptr<const ModuleOptions> Module;
  const clang::Preprocessor *PP = nullptr;
  std::optional<llvm::SmallVector<CompileTarget, 8>> Targets;
  /// The targets the build compiles (Targets less the supported list).
  llvm::SmallVector<CompileTarget, 8> BuildTargets;
  std::unique_ptr<ArchInstructionAnalysis> Instructions;
  std::unique_ptr<ArchPathAnalysis> Paths;
  llvm::DenseSet<unsigned> SeenBodies;
  llvm::DenseSet<const clang::Stmt *> SeenDispatch;
  /// Template patterns, checked at the end when some instantiation of them
  /// is defined (InstantiatedPatterns, canonical declarations).
  llvm::SmallVector<const clang::FunctionDecl *, 8> PendingTemplates;
  llvm::DenseSet<const clang::FunctionDecl *> InstantiatedPatterns;
  clang::ASTContext *Ctx = nullptr;
  /// Variables and fields that hold a compute capability major version
  /// (filled from cudaDeviceGetAttribute calls as they are matched).
  llvm::DenseSet<const clang::Decl *> MajorHolders;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_TARGETCOMPATIBILITYCHECK_H
