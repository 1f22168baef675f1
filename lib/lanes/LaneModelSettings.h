//===--- LaneModelSettings.h - What a user sets of lanes ------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The lane model's module-wide options, read once from clang-tidy's option
/// map by the checks and handed to the analysis context when it is made:
///  - cuda.BlockDim: the block shape of kernels that no launch in the
///    translation unit gives a proven block ("X", "X,Y" or "X,Y,Z");
///  - cuda.LaneModelBudget: the evaluation steps one analysis context may
///    take (0: no limit).
///
/// The map is a template parameter, as in lib/OptionValues.h, so that lib/
/// includes no clang-tidy header.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_LANES_LANEMODELSETTINGS_H
#define CUDA_TIDY_LIB_LANES_LANEMODELSETTINGS_H

#include "lib/OptionValues.h"
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

/// Parses the budget option's text into Settings; false with Error set
/// when it is not a non-negative integer.
bool parseWorkBudget(llvm::StringRef Text, LaneModelSettings &Settings,
                     std::string &Error);

/// The settings Options (clang-tidy's `CheckOptions`) give; an invalid
/// value keeps its default and sets Error (the block shape's message when
/// both are invalid).
template <typename OptionMap>
LaneModelSettings readLaneModelSettings(const OptionMap &Options,
                                        std::string &Error) {
  LaneModelSettings Settings;
  if (std::optional<llvm::StringRef> Text =
          moduleOption(Options, LaneModelBudgetOptionName))
    parseWorkBudget(*Text, Settings, Error);
  if (std::optional<llvm::StringRef> Text =
          moduleOption(Options, BlockDimOptionName)) {
    std::string Why;
    Settings.DefaultBlock = parseBlockDim(*Text, Why);
    if (!Settings.DefaultBlock)
      Error = invalidOptionMessage(BlockDimOptionName, Why);
  }
  return Settings;
}

} // namespace cuda_tidy::lanes

#endif // CUDA_TIDY_LIB_LANES_LANEMODELSETTINGS_H
