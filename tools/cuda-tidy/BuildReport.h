//===--- BuildReport.h - What a run's builds leave without code -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The build side of cuda-target-compatibility in the cuda-tidy driver: for
/// the nvcc commands of the files a run analyses, what their flags leave
/// without code (tools/common/BuildCompatibility.h), said once per distinct
/// set of flags, in the text output as a diagnostic located at the file's
/// entry of the compilation database, and as SARIF results at the same
/// place.
///
/// It reads the configuration clang-tidy reads for each file (`.clang-tidy`
/// files, `--config`, `--config-file`, `--checks`, `--warnings-as-errors`):
/// nothing is said when cuda-target-compatibility is not enabled, the list
/// of `cuda.SupportedArchitectures` decides what is judged, and a warning
/// that `WarningsAsErrors` names is an error that fails the run.
///
/// Left out: commands that are not nvcc's (clang's own CUDA commands name
/// their targets for clang), and runs without a JSON compilation database
/// (the flags after `--`), which have no file to point at.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_CUDA_TIDY_BUILDREPORT_H
#define CUDA_TIDY_TOOLS_CUDA_TIDY_BUILDREPORT_H

#include "tools/common/CudaCompileDb.h"
#include "clang/Tooling/Core/Diagnostic.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>
#include <vector>

namespace cuda_tidy {

struct BuildReportInputs {
  const clang::tooling::CompilationDatabase *DB = nullptr;
  /// The files of the run, absolute.
  std::vector<std::string> Files;
  CompileDbOptions DbOptions;
  /// clang-tidy's options as cuda-tidy forwards them (argv[0] first).
  std::vector<std::string> ClangTidyArgs;
  /// -p, if given.
  std::optional<std::string> BuildPath;
};

struct BuildReportResult {
  /// The findings as clang-tidy diagnostics, for SARIF.
  clang::tooling::TranslationUnitDiagnostics Diagnostics;
  /// A finding was an error (WarningsAsErrors).
  bool Failed = false;
};

/// Judges the builds of the run's files and prints the findings to \p OS.
BuildReportResult reportBuildCompatibility(const BuildReportInputs &In,
                                           llvm::raw_ostream &OS);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_CUDA_TIDY_BUILDREPORT_H
