//===--- ParallelRun.h - cuda-tidy over many files, in parallel -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The orchestrator of a cuda-tidy run over several files. It starts one
/// worker per file (cuda-tidy itself, re-executed on that file alone with its
/// output redirected into a temporary folder), at most N at once, and
///  - prints each file's output in the order the files were named, as soon
///    as every earlier file is done, so the output does not depend on -j;
///  - on a terminal, keeps a progress line (files done of total, elapsed
///    time, an estimate of the time left) below that output;
///  - merges what the workers export into the one `--export-fixes` file and
///    the one SARIF log of the run;
///  - applies `--fix` itself, once, after every worker is done: a header that
///    two files include gets each distinct edit once, and an edit that
///    overlaps another is skipped with a message (workers never write
///    sources);
///  - with `--shard=K/N`, analyses the K-th of N parts of the files, parts
///    balanced by file size and the same in every job of a CI matrix;
///  - with `--cache-dir`, replays the output of a file whose inputs did not
///    change (ResultCache.h).
///
/// It leaves out: `--fix` does not print clang-tidy's per-fix "FIX-IT
/// applied" notes (one summary line instead) and formats around fixes only
/// with `--format-style` (not a configuration's FormatStyle). With
/// `--fix-errors` a file with compiler errors still makes the status
/// non-zero (clang-tidy in one process returns 0 then).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_CUDA_TIDY_PARALLELRUN_H
#define CUDA_TIDY_TOOLS_CUDA_TIDY_PARALLELRUN_H

#include "clang/Tooling/Core/Diagnostic.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace cuda_tidy {

/// The options of a parallel run, taken out of the command line before
/// anything else reads it.
struct ParallelOptions {
  /// -j N; 0: not given (the number of cores).
  unsigned Jobs = 0;
  /// --shard=K/N (K counts from 1).
  std::optional<std::pair<unsigned, unsigned>> Shard;
  /// --cache-dir=DIR.
  std::string CacheDir;
  /// --pch-cache=DIR (absolute; else $CUDA_TIDY_PCH_CACHE): a folder of
  /// precompiled headers kept across runs (PchCache.h). Workers get theirs
  /// from the orchestrator this way.
  std::string PchDir;
  /// --no-pch: no precompiled headers, not even within a run.
  bool NoPch = false;
  /// --progress / --no-progress; unset: on when stderr is a terminal.
  std::optional<bool> Progress;
  /// --merge-sarif=OUT: merge the SARIF logs named on the command line.
  std::optional<std::string> MergeSarifOut;
  /// Hidden: this process is a worker of a parallel run.
  bool Worker = false;
  /// Hidden, workers only: write the file's cache key here and stop when
  /// the cache has an entry for it.
  std::string CacheKeyFile;
};

/// Whether progress is shown (the orchestrator's progress line, clang's
/// per-side "Processing file" lines): as --progress / --no-progress say, or
/// when stdout and stderr are both a terminal.
bool progressShown(const ParallelOptions &Opts);

/// Removes the options of ParallelOptions from \p Args (before any "--")
/// and fills \p Opts. Malformed values are reported on stderr (one line) and
/// make it return false.
bool extractParallelOptions(std::vector<std::string> &Args,
                            ParallelOptions &Opts);

/// What the orchestrator needs from the command line.
struct ParallelRunConfig {
  /// This executable.
  std::string Self;
  /// The worker's command line around the file name: the user's arguments
  /// without the sources and the options the orchestrator handles itself.
  std::vector<std::string> WorkerArgsBefore, WorkerArgsAfter;
  /// The files, in the order their output is printed.
  std::vector<std::string> Files;
  ParallelOptions Opts;
  std::string TempDir;
  std::string SarifPath, SarifRoot, ExportFixes;
  bool Fix = false, FixErrors = false, FixNotes = false, Quiet = false;
  std::string FormatStyle;
  /// The files whose workers get Opts.PchDir (all of them when empty).
  llvm::StringSet<> PchFiles;
  /// Diagnostics the orchestrator found itself (the build's compatibility,
  /// BuildReport.h), added to the SARIF log.
  std::vector<clang::tooling::TranslationUnitDiagnostics> ExtraDiagnostics;
};

/// Runs the workers and returns the exit status: non-zero when a file's
/// analysis failed (compiler errors, warnings as errors) or a worker could
/// not be run.
int runParallel(const ParallelRunConfig &Config);

/// Removes from \p Args (the command line, argv[0] first, sources at
/// \p SourceIndices) what workers must not see: the sources and the options
/// the orchestrator handles (--export-fixes, --export-sarif, --sarif-root,
/// --fix, --fix-errors, --fix-notes, --format-style), and splits the rest at
/// "--". Fills the matching fields of \p Config.
void splitWorkerArgs(llvm::ArrayRef<std::string> Args,
                     llvm::ArrayRef<size_t> SourceIndices,
                     ParallelRunConfig &Config);

/// The files of shard K of N (K from 1): files sorted by size, largest
/// first, each given to the shard with the fewest bytes so far (ties: the
/// lower shard); a shard's files keep their order in \p Files.
std::vector<std::string> selectShard(llvm::ArrayRef<std::string> Files,
                                     unsigned K, unsigned N);

/// `cuda-tidy --merge-sarif=OUT IN...`: one log from the logs of shards,
/// equal to the log of an unsharded run but for the shards' categories.
int mergeSarifMain(llvm::StringRef Out, llvm::ArrayRef<std::string> Inputs);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_CUDA_TIDY_PARALLELRUN_H
