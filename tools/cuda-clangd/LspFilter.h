//===--- LspFilter.h - cuda-clangd's changes to clangd's messages -*- C++
//-*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// cuda-clangd runs clangd behind a thin filter of its Language Server
/// Protocol messages, for two things clangd decides by itself:
///  - the documentation link of a diagnostic (`codeDescription.href`):
///    clangd links every clang-tidy check to the upstream clang-tidy pages,
///    which do not exist for cuda-* checks; the filter links them to this
///    project's pages (<docs base URL><check>.md);
///  - the quick fixes of a cuda-* warning: clangd offers the fix attached to
///    a note (an unproven fix, which `--fix` leaves alone) like a proven one
///    and, when it is the only quick fix, marks it preferred, so that an
///    editor's "apply the preferred fix" applies it unasked. The filter
///    labels such a fix "(needs review)" and takes the preferred mark off.
///    A proven fix is the one whose title is the warning's own message
///    (clangd titles a diagnostic's fix with its message, a note's fix with
///    the note's); it stays preferred.
///
/// Everything else passes unchanged. The filter keeps, per code-action
/// request, the cuda-* diagnostics it was asked about, to classify the
/// answer's actions.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_CUDA_CLANGD_LSPFILTER_H
#define CUDA_TIDY_TOOLS_CUDA_CLANGD_LSPFILTER_H

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include <mutex>
#include <string>
#include <vector>

namespace cuda_tidy {

class LspFilter {
public:
  explicit LspFilter(std::string DocsBaseUrl)
      : DocsBaseUrl(std::move(DocsBaseUrl)) {}

  /// A message from the editor to clangd.
  void fromClient(llvm::json::Value &Message);
  /// A message from clangd to the editor.
  void fromServer(llvm::json::Value &Message);

  /// The label added to the title of an unproven fix.
  static constexpr const char *ReviewLabel = " (needs review)";

private:
  std::string DocsBaseUrl;
  std::mutex Mutex;
  /// Code-action requests in flight (by id): the messages of the cuda-*
  /// diagnostics they ask about.
  llvm::StringMap<std::vector<std::string>> Pending;
};

/// Runs clangd as a child process (argv: its command line) and copies the
/// LSP messages between this process's stdin/stdout and the child through
/// Filter. Returns the exit status to use.
int runFiltered(const std::vector<std::string> &Argv, LspFilter &Filter);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_CUDA_CLANGD_LSPFILTER_H
