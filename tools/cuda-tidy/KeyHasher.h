//===--- KeyHasher.h - SHA-256 keys of string sequences ---------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The keys of the driver's caches (ResultCache.h, PchCache.h): a SHA-256 of
/// a sequence of strings, each prefixed with its length, so that ("ab", "c")
/// and ("a", "bc") differ.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_CUDA_TIDY_KEYHASHER_H
#define CUDA_TIDY_TOOLS_CUDA_TIDY_KEYHASHER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"
#include <cstdint>
#include <string>

namespace cuda_tidy {

class KeyHasher {
public:
  void add(llvm::StringRef S) {
    uint64_t N = S.size();
    H.update(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(&N),
                                     sizeof(N)));
    H.update(S);
  }
  std::string hex() {
    return llvm::toHex(llvm::ArrayRef<uint8_t>(H.final()), /*LowerCase=*/true);
  }

private:
  llvm::SHA256 H;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_CUDA_TIDY_KEYHASHER_H
