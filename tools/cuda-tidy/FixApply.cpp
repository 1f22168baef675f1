//===--- FixApply.cpp - Applying the fixes of many files once -------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "tools/cuda-tidy/FixApply.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Format/Format.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <set>
#include <tuple>

using namespace llvm;
using clang::tooling::Diagnostic;
using clang::tooling::Replacement;
using clang::tooling::Replacements;
using clang::tooling::TranslationUnitDiagnostics;

namespace cuda_tidy {

static std::string absolute(StringRef File, StringRef BuildDir) {
  SmallString<256> Path(File);
  if (!sys::path::is_absolute(Path) && !BuildDir.empty())
    sys::path::make_absolute(BuildDir, Path);
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return Path.str().str();
}

/// The line of \p Offset in \p File (1 when unreadable).
static unsigned lineOf(StringRef File, unsigned Offset) {
  auto Buf = MemoryBuffer::getFile(File);
  if (!Buf)
    return 1;
  StringRef Text = (*Buf)->getBuffer();
  return 1 + Text.take_front(Offset).count('\n');
}

namespace {
/// One diagnostic with a fix, with every fix the translation units gave it:
/// a diagnostic that files analyse differently (a header function whose
/// callers differ) has several.
struct Finding {
  const Diagnostic *D;
  std::string File;
  std::vector<std::vector<Replacement>> Fixes;
};

/// The edits taken so far, by file, all or nothing per finding.
class EditPlan {
public:
  /// Takes F's edits that are not already taken, unless one of them
  /// touches a taken edit: no overlap, and no two edits starting at one
  /// offset (two insertions there would both land, in no defined order).
  /// Returns whether it took them.
  bool take(const Finding &F);
  std::map<std::string, Replacements> ByFile;

private:
  using Edit = std::tuple<std::string, unsigned, unsigned, std::string>;
  static Edit key(const Replacement &R) {
    return Edit(R.getFilePath().str(), R.getOffset(), R.getLength(),
                R.getReplacementText().str());
  }
  std::set<Edit> Taken;
  std::map<std::string, std::vector<Replacement>> TakenByFile;
};
} // namespace

bool EditPlan::take(const Finding &F) {
  std::vector<Replacement> New;
  bool Conflict = false;
  for (const Replacement &R : F.Fixes.front()) {
    if (Taken.count(key(R)))
      continue;
    for (const Replacement &A : TakenByFile[R.getFilePath().str()])
      Conflict |= A.getOffset() == R.getOffset() ||
                  (A.getOffset() < R.getOffset() + R.getLength() &&
                   R.getOffset() < A.getOffset() + A.getLength());
    New.push_back(R);
  }
  // All or nothing: try the edits on copies first.
  std::map<std::string, Replacements> Trial;
  for (const Replacement &R : New) {
    if (Conflict)
      break;
    std::string Path = R.getFilePath().str();
    auto It = Trial.find(Path);
    if (It == Trial.end())
      It = Trial.emplace(Path, ByFile[Path]).first;
    if (Error E = It->second.add(R)) {
      consumeError(std::move(E));
      Conflict = true;
    }
  }
  if (Conflict)
    return false;
  for (auto &[Path, Repls] : Trial)
    ByFile[Path] = std::move(Repls);
  for (const Replacement &R : New) {
    Taken.insert(key(R));
    TakenByFile[R.getFilePath().str()].push_back(R);
  }
  return true;
}

/// Each diagnostic with a fix once, in order, with its fixes.
static std::vector<Finding>
collectFindings(ArrayRef<TranslationUnitDiagnostics> TUs, bool FixNotes) {
  std::vector<Finding> Findings;
  StringMap<size_t> Index;
  for (const TranslationUnitDiagnostics &TU : TUs)
    for (const Diagnostic &D : TU.Diagnostics) {
      const StringMap<Replacements> *Fix = clang::tidy::getFixIt(D, FixNotes);
      if (!Fix)
        continue;
      std::vector<Replacement> Edits;
      for (const auto &Entry : *Fix)
        for (const Replacement &R : Entry.second)
          if (R.isApplicable())
            Edits.emplace_back(absolute(R.getFilePath(), D.BuildDirectory),
                               R.getOffset(), R.getLength(),
                               R.getReplacementText());
      llvm::sort(Edits);
      std::string File = absolute(D.Message.FilePath, D.BuildDirectory);
      auto [It, New] = Index.try_emplace((D.DiagnosticName + "\n" + File +
                                          "\n" + Twine(D.Message.FileOffset) +
                                          "\n" + D.Message.Message)
                                             .str(),
                                         Findings.size());
      if (New)
        Findings.push_back({&D, File, {}});
      Finding &F = Findings[It->second];
      if (!llvm::is_contained(F.Fixes, Edits))
        F.Fixes.push_back(std::move(Edits));
    }
  return Findings;
}

/// Applies Repls to the file at Path, cleaned up and formatted in
/// FormatStyle; returns false (having said why) when it cannot.
static bool writeFixedFile(const std::string &Path, const Replacements &Repls,
                           StringRef FormatStyle) {
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf) {
    errs() << "cuda-tidy: error: cannot read '" << Path
           << "' to fix it: " << Buf.getError().message() << "\n";
    return false;
  }
  StringRef Code = (*Buf)->getBuffer();
  Replacements Final = Repls;
  Expected<clang::format::FormatStyle> Style = clang::format::getStyle(
      FormatStyle.empty() ? "none" : FormatStyle, Path, "none");
  if (!Style) {
    errs() << "cuda-tidy: warning: " << toString(Style.takeError())
           << "; fixes of '" << Path << "' applied without formatting\n";
  } else {
    if (auto Cleaned =
            clang::format::cleanupAroundReplacements(Code, Final, *Style))
      Final = std::move(*Cleaned);
    else
      consumeError(Cleaned.takeError());
    if (auto Formatted = clang::format::formatReplacements(Code, Final, *Style))
      Final = std::move(*Formatted);
    else
      consumeError(Formatted.takeError());
  }
  Expected<std::string> Fixed =
      clang::tooling::applyAllReplacements(Code, Final);
  if (!Fixed) {
    errs() << "cuda-tidy: error: cannot fix '" << Path
           << "': " << toString(Fixed.takeError()) << "\n";
    return false;
  }
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
  if (EC) {
    errs() << "cuda-tidy: error: cannot write '" << Path
           << "': " << EC.message() << "\n";
    return false;
  }
  OS << *Fixed;
  return true;
}

