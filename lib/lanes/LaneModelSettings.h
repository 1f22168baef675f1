//===--- LaneModelSettings.h - What a user sets of lanes ------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The lane model's module-wide options, read once per clang-tidy context
/// by the checks (checks/ModuleOptions.h) and handed to the analysis
/// context when it is made:
///  - cuda.BlockDim: the block shape of kernels that no launch in the
///    translation unit gives a proven block ("X", "X,Y" or "X,Y,Z");
///  - cuda.LaneModelBudget: the evaluation steps one analysis context may
///    take (0: no limit).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_LANES_LANEMODELSETTINGS_H
#define CUDA_TIDY_LIB_LANES_LANEMODELSETTINGS_H

#include "llvm/ADT/StringRef.h"
#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace cuda_tidy::lanes {

inline constexpr const char *BlockDimOptionName = "cuda.BlockDim";
inline constexpr const char *LaneModelBudgetOptionName = "cuda.LaneModelBudget";
/// The default work budget: a few seconds on one kernel.
inline constexpr uint64_t DefaultLaneModelBudget = 40000000;

struct LaneModelSettings {
  /// The cuda.BlockDim shape (x, y, z), if set.
  std::optional<std::array<unsigned, 3>> DefaultBlock;
  /// The work one analysis context (a kernel, or one call of a device
  /// function) may take, in evaluation steps; 0 for no limit.
  uint64_t WorkBudget = DefaultLaneModelBudget;
};

/// Parses a block shape option: "X", "X,Y" or "X,Y,Z" (each at least 1,
/// at most 1024 threads in all). std::nullopt with Error set otherwise.
std::optional<std::array<unsigned, 3>> parseBlockDim(llvm::StringRef Text,
                                                     std::string &Error);

/// Parses the budget option's text: a non-negative integer (0: no limit).
/// std::nullopt with Error set (why the text is not one) otherwise.
std::optional<uint64_t> parseWorkBudget(llvm::StringRef Text,
                                        std::string &Error);

} // namespace cuda_tidy::lanes

#endif // CUDA_TIDY_LIB_LANES_LANEMODELSETTINGS_H
