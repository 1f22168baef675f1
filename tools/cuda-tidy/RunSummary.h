//===--- RunSummary.h - What a run found, from its exported fixes -*- C++
//-*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What cuda-tidy says at the end of a run, read from the fixes file
/// clang-tidy exports (every diagnostic of every side, with its fixes).
///
/// Warning counts: clang prints "N warnings generated when compiling for X"
/// after each compiler job, and clang-tidy runs the host and each device
/// architecture of a file as jobs that share one diagnostic consumer, so the
/// counts add up over the sides (8, 16, 24 for 8 warnings). cuda-tidy turns
/// clang's lines off and prints one per file, each warning counted once
/// however many sides reported it.
///
/// Fixes on notes: the fixes that cuda-* checks offer on notes are not proven
/// correct: they wait for review (`--fix-notes`). clang-tidy's `--export-fixes`
/// writes them beside the proven ones, and clang-apply-replacements applies a
/// diagnostic's first note fix when its warning has none, so a pipeline of
/// `run-clang-tidy -export-fixes` and `clang-apply-replacements` would apply
/// unproven fixes. cuda-tidy removes them from the exported file unless
/// `--fix-notes` is given, and counts them so that a run can say how many
/// wait for review.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_CUDA_TIDY_RUNSUMMARY_H
#define CUDA_TIDY_TOOLS_CUDA_TIDY_RUNSUMMARY_H

#include "clang/Tooling/Core/Diagnostic.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <string>
#include <vector>

namespace cuda_tidy {

/// The diagnostics whose only fix is on a note, each counted once however
/// many sides (host, device architectures) reported it.
unsigned countFixesWaitingOnNotes(
    llvm::ArrayRef<clang::tooling::TranslationUnitDiagnostics> TUs);

/// The warnings (and errors) of each main file, each counted once however
/// many sides reported it, by file path.
std::map<std::string, unsigned> countWarningsByFile(
    llvm::ArrayRef<clang::tooling::TranslationUnitDiagnostics> TUs);

/// Rewrites the exported fixes file at Path without the fixes on notes (the
/// notes stay). *Waiting is set to countFixesWaitingOnNotes of its contents.
/// A missing file is not an error (clang-tidy writes none when nothing was
/// found).
llvm::Error dropNoteFixes(llvm::StringRef Path, unsigned *Waiting);

/// What a whole run found, for the line that closes it and for the SARIF
/// run's properties. Each diagnostic is counted once however many sides
/// reported it.
struct RunCounts {
  /// The files the run analysed.
  unsigned Files = 0;
  /// Warnings by check name (clang's own warnings under clang-diagnostic-*).
  std::map<std::string, unsigned> WarningsByCheck;
  /// Warnings with a proven fix (applied by --fix).
  unsigned FixesAvailable = 0;
  /// Warnings whose only fix is on a note (applied by --fix-notes).
  unsigned FixesOnNotes = 0;
  /// The main files with compiler errors: their analysis is incomplete.
  std::vector<std::string> NotParsed;

  unsigned warnings() const;
};

/// Counts \p TUs (the exported diagnostics of a run over \p Files files).
RunCounts
countRun(llvm::ArrayRef<clang::tooling::TranslationUnitDiagnostics> TUs,
         unsigned Files);

/// The closing line: "cuda-tidy: 2 files analysed, 3 warnings
/// (cuda-divergent-barrier 2, cuda-shared-memory-race 1), 1 fix available,
/// 1 fix needs review, 0 files did not parse". No "warning:" in it, so that
/// a grep for diagnostics does not find it.
std::string formatRunSummary(const RunCounts &Counts);

/// Whether \p Line is one of clang's per-command progress lines ("[1/2]
/// Processing file k.cu." or "[1/1] (2/3) Processing file k.cu."), which
/// clang's tooling prints for each side of a file.
bool isToolingProgressLine(llvm::StringRef Line);

/// \p Text without clang's progress lines.
std::string dropToolingProgressLines(llvm::StringRef Text);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_CUDA_TIDY_RUNSUMMARY_H
