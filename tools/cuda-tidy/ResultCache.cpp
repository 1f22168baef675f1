//===--- ResultCache.cpp - Replaying the analysis of unchanged files -----===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "tools/cuda-tidy/ResultCache.h"
#include "tools/common/CudaCompileDb.h"
#include "tools/cuda-tidy/KeyHasher.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include <set>

using namespace llvm;

namespace cuda_tidy {

namespace {
/// Preprocesses a command and records every file the preprocessor read,
/// with the SHA-256 of its contents.
class ReadFilesAction : public clang::PreprocessOnlyAction {
public:
  explicit ReadFilesAction(
      std::vector<std::pair<std::string, std::string>> &Files)
      : Files(Files) {}

protected:
  void EndSourceFileAction() override {
    clang::SourceManager &SM = getCompilerInstance().getSourceManager();
    for (auto It = SM.fileinfo_begin(), E = SM.fileinfo_end(); It != E; ++It) {
      std::string Digest;
      if (std::optional<StringRef> Data = It->second->getBufferDataIfLoaded())
        Digest = toHex(SHA256::hash(arrayRefFromStringRef(*Data)), true);
      // Relative names are relative to the command's folder, the current
      // one while the action runs.
      SmallString<256> Name(It->first.getName());
      sys::fs::make_absolute(Name);
      sys::path::remove_dots(Name, /*remove_dot_dot=*/false);
      Files.emplace_back(Name.str().str(), std::move(Digest));
    }
    clang::PreprocessOnlyAction::EndSourceFileAction();
  }

private:
  std::vector<std::pair<std::string, std::string>> &Files;
};
} // namespace

static std::string placeholder(StringRef S, StringRef TempDir) {
  if (TempDir.empty())
    return S.str();
  std::string Out = S.str();
  for (size_t Pos; (Pos = Out.find(TempDir.str())) != std::string::npos;)
    Out.replace(Pos, TempDir.size(), "<tmp>");
  return Out;
}

std::string computeCommandKey(const CacheKeyInputs &In) {
  KeyHasher K;
  K.add("cuda-tidy cache 2");
  K.add(CUDA_TIDY_VERSION);
  sys::fs::file_status Status;
  if (!sys::fs::status(In.Self, Status)) {
    K.add(std::to_string(Status.getSize()));
    K.add(std::to_string(
        Status.getLastModificationTime().time_since_epoch().count()));
  }
  SmallString<256> Cwd;
  if (!sys::fs::current_path(Cwd))
    K.add(Cwd);
  for (const std::string &A : In.Args)
    K.add(placeholder(A, In.TempDir));
  for (const std::string &A : In.ExtraArgsBefore)
    K.add(placeholder(A, In.TempDir));
  for (const std::string &A : In.ExtraArgs)
    K.add(placeholder(A, In.TempDir));

  // Configuration files, from the file's folder up.
  forEachConfigFile(In.Source, [&](StringRef Path, StringRef Text) {
    K.add(Path);
    K.add(Text);
  });
  for (const clang::tooling::CompileCommand &Job : In.Jobs) {
    K.add(Job.Directory);
    K.add(Job.Filename);
    for (const std::string &A : Job.CommandLine) {
      K.add(placeholder(A, In.TempDir));
      // The object file register counts are read from: its contents (a
      // fatbin the run compiles follows from the sources and the command).
      StringRef Define = A;
      if (Define.consume_front(std::string("-D") +
                               cuda_tidy::ResourceUsageMacro + "=\"") &&
          Define.consume_back("\"") && !Define.starts_with(In.TempDir))
        if (auto Buf = MemoryBuffer::getFile(Define.str(), /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false))
          K.add((*Buf)->getBuffer());
    }
  }
  return K.hex();
}

std::string computeCacheKey(const CacheKeyInputs &In, StringRef CommandKey,
                            std::vector<ReadFile> &Read) {
  KeyHasher K;
  K.add(CommandKey);
  std::set<ReadFile> All;
  // Every side: what its preprocessor read.
  for (const clang::tooling::CompileCommand &Job : In.Jobs) {
    std::vector<std::string> Args = asClangTidyRuns(
        Job.CommandLine, Job.Filename, In.ExtraArgsBefore, In.ExtraArgs);
    if (!Args.empty())
      Args.insert(Args.begin() + 1,
                  std::string("-resource-dir=") + CUDA_TIDY_RESOURCE_DIR);
    // Relative paths of the command are relative to its folder.
    SmallString<256> Saved;
    sys::fs::current_path(Saved);
    bool Moved =
        !Job.Directory.empty() && !sys::fs::set_current_path(Job.Directory);
    std::vector<std::pair<std::string, std::string>> Files;
    // The compiler instance keeps a reference: the manager is ref-counted.
    IntrusiveRefCntPtr<clang::FileManager> FM =
        makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions(),
                                                vfs::getRealFileSystem());
    clang::tooling::ToolInvocation Invocation(
        Args, std::make_unique<ReadFilesAction>(Files), FM.get());
    clang::IgnoringDiagConsumer Ignore;
    Invocation.setDiagnosticConsumer(&Ignore);
    K.add(Invocation.run() ? "ok" : "failed");
    if (Moved)
      sys::fs::set_current_path(Saved);
    llvm::sort(Files);
    for (const auto &[Name, Digest] : Files) {
      K.add(placeholder(Name, In.TempDir));
      K.add(Digest);
      // The run's own files (the compatibility header) are covered by the
      // executable's part of the key.
      if (In.TempDir.empty() || !StringRef(Name).starts_with(In.TempDir))
        All.insert({Name, Digest});
    }
  }
  Read.assign(All.begin(), All.end());
  return K.hex();
}

