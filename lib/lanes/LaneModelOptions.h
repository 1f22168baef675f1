//===--- LaneModelOptions.h - The lane model's module-wide options -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The module-wide options of the lane model (cuda.BlockDim,
/// cuda.LaneModelBudget), read by each check that uses it.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_LANES_LANEMODELOPTIONS_H
#define CUDA_TIDY_LIB_LANES_LANEMODELOPTIONS_H

#include "lib/lanes/LaneModel.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/StringRef.h"
#include <array>
#include <optional>
#include <string>

namespace clang::tidy {
class ClangTidyContext;
} // namespace clang::tidy

namespace cuda_tidy {

using lanes::DefaultLaneModelBudget;
using lanes::LaneModelBudgetOptionName;

/// The module-wide option that gives the block shape of kernels the
/// translation unit does not launch with a proven block.
inline constexpr const char *BlockDimOptionName = "cuda.BlockDim";

/// Parses a block shape option: "X", "X,Y" or "X,Y,Z" (each at least 1,
/// at most 1024 threads in all). std::nullopt with Error set otherwise.
std::optional<std::array<unsigned, 3>> parseBlockDim(llvm::StringRef Text,
                                                     std::string &Error);

/// The lane model's module-wide options as configured (cuda.BlockDim and
/// cuda.LaneModelBudget), read by each check that uses the lane model.
class BlockDimOption {
public:
  explicit BlockDimOption(clang::tidy::ClangTidyContext &Context);
  /// A message for an invalid value, once per process and value (several
  /// checks read the option); empty otherwise.
  std::string takeError() const;
  /// Gives the lane model the shape, if one is configured, and the budget.
  void applyTo(lanes::LaneModel &Lanes) const;
  uint64_t budget() const { return Budget; }
  /// Remarks through Check at each function of Cut (whose analysis the
  /// work budget cut short) that its Findings ("races", "warp exchanges")
  /// past the cut are not reported, with the option that raises the budget.
  void remarkCutShort(clang::tidy::ClangTidyCheck &Check,
                      const clang::SourceManager &SM,
                      llvm::ArrayRef<const clang::FunctionDecl *> Cut,
                      llvm::StringRef Findings) const;

private:
  void readBudget(clang::tidy::ClangTidyContext &Context);
  uint64_t Budget = DefaultLaneModelBudget;
  std::optional<std::array<unsigned, 3>> Shape;
  std::string Raw, Error;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_LANES_LANEMODELOPTIONS_H
