//===--- ImplicitWarpSynchronizationCheck.h - cuda-implicit-warp-sync -*- C++
//-*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_IMPLICITWARPSYNCHRONIZATIONCHECK_H
#define CUDA_TIDY_CHECKS_IMPLICITWARPSYNCHRONIZATIONCHECK_H

#include "checks/ModuleOptions.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/MapVector.h"

namespace cuda_tidy {

class FixPlanner;
struct WarpExchange;

/// Flags warp-synchronous code: lanes of a warp that exchange data through
/// shared memory with no barrier between the write and the read, trusting
/// the lockstep execution that Volta's independent thread scheduling ended.
/// Fixes it by splitting each read of another lane's element from the write
/// that follows with `__syncwarp(mask)`, where the lanes that run the code
/// are known.
///
/// For the user-facing documentation see
/// docs/checks/cuda-implicit-warp-synchronization.md.
class ImplicitWarpSynchronizationCheck : public clang::tidy::ClangTidyCheck {
public:
  ImplicitWarpSynchronizationCheck(llvm::StringRef Name,
                                   clang::tidy::ClangTidyContext *Context);
  bool isLanguageVersionSupported(
      const clang::LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// The warnings, one per component of exchanges fixed together, with the
  /// fixes FixPlanner made; the component's other reads are its notes.
  void report(
      const llvm::MapVector<clang::SourceLocation, const WarpExchange *> &Sites,
      const FixPlanner &Fixes, const clang::SourceManager &SM);
  /// The notes that say where an exchange's write and read are.
  void noteExchange(const WarpExchange &Exchange, clang::SourceLocation Loc,
                    const clang::SourceManager &SM);
  /// The note that says what is assumed of a warp helper no one calls.
  void noteAssumedHelper(const WarpExchange &Exchange, llvm::StringRef Pointer);

  std::shared_ptr<const ModuleOptions> Module;
  /// cuda-shared-memory-race runs too: pairs it reports are left to it.
  const bool RaceCheckRuns;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_IMPLICITWARPSYNCHRONIZATIONCHECK_H
