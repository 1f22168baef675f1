//===--- StaticSharedMemoryLimitCheck.h - Static smem -----------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_STATICSHAREDMEMORYLIMITCHECK_H
#define CUDA_TIDY_CHECKS_STATICSHAREDMEMORYLIMITCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "lib/CudaTarget.h"
#include "lib/SharedMemory.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>

namespace cuda_tidy {

/// Flags kernels whose static `__shared__` variables add up to more than
/// ptxas accepts for the target (48 KiB for generic targets, the per-block
/// maximum for architecture-specific ones), listing the variables.
///
/// For the user-facing documentation see
/// docs/checks/cuda-static-shared-memory-limit.md.
class StaticSharedMemoryLimitCheck : public clang::tidy::ClangTidyCheck {
public:
  StaticSharedMemoryLimitCheck(llvm::StringRef Name,
                               clang::tidy::ClangTidyContext *Context);
  bool
  isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;

private:
  /// Empty when the configured value is invalid (then treated as true).
  const std::optional<bool> WarnArchSpecificOnly;
  TargetArchOverride ArchOverride;
  llvm::DenseSet<const void *> Seen;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_STATICSHAREDMEMORYLIMITCHECK_H
