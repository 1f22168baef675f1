//===--- RemovedToolkitApiCheck.h - cuda-removed-toolkit-api ----*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_REMOVEDTOOLKITAPICHECK_H
#define CUDA_TIDY_CHECKS_REMOVEDTOOLKITAPICHECK_H

#include "lib/toolkit/SourceEdits.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>

namespace cuda_tidy {

struct FunctionUse;
struct RemovedApiLog;
struct RemovedApiUses;

/// Reports uses of the CUDA APIs that CUDA 12 and 13 removed, changed or
/// deprecated (lib/toolkit/RemovedApi.h holds the table), with the release
/// that did it, and fixes those it can prove: `cudaThread*` to
/// `cudaDevice*`, removed `cudaDeviceProp` fields to
/// `cudaDeviceGetAttribute`, the deprecated 4-wide 64-bit vector types to
/// their `_16a` form, changed parameter lists, and texture references to
/// texture objects in the common shape (lib/toolkit/TextureObjectFix.h).
///
/// The code this check is for does not compile with the CUDA 13 headers.
/// The check makes it parse: before the file is read it adds declarations
/// of the removed and changed APIs to the preprocessor's predefines (after
/// the CUDA headers, each under `CUDART_VERSION` of the release that removed
/// it), so that the uses resolve to real declarations; and it takes clang's
/// "no member named" errors for removed `cudaDeviceProp` fields and
/// "undeclared identifier" errors for removed functions it has no
/// declaration for, reporting each as its own warning instead.
///
/// For the user-facing documentation see
/// docs/checks/cuda-removed-toolkit-api.md.
class RemovedToolkitApiCheck : public clang::tidy::ClangTidyCheck {
public:
  RemovedToolkitApiCheck(llvm::StringRef Name,
                         clang::tidy::ClangTidyContext *Context);
  ~RemovedToolkitApiCheck() override;
  bool
  isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override;
  void registerPPCallbacks(const clang::SourceManager &SM,
                           clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void reportFunctions(const RemovedApiUses &Uses, clang::ASTContext &Ctx);
  void reportFields(const RemovedApiUses &Uses, clang::ASTContext &Ctx);
  void reportVectorTypes(const RemovedApiUses &Uses, clang::ASTContext &Ctx);
  void reportTextures(const RemovedApiUses &Uses, clang::ASTContext &Ctx);
  void reportOtherTypes(const RemovedApiUses &Uses, clang::ASTContext &Ctx);
  void reportUndeclared(clang::ASTContext &Ctx);
  /// A five-argument `cudaGraphInstantiate` where the headers keep that
  /// form: reported only when it asks for the error node or the log.
  void reportKeptGraphInstantiate(const FunctionUse &U,
                                  clang::SourceLocation Loc,
                                  clang::ASTContext &Ctx);
  /// Whether nothing was reported at Loc yet in this translation unit.
  bool firstReport(clang::SourceLocation Loc);

  llvm::DenseSet<unsigned> Reported;
  /// Function uses and type spellings the texture plans report.
  llvm::DenseSet<size_t> HandledFunctionUses;
  llvm::DenseSet<unsigned> HandledTypeLocs;
  /// Shared with the diagnostic filter, which may outlive the check.
  std::shared_ptr<RemovedApiLog> Log;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_REMOVEDTOOLKITAPICHECK_H
