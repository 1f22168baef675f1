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

  using Edit = std::tuple<std::string, unsigned, unsigned, std::string>;
  std::set<Edit> Taken;
  std::map<std::string, Replacements> ByFile;
  StringSet<> SeenDiags;
  unsigned Total = 0, Applied = 0;
  for (const TranslationUnitDiagnostics &TU : TUs)
    for (const Diagnostic &D : TU.Diagnostics) {
      std::string File = absolute(D.Message.FilePath, D.BuildDirectory);
      if (!SeenDiags
               .insert((D.DiagnosticName + "\n" + File + "\n" +
                        Twine(D.Message.FileOffset) + "\n" + D.Message.Message)
                           .str())
               .second)
        continue;
      const StringMap<Replacements> *Fix = clang::tidy::getFixIt(D, FixNotes);
      if (!Fix)
        continue;
      // The edits of this diagnostic not already taken from another one.
      std::vector<Replacement> New;
      unsigned Count = 0;
      for (const auto &Entry : *Fix)
        for (const Replacement &R : Entry.second) {
          if (!R.isApplicable())
            continue;
          ++Count;
          Replacement Abs(absolute(R.getFilePath(), D.BuildDirectory),
                          R.getOffset(), R.getLength(),
                          R.getReplacementText());
          if (!Taken.count({Abs.getFilePath().str(), Abs.getOffset(),
                            Abs.getLength(), Abs.getReplacementText().str()}))
            New.push_back(Abs);
        }
      Total += Count;
      // All or nothing: try the edits on copies first.
      std::map<std::string, Replacements> Trial;
      bool Conflict = false;
      for (const Replacement &R : New) {
        std::string Path = R.getFilePath().str();
        auto It = Trial.find(Path);
        if (It == Trial.end())
          It = Trial.emplace(Path, ByFile[Path]).first;
        if (Error E = It->second.add(R)) {
          consumeError(std::move(E));
          Conflict = true;
          break;
        }
      }
      if (Conflict) {
        errs() << "cuda-tidy: warning: the fix of '" << D.DiagnosticName
               << "' at " << File << ":" << D.Message.FileOffset
               << " overlaps another fix; not applied\n";
        continue;
      }
      for (auto &[Path, Repls] : Trial)
        ByFile[Path] = std::move(Repls);
      for (const Replacement &R : New)
        Taken.insert({R.getFilePath().str(), R.getOffset(), R.getLength(),
                      R.getReplacementText().str()});
      Applied += Count;
    }

  int Status = 0;
  for (auto &[Path, Repls] : ByFile) {
    if (Repls.empty())
      continue;
    auto Buf = MemoryBuffer::getFile(Path);
    if (!Buf) {
      errs() << "cuda-tidy: error: cannot read '" << Path
             << "' to fix it: " << Buf.getError().message() << "\n";
      Status = 1;
      continue;
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
      if (auto Formatted =
              clang::format::formatReplacements(Code, Final, *Style))
        Final = std::move(*Formatted);
      else
        consumeError(Formatted.takeError());
    }
    Expected<std::string> Fixed =
        clang::tooling::applyAllReplacements(Code, Final);
    if (!Fixed) {
      errs() << "cuda-tidy: error: cannot fix '" << Path
             << "': " << toString(Fixed.takeError()) << "\n";
      Status = 1;
      continue;
    }
    std::error_code EC;
    raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
    if (EC) {
      errs() << "cuda-tidy: error: cannot write '" << Path
             << "': " << EC.message() << "\n";
      Status = 1;
      continue;
    }
    OS << *Fixed;
  }
  if (Total)
    errs() << "cuda-tidy: applied " << Applied << " of " << Total
           << " suggested fixes.\n";
  return Status;
}

} // namespace cuda_tidy
