//===--- ResultCache.h - Replaying the analysis of unchanged files -*- C++
//-*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The cache of `--cache-dir=DIR`: what a file's analysis printed and
/// exported, stored under a key of everything the analysis read, so that a
/// later run with the same inputs replays it instead of parsing again.
///
/// The key (SHA-256) covers:
///  - cuda-tidy's version, and the size and modification time of its
///    executable (a rebuilt cuda-tidy starts a new cache);
///  - the command line of the run (without the run's temporary paths) and
///    the working folder;
///  - the contents of every `.clang-tidy` and `_clang-tidy` from the file's
///    folder up to the root (a superset of the effective configuration);
///  - for every side and architecture of the file, the translated compile
///    command and the name and contents of every file its preprocessor read,
///    found by preprocessing that command again (so a header that changed,
///    appeared earlier on the include path or stopped being included
///    changes the key of exactly the files that read it). Raw contents, not
///    preprocessed text: comments (NOLINT) and the offsets that diagnostics
///    and fixes point at are covered too.
///
/// It leaves out what the preprocessor does not read: `__has_include` of a
/// file that did not exist and still does not change nothing, but a new
/// file that only `__has_include` looks for is not noticed. `__DATE__` and
/// `__TIME__` are not expanded into the key.
///
/// Entries are written into a temporary folder inside DIR and renamed into
/// place, so concurrent runs sharing DIR see whole entries or none.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_CUDA_TIDY_RESULTCACHE_H
#define CUDA_TIDY_TOOLS_CUDA_TIDY_RESULTCACHE_H

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>

namespace cuda_tidy {

struct CacheKeyInputs {
  /// The commands analysed for the file (one per side).
  llvm::ArrayRef<clang::tooling::CompileCommand> Jobs;
  /// The worker's command line, without the paths of the run.
  llvm::ArrayRef<std::string> Args;
  /// The worker's temporary folder: replaced by a placeholder in the key.
  llvm::StringRef TempDir;
  /// Prepended and appended to each command, as clang-tidy does.
  std::vector<std::string> ExtraArgsBefore, ExtraArgs;
  llvm::StringRef Source;
  /// This executable.
  llvm::StringRef Self;
};

/// The cache key of one file.
std::string computeCacheKey(const CacheKeyInputs &In);

struct CachedResult {
  std::string Out, Err;
  std::optional<std::string> Fixes;
  int Status = 0;
};

/// Whether \p Dir holds an entry for \p Key.
bool hasCacheEntry(llvm::StringRef Dir, llvm::StringRef Key);

llvm::Expected<CachedResult> readCacheEntry(llvm::StringRef Dir,
                                            llvm::StringRef Key);

llvm::Error storeCacheEntry(llvm::StringRef Dir, llvm::StringRef Key,
                            llvm::StringRef Out, llvm::StringRef Err,
                            const std::optional<std::string> &Fixes,
                            int Status);

/// Writes \p Text to \p Path.
llvm::Error writeFileText(llvm::StringRef Path, llvm::StringRef Text);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_CUDA_TIDY_RESULTCACHE_H
