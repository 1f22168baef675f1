//===--- CudaCompileDb.cpp - Compile databases for the drivers ------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "tools/common/CudaCompileDb.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using clang::tooling::CompileCommand;

namespace cuda_tidy {

void TranslationLog::warn(StringRef File, const Twine &Message) {
  std::string Text = Message.str();
  if (!Seen.insert(Text).second)
    return;
  ++Count;
  OS << Tool << ": warning: " << Text;
  if (!File.empty())
    OS << " (first seen in the command for '" << File << "')";
  OS << "\n";
}

static std::optional<std::string> readFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return std::nullopt;
  return (*Buf)->getBuffer().str();
}

/// A clang command that compiles CUDA: a `.cu`/`.cuh` file, or `-x cuda`.
static bool compilesCuda(StringRef File, ArrayRef<std::string> Args) {
  for (size_t I = 0; I + 1 < Args.size(); ++I)
    if (Args[I] == "-x")
      return Args[I + 1] == "cuda";
  for (const std::string &A : Args)
    if (A == "-xcuda")
      return true;
  StringRef Ext = sys::path::extension(File);
  return Ext == ".cu" || Ext == ".cuh";
}

std::vector<CompileCommand>
translateCompileCommand(const CompileCommand &Command,
                        const CompileDbOptions &Opts, TranslationLog &Log) {
  std::vector<std::string> Args = Command.CommandLine;
  if (isNvccCommand(Args)) {
    NvccTranslateOptions TOpts;
    TOpts.ClangExecutable = Opts.ClangExecutable;
    TOpts.CudaPath = Opts.CudaPath;
    TOpts.Directory = Command.Directory;
    NvccTranslation T = translateNvccCommand(Args, TOpts, readFile);
    for (const std::string &U : T.Untranslated)
      Log.warn(Command.Filename,
               "nvcc option '" + U + "' has no clang equivalent; ignored");
    for (const std::string &P : T.Problems)
      Log.warn(Command.Filename, P);
    Args = std::move(T.Args);
    // nvcc compiles for its default architecture when none is named; clang's
    // default (sm_52) is not one that CUDA 13 supports.
    if (T.GpuArchs.empty() && Opts.Archs.empty())
      Args.insert(Args.begin() + 1,
                  std::string("--cuda-gpu-arch=") + NvccDefaultArch);
  } else if (compilesCuda(Command.Filename, Args) &&
             llvm::none_of(Args, [](StringRef A) {
               return A.contains("_CG_CLUSTER_INTRINSICS_AVAILABLE");
             })) {
    // CUDA 13's cooperative groups declare the cluster API (this_cluster,
    // cluster_group) only for nvcc unless this is set; clang 22 parses them
    // with it, so that cluster kernels are not clang errors.
    Args.insert(Args.begin() + 1, "-D_CG_CLUSTER_INTRINSICS_AVAILABLE");
  }

  std::vector<CompileCommand> Out;
  if (!Opts.SplitJobs) {
    if (!Opts.Archs.empty()) {
      // The first architecture is the one a single-job tool analyses.
      std::vector<CudaJob> Jobs =
          splitCudaJobs(Args, Opts.Archs, CudaSides{false, true});
      if (Jobs.size() == 1 && !Jobs.front().Side.empty()) {
        Args = std::move(Jobs.front().Args);
      }
    }
    Out.push_back(Command);
    Out.back().CommandLine = std::move(Args);
    return Out;
  }
  for (CudaJob &J : splitCudaJobs(Args, Opts.Archs, Opts.Sides)) {
    Out.push_back(Command);
    Out.back().CommandLine = std::move(J.Args);
    if (!J.Side.empty())
      Out.back().Heuristic = J.Side;
  }
  return Out;
}

bool hasNvccCommands(const clang::tooling::CompilationDatabase &DB) {
  for (const CompileCommand &C : DB.getAllCompileCommands())
    if (isNvccCommand(C.CommandLine))
      return true;
  return false;
}

Error writeJsonDatabase(StringRef Path, ArrayRef<CompileCommand> Commands) {
  json::Array Entries;
  for (const CompileCommand &C : Commands) {
    json::Array Arguments;
    for (const std::string &A : C.CommandLine)
      Arguments.push_back(A);
    json::Object Entry{{"directory", C.Directory},
                       {"file", C.Filename},
                       {"arguments", std::move(Arguments)}};
    if (!C.Output.empty())
      Entry["output"] = C.Output;
    Entries.push_back(std::move(Entry));
  }
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC)
    return createStringError(EC, "cannot write '%s': %s", Path.str().c_str(),
                             EC.message().c_str());
  OS << formatv("{0:2}", json::Value(std::move(Entries))) << "\n";
  return Error::success();
}

} // namespace cuda_tidy