/// The folder of the file lists recorded for \p CommandKey.
static std::string manifestDir(StringRef Dir, StringRef CommandKey) {
  SmallString<256> P(Dir);
  sys::path::append(P, "manifests", CommandKey.take_front(2), CommandKey);
  return P.str().str();
}

std::optional<std::string> lookupManifest(StringRef Dir,
                                          StringRef CommandKey) {
  std::string MDir = manifestDir(Dir, CommandKey);
  std::error_code EC;
  std::vector<std::string> Lists;
  for (sys::fs::directory_iterator It(MDir, EC), E; It != E && !EC;
       It.increment(EC))
    if (!StringRef(sys::path::filename(It->path())).starts_with("tmp-"))
      Lists.push_back(It->path());
  llvm::sort(Lists);
  StringMap<std::optional<std::string>> Digests;
  auto DigestOf = [&](StringRef Path) -> std::optional<std::string> {
    auto [It, New] = Digests.try_emplace(Path);
    if (New)
      if (auto Buf = MemoryBuffer::getFile(Path))
        It->second = toHex(
            SHA256::hash(arrayRefFromStringRef((*Buf)->getBuffer())), true);
    return It->second;
  };
  for (const std::string &List : Lists) {
    auto Buf = MemoryBuffer::getFile(List);
    if (!Buf)
      continue;
    SmallVector<StringRef, 0> Lines;
    (*Buf)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
    bool Same = !Lines.empty();
    for (StringRef Line : Lines) {
      auto [Digest, Path] = Line.split(' ');
      std::optional<std::string> Now = DigestOf(Path);
      if (!Now || *Now != Digest) {
        Same = false;
        break;
      }
    }
    if (Same)
      return sys::path::filename(List).str();
  }
  return std::nullopt;
}

Error recordManifest(StringRef Dir, StringRef CommandKey, StringRef Key,
                     ArrayRef<ReadFile> Read) {
  std::string MDir = manifestDir(Dir, CommandKey);
  if (std::error_code EC = sys::fs::create_directories(MDir))
    return createStringError(EC, "cannot write into the cache '%s': %s",
                             Dir.str().c_str(), EC.message().c_str());
  SmallString<256> Final(MDir);
  sys::path::append(Final, Key);
  if (sys::fs::exists(Final))
    return Error::success();
  std::string Text;
  for (const ReadFile &F : Read)
    Text += F.Digest + " " + F.Path + "\n";
  if (!writeFileAtomically(Final, Text))
    return createStringError(std::errc::io_error,
                             "cannot write into the cache '%s'",
                             Dir.str().c_str());
  return Error::success();
}

static std::string entryPath(StringRef Dir, StringRef Key) {
  SmallString<256> P(Dir);
  sys::path::append(P, Key.take_front(2), Key);
  return P.str().str();
}

bool hasCacheEntry(StringRef Dir, StringRef Key) {
  SmallString<256> P(entryPath(Dir, Key));
  sys::path::append(P, "status");
  return sys::fs::exists(P);
}

bool writeFileAtomically(StringRef Path, StringRef Text) {
  SmallString<256> Tmp;
  int FD;
  if (sys::fs::createUniqueFile(Path + ".tmp-%%%%%%", FD, Tmp))
    return false;
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    if (OS.has_error()) {
      OS.clear_error();
      sys::fs::remove(Tmp);
      return false;
    }
  }
  if (sys::fs::rename(Tmp, Path)) {
    sys::fs::remove(Tmp);
    return false;
  }
  return true;
}

