//===--- PchCache.cpp - Precompiled CUDA headers shared by jobs -----------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "tools/cuda-tidy/PchCache.h"
#include "tools/common/ArchDependence.h"
#include "tools/common/CudaCompileDb.h"
#include "tools/cuda-tidy/KeyHasher.h"
#include "tools/cuda-tidy/ResultCache.h"
#include "lib/target/ArchPaths.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/LockFileManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using clang::tooling::CompileCommand;

namespace cuda_tidy {

namespace {
/// A file a PCH read: its path, size and modification time.
struct Dependency {
  std::string Path;
  uint64_t Size = 0;
  int64_t Time = 0;
};

std::optional<Dependency> statFile(StringRef Path) {
  sys::fs::file_status St;
  if (sys::fs::status(Path, St))
    return std::nullopt;
  return Dependency{Path.str(), St.getSize(),
                    St.getLastModificationTime().time_since_epoch().count()};
}

/// Builds the PCH of an empty main file and records what it read. The PCH
/// is refused (Clean set to false) when the build gives a diagnostic or
/// reads a file that is not a system header (other than the main file and
/// the compatibility header).
class RecordingPchAction : public clang::GeneratePCHAction {
public:
  RecordingPchAction(std::string Output, std::vector<StringRef> Own,
                     std::vector<Dependency> &Deps, bool &Clean)
      : Output(std::move(Output)), Own(std::move(Own)), Deps(Deps),
        Clean(Clean) {}

protected:
  bool BeginInvocation(clang::CompilerInstance &CI) override {
    CI.getFrontendOpts().OutputFile = Output;
    return clang::GeneratePCHAction::BeginInvocation(CI);
  }
  void EndSourceFileAction() override {
    clang::CompilerInstance &CI = getCompilerInstance();
    clang::SourceManager &SM = CI.getSourceManager();
    clang::HeaderSearch &HS = CI.getPreprocessor().getHeaderSearchInfo();
    for (auto It = SM.fileinfo_begin(), E = SM.fileinfo_end(); It != E; ++It) {
      clang::FileEntryRef FE = It->first;
      StringRef Name = FE.getName();
      bool Ours = llvm::any_of(
          Own, [&](StringRef O) { return sys::path::filename(O) ==
                                             sys::path::filename(Name) &&
                                         sys::fs::equivalent(O, Name); });
      if (!Ours && HS.getFileDirFlavor(FE) == clang::SrcMgr::C_User)
        Clean = false;
      SmallString<256> Abs(Name);
      sys::fs::make_absolute(Abs);
      if (std::optional<Dependency> D = statFile(Abs))
        Deps.push_back(std::move(*D));
      else
        Clean = false;
    }
    clang::GeneratePCHAction::EndSourceFileAction();
  }

private:
  std::string Output;
  std::vector<StringRef> Own;
  std::vector<Dependency> &Deps;
  bool &Clean;
};

/// Counts the diagnostics of a PCH build and prints none.
class CountingConsumer : public clang::DiagnosticConsumer {};

std::string joinPath(StringRef Dir, const Twine &Name) {
  SmallString<256> P(Dir);
  sys::path::append(P, Name);
  return P.str().str();
}

/// Whether \p Deps (a `.deps` file) exists and every file it lists still has
/// its size and modification time.
bool depsCurrent(StringRef DepsPath) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(DepsPath);
  if (!Buf)
    return false;
  SmallVector<StringRef, 256> Lines;
  (*Buf)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  if (Lines.empty())
    return false;
  for (StringRef Line : Lines) {
    auto [Size, Rest] = Line.split('\t');
    auto [Time, Path] = Rest.split('\t');
    uint64_t S;
    int64_t T;
    if (Size.getAsInteger(10, S) || Time.getAsInteger(10, T) || Path.empty())
      return false;
    std::optional<Dependency> Now = statFile(Path);
    if (!Now || Now->Size != S || Now->Time != T)
      return false;
  }
  return true;
}

/// Whether clang-tidy adds arguments of a configuration to the commands,
/// which the PCH's command would not have.
bool configAddsArguments(const PchInputs &In) {
  for (const std::string &C : In.Configs) {
    if (StringRef(C).contains("ExtraArgs"))
      return true;
    if (auto Buf = MemoryBuffer::getFile(C))
      if ((*Buf)->getBuffer().contains("ExtraArgs"))
        return true;
  }
  bool Adds = false;
  forEachConfigFile(In.Source, [&](StringRef, StringRef Text) {
    Adds |= Text.contains("ExtraArgs");
  });
  return Adds;
}

/// The index of the `-include` whose value is \p Compat, or std::nullopt
/// when the command force-includes anything else or names no compatibility
/// header; a command that is not one side of a CUDA file has none.
std::optional<size_t> compatInclude(ArrayRef<std::string> Args,
                                    StringRef Compat) {
  std::optional<size_t> At;
  bool OneSide = false;
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A == "--cuda-host-only" || A == "--cuda-device-only")
      OneSide = true;
    if (A == "-Xclang" || A.starts_with("-Xclang=") || A == "-imacros" ||
        A.starts_with("-include-pch") || A.starts_with("--include") ||
        A.starts_with("-fmodule") || A == "-fmodules")
      return std::nullopt;
    if (!A.starts_with("-include"))
      continue;
    if (A == "-include" && I + 1 < Args.size() && Args[I + 1] == Compat &&
        !At) {
      At = I++;
      continue;
    }
    return std::nullopt;
  }
  return OneSide ? At : std::nullopt;
}

