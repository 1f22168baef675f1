//===--- AsyncCopyOrderingCheck.h - Async copies out of order ---*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ASYNCCOPYORDERINGCHECK_H
#define CUDA_TIDY_CHECKS_ASYNCCOPYORDERINGCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace cuda_tidy {

namespace asynccopy {
struct Finding;
} // namespace asynccopy

/// Flags shared memory read (or written) while an asynchronous copy into
/// it may still be in flight, waits that leave the group being read in
/// flight, bulk (TMA) stores after generic writes with no async-proxy fence
/// and refills of a bulk store's source before its read completed
/// (lib/asynccopy/AsyncCopyOrdering.h). Inserts the missing wait or fence
/// where every thread that needs it provably reaches it.
///
/// For the user-facing documentation see
/// docs/checks/cuda-async-copy-ordering.md.
class AsyncCopyOrderingCheck : public clang::tidy::ClangTidyCheck {
public:
  AsyncCopyOrderingCheck(llvm::StringRef Name,
                         clang::tidy::ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context) {}
  bool isLanguageVersionSupported(
      const clang::LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// Reports F; false when it was reported already (another instantiation)
  /// or sits in a system header.
  bool diagnose(const asynccopy::Finding &F, const clang::FunctionDecl *FD,
                clang::ASTContext &Ctx);
  /// The statement that fixes F, or empty when none is exact.
  std::string fixText(const asynccopy::Finding &F,
                      const clang::FunctionDecl *FD, clang::ASTContext &Ctx);

  /// Accesses already reported (spelling locations), across the
  /// instantiations of a template.
  llvm::DenseSet<clang::SourceLocation> Reported;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_ASYNCCOPYORDERINGCHECK_H
