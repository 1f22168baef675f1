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

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_CUDA_TIDY_RUNSUMMARY_H