/// Whether \p Arg defines one of the macros through which cuda-tidy tells
/// its checks about the job (the build's architectures, the architectures
/// a device parse stands for, the register counts' file). No header reads
/// them, and clang accepts a PCH built without a macro the command line
/// defines (it defines it after the PCH): they stay out of the PCH, so that
/// files of one build share it.
bool isOwnMacro(StringRef Arg) {
  if (!Arg.consume_front("-D"))
    return false;
  StringRef Name = Arg.split('=').first;
  return Name == BuildArchsMacroName || Name == GpuArchListMacro ||
         Name == ResourceUsageMacro || Name == ResourceUsageNameMacro;
}

/// The command that builds the PCH for \p Job: the job's, with the empty
/// file for the source and the folder's copy of the compatibility header,
/// adjusted as clang-tidy adjusts the job's.
std::vector<std::string> pchCommand(const CompileCommand &Job,
                                    const PchInputs &In, StringRef Empty,
                                    StringRef Compat) {
  SmallString<256> AbsSource(Job.Filename);
  if (!Job.Directory.empty())
    sys::path::make_absolute(Job.Directory, AbsSource);
  std::vector<std::string> Args;
  for (const std::string &A : Job.CommandLine) {
    if (isOwnMacro(A))
      continue;
    if (A == Job.Filename || A == AbsSource)
      Args.push_back(Empty.str());
    else if (A == In.CompatHeader)
      Args.push_back(Compat.str());
    else
      Args.push_back(A);
  }
  return asClangTidyRuns(std::move(Args), Empty, In.ExtraArgsBefore,
                         In.ExtraArgs);
}

/// Builds \p Pch for \p Job; writes \p Deps, or \p Skip when the PCH is
/// refused.
void buildPch(const CompileCommand &Job, const PchInputs &In, StringRef Pch,
              StringRef Deps, StringRef Skip, StringRef Compat) {
  std::string Empty =
      (Pch.drop_back(4) + sys::path::extension(Job.Filename)).str();
  if (!sys::fs::exists(Empty) && !writeFileAtomically(Empty, ""))
    return;
  std::vector<std::string> Args = pchCommand(Job, In, Empty, Compat);
  SmallString<256> Saved;
  sys::fs::current_path(Saved);
  bool Moved =
      !Job.Directory.empty() && !sys::fs::set_current_path(Job.Directory);
  scope_exit Restore([&] {
    if (Moved)
      sys::fs::set_current_path(Saved);
  });
  SmallString<256> Tmp;
  if (sys::fs::createUniqueFile(Pch + ".tmp-%%%%%%", Tmp))
    return;
  std::vector<Dependency> Read;
  bool Clean = true;
  IntrusiveRefCntPtr<clang::FileManager> FM =
      makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions(),
                                              vfs::getRealFileSystem());
  clang::tooling::ToolInvocation Invocation(
      Args,
      std::make_unique<RecordingPchAction>(
          Tmp.str().str(), std::vector<StringRef>{Empty, Compat}, Read, Clean),
      FM.get());
  CountingConsumer Count;
  Invocation.setDiagnosticConsumer(&Count);
  bool Ok = Invocation.run();
  if (!Ok || !Clean || Count.getNumWarnings() || Count.getNumErrors() ||
      Read.empty()) {
    sys::fs::remove(Tmp);
    writeFileAtomically(Skip, "");
    return;
  }
  llvm::sort(Read, [](const Dependency &A, const Dependency &B) {
    return A.Path < B.Path;
  });
  std::string Text;
  raw_string_ostream OS(Text);
  for (const Dependency &D : Read)
    OS << D.Size << '\t' << D.Time << '\t' << D.Path << '\n';
  // The PCH first: a reader takes it only with a current list.
  if (sys::fs::rename(Tmp, Pch)) {
    sys::fs::remove(Tmp);
    return;
  }
  writeFileAtomically(Deps, Text);
}
} // namespace

