//===--- NvccOnlyConstructCheck.h - cuda-nvcc-only-construct ----*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_NVCCONLYCONSTRUCTCHECK_H
#define CUDA_TIDY_CHECKS_NVCCONLYCONSTRUCTCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include <memory>

namespace cuda_tidy {

struct NvccConstructLog;

/// Keeps a file that nvcc builds from failing the run on the two nvcc
/// extensions clang 22 rejects and no flag or declaration makes it accept:
///
///  - a `__shared__` variable whose default constructor is not empty
///    (`__shared__ cuda::barrier<cuda::thread_scope_block> bar;`,
///    `cuda::pipeline_shared_state`): nvcc warns and does not run the
///    constructor, clang reports "initialization is not supported for
///    __shared__ variables";
///  - a PTX special register written with one `%` (`%globaltimer`) in an asm
///    statement with operands: nvcc passes it through, clang reports
///    "invalid % escape in inline assembly string".
///
/// The check takes those two compiler errors (only those forms: an explicit
/// initialiser of a `__shared__` variable, or an unknown escape that is not a
/// PTX register name, stays an error as nvcc also rejects it) and reports
/// each once as a remark under its own name; clang has already recovered
/// (the declaration or asm statement is left out of the AST) and the other
/// checks analyse the rest of the file. The `%%` spelling, which both
/// compilers read as the register, is offered as a fix.
///
/// For the user-facing documentation see
/// docs/checks/cuda-nvcc-only-construct.md.
class NvccOnlyConstructCheck : public clang::tidy::ClangTidyCheck {
public:
  NvccOnlyConstructCheck(llvm::StringRef Name,
                         clang::tidy::ClangTidyContext *Context);
  ~NvccOnlyConstructCheck() override;
  bool
  isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override;
  void registerPPCallbacks(const clang::SourceManager &SM,
                           clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  /// Shared with the diagnostic filter, which may outlive the check.
  std::shared_ptr<NvccConstructLog> Log;
  const clang::SourceManager *SM = nullptr;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_NVCCONLYCONSTRUCTCHECK_H
