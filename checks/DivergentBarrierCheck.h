//===--- DivergentBarrierCheck.h - cuda-divergent-barrier -------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_DIVERGENTBARRIERCHECK_H
#define CUDA_TIDY_CHECKS_DIVERGENTBARRIERCHECK_H

#include "checks/ModuleOptions.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "lib/uniformity/BarrierReach.h"
#include "lib/uniformity/Uniformity.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include <memory>
#include <optional>

namespace cuda_tidy {

/// Flags block barriers (`__syncthreads` and its forms, cooperative groups'
/// block `sync`, `bar.sync` in asm) that only some threads of the block
/// reach: under a thread- or warp-varying condition, in a loop whose trip
/// count varies, after a varying `return` in a `__device__` function, or
/// inside a function called under such a condition, or the first barrier
/// after a loop that some threads leave early while others wait at the
/// loop's barriers. Also flags `__syncwarp` with a full mask that only some
/// lanes of a warp reach. Threads that skip a barrier and then only leave the
/// kernel get their own message (ReportSkipThenExit).
///
/// For the user-facing documentation see
/// docs/checks/cuda-divergent-barrier.md.
class DivergentBarrierCheck : public clang::tidy::ClangTidyCheck {
public:
  DivergentBarrierCheck(llvm::StringRef Name,
                        clang::tidy::ClangTidyContext *Context);
  bool
  isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;

private:
  bool readBool(llvm::StringRef CheckName, llvm::StringRef Option,
                bool Default);
  /// A divergent barrier, reported at the end of the translation unit so
  /// that the least uniform of a template's instantiations wins.
  struct Finding {
    Finding(const FunctionUniformity *FU, BarrierSite Barrier,
            Uniformity Level)
        : FU(FU), Barrier(Barrier), Level(Level) {}
    const FunctionUniformity *FU;
    BarrierSite Barrier;
    Uniformity Level;
    /// The threads that skip the barrier do nothing more before they exit
    /// the kernel.
    bool SkipThenExit = false;
    /// The barrier is the first after a loop that some threads leave early.
    std::optional<LoopExit> EarlyExit;
    /// A cluster or grid barrier that only some blocks of its group reach,
    /// with the analysis at that scope, and for a cluster barrier what
    /// follows it that relies on it.
    const FunctionUniformity *ScopedFU = nullptr;
    const clang::Stmt *ReliedOnBy = nullptr;
  };
  /// A finding for a cluster or grid barrier that is uniform in the block
  /// but not across its group.
  std::optional<Finding> scopedFinding(const clang::FunctionDecl *F,
                                       const BarrierSite &B,
                                       clang::ASTContext &Ctx);
  /// Whether F reaches a barrier (in its body or through a call of a
  /// function with a body) or accesses another block's shared memory:
  /// what every finding of the check needs. Memoised for the translation
  /// unit.
  bool mayHaveFindings(const clang::FunctionDecl *F, clang::ASTContext &Ctx);
  std::optional<BarrierReach> MayReach;
  /// Reports accesses to distributed shared memory after which a block may
  /// exit with no cluster barrier on the way.
  void checkClusterExit(const FunctionUniformity &FU, clang::ASTContext &Ctx);
  void reportScoped(const Finding &Found, const clang::SourceManager &SM);
  /// How widely the control at the barriers a call B reaches in its
  /// callee varies, in FU's function (block-uniform for a barrier that is
  /// not a call).
  Uniformity calleeLevel(const FunctionUniformity &FU, const BarrierSite &B);
  /// Whether the threads of F that do not reach B only leave the kernel.
  bool skippersOnlyExit(const FunctionUniformity &FU, const BarrierSite &B,
                        Uniformity Level, bool ByControl);
  void report(const Finding &Found, const clang::SourceManager &SM);
  /// For a warp barrier under a condition on `threadIdx.y` or `.z` in a
  /// kernel with no launch in sight: a note that says what the shape would
  /// have to be for the condition to be warp-uniform.
  void noteUnknownShape(const clang::FunctionDecl *F, llvm::StringRef What,
                        const clang::Expr *Condition);
  /// The branch or loop whose condition makes Found's barrier diverge, when
  /// the control around the barrier is the cause (else null).
  const clang::Stmt *causeOf(const Finding &Found, DivergenceCause::Kind &K);
  /// Notes for the barriers Others that diverge by the same cause (kind K)
  /// as the one just reported: one warning per cause.
  void noteSameCause(llvm::ArrayRef<const Finding *> Others,
                     DivergenceCause::Kind K, const clang::SourceManager &SM);
  void traceNotes(llvm::ArrayRef<TraceStep> Trace);
  void addFinding(Finding F, const clang::SourceManager &SM);

  std::shared_ptr<const ModuleOptions> Module;
  const bool HIPCompatible;
  const bool BlockSizeMultipleOf32;
  const bool ReportSkipThenExit;
  /// The translation unit's shared analysis for this check's options.
  UniformityAnalysis *Analysis = nullptr;
  /// One finding per spelling location, in the order first found.
  llvm::MapVector<clang::SourceLocation, Finding> Findings;
  /// Distributed shared memory accesses already reported.
  llvm::DenseSet<clang::SourceLocation> ReportedExits;
  const clang::SourceManager *SM = nullptr;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_DIVERGENTBARRIERCHECK_H
