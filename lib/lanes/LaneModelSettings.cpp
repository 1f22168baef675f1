//===--- LaneModelSettings.cpp - What a user sets of the lane model -------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/lanes/LaneModelSettings.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

namespace cuda_tidy::lanes {

std::optional<std::array<unsigned, 3>> parseBlockDim(llvm::StringRef Text,
                                                     std::string &Error) {
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  Text.trim().split(Parts, ',');
  std::array<unsigned, 3> D = {1, 1, 1};
  if (Parts.empty() || Parts.size() > 3) {
    Error = "expected 'X', 'X,Y' or 'X,Y,Z'";
    return std::nullopt;
  }
  uint64_t Product = 1;
  for (unsigned K = 0; K < Parts.size(); ++K) {
    unsigned V;
    if (Parts[K].trim().getAsInteger(10, V) || V == 0 || V > 1024) {
      Error = "'" + Parts[K].trim().str() +
              "' is not a block dimension from 1 to 1024";
      return std::nullopt;
    }
    D[K] = V;
    Product *= V;
  }
  if (Product > 1024) {
    Error = "a block has at most 1024 threads, not " + std::to_string(Product);
    return std::nullopt;
  }
  return D;
}

std::optional<uint64_t> parseWorkBudget(llvm::StringRef Text,
                                        std::string &Error) {
  uint64_t V = 0;
  if (Text.getAsInteger(10, V)) {
    Error = ("'" + Text + "' is not a non-negative integer (0 means no limit)")
                .str();
    return std::nullopt;
  }
  return V;
}

} // namespace cuda_tidy::lanes
