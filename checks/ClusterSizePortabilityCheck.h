//===--- ClusterSizePortabilityCheck.h - Cluster sizes ----------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_CLUSTERSIZEPORTABILITYCHECK_H
#define CUDA_TIDY_CHECKS_CLUSTERSIZEPORTABILITYCHECK_H

#include "checks/ModuleOptions.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "lib/launch/LaunchModel.h"
#include "llvm/ADT/DenseSet.h"

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
  /// A launch's cluster shape and where it is set.
  struct LaunchCluster;
  /// Reports kernels whose compile-time cluster no GPU runs, launched or
  /// not.
  void checkKernelClusters(clang::ASTContext &Ctx,
                           llvm::DenseSet<unsigned> &Reported);
  /// Reports L's cluster: larger than any GPU runs, non-portable without
  /// the opt-in, or not dividing the grid.
  void checkLaunch(const LaunchSite &L, clang::ASTContext &Ctx,
                   llvm::DenseSet<unsigned> &Reported);
  /// L's cluster shape, by precedence: the launch's own attribute, the
  /// kernel's `__cluster_dims__`, a required cluster size.
  std::optional<LaunchCluster> clusterOf(const LaunchSite &L,
                                         clang::ASTContext &Ctx);
  /// Reports L, whose non-portable cluster size is not allowed: the call
  /// that allows it runs once per process when OncePerProcess is set.
  void reportNotAllowed(const LaunchSite &L, const LaunchCluster &Cluster,
                        const FuncAttributeCall *OncePerProcess,
                        clang::ASTContext &Ctx);
  /// A note at where the cluster shape is set.
  void noteFrom(const LaunchCluster &Cluster);

  std::shared_ptr<const ModuleOptions> Module;
  ClusterDimsMacros Macros;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_CLUSTERSIZEPORTABILITYCHECK_H
