//===--- LaneModelOptions.h - The lane model options, checks -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The lane model's module-wide options (cuda.BlockDim,
/// cuda.LaneModelBudget) as the checks that use the model read them, once,
/// in their constructors: the settings handed to the analysis context, the
/// message for an invalid value, and the remark for a function whose
/// analysis the work budget cut short.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_LANEMODELOPTIONS_H
#define CUDA_TIDY_CHECKS_LANEMODELOPTIONS_H

#include "clang-tidy/ClangTidyCheck.h"
#include "lib/lanes/LaneModelSettings.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace clang::tidy {
class ClangTidyContext;
} // namespace clang::tidy

namespace cuda_tidy {

class LaneModelOptions {
public:
  explicit LaneModelOptions(clang::tidy::ClangTidyContext &Context);
  /// What the options set, for AnalysisContext::lanes() and the finders.
  const lanes::LaneModelSettings &settings() const { return Settings; }
  /// A message for an invalid value, once per process and value (several
  /// checks read the options); empty otherwise.
  std::string takeError() const;
  /// Remarks through Check at each function of Cut (whose analysis the
  /// work budget cut short) that its Findings ("races", "warp exchanges")
  /// past the cut are not reported, with the option that raises the budget.
  void remarkCutShort(clang::tidy::ClangTidyCheck &Check,
                      const clang::SourceManager &SM,
                      llvm::ArrayRef<const clang::FunctionDecl *> Cut,
                      llvm::StringRef Findings) const;

private:
  lanes::LaneModelSettings Settings;
  std::string Error;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_LANEMODELOPTIONS_H
