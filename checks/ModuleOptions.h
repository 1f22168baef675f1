//===--- ModuleOptions.h - The module-wide options, for checks -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The module-wide options (`cuda.*`) of one clang-tidy context, read once
/// and shared by every check made in that context:
///  - one place parses them: ModuleOptions::of, on the first call for a
///    context and configuration (clang-tidy makes its checks again for each
///    file, with the same context);
///  - one message per invalid value, reported once per context, by the
///    first check made that reads the option; the checks run with its
///    default;
///  - the lane model's settings (cuda.BlockDim, cuda.LaneModelBudget) go to
///    the analysis context when it is made: checks reach it through
///    analysis(), never AnalysisContext::get directly.
/// What each option means is lib/'s (lib/lanes/LaneModelSettings.h,
/// lib/target/CudaTarget.h, lib/target/BinaryCompatibility.h,
/// lib/resources/ResourceUsage.h); the words about them are here.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_MODULEOPTIONS_H
#define CUDA_TIDY_CHECKS_MODULEOPTIONS_H

#include "lib/lanes/LaneModelSettings.h"
#include "lib/target/ArchPaths.h"
#include "lib/target/BinaryCompatibility.h"
#include "lib/target/CudaTarget.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class FunctionDecl;
class Preprocessor;
class SourceManager;
namespace tidy {
class ClangTidyCheck;
class ClangTidyContext;
} // namespace tidy
} // namespace clang

namespace cuda_tidy {

class AnalysisContext;

/// The module-wide option cuda.ResourceUsage: the files kernel register
/// counts are read from (lib/resources/ResourceUsage.h).
inline constexpr llvm::StringLiteral ResourceUsageOptionName =
    "cuda.ResourceUsage";

/// The module-wide options of one clang-tidy context; see the file comment.
class ModuleOptions {
public:
  /// The options a check reads, whose invalid values it reports.
  enum Reads : unsigned {
    ReadsNone = 0,
    ReadsTargetArch = 1,             ///< cuda.TargetArch
    ReadsLaneModel = 2,              ///< cuda.BlockDim, cuda.LaneModelBudget
    ReadsSupportedArchitectures = 4, ///< cuda.SupportedArchitectures
  };

  /// The options of Context's configuration, parsed on the first call for
  /// this context and configuration. Reports through Context each invalid
  /// value of the options in Used that this context has not reported yet.
  static std::shared_ptr<const ModuleOptions>
  of(clang::tidy::ClangTidyContext &Context, unsigned Used);

  /// The analysis context of Ctx's translation unit, made with the lane
  /// model's settings when this call makes it.
  AnalysisContext &analysis(clang::ASTContext &Ctx) const;

  /// The lane model's settings (cuda.BlockDim, cuda.LaneModelBudget).
  const lanes::LaneModelSettings &laneSettings() const { return Lanes; }
  /// cuda.TargetArch, if set and valid.
  const std::optional<GpuArch> &targetArch() const { return TargetArch; }
  /// The architectures to evaluate (lib/target/CudaTarget.h's
  /// effectiveGpuArchs); says once per process and architecture that the
  /// limits of an unknown one are not checked.
  llvm::SmallVector<std::optional<GpuArch>, 4>
  effectiveArchs(const clang::ASTContext &Ctx,
                 const clang::Preprocessor *PP) const;
  /// cuda.SupportedArchitectures, if set and valid.
  const std::optional<llvm::SmallVector<CompileTarget, 8>> &
  supportedArchitectures() const {
    return Supported;
  }
  /// cuda.ResourceUsage as written; empty when unset.
  llvm::StringRef resourceUsage() const { return ResourceUsage; }

  /// Remarks through Check at each function of Cut (whose analysis the
  /// lane model's work budget cut short) that its Findings ("races", "warp
  /// exchanges") past the cut are not reported, with the option that raises
  /// the budget.
  void remarkCutShort(clang::tidy::ClangTidyCheck &Check,
                      const clang::SourceManager &SM,
                      llvm::ArrayRef<const clang::FunctionDecl *> Cut,
                      llvm::StringRef Findings) const;

  /// The options' text as configured: what a context's parse is keyed on.
  struct Texts {
    std::string TargetArch, BlockDim, LaneModelBudget, SupportedArchitectures,
        ResourceUsage;
    bool operator==(const Texts &O) const;
  };
  ModuleOptions(clang::tidy::ClangTidyContext &Context, const Texts &Raw);

private:
  /// One invalid value: the option that reads it and the message.
  struct Invalid {
    Reads Option;
    std::string Message;
  };
  friend class ModuleOptionsRegistry;

  clang::tidy::ClangTidyContext *Context;
  lanes::LaneModelSettings Lanes;
  std::optional<GpuArch> TargetArch;
  std::optional<llvm::SmallVector<CompileTarget, 8>> Supported;
  std::string ResourceUsage;
  llvm::SmallVector<Invalid, 2> Errors;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_MODULEOPTIONS_H
