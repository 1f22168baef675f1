//===--- PchCache.h - Precompiled CUDA headers shared by jobs ---*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every job of a CUDA file parses the headers clang includes before the
/// file's first line (clang's CUDA wrapper, which reads cuda_runtime.h, and
/// cuda-tidy's compatibility header): about 0.4 s of the 0.5 s a small file
/// takes per side. Jobs with the same command share them as a precompiled
/// header (PCH), built once per command in a folder:
///  - a run of several files: a temporary folder, for the files whose
///    compile commands another file of the run shares (the orchestrator
///    decides, ParallelRun.h);
///  - `--pch-cache=DIR` (or CUDA_TIDY_PCH_CACHE): a folder kept across runs.
///
/// A job's PCH is named by a SHA-256 of everything that makes its command:
/// clang's version, the job's folder and command line with the source file
/// taken out, clang-tidy's extra arguments, the compatibility header's text.
/// The PCH is built from an empty file of the same name extension with
/// exactly that command (clang-tidy's argument adjustments included), so
/// that clang accepts it for the job. Beside it, `KEY.deps` lists every
/// file the PCH read with its size and modification time; a PCH whose
/// files changed is built again. Concurrent workers take a lock file
/// (llvm::LockFileManager) to build a PCH once, and the others wait for it.
///
/// A job keeps its plain command (no PCH) when:
///  - its command has `-include`, `-imacros`, `-include-pch` or `-Xclang`
///    of its own, or is not a single-side CUDA job;
///  - clang-tidy would add arguments cuda-tidy does not see (a
///    configuration with ExtraArgs or ExtraArgsBefore);
///  - the PCH would hold a file outside the system headers (the toolkit
///    named with `-I`): the checks read user code as it is parsed;
///  - building the PCH gives a diagnostic, or the build fails.
/// The result is the same as without the PCH: the headers' declarations
/// and macros are those of the parse; clang runs no preprocessor callbacks
/// for the lines inside the PCH, which are system headers whose lines the
/// checks do not read.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_CUDA_TIDY_PCHCACHE_H
#define CUDA_TIDY_TOOLS_CUDA_TIDY_PCHCACHE_H

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace cuda_tidy {

/// The environment variable that names a kept PCH folder when
/// `--pch-cache` is not given.
inline constexpr const char *PchCacheEnv = "CUDA_TIDY_PCH_CACHE";

struct PchInputs {
  /// The folder of the PCHs; it exists.
  std::string Dir;
  /// clang-tidy's `--extra-arg-before` and `--extra-arg` values, in order.
  std::vector<std::string> ExtraArgsBefore, ExtraArgs;
  /// The compatibility header the jobs force-include (in the run's
  /// temporary folder), and its text.
  std::string CompatHeader;
  llvm::StringRef CompatText;
  /// clang-tidy's `--config` and `--config-file` values, and the source, so
  /// that configuration files with extra arguments are seen.
  std::vector<std::string> Configs;
  std::string Source;
};

/// What usePrecompiledHeaders did, for tests and `-v`-style reporting.
struct PchStats {
  unsigned Used = 0, Built = 0, Plain = 0;
};

/// Gives each eligible job of \p Jobs a PCH from \p In.Dir (building it
/// when missing or out of date): its `-include` of the compatibility header
/// becomes `-include-pch`. Other jobs are left as they are.
PchStats usePrecompiledHeaders(std::vector<clang::tooling::CompileCommand> &Jobs,
                               const PchInputs &In);

/// The part of a compile command that decides whether two files can share
/// PCHs: the command without its file names and output. Used by the
/// orchestrator to give a PCH folder to the files that share one.
std::string pchShareKey(const clang::tooling::CompileCommand &Command);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_CUDA_TIDY_PCHCACHE_H
