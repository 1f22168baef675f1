//===--- WarpMaskCorrectnessCheck.h - cuda-warp-mask-correctness -*- C++
//-*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Finds `*_sync` warp intrinsics whose lane mask does not match the lanes
/// that call them, shuffles whose width is not a power of two up to 32, and
/// hand migrations that pass the shuffled value as the mask. See
/// docs/checks/cuda-warp-mask-correctness.md.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_WARPMASKCORRECTNESSCHECK_H
#define CUDA_TIDY_CHECKS_WARPMASKCORRECTNESSCHECK_H

#include "checks/ModuleOptions.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>

namespace cuda_tidy {


class WarpMaskCorrectnessCheck : public clang::tidy::ClangTidyCheck {
public:
  WarpMaskCorrectnessCheck(llvm::StringRef Name,
                           clang::tidy::ClangTidyContext *Context);
  ~WarpMaskCorrectnessCheck() override;
  bool
  isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  std::shared_ptr<const ModuleOptions> Module;
  void checkWidth(const clang::CallExpr *Call, llvm::StringRef Name,
                  clang::ASTContext &Ctx);
  void checkLanes(const clang::CallExpr *Call, llvm::StringRef Name,
                  const clang::FunctionDecl *Fn, uint32_t Mask,
                  clang::ASTContext &Ctx);

  /// Spelling locations already reported (instantiations share one).
  llvm::DenseSet<unsigned> Reported;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_WARPMASKCORRECTNESSCHECK_H
