//===--- RunSummary.cpp - What a run found, from its exported fixes ------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "tools/cuda-tidy/RunSummary.h"
#include "tools/cuda-tidy/SarifExport.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using clang::tooling::Diagnostic;
using clang::tooling::DiagnosticMessage;
using clang::tooling::TranslationUnitDiagnostics;

namespace cuda_tidy {

static bool hasFix(const DiagnosticMessage &M) {
  for (const auto &Entry : M.Fix)
    if (!Entry.second.empty())
      return true;
  return false;
}

unsigned countFixesWaitingOnNotes(ArrayRef<TranslationUnitDiagnostics> TUs) {
  StringSet<> Seen;
  for (const TranslationUnitDiagnostics &TU : TUs)
    for (const Diagnostic &D : TU.Diagnostics) {
      if (hasFix(D.Message) || llvm::none_of(D.Notes, hasFix))
        continue;
      Seen.insert((D.DiagnosticName + "\n" + D.Message.FilePath + "\n" +
                   Twine(D.Message.FileOffset))
                      .str());
    }
  return Seen.size();
}

std::map<std::string, unsigned>
countWarningsByFile(ArrayRef<TranslationUnitDiagnostics> TUs) {
  std::map<std::string, StringSet<>> Seen;
  for (const TranslationUnitDiagnostics &TU : TUs) {
    StringSet<> &Keys = Seen[TU.MainSourceFile];
    for (const Diagnostic &D : TU.Diagnostics)
      if (D.DiagLevel == Diagnostic::Warning ||
          D.DiagLevel == Diagnostic::Error)
        Keys.insert((D.DiagnosticName + "\n" + D.Message.FilePath + "\n" +
                     Twine(D.Message.FileOffset) + "\n" + D.Message.Message)
                        .str());
  }
  std::map<std::string, unsigned> Counts;
  for (const auto &[File, Keys] : Seen)
    Counts[File] = Keys.size();
  return Counts;
}

Error dropNoteFixes(StringRef Path, unsigned *Waiting) {
  *Waiting = 0;
  if (!sys::fs::exists(Path))
    return Error::success();
  Expected<std::vector<TranslationUnitDiagnostics>> TUs =
      readExportedDiagnostics(Path);
  if (!TUs)
    return TUs.takeError();
  *Waiting = countFixesWaitingOnNotes(*TUs);
  bool Changed = false;
  for (TranslationUnitDiagnostics &TU : *TUs)
    for (Diagnostic &D : TU.Diagnostics)
      for (DiagnosticMessage &Note : D.Notes)
        if (!Note.Fix.empty()) {
          Note.Fix.clear();
          Changed = true;
        }
  if (!Changed)
    return Error::success();
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC)
    return createStringError(EC, "cannot write '%s': %s", Path.str().c_str(),
                             EC.message().c_str());
  yaml::Output YAML(OS);
  for (TranslationUnitDiagnostics &TU : *TUs)
    YAML << TU;
  return Error::success();
}

unsigned RunCounts::warnings() const {
  unsigned N = 0;
  for (const auto &[Check, Count] : WarningsByCheck)
    N += Count;
  return N;
}

RunCounts countRun(ArrayRef<TranslationUnitDiagnostics> TUs, unsigned Files) {
  RunCounts Counts;
  Counts.Files = Files;
  StringSet<> Seen, Broken;
  for (const TranslationUnitDiagnostics &TU : TUs)
    for (const Diagnostic &D : TU.Diagnostics) {
      if (D.DiagLevel == Diagnostic::Error) {
        if (Broken.insert(TU.MainSourceFile).second)
          Counts.NotParsed.push_back(TU.MainSourceFile);
        continue;
      }
      if (D.DiagLevel != Diagnostic::Warning)
        continue;
      if (!Seen.insert((D.DiagnosticName + "\n" + D.Message.FilePath + "\n" +
                        Twine(D.Message.FileOffset) + "\n" + D.Message.Message)
                           .str())
               .second)
        continue;
      ++Counts.WarningsByCheck[D.DiagnosticName];
      if (hasFix(D.Message))
        ++Counts.FixesAvailable;
      else if (llvm::any_of(D.Notes, hasFix))
        ++Counts.FixesOnNotes;
    }
  llvm::sort(Counts.NotParsed);
  return Counts;
}

static std::string plural(unsigned N, StringRef One, StringRef Many) {
  return (Twine(N) + " " + (N == 1 ? One : Many)).str();
}

std::string formatRunSummary(const RunCounts &Counts) {
  std::string Out;
  raw_string_ostream OS(Out);
  OS << "cuda-tidy: " << plural(Counts.Files, "file", "files") << " analysed, "
     << plural(Counts.warnings(), "warning", "warnings");
  if (!Counts.WarningsByCheck.empty()) {
    OS << " (";
    ListSeparator Sep;
    for (const auto &[Check, Count] : Counts.WarningsByCheck)
      OS << Sep << Check << " " << Count;
    OS << ")";
  }
  OS << ", " << plural(Counts.FixesAvailable, "fix", "fixes") << " available, "
     << plural(Counts.FixesOnNotes, "fix needs", "fixes need") << " review, "
     << plural(Counts.NotParsed.size(), "file", "files") << " did not parse";
  return Out;
}

bool isToolingProgressLine(StringRef Line) {
  static const Regex Progress(
      "^\\[[0-9]+/[0-9]+\\]( \\([0-9]+/[0-9]+\\))? Processing file .*\\.$");
  return Progress.match(Line.rtrim("\r"));
}

std::string dropToolingProgressLines(StringRef Text) {
  std::string Out;
  Out.reserve(Text.size());
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    bool HadNewline = Text.size() > Line.size();
    if (!isToolingProgressLine(Line)) {
      Out += Line;
      if (HadNewline)
        Out += '\n';
    }
    Text = Rest;
  }
  return Out;
}

} // namespace cuda_tidy