std::vector<std::string> asClangTidyRuns(std::vector<std::string> Args,
                                         StringRef File,
                                         ArrayRef<std::string> ExtraArgsBefore,
                                         ArrayRef<std::string> ExtraArgs) {
  Args = clang::tooling::getClangStripOutputAdjuster()(Args, File);
  Args = clang::tooling::getClangSyntaxOnlyAdjuster()(Args, File);
  Args = clang::tooling::getClangStripDependencyFileAdjuster()(Args, File);
  if (Args.empty())
    return Args;
  Args.insert(Args.begin() + 1, ExtraArgsBefore.begin(),
              ExtraArgsBefore.end());
  llvm::append_range(Args, ExtraArgs);
  return Args;
}

void forEachConfigFile(StringRef Source,
                       function_ref<void(StringRef Path, StringRef Text)> F) {
  SmallString<256> Dir(Source);
  sys::fs::make_absolute(Dir);
  for (StringRef D = sys::path::parent_path(Dir); !D.empty();
       D = sys::path::parent_path(D))
    for (StringRef Name : {".clang-tidy", "_clang-tidy"}) {
      SmallString<256> File(D);
      sys::path::append(File, Name);
      if (auto Buf = MemoryBuffer::getFile(File))
        F(File, (*Buf)->getBuffer());
    }
}

Error writeFileText(StringRef Path, StringRef Text) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
  if (EC)
    return createStringError(EC, "cannot write '%s': %s", Path.str().c_str(),
                             EC.message().c_str());
  OS << Text;
  return Error::success();
}

Expected<CachedResult> readCacheEntry(StringRef Dir, StringRef Key) {
  std::string Entry = entryPath(Dir, Key);
  auto Read = [&](StringRef Name) -> Expected<std::string> {
    SmallString<256> P(Entry);
    sys::path::append(P, Name);
    auto Buf = MemoryBuffer::getFile(P);
    if (!Buf)
      return createStringError(Buf.getError(), "cannot read '%s'", P.c_str());
    return (*Buf)->getBuffer().str();
  };
  CachedResult R;
  Expected<std::string> Status = Read("status");
  if (!Status)
    return Status.takeError();
  if (StringRef(*Status).trim().getAsInteger(10, R.Status))
    return createStringError("bad status in cache entry '%s'", Entry.c_str());
  for (auto [Name, Field] :
       {std::pair<StringRef, std::string *>{"out", &R.Out}, {"err", &R.Err}}) {
    Expected<std::string> Text = Read(Name);
    if (!Text)
      return Text.takeError();
    *Field = std::move(*Text);
  }
  SmallString<256> FixesPath(Entry);
  sys::path::append(FixesPath, "fixes.yaml");
  if (sys::fs::exists(FixesPath)) {
    Expected<std::string> Fixes = Read("fixes.yaml");
    if (!Fixes)
      return Fixes.takeError();
    R.Fixes = std::move(*Fixes);
  }
  return R;
}

Error storeCacheEntry(StringRef Dir, StringRef Key, StringRef Out,
                      StringRef Err, const std::optional<std::string> &Fixes,
                      int Status) {
  std::string Entry = entryPath(Dir, Key);
  if (sys::fs::exists(Entry))
    return Error::success();
  SmallString<256> Tmp;
  SmallString<256> Model(Dir);
  sys::path::append(Model, "tmp-%%%%%%%%");
  if (std::error_code EC = sys::fs::createUniqueDirectory(Model, Tmp))
    return createStringError(EC, "cannot write into the cache '%s': %s",
                             Dir.str().c_str(), EC.message().c_str());
  auto Write = [&](StringRef Name, StringRef Text) {
    SmallString<256> P(Tmp);
    sys::path::append(P, Name);
    return writeFileText(P, Text);
  };
  Error E = Write("out", Out);
  if (!E)
    E = Write("err", Err);
  if (!E && Fixes)
    E = Write("fixes.yaml", *Fixes);
  // Written last: an entry is complete when it has a status.
  if (!E)
    E = Write("status", std::to_string(Status) + "\n");
  if (!E) {
    sys::fs::create_directories(sys::path::parent_path(Entry));
    // Another run may have stored the same entry meanwhile: keep it.
    if (sys::fs::rename(Tmp, Entry) && !sys::fs::exists(Entry))
      E = createStringError("cannot store the cache entry '%s'", Entry.c_str());
  }
  sys::fs::remove_directories(Tmp);
  return E;
}

} // namespace cuda_tidy
