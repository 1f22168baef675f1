//===--- ClusterSizePortabilityCheck.h - Cluster sizes ----------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_CLUSTERSIZEPORTABILITYCHECK_H
#define CUDA_TIDY_CHECKS_CLUSTERSIZEPORTABILITYCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "lib/target/CudaTarget.h"
#include "lib/launch/LaunchModel.h"

namespace cuda_tidy {

/// Flags thread block clusters over the portable 8 blocks launched without
/// the cudaFuncAttributeNonPortableClusterSizeAllowed opt-in (and inserts
/// it), clusters larger than any GPU runs, and grids that are not a multiple
/// of their cluster shape.
///
/// For the user-facing documentation see
/// docs/checks/cuda-cluster-size-portability.md.
class ClusterSizePortabilityCheck : public clang::tidy::ClangTidyCheck {
public:
  ClusterSizePortabilityCheck(llvm::StringRef Name,
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
  TargetArchOverride ArchOverride;
  ClusterDimsMacros Macros;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_CLUSTERSIZEPORTABILITYCHECK_H
