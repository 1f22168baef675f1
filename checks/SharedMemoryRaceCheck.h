//===--- SharedMemoryRaceCheck.h - Races between warps ----------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_SHAREDMEMORYRACECHECK_H
#define CUDA_TIDY_CHECKS_SHAREDMEMORYRACECHECK_H

#include "checks/ModuleOptions.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace cuda_tidy {

struct SharedRace;

/// Flags two accesses to one `__shared__` element by threads of different
/// warps of a block, at least one a plain write, with no block barrier
/// between them (lib/races/SharedRaces.h), and inserts `__syncthreads()`
/// where every thread of the block provably reaches it.
///
/// For the user-facing documentation see
/// docs/checks/cuda-shared-memory-race.md.
class SharedMemoryRaceCheck : public clang::tidy::ClangTidyCheck {
public:
  SharedMemoryRaceCheck(llvm::StringRef Name,
                        clang::tidy::ClangTidyContext *Context);
  bool isLanguageVersionSupported(
      const clang::LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// One warning: a race, its fix, and the races the same missing barrier
  /// lets happen (reported as its notes).
  struct RaceReport {
    const SharedRace *Race = nullptr;
    std::vector<clang::FixItHint> Fix;
    /// Where an earlier race's fix inserts this race's barrier.
    clang::SourceLocation Earlier;
    llvm::SmallVector<const SharedRace *, 2> Same;
  };
  void report(const RaceReport &R, clang::ASTContext &Ctx);

  /// The edits of Race's fix; empty when it has none or when an earlier
  /// race's fix already inserts the same barrier (Earlier is then set).
  std::vector<clang::FixItHint> fixOf(const SharedRace &Race,
                                      clang::ASTContext &Ctx,
                                      clang::SourceLocation &Earlier);

  std::shared_ptr<const ModuleOptions> Module;
  /// cuda-async-copy-ordering runs too: a race its missing mbarrier wait
  /// explains is left to it (one report per missing wait).
  const bool AsyncCopyChecked;
  /// Where a barrier was inserted, and the race it was for.
  llvm::DenseMap<clang::SourceLocation, clang::SourceLocation> Inserted;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_SHAREDMEMORYRACECHECK_H
