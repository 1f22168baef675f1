//===--- DynamicSharedMemoryOptInCheck.h - dynamic smem opt-in --*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_DYNAMICSHAREDMEMORYOPTINCHECK_H
#define CUDA_TIDY_CHECKS_DYNAMICSHAREDMEMORYOPTINCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "lib/target/CudaTarget.h"

namespace cuda_tidy {

/// Flags kernel launches that ask for more than 48 KiB of dynamic shared
/// memory without the cudaFuncAttributeMaxDynamicSharedMemorySize opt-in
/// (and inserts it), and launches whose static plus dynamic shared memory
/// exceeds the target architecture's per-block maximum. A job that stands
/// for several architectures (lib/target/CudaTarget.h) is checked for each.
///
/// For the user-facing documentation see
/// docs/checks/cuda-dynamic-shared-memory-opt-in.md.
class DynamicSharedMemoryOptInCheck : public clang::tidy::ClangTidyCheck {
public:
  DynamicSharedMemoryOptInCheck(llvm::StringRef Name,
                                clang::tidy::ClangTidyContext *Context);
  bool
  isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override;
  void registerPPCallbacks(const clang::SourceManager &SM,
                           clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// Reports the launches and opt-ins as a job for \p Arch (std::nullopt:
  /// the host side or an architecture without limits) would.
  void checkFor(const std::optional<GpuArch> &Arch, clang::ASTContext &Ctx,
                const clang::SourceManager &SM);

  TargetArchOverride ArchOverride;
  /// Reads the architecture list of a job that stands for several.
  const clang::Preprocessor *PP = nullptr;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_DYNAMICSHAREDMEMORYOPTINCHECK_H
