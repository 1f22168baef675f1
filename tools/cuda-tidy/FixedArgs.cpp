//===--- FixedArgs.cpp - The compiler arguments after "--" ----------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "tools/cuda-tidy/FixedArgs.h"
#include "tools/common/NvccArgs.h"
#include "clang/Options/Options.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

using namespace llvm;
using clang::tooling::CompilationDatabase;
using clang::tooling::CompileCommand;

namespace cuda_tidy {

/// The nvcc that argv[0] of translated commands names: the toolkit's, where
/// it is known, so that the translation finds its headers.
static std::string findNvcc(StringRef CudaPath) {
  auto InToolkit = [](StringRef Root) -> std::optional<std::string> {
    SmallString<256> P(Root);
    sys::path::append(P, "bin", "nvcc");
    if (sys::fs::can_execute(P))
      return P.str().str();
    return std::nullopt;
  };
  if (!CudaPath.empty())
    if (auto P = InToolkit(CudaPath))
      return *P;
  if (ErrorOr<std::string> P = sys::findProgramByName("nvcc"))
    return *P;
  if (std::optional<std::string> Env = sys::Process::GetEnv("CUDA_PATH"))
    if (auto P = InToolkit(*Env))
      return *P;
  if (auto P = InToolkit("/usr/local/cuda"))
    return *P;
  return "nvcc";
}

/// Options nvcc reads that clang also parses, with another meaning: clang
/// would take `-arch sm_90` as a Darwin architecture and `-x cu` as an
/// unknown language.
static bool isNvccSpelling(ArrayRef<std::string> Args, size_t I) {
  StringRef Arg = Args[I];
  if (Arg == "-arch" || Arg == "--gpu-architecture")
    return true;
  return Arg == "-x" && I + 1 < Args.size() && Args[I + 1] == "cu";
}

/// The options of \p Args that clang's driver does not know, as written.
static StringSet<> unknownToClang(ArrayRef<std::string> Args) {
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  unsigned MissingIndex = 0, MissingCount = 0;
  const opt::OptTable &Table = clang::getDriverOptTable();
  opt::InputArgList List = Table.ParseArgs(Argv, MissingIndex, MissingCount);
  StringSet<> Unknown;
  for (const opt::Arg *A : List)
    if (A->getOption().getKind() == opt::Option::UnknownClass)
      Unknown.insert(List.getArgString(A->getIndex()));
  return Unknown;
}

FixedArgsReading readFixedArgs(ArrayRef<std::string> Args, StringRef CudaPath) {
  FixedArgsReading R;
  R.Nvcc = findNvcc(CudaPath);
  StringSet<> ClangUnknown = unknownToClang(Args);
  // What nvcc's translation leaves untranslated: options it does not know.
  std::vector<std::string> NvccArgv{R.Nvcc};
  llvm::append_range(NvccArgv, Args);
  NvccTranslateOptions TOpts;
  TOpts.CudaPath = CudaPath.str();
  NvccTranslation T = translateNvccCommand(
      NvccArgv, TOpts, [](StringRef) { return std::optional<std::string>(); });
  StringSet<> NvccUnknown;
  for (const std::string &U : T.Untranslated)
    NvccUnknown.insert(U);

  bool SaysNvcc = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    const std::string &A = Args[I];
    if (isNvccSpelling(Args, I))
      SaysNvcc = true;
    if (!ClangUnknown.contains(A))
      continue;
    if (NvccUnknown.contains(A))
      R.Unknown.push_back(A);
    else
      SaysNvcc = true;
  }
  R.IsNvcc = SaysNvcc;
  if (R.IsNvcc) {
    // Options only clang knows go to clang as they are: nvcc's translation
    // forwards what it does not know as host-compiler options.
    R.Args.push_back("-forward-unknown-to-host-compiler");
  }
  llvm::append_range(R.Args, Args);
  return R;
}

namespace {
/// Every file with the same nvcc command, in the working folder.
class NvccFixedDatabase : public CompilationDatabase {
public:
  NvccFixedDatabase(std::string Nvcc, std::vector<std::string> Args)
      : Nvcc(std::move(Nvcc)), Args(std::move(Args)) {
    SmallString<256> Cwd;
    if (!sys::fs::current_path(Cwd))
      Directory = Cwd.str().str();
    else
      Directory = ".";
  }

  std::vector<CompileCommand>
  getCompileCommands(StringRef FilePath) const override {
    std::vector<std::string> Command{Nvcc};
    llvm::append_range(Command, Args);
    Command.push_back(FilePath.str());
    return {CompileCommand(Directory, FilePath, std::move(Command), "")};
  }

private:
  std::string Nvcc;
  std::vector<std::string> Args;
  std::string Directory;
};
} // namespace

std::unique_ptr<CompilationDatabase>
makeFixedDatabase(const FixedArgsReading &Reading) {
  if (Reading.IsNvcc)
    return std::make_unique<NvccFixedDatabase>(Reading.Nvcc, Reading.Args);
  return std::make_unique<clang::tooling::FixedCompilationDatabase>(
      ".", Reading.Args);
}

} // namespace cuda_tidy
