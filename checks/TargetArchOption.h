//===--- TargetArchOption.h - cuda.TargetArch, for checks -----*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The module-wide option cuda.TargetArch as the architecture-dependent
/// checks read it, once, in their constructors, and the configuration
/// messages they give (an invalid value, an architecture whose limits are
/// not known). What an architecture is and which ones a translation unit
/// targets are lib/target/'s.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_TARGETARCHOPTION_H
#define CUDA_TIDY_CHECKS_TARGETARCHOPTION_H

#include "lib/target/CudaTarget.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class Preprocessor;
namespace tidy {
class ClangTidyContext;
} // namespace tidy
} // namespace clang

namespace cuda_tidy {

/// The value of `cuda.TargetArch` as configured, parsed once per check.
class TargetArchOverride {
public:
  /// Reads the option from the clang-tidy configuration. An invalid value is
  /// remembered with its message; see error().
  explicit TargetArchOverride(clang::tidy::ClangTidyContext &Context);

  /// The configured architecture, if the option is set and valid.
  const std::optional<GpuArch> &arch() const { return Arch; }
  /// A message for an invalid value, or empty.
  llvm::StringRef error() const { return Error; }
  /// True exactly once per process and distinct invalid value, so that
  /// several checks reading one bad option report it once.
  bool shouldReportError() const;

  /// Says, once per process and architecture name, that the limits of
  /// Name are unknown and why (Why: the parser's message).
  void reportSkipped(llvm::StringRef Name, llvm::StringRef Why) const;

  /// The architectures to evaluate (lib/target/CudaTarget.h's
  /// effectiveGpuArchs), unknown ones reported through reportSkipped().
  llvm::SmallVector<std::optional<GpuArch>, 4>
  effectiveArchs(const clang::ASTContext &Ctx,
                 const clang::Preprocessor *PP) const;

private:
  clang::tidy::ClangTidyContext *Context;
  std::optional<GpuArch> Arch;
  std::string Raw;
  std::string Error;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_TARGETARCHOPTION_H
