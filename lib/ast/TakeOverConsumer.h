//===--- TakeOverConsumer.h - Compiler errors a check takes over -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A diagnostic consumer put in front of the compiler's for a check that
/// reports some compiler errors itself (with the fix nvcc-only constructs or
/// removed APIs need): the errors it takes over, and their notes, are
/// swallowed; everything else passes on to the consumer it wraps.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_AST_TAKEOVERCONSUMER_H
#define CUDA_TIDY_LIB_AST_TAKEOVERCONSUMER_H

#include "clang/Basic/Diagnostic.h"
#include <memory>

namespace cuda_tidy {

class TakeOverConsumer : public clang::DiagnosticConsumer {
public:
  /// Inner receives what is not taken over; OwnedInner, when set, owns it.
  TakeOverConsumer(clang::DiagnosticConsumer *Inner,
                   std::unique_ptr<clang::DiagnosticConsumer> OwnedInner)
      : Inner(Inner), OwnedInner(std::move(OwnedInner)) {}

  void BeginSourceFile(const clang::LangOptions &LO,
                       const clang::Preprocessor *PP) override {
    Inner->BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Inner->EndSourceFile(); }
  void finish() override { Inner->finish(); }
  void clear() override {
    DiagnosticConsumer::clear();
    Inner->clear();
  }
  bool IncludeInDiagnosticCounts() const override {
    return Inner->IncludeInDiagnosticCounts();
  }

  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) final {
    if (Level == clang::DiagnosticsEngine::Note && DroppingNotes)
      return;
    DroppingNotes = false;
    if (active() && takeOver(Info)) {
      DroppingNotes = true;
      return;
    }
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    Inner->HandleDiagnostic(Level, Info);
  }

protected:
  /// Whether the check is taking errors over now.
  virtual bool active() const = 0;
  /// Whether the check reports Info itself (and records it to do so).
  virtual bool takeOver(const clang::Diagnostic &Info) = 0;

private:
  clang::DiagnosticConsumer *Inner;
  std::unique_ptr<clang::DiagnosticConsumer> OwnedInner;
  bool DroppingNotes = false;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_AST_TAKEOVERCONSUMER_H