std::string pchShareKey(const CompileCommand &Command) {
  KeyHasher K;
  K.add(Command.Directory);
  SmallString<256> Abs(Command.Filename);
  if (!Command.Directory.empty())
    sys::path::make_absolute(Command.Directory, Abs);
  for (size_t I = 0; I < Command.CommandLine.size(); ++I) {
    StringRef A = Command.CommandLine[I];
    if (A == Command.Filename || A == Abs || A == Command.Output)
      continue;
    if (A == "-o") {
      ++I;
      continue;
    }
    K.add(A);
  }
  return K.hex();
}

PchStats usePrecompiledHeaders(std::vector<CompileCommand> &Jobs,
                               const PchInputs &In) {
  PchStats Stats;
  const bool Refused = In.CompatHeader.empty() ||
                       llvm::none_of(In.ExtraArgsBefore,
                                     [](StringRef A) {
                                       return A.starts_with("-resource-dir");
                                     }) ||
                       configAddsArguments(In);
  // The compatibility header's copy in the folder, named by its text.
  KeyHasher TextKey;
  TextKey.add(In.CompatText);
  std::string Compat =
      joinPath(In.Dir, "cuda_tidy_compat-" + TextKey.hex().substr(0, 16) +
                           ".h");
  for (CompileCommand &Job : Jobs) {
    std::optional<size_t> At;
    if (!Refused)
      At = compatInclude(Job.CommandLine, In.CompatHeader);
    if (!At || (!sys::fs::exists(Compat) &&
                !writeFileAtomically(Compat, In.CompatText))) {
      ++Stats.Plain;
      continue;
    }
    KeyHasher K;
    K.add("cuda-tidy pch 1");
    K.add(clang::getClangFullVersion());
    K.add(Job.Directory);
    K.add(sys::path::extension(Job.Filename));
    for (const std::string &A :
         pchCommand(Job, In, "<source>", "<compat>"))
      K.add(A);
    K.add(In.CompatText);
    std::string Key = K.hex();
    std::string Pch = joinPath(In.Dir, Key + ".pch");
    std::string Deps = joinPath(In.Dir, Key + ".deps");
    std::string Skip = joinPath(In.Dir, Key + ".skip");
    auto Current = [&] {
      return !sys::fs::exists(Skip) && sys::fs::exists(Pch) &&
             depsCurrent(Deps);
    };
    if (!Current() && !sys::fs::exists(Skip)) {
      LockFileManager Lock(Pch);
      Expected<bool> Owned = Lock.tryLock();
      if (!Owned) {
        consumeError(Owned.takeError());
      } else if (*Owned) {
        if (!Current() && !sys::fs::exists(Skip)) {
          buildPch(Job, In, Pch, Deps, Skip, Compat);
          ++Stats.Built;
        }
      } else {
        // Another worker builds it: a parse's time.
        (void)Lock.waitForUnlockFor(std::chrono::seconds(60));
      }
    }
    if (!Current()) {
      ++Stats.Plain;
      continue;
    }
    std::vector<std::string> &Args = Job.CommandLine;
    Args.erase(Args.begin() + *At, Args.begin() + *At + 2);
    Args.insert(Args.begin() + 1, {"-include-pch", Pch});
    ++Stats.Used;
  }
  return Stats;
}

} // namespace cuda_tidy
