//===--- FixApply.h - Applying the fixes of many files once -----*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `--fix` for a parallel run: the workers only export their fixes, and the
/// orchestrator applies them here, once. A diagnostic reported by several
/// files (a warning in a shared header) counts once; an edit that several
/// diagnostics make identically is made once; a diagnostic whose fix
/// overlaps an edit already taken is skipped whole, with a message (never
/// half a fix). Which fix a diagnostic has follows clang-tidy: its own, or
/// with `--fix-notes` the only fix among its notes; with compiler errors in
/// the run, nothing is applied unless `--fix-errors`.
///
/// Code around the fixes is cleaned up and formatted with `--format-style`
/// (default none), as clang-tidy does; a configuration's FormatStyle is not
/// read.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_CUDA_TIDY_FIXAPPLY_H
#define CUDA_TIDY_TOOLS_CUDA_TIDY_FIXAPPLY_H

#include "clang/Tooling/Core/Diagnostic.h"
#include "llvm/ADT/ArrayRef.h"

namespace cuda_tidy {

/// Applies the fixes of \p TUs to the files; reports on stderr. Returns
/// non-zero when a file could not be read or written.
int applyFixesOnce(
    llvm::ArrayRef<clang::tooling::TranslationUnitDiagnostics> TUs,
    bool FixErrors, bool FixNotes, llvm::StringRef FormatStyle, bool Quiet);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_CUDA_TIDY_FIXAPPLY_H
