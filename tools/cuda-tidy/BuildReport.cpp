//===--- BuildReport.cpp - What a run's builds leave without code ---------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "tools/cuda-tidy/BuildReport.h"
#include "lib/OptionValues.h"
#include "tools/common/BuildCompatibility.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang-tidy/GlobList.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using clang::tooling::CompileCommand;

namespace cuda_tidy {

static constexpr StringLiteral CheckName = "cuda-target-compatibility";

/// The last value of clang-tidy's option \p Name in \p Args.
static std::optional<std::string> lastValue(ArrayRef<std::string> Args,
                                            StringRef Name) {
  std::optional<std::string> Value;
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (!A.starts_with("-"))
      continue;
    auto [Key, V] = A.ltrim('-').split('=');
    if (Key != Name)
      continue;
    if (A.contains('='))
      Value = V.str();
    else if (I + 1 < Args.size())
      Value = Args[++I];
  }
  return Value;
}

/// The options provider clang-tidy builds for these arguments.
static std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>
optionsProvider(ArrayRef<std::string> Args) {
  clang::tidy::ClangTidyGlobalOptions Global;
  clang::tidy::ClangTidyOptions Defaults =
      clang::tidy::ClangTidyOptions::getDefaults();
  clang::tidy::ClangTidyOptions Override;
  if (auto Checks = lastValue(Args, "checks"))
    Override.Checks = *Checks;
  if (auto WAE = lastValue(Args, "warnings-as-errors"))
    Override.WarningsAsErrors = *WAE;
  std::optional<std::string> ConfigText = lastValue(Args, "config");
  if (auto ConfigFile = lastValue(Args, "config-file")) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
        MemoryBuffer::getFile(*ConfigFile);
    if (Buf)
      ConfigText = (*Buf)->getBuffer().str();
  }
  if (ConfigText) {
    ErrorOr<clang::tidy::ClangTidyOptions> Parsed =
        clang::tidy::parseConfiguration(
            MemoryBufferRef(*ConfigText, "--config"));
    // clang-tidy itself reports a configuration it cannot parse.
    if (Parsed)
      return std::make_unique<clang::tidy::ConfigOptionsProvider>(
          Global, Defaults, *Parsed, Override);
  }
  return std::make_unique<clang::tidy::FileOptionsProvider>(Global, Defaults,
                                                            Override);
}

/// The JSON compilation database the run reads, if it is one.
static std::string databasePath(const BuildReportInputs &In) {
  SmallVector<std::string, 4> Dirs;
  if (In.BuildPath) {
    Dirs.push_back(*In.BuildPath);
  } else if (!In.Files.empty()) {
    for (StringRef D = sys::path::parent_path(In.Files.front()); !D.empty();
         D = sys::path::parent_path(D))
      Dirs.push_back(D.str());
  }
  for (const std::string &D : Dirs) {
    SmallString<256> P(D);
    sys::path::append(P, "compile_commands.json");
    if (sys::fs::exists(P)) {
      if (sys::fs::make_absolute(P))
        continue;
      sys::path::remove_dots(P, /*remove_dot_dot=*/true);
      return P.str().str();
    }
  }
  return "";
}

/// The offset of \p File's entry (its "file" key) in the database's text;
/// 0 when not found.
static unsigned entryOffset(StringRef Json, StringRef File) {
  StringRef Name = sys::path::filename(File);
  for (size_t At = Json.find("\"file\""); At != StringRef::npos;
       At = Json.find("\"file\"", At + 1)) {
    size_t Open = Json.find('"', Json.find(':', At + 6) + 1);
    if (Open == StringRef::npos)
      break;
    size_t Close = Json.find('"', Open + 1);
    std::string Value = Json.slice(Open + 1, Close).str();
    // JSON escapes paths may carry.
    for (size_t I = Value.find('\\'); I != std::string::npos;
         I = Value.find('\\', I + 1))
      Value.erase(I, 1);
    StringRef V = Value;
    if (sys::path::filename(V) != Name)
      continue;
    if (V == File || (!sys::path::is_absolute(V) &&
                      File.ends_with(("/" + V.ltrim("./")).str())))
      return At;
  }
  return 0;
}

