//===--- CudaClangdMain.cpp - clangd with the cuda-tidy module ------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// cuda-clangd is clangd (clangdMain, unchanged command line) with the
// cuda-tidy module registered, so that `.clangd`'s
// `Diagnostics: ClangTidy: Add: [cuda-*]` shows cuda-tidy's warnings inline
// and offers their fix-its as quick fixes. clangd cannot load plugins.
//
// clangd reads compile_commands.json itself and has no plug point for
// another loader, so an nvcc database is handed to it translated: at start,
// cuda-clangd looks for the database clangd would use for the workspace
// (--compile-commands-dir, else compile_commands.json in the working folder
// or its build/ folder); when it holds nvcc commands, it writes their clang
// translation into a cache folder and starts clangd with
// --compile-commands-dir pointing there. A database that changes while the
// server runs is translated again at the next start.
//
//===----------------------------------------------------------------------===//

#include "checks/CudaTidyModule.h"
#include "clang-tidy/ClangTidyModule.h"
#include "tools/common/CudaCompileDb.h"
#include "tools/cuda-clangd/LspFilter.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA1.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>

using namespace llvm;

namespace clang::clangd {
int clangdMain(int argc, char *argv[]);
} // namespace clang::clangd

static clang::tidy::ClangTidyModuleRegistry::Add<cuda_tidy::CudaTidyModule>
    CudaModule(cuda_tidy::ModuleName, cuda_tidy::ModuleDescription);

/// The folder holding the workspace's compile_commands.json, if any.
// clangd's answer to "is this clang-tidy check fast enough to run while the
// user types?" comes from a table of timings compiled into libclangDaemon;
// checks it has not timed are dropped under its default FastCheckFilter
// (Strict). The link wraps that function (--wrap, tools/CMakeLists.txt):
// the cuda-* checks are fast (clangd's own --check-tidy-time measures each
// at 0-4% of an AST build, under clangd's 5% bar; docs/usage-editors.md),
// every other check gets clangd's answer.
#define CUDA_TIDY_IS_FAST_MANGLED                                              \
  "_ZN5clang6clangd15isFastTidyCheckEN4llvm9StringRefE"
std::optional<bool> realIsFastTidyCheck(StringRef Check) __asm__(
    "__real_" CUDA_TIDY_IS_FAST_MANGLED);
std::optional<bool> wrapIsFastTidyCheck(StringRef Check) __asm__(
    "__wrap_" CUDA_TIDY_IS_FAST_MANGLED);
std::optional<bool> wrapIsFastTidyCheck(StringRef Check) {
#define CUDA_TIDY_CHECK(Name, Class, Header, Summary)                          \
  if (Check == Name)                                                           \
    return true;
#include "checks/Checks.def"
  return realIsFastTidyCheck(Check);
}

static std::optional<std::string> findDatabaseDir(StringRef Given) {
  SmallVector<std::string, 2> Candidates;
  if (!Given.empty()) {
    Candidates.push_back(Given.str());
  } else {
    SmallString<256> Cwd;
    if (sys::fs::current_path(Cwd))
      return std::nullopt;
    Candidates.push_back(Cwd.str().str());
    SmallString<256> Build(Cwd);
    sys::path::append(Build, "build");
    Candidates.push_back(Build.str().str());
  }
  for (const std::string &Dir : Candidates) {
    SmallString<256> File(Dir);
    sys::path::append(File, "compile_commands.json");
    if (sys::fs::exists(File)) {
      SmallString<256> Real;
      if (!sys::fs::real_path(Dir, Real))
        return Real.str().str();
    }
  }
  return std::nullopt;
}

