//===--- MemoryOrderingCheck.h - cuda-memory-ordering -----------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_MEMORYORDERINGCHECK_H
#define CUDA_TIDY_CHECKS_MEMORYORDERINGCHECK_H

#include "checks/ModuleOptions.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace clang {
class GCCAsmStmt;
}

namespace cuda_tidy {

/// Flags memory ordering that a `__syncthreads()` does not give and the
/// code does not ask for: inline asm that waits or orders memory without a
/// "memory" clobber (fix: add it), a last-block reduction whose partial
/// results are not fenced before the ticket (fix: `__threadfence();` where
/// every writing thread reaches it, else on a note), a spin-wait on a plain
/// load of global memory (fix on a note), and a block-scope atomic on a
/// global address that several blocks update (fix: the device-scope
/// function). The analysis is lib/ordering/MemoryOrdering.h.
///
/// For the user-facing documentation see
/// docs/checks/cuda-memory-ordering.md.
class MemoryOrderingCheck : public clang::tidy::ClangTidyCheck {
public:
  MemoryOrderingCheck(llvm::StringRef Name,
                      clang::tidy::ClangTidyContext *Context);
  bool
  isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  std::shared_ptr<const ModuleOptions> Module;
  /// cuda-programmatic-dependent-launch reports `griddepcontrol.wait` asm
  /// with no "memory" clobber itself: one report per defect.
  const bool PdlCheckRuns;
  void checkAsm(const clang::GCCAsmStmt &Asm, const clang::FunctionDecl &Func,
                clang::ASTContext &Ctx);
  void checkBody(const clang::FunctionDecl &Func, clang::ASTContext &Ctx);
  void checkTickets(const clang::FunctionDecl &Func, clang::ASTContext &Ctx);
  void checkLoop(const clang::Stmt &Loop, const clang::FunctionDecl &Func);
  void checkBlockScope(const clang::Stmt &Site, const clang::FunctionDecl &Func,
                       clang::ASTContext &Ctx);
  /// Whether memory is read or written around an asm statement of Func: in
  /// Func, or in one of its callers (or Func has no caller in this
  /// translation unit: a wrapper for other files).
  bool memoryAround(const clang::FunctionDecl &Func, clang::ASTContext &Ctx);

  /// Each spelling location is reported once across instantiations.
  llvm::DenseSet<clang::SourceLocation> Reported;
  llvm::DenseSet<const clang::FunctionDecl *> TicketsDone;
  llvm::DenseMap<const clang::FunctionDecl *, bool> TouchesMemory;
  /// The bodies walked (a device lambda's is walked from its enclosing
  /// function and may match on its own).
  llvm::DenseSet<const clang::FunctionDecl *> Walked;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_MEMORYORDERINGCHECK_H
