//===--- LegacyWarpIntrinsicsCheck.h - cuda-legacy-warp-intrinsics -*- C++
//-*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_LEGACYWARPINTRINSICSCHECK_H
#define CUDA_TIDY_CHECKS_LEGACYWARPINTRINSICSCHECK_H

#include "checks/ModuleOptions.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "lib/ast/FixItHelpers.h"
#include "lib/target/ArchConditionals.h"
#include "lib/uniformity/WarpConvergence.h"
#include "llvm/ADT/MapVector.h"
#include <memory>

namespace cuda_tidy {

/// Flags the warp intrinsics that have no lane mask (`__shfl`, `__shfl_up`,
/// `__shfl_down`, `__shfl_xor`, `__ballot`, `__any`, `__all`) and migrates
/// them to their `_sync` forms: with the full mask where the whole warp
/// provably reaches the call, else with `__activemask()` on a note. A call
/// spelling that overload resolution sends to the project's own function of
/// that name in some instantiation or expansion is never rewritten, and one
/// that never reaches the CUDA headers' function is not reported.
///
/// Also flags the same instructions in inline PTX (`shfl.up.b32`,
/// `vote.ballot.b32`, ...) and rewrites them to the `.sync` form with the
/// immediate full mask where the whole warp provably reaches the asm
/// statement; otherwise, or when the string is spelled in a macro, a note.
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
    /// A resolved call of this spelling went to the CUDA headers' function.
    bool Builtin = false;
    /// A call of this spelling was resolved (instantiated or ordinary code).
    bool Resolved = false;
    /// A dependent call whose lookup set holds the CUDA headers' function.
    bool PatternBuiltin = false;
    /// The project's function that a resolved call of this spelling went to,
    /// or that a dependent call's lookup set holds.
    const clang::NamedDecl *UserCallee = nullptr;
    const clang::NamedDecl *PatternUserCallee = nullptr;

    /// Inline PTX: the instruction, its `.sync` form, and the edits (unset
    /// locations when there is no fix, with the reason).
    bool IsAsm = false;
    std::string SyncOpcode;
    clang::SourceLocation SyncAt, MaskAt;
    std::string AsmWhyNot;
  };

  /// The site keyed Key, created by the first call that reaches it; merges
  /// the obstacle of one more call or asm statement.
  Site &mergeSite(clang::SourceLocation Key, bool &Inserted, bool Instantiated,
                  std::optional<ConvergenceObstacle> Obstacle);
  void checkAsm(const clang::GCCAsmStmt *Asm, const clang::FunctionDecl *Func,
                clang::ASTContext &Ctx);

  std::string FullMask;
  std::shared_ptr<const ModuleOptions> Module;
  LegacyArchRegions ArchRegions;
  std::unique_ptr<WarpConvergence> Convergence;
  llvm::MapVector<clang::SourceLocation, Site> Sites;
  const clang::SourceManager *SM = nullptr;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_LEGACYWARPINTRINSICSCHECK_H