/// Writes the translation of an nvcc database into the cache; returns the
/// folder to give clangd, or std::nullopt to leave clangd's choice alone.
static std::optional<std::string>
translateDatabase(StringRef DbDir, const cuda_tidy::CompileDbOptions &Opts) {
  SmallString<256> File(DbDir);
  sys::path::append(File, "compile_commands.json");
  std::string LoadError;
  auto DB = clang::tooling::JSONCompilationDatabase::loadFromFile(
      File, LoadError, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!DB) {
    errs() << "cuda-clangd: warning: cannot read '" << File
           << "': " << LoadError << "; clangd reads it as it is\n";
    return std::nullopt;
  }
  if (!cuda_tidy::hasNvccCommands(*DB))
    return std::nullopt;

  // One cache folder per database: XDG cache / cuda-clangd / sha1(path).
  SmallString<256> Cache;
  if (!sys::path::cache_directory(Cache)) {
    errs() << "cuda-clangd: warning: no cache folder (set XDG_CACHE_HOME or "
              "HOME); nvcc commands are not translated\n";
    return std::nullopt;
  }
  sys::path::append(Cache, "cuda-clangd",
                    toHex(SHA1::hash(arrayRefFromStringRef(DbDir)),
                          /*LowerCase=*/true));
  if (std::error_code EC = sys::fs::create_directories(Cache)) {
    errs() << "cuda-clangd: warning: cannot create '" << Cache
           << "': " << EC.message() << "; nvcc commands are not translated\n";
    return std::nullopt;
  }
  cuda_tidy::CompileDbOptions WithCompat = Opts;
  if (Expected<std::string> Compat = cuda_tidy::writeCompatHeader(Cache))
    WithCompat.CompatHeader = *Compat;
  else
    errs() << "cuda-clangd: warning: " << toString(Compat.takeError())
           << "; nvcc-only constructs may not parse\n";
  cuda_tidy::TranslationLog Log("cuda-clangd", errs());
  std::vector<clang::tooling::CompileCommand> Commands;
  for (const clang::tooling::CompileCommand &C : DB->getAllCompileCommands())
    for (auto &T : cuda_tidy::translateCompileCommand(C, WithCompat, Log))
      Commands.push_back(std::move(T));

  SmallString<256> Out(Cache);
  sys::path::append(Out, "compile_commands.json");
  if (llvm::Error E = cuda_tidy::writeJsonDatabase(Out, Commands)) {
    errs() << "cuda-clangd: warning: " << toString(std::move(E))
           << "; nvcc commands are not translated\n";
    return std::nullopt;
  }
  errs() << "cuda-clangd: translated the nvcc commands of '" << File
         << "' into '" << Out << "'\n";
  return Cache.str().str();
}

/// Set in the environment of the clangd that runs behind the LSP filter.
static constexpr const char *InnerEnv = "CUDA_CLANGD_INNER";

/// Whether this command line starts the language server (not --check,
/// --help, --version and the like, which do not speak LSP).
static bool servesLsp(ArrayRef<std::string> Args) {
  for (StringRef A : Args.drop_front()) {
    StringRef Name = A.ltrim('-').split('=').first;
    if (A.starts_with("-") &&
        (Name == "check" || Name == "check-locations" ||
         Name == "check-tidy-time" || Name == "help" || Name == "h" ||
         Name == "version" || Name == "help-hidden"))
      return false;
  }
  return true;
}

int main(int argc, char *argv[]) {
  // The clangd behind the filter: its command line is ready.
  if (std::getenv(InnerEnv))
    return clang::clangd::clangdMain(argc, argv);
  std::vector<std::string> Args;
  std::string GivenDir;
  bool HasResourceDir = false;
  cuda_tidy::CompileDbOptions Opts;
  Opts.SplitJobs = false;
  Opts.ClangExecutable = CUDA_TIDY_CLANG;
  Args.push_back(argv[0]);
  for (int I = 1; I < argc; ++I) {
    StringRef Arg = argv[I];
    StringRef Name = Arg.ltrim('-');
    auto Value = [&](StringRef Opt, std::string &Out) {
      if (!Arg.starts_with("-") || !Name.starts_with(Opt))
        return false;
      StringRef Rest = Name.drop_front(Opt.size());
      if (Rest.consume_front("=")) {
        Out = Rest.str();
        return true;
      }
      if (!Rest.empty() || I + 1 >= argc)
        return false;
      Out = argv[++I];
      return true;
    };
    std::string V;
    if (Value("cuda-path", Opts.CudaPath))
      continue;
    if (Value("cuda-archs", V)) {
      std::string Error;
      auto Archs = cuda_tidy::parseCudaArchList(V, Error);
      if (!Archs) {
        errs() << "cuda-clangd: error: --cuda-archs: " << Error << "\n";
        return 1;
      }
      Opts.Archs = *Archs;
      continue;
    }
    if (Value("compile-commands-dir", GivenDir))
      continue;
    if (Name.starts_with("resource-dir"))
      HasResourceDir = true;
    Args.push_back(argv[I]);
  }

  std::optional<std::string> DbDir = findDatabaseDir(GivenDir);
  std::optional<std::string> Translated;
  if (DbDir)
    Translated = translateDatabase(*DbDir, Opts);
  if (Translated)
    Args.push_back("--compile-commands-dir=" + *Translated);
  else if (!GivenDir.empty())
    Args.push_back("--compile-commands-dir=" + GivenDir);
  // clangd looks for clang's resource headers beside its own binary.
  if (!HasResourceDir && sys::fs::is_directory(CUDA_TIDY_RESOURCE_DIR))
    Args.push_back(std::string("--resource-dir=") + CUDA_TIDY_RESOURCE_DIR);

  if (servesLsp(Args)) {
    ::setenv(InnerEnv, "1", 1);
    cuda_tidy::LspFilter Filter(CUDA_TIDY_DOCS_URL);
    return cuda_tidy::runFiltered(Args, Filter);
  }
  std::vector<char *> Argv;
  for (std::string &A : Args)
    Argv.push_back(A.data());
  Argv.push_back(nullptr);
  return clang::clangd::clangdMain(static_cast<int>(Argv.size() - 1),
                                   Argv.data());
}
