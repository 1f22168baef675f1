//===--- LaunchResourcesCheck.h - Launches the runtime rejects --*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_LAUNCHRESOURCESCHECK_H
#define CUDA_TIDY_CHECKS_LAUNCHRESOURCESCHECK_H

#include "checks/ModuleOptions.h"
#include "clang-tidy/ClangTidyCheck.h"
#include <memory>
#include <string>
#include <vector>

namespace cuda_tidy {

class LaunchModel;
struct LaunchBinding;
struct LaunchSite;
class ResourceUsageTable;

/// The macro through which the cuda-tidy driver names the object file (or
/// the fatbin it compiled) of the translation unit.
inline constexpr llvm::StringLiteral ResourceUsageMacroName =
    "__CUDA_TIDY_RESOURCE_USAGE__";
/// And, for a fatbin it compiled, the name messages give it.
inline constexpr llvm::StringLiteral ResourceUsageNameMacroName =
    "__CUDA_TIDY_RESOURCE_USAGE_NAME__";

/// Flags kernel launches the CUDA runtime rejects: block and grid shapes over
/// the limits every GPU has, more threads than the kernel's
/// `__launch_bounds__`, and more registers than an SM holds for one block
/// (from the register counts of the build's object files); and launch
/// bounds an architecture cannot honour. Fixes the register overflow with
/// `__launch_bounds__`.
///
/// For the user-facing documentation see
/// docs/checks/cuda-launch-resources.md.
class LaunchResourcesCheck : public clang::tidy::ClangTidyCheck {
public:
  LaunchResourcesCheck(llvm::StringRef Name,
                       clang::tidy::ClangTidyContext *Context);
  bool
  isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override;
  void registerPPCallbacks(const clang::SourceManager &SM,
                           clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

  /// A file register counts come from, as the messages name it.
  struct UsageFile {
    std::string Shown;
    std::shared_ptr<const ResourceUsageTable> Table;
    /// When it was last written, to skip kernels edited since.
    int64_t Modified = 0;
  };
  /// A launch the register rule fails, for its worst architecture.
  struct RegisterFailure;
  /// The `__launch_bounds__` fix planned for one kernel.
  struct KernelFix;

private:
  /// Block and grid shapes over the limits, threads over the kernel's
  /// bounds; returns whether L fails one of them.
  bool checkShape(const LaunchSite &L, clang::ASTContext &Ctx);
  /// checkShape for one shape of L: its own, or one of its bindings.
  bool checkShapeOf(const LaunchSite &L, const LaunchBinding &Shape,
                    clang::ASTContext &Ctx);
  /// Registers over what an SM holds for one block.
  void checkRegisters(const LaunchModel &Model, clang::ASTContext &Ctx,
                      llvm::ArrayRef<const LaunchSite *> Launches);
  /// The warning and notes of one failure; the fix when Failure carries
  /// Target's.
  void reportRegisterFailure(const RegisterFailure &Failure,
                             const clang::FunctionDecl *Target,
                             const KernelFix &Fix,
                             const clang::SourceManager &SM);
  /// Launch bounds the architectures of the job cannot honour.
  void checkBounds(clang::ASTContext &Ctx);
  /// The files of the option or of the driver's macro, read once per
  /// translation unit.
  std::vector<UsageFile> usageFiles(clang::ASTContext &Ctx);

  std::shared_ptr<const ModuleOptions> Module;
  const clang::Preprocessor *PP = nullptr;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_LAUNCHRESOURCESCHECK_H
