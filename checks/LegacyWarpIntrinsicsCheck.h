//===--- LegacyWarpIntrinsicsCheck.h - cuda-legacy-warp-intrinsics -*- C++
//-*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_LEGACYWARPINTRINSICSCHECK_H
#define CUDA_TIDY_CHECKS_LEGACYWARPINTRINSICSCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "lib/ArchConditionals.h"
#include "lib/CudaTarget.h"
#include "lib/FixItHelpers.h"
#include "lib/WarpConvergence.h"
#include "llvm/ADT/MapVector.h"
#include <memory>

namespace cuda_tidy {

/// Flags the warp intrinsics that have no lane mask (`__shfl`, `__shfl_up`,
/// `__shfl_down`, `__shfl_xor`, `__ballot`, `__any`, `__all`) and migrates
/// them to their `_sync` forms: with the full mask where the whole warp
/// provably reaches the call, else with `__activemask()` on a note.
///
/// For the user-facing documentation see
/// docs/checks/cuda-legacy-warp-intrinsics.md.
class LegacyWarpIntrinsicsCheck : public clang::tidy::ClangTidyCheck {
public:
  LegacyWarpIntrinsicsCheck(llvm::StringRef Name,
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
  /// Every call spelled at one location, across template instantiations and
  /// macro expansions.
  struct Site {
    std::string Legacy;
    clang::SourceLocation Loc;
    CallEditLookup Edit;
    /// A macro expansion that produced the call, for a note.
    clang::SourceLocation ExpansionLoc;
    std::string MacroName;
    bool SeenInstantiated = false;
    /// The first obstacle to the whole warp reaching a call of this site, if
    /// any (taken over instantiated code when there is some).
    std::optional<ConvergenceObstacle> Obstacle;
  };

  std::string FullMask;
  TargetArchOverride ArchOverride;
  LegacyArchRegions ArchRegions;
  std::unique_ptr<WarpConvergence> Convergence;
  llvm::MapVector<clang::SourceLocation, Site> Sites;
  const clang::SourceManager *SM = nullptr;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_LEGACYWARPINTRINSICSCHECK_H
