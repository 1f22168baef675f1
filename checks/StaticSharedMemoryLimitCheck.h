//===--- StaticSharedMemoryLimitCheck.h - Static smem -----------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_STATICSHAREDMEMORYLIMITCHECK_H
#define CUDA_TIDY_CHECKS_STATICSHAREDMEMORYLIMITCHECK_H

#include "checks/ModuleOptions.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "lib/launch/SharedMemory.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>

namespace cuda_tidy {

/// Flags kernels whose static `__shared__` variables add up to more than
/// ptxas accepts for the target (48 KiB for generic targets, the per-block
/// maximum for architecture-specific ones), listing the variables. A job
/// that stands for several architectures (lib/target/CudaTarget.h) is checked for
/// each.
///
/// For the user-facing documentation see
/// docs/checks/cuda-static-shared-memory-limit.md.
class StaticSharedMemoryLimitCheck : public clang::tidy::ClangTidyCheck {
public:
  StaticSharedMemoryLimitCheck(llvm::StringRef Name,
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
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;

private:
  /// Reports \p Kernel's static shared memory as a job for \p Arch
  /// (std::nullopt: the host side or an architecture without limits) would.
  void reportFor(const std::optional<GpuArch> &Arch,
                 const clang::FunctionDecl *Kernel,
                 const StaticSharedMemory &Usage, llvm::StringRef Name,
                 clang::SourceLocation Loc, const clang::SourceManager &SM);

  /// Empty when the configured value is invalid (then treated as true).
  const std::optional<bool> WarnArchSpecificOnly;
  std::shared_ptr<const ModuleOptions> Module;
  /// Reads the architecture list of a job that stands for several.
  const clang::Preprocessor *PP = nullptr;
  llvm::DenseSet<const void *> Seen;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_STATICSHAREDMEMORYLIMITCHECK_H