int applyFixesOnce(ArrayRef<TranslationUnitDiagnostics> TUs, bool FixErrors,
                   bool FixNotes, StringRef FormatStyle, bool Quiet) {
  bool FoundErrors = false;
  for (const TranslationUnitDiagnostics &TU : TUs)
    for (const Diagnostic &D : TU.Diagnostics)
      FoundErrors |= D.DiagLevel == Diagnostic::Error;
  if (FoundErrors && !FixErrors) {
    if (!Quiet)
      errs() << "Found compiler errors, but -fix-errors was not specified.\n"
                "Fixes have NOT been applied.\n\n";
    return 0;
  }

  EditPlan Plan;
  unsigned Total = 0, Applied = 0;
  for (const Finding &F : collectFindings(TUs, FixNotes)) {
    const Diagnostic &D = *F.D;
    Total += F.Fixes.front().size();
    auto Skip = [&](StringRef Why) {
      errs() << "cuda-tidy: warning: " << F.File << ":"
             << lineOf(F.File, D.Message.FileOffset) << ": the fix of '"
             << D.DiagnosticName << "' " << Why << "; not applied\n";
    };
    if (F.Fixes.size() > 1) {
      Skip("differs between the files that include it");
      continue;
    }
    if (!Plan.take(F)) {
      Skip("overlaps another fix");
      continue;
    }
    Applied += F.Fixes.front().size();
  }

  int Status = 0;
  for (auto &[Path, Repls] : Plan.ByFile)
    if (!Repls.empty() && !writeFixedFile(Path, Repls, FormatStyle))
      Status = 1;
  if (Total)
    errs() << "cuda-tidy: applied " << Applied << " of " << Total
           << " suggested fixes.\n";
  return Status;
}

} // namespace cuda_tidy
