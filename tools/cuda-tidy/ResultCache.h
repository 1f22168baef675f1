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
///  - the contents of the object file a job reads kernel register counts
///    from (`-D__CUDA_TIDY_RESOURCE_USAGE__`, see CudaCompileDb.h).
///
/// Finding the key this way costs a preprocessing of every side. So that a
/// warm run does not pay it, each key is recorded with the list of the files
/// read and their digests, under a command key of everything but file
/// contents (ccache's "direct mode"): when every file of a recorded list
/// still has its digest, that list's key is the key, found by reading and
/// hashing the files only. A list that no longer matches costs the
/// preprocessing, and records a new list.
///
/// It leaves out what the preprocessor does not read: a file that
/// `__has_include` looks for and that appears later is not noticed, and
/// with a recorded list neither is a new header that would be found before
/// one recorded (earlier on the include path). `__DATE__` and
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
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <tuple>
#include <vector>

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

/// The part of the key that needs no preprocessing: version, executable,
/// command line, configuration files, translated commands.
std::string computeCommandKey(const CacheKeyInputs &In);

/// A file the preprocessor read, by absolute path, and the SHA-256 of its
/// contents.
struct ReadFile {
  std::string Path, Digest;
  bool operator<(const ReadFile &O) const {
    return std::tie(Path, Digest) < std::tie(O.Path, O.Digest);
  }
};

/// The cache key of one file: \p CommandKey and what the preprocessor of
/// each side read (it preprocesses every side). Fills \p Read with the
/// files read, for recordManifest.
std::string computeCacheKey(const CacheKeyInputs &In,
                            llvm::StringRef CommandKey,
                            std::vector<ReadFile> &Read);

/// The key of an earlier analysis with the same \p CommandKey whose files
/// all still have the contents they had then, if any: what computeCacheKey
/// would return, found without preprocessing.
std::optional<std::string> lookupManifest(llvm::StringRef Dir,
                                          llvm::StringRef CommandKey);

/// Records that \p CommandKey with the files \p Read gave \p Key.
llvm::Error recordManifest(llvm::StringRef Dir, llvm::StringRef CommandKey,
                           llvm::StringRef Key,
                           llvm::ArrayRef<ReadFile> Read);

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

/// Writes \p Text to \p Path through a temporary file beside it and a
/// rename, so that concurrent readers see all of it or nothing. Returns
/// false when it cannot.
bool writeFileAtomically(llvm::StringRef Path, llvm::StringRef Text);

/// \p Args (a job's command for \p File) as clang-tidy runs it: without
/// its output and dependency-file options, -fsyntax-only, with clang-tidy's
/// extra arguments before (after the compiler) and after.
std::vector<std::string>
asClangTidyRuns(std::vector<std::string> Args, llvm::StringRef File,
                llvm::ArrayRef<std::string> ExtraArgsBefore,
                llvm::ArrayRef<std::string> ExtraArgs);

/// Calls \p F with the path and text of every `.clang-tidy` and
/// `_clang-tidy` from \p Source's folder up to the root (a superset of the
/// configuration clang-tidy reads for it).
void forEachConfigFile(
    llvm::StringRef Source,
    llvm::function_ref<void(llvm::StringRef Path, llvm::StringRef Text)> F);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_CUDA_TIDY_RESULTCACHE_H