static std::pair<unsigned, unsigned> lineColumn(StringRef Text,
                                                unsigned Offset) {
  unsigned Line = 1, Column = 1;
  for (size_t I = 0; I < Offset && I < Text.size(); ++I) {
    if (Text[I] == '\n') {
      ++Line;
      Column = 1;
    } else {
      ++Column;
    }
  }
  return {Line, Column};
}

BuildReportResult reportBuildCompatibility(const BuildReportInputs &In,
                                           raw_ostream &OS) {
  BuildReportResult Result;
  if (!In.DB)
    return Result;
  std::string DbPath = databasePath(In);
  if (DbPath.empty())
    return Result;
  std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> Provider =
      optionsProvider(In.ClangTidyArgs);

  std::vector<BuildCommand> Commands;
  StringMap<bool> Errors;
  for (const std::string &File : In.Files) {
    clang::tidy::ClangTidyOptions Opts = Provider->getOptions(File);
    if (!clang::tidy::GlobList(Opts.Checks.value_or("")).contains(CheckName))
      continue;
    std::optional<SmallVector<const ArchLimits *, 16>> Supported;
    if (std::optional<StringRef> Value =
            moduleOption(Opts.CheckOptions, SupportedArchitecturesOptionName)) {
      std::string Error;
      Supported = parseSupportedArchitectures(*Value, Error);
      if (!Supported)
        continue; // The check reports the bad value.
    }
    bool AsError = clang::tidy::GlobList(Opts.WarningsAsErrors.value_or(""))
                       .contains(CheckName);
    for (const CompileCommand &C : In.DB->getCompileCommands(File)) {
      std::optional<NvccTranslation> T = translateNvcc(C, In.DbOptions);
      if (!T)
        continue;
      BuildCommand B;
      B.File = File;
      B.Code = std::move(T->Code);
      if (!T->CudaPath.empty())
        B.Toolkit = toolkitVersion(T->CudaPath);
      B.Supported = Supported;
      Commands.push_back(std::move(B));
      Errors[File] = AsError;
    }
  }
  if (Commands.empty())
    return Result;
  // The same findings, naming the same file, whatever order the files were
  // given in.
  llvm::stable_sort(Commands, [](const BuildCommand &A, const BuildCommand &B) {
    return A.File < B.File;
  });

  SmallString<256> Cwd;
  bool HaveCwd = !sys::fs::current_path(Cwd);
  auto Display = [&](StringRef Path) {
    StringRef P = Path;
    if (HaveCwd && P.consume_front(Cwd) && P.consume_front("/"))
      return P.str();
    return Path.str();
  };
  std::vector<BuildFinding> Findings = judgeBuilds(Commands, Display);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Json = MemoryBuffer::getFile(DbPath);
  StringRef JsonText = Json ? (*Json)->getBuffer() : StringRef();
  Result.Diagnostics.MainSourceFile = DbPath;
  for (const BuildFinding &F : Findings) {
    unsigned Offset = entryOffset(JsonText, F.File);
    auto [Line, Column] = lineColumn(JsonText, Offset);
    bool AsError = F.Warning && Errors.lookup(F.File);
    Result.Failed |= AsError;
    OS << DbPath << ":" << Line << ":" << Column << ": "
       << (AsError ? "error" : F.Warning ? "warning" : "remark") << ": "
       << F.Message << " [" << CheckName
       << (AsError ? ",-warnings-as-errors" : "") << "]\n";
    std::string Note = F.Options == "nvcc's default"
                           ? std::string("no option names an architecture")
                           : "the code is chosen by '" + F.Options + "'";
    OS << DbPath << ":" << Line << ":" << Column << ": note: " << Note
       << "\n";

    clang::tooling::Diagnostic D;
    D.DiagnosticName = CheckName.str();
    D.DiagLevel = AsError     ? clang::tooling::Diagnostic::Error
                  : F.Warning ? clang::tooling::Diagnostic::Warning
                              : clang::tooling::Diagnostic::Remark;
    D.Message.Message = F.Message;
    D.Message.FilePath = DbPath;
    D.Message.FileOffset = Offset;
    clang::tooling::DiagnosticMessage N(Note);
    N.FilePath = DbPath;
    N.FileOffset = Offset;
    D.Notes.push_back(std::move(N));
    D.BuildDirectory = sys::path::parent_path(DbPath).str();
    Result.Diagnostics.Diagnostics.push_back(std::move(D));
  }
  OS.flush();
  return Result;
}

} // namespace cuda_tidy
