//===--- DynamicSharedMemoryOptInCheck.h - dynamic smem opt-in --*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_DYNAMICSHAREDMEMORYOPTINCHECK_H
#define CUDA_TIDY_CHECKS_DYNAMICSHAREDMEMORYOPTINCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "lib/CudaTarget.h"

namespace cuda_tidy {

/// Flags kernel launches that ask for more than 48 KiB of dynamic shared
/// memory without the cudaFuncAttributeMaxDynamicSharedMemorySize opt-in
/// (and inserts it), and launches whose static plus dynamic shared memory
/// exceeds the target architecture's per-block maximum.
///
/// For the user-facing documentation see
/// docs/checks/cuda-dynamic-shared-memory-opt-in.md.
class DynamicSharedMemoryOptInCheck : public clang::tidy::ClangTidyCheck {
public:
  DynamicSharedMemoryOptInCheck(llvm::StringRef Name,
                                clang::tidy::ClangTidyContext *Context);
  bool
  isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  TargetArchOverride ArchOverride;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_DYNAMICSHAREDMEMORYOPTINCHECK_H
