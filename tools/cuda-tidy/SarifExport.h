//===--- SarifExport.h - clang-tidy diagnostics as SARIF 2.1.0 --*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Writes the diagnostics that clang-tidy exports (`--export-fixes` YAML) as
/// a SARIF 2.1.0 log: one run, a rule per check with its documentation link,
/// a result per diagnostic with its location, its notes as related
/// locations, and its fix-its (and those of its notes) as fixes.
///
/// Locations are relative to a source root (`%SRCROOT%`, the working folder
/// of cuda-tidy by default) when the file lies under it, as GitHub code
/// scanning expects, and absolute `file://` URIs otherwise. Columns count
/// Unicode code points (`columnKind: unicodeCodePoints`).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_CUDA_TIDY_SARIFEXPORT_H
#define CUDA_TIDY_TOOLS_CUDA_TIDY_SARIFEXPORT_H

#include "clang/Tooling/Core/Diagnostic.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <optional>
#include <vector>

namespace cuda_tidy {

struct SarifOptions {
  std::string ToolName = "cuda-tidy";
  std::string ToolVersion;
  /// Where the docs of cuda-* checks live: the rule's helpUri is this
  /// followed by "<check>.md".
  std::string DocsBaseUrl;
  /// Absolute folder that relative locations start from.
  std::string SourceRoot;
  /// The run's `automationDetails.id` (GitHub code scanning's category:
  /// everything before the last '/'); empty: none.
  std::string AutomationId;
  /// The files the run analysed; when set, the run gets `properties` with
  /// cuda-tidy's counts (sarifRunProperties).
  std::optional<unsigned> FilesAnalysed;
  /// The files with compiler errors, for those properties.
  std::vector<std::string> FilesNotParsed;
};

/// Reads the YAML documents that `--export-fixes` wrote.
llvm::Expected<std::vector<clang::tooling::TranslationUnitDiagnostics>>
readExportedDiagnostics(llvm::StringRef Path);

/// The SARIF log of \p Diagnostics. Results are in a canonical order (by
/// location, then rule and message) and rules sorted by id, so that a log
/// does not depend on the order the files were analysed in.
///
/// Each result has `partialFingerprints.primaryLocationLineHash`, what
/// GitHub code scanning matches alerts across runs by: a hash of the rule
/// and the text of the result's line (whitespace trimmed), then ':' and the
/// result's rank among the results of its file with the same hash. It does
/// not change when lines are added or removed above; it changes when the
/// line itself is edited.
llvm::json::Value
buildSarifLog(llvm::ArrayRef<clang::tooling::TranslationUnitDiagnostics> TUs,
              const SarifOptions &Opts);

/// Writes buildSarifLog(TUs, Opts) to \p Path.
llvm::Error
writeSarifLog(llvm::StringRef Path,
              llvm::ArrayRef<clang::tooling::TranslationUnitDiagnostics> TUs,
              const SarifOptions &Opts);

/// Orders the results of \p Run canonically (as buildSarifLog does), drops
/// repeated ones, sorts the rules, renumbers ruleIndex and recomputes the
/// rank part of each fingerprint. Used for logs built here and for logs
/// merged from shards, so that both come out the same.
void canonicalizeSarifRun(llvm::json::Object &Run);

/// The counts of a run as its `properties`: filesAnalysed, filesNotParsed
/// (sorted), warnings and warningsByCheck (results of level "warning"),
/// fixesAvailable (warnings with the check's own fix) and fixesNeedingReview
/// (warnings whose only fixes are a note's). Computed from the results, so
/// that the merged log of shards counts as one unsharded run does.
llvm::json::Object
sarifRunProperties(const llvm::json::Array &Results, unsigned FilesAnalysed,
                   llvm::ArrayRef<std::string> FilesNotParsed);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_CUDA_TIDY_SARIFEXPORT_H
