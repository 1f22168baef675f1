//===--- DynamicSharedMemoryOptInCheck.h - dynamic smem opt-in --*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_DYNAMICSHAREDMEMORYOPTINCHECK_H
#define CUDA_TIDY_CHECKS_DYNAMICSHAREDMEMORYOPTINCHECK_H

#include "checks/ModuleOptions.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace cuda_tidy {

struct FuncAttributeCall;
class LaunchModel;
struct LaunchSite;
struct StaticSharedMemory;

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
  /// Reports L when its shared memory is over Arch's maximum or its opt-in
  /// is missing or too small; returns whether it did.
  bool checkLaunch(const LaunchSite &L, const std::optional<GpuArch> &Arch,
                   clang::ASTContext &Ctx);
  /// Reports L, which needs an opt-in it does not get: Largest is the
  /// largest too small one, if any.
  void reportMissingOptIn(const LaunchSite &L,
                          const StaticSharedMemory *StaticUse,
                          const FuncAttributeCall *Largest,
                          clang::ASTContext &Ctx);
  /// Reports L, whose opt-in runs once per process (OncePerProcess).
  void reportOncePerProcess(const LaunchSite &L,
                            const FuncAttributeCall &OncePerProcess,
                            const clang::SourceManager &SM);
  /// Reports the opt-ins Arch refuses: static plus opted-in dynamic shared
  /// memory over its per-block maximum.
  void checkRefusedOptIns(const GpuArch &Arch, clang::ASTContext &Ctx);
  /// A note at L's byte count when it is set away from the launch.
  void noteBytes(const LaunchSite &L, const clang::SourceManager &SM);
  /// A note at the call that sets the opt-in.
  void noteOptInSite(const FuncAttributeCall &OptIn,
                     const clang::SourceManager &SM);

  std::shared_ptr<const ModuleOptions> Module;
  /// Reads the architecture list of a job that stands for several.
  const clang::Preprocessor *PP = nullptr;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_DYNAMICSHAREDMEMORYOPTINCHECK_H
