//===--- CudaTidyMain.cpp - The cuda-tidy driver --------------------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// cuda-tidy is clang-tidy with the cuda-tidy module built in. Its command
// line is clang-tidy's own (clangTidyMain parses it), plus a few options of
// its own that it takes out before clang-tidy sees the rest:
//
//   1. It finds the compilation database the command names (-p, the folders
//      above the first source, or the flags after "--"), translates each
//      source's commands (nvcc's into clang's) and splits CUDA commands into
//      one job per side: the host and each device architecture.
//   2. It writes those jobs into a private JSON database and runs clang-tidy
//      on it. clang-tidy runs every command of a file and merges identical
//      diagnostics, so a warning both sides give is reported once.
//   3. For --export-sarif it has clang-tidy export its diagnostics and
//      writes them as SARIF, again one result per (check, message, file,
//      offset).
//
// The plugin (checks/PluginMain.cpp) is not linked: the module registers
// here.
//
//===----------------------------------------------------------------------===//

#include "checks/CudaTidyModule.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang-tidy/tool/ClangTidyMain.h"
#include "tools/common/CudaCompileDb.h"
#include "tools/cuda-tidy/BuildReport.h"
#include "tools/cuda-tidy/FixedArgs.h"
#include "tools/cuda-tidy/ParallelRun.h"
#include "tools/cuda-tidy/PchCache.h"
#include "tools/cuda-tidy/ResultCache.h"
#include "tools/cuda-tidy/RunSummary.h"
#include "tools/cuda-tidy/SarifExport.h"
#include "tools/cuda-tidy/StderrCapture.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using clang::tooling::CompilationDatabase;
using clang::tooling::CompileCommand;

namespace {
/// Chooses cuda-tidy's default checks: the cuda-* checks and the compiler's
/// diagnostics (clang-diagnostic-*), without clang-tidy's other default,
/// the clang static analyzer (clang-analyzer-*), which is slow on CUDA
/// translation units and reports on thrust and cub rather than on the CUDA
/// hazards users run cuda-tidy for. Module options are merged after
/// clang-tidy's own defaults and before any configuration file or
/// --checks, so a configuration can still turn either on or off.
class DefaultChecksModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &) override {}
  clang::tidy::ClangTidyOptions getModuleOptions() override {
    clang::tidy::ClangTidyOptions Options;
    Options.Checks = "-clang-analyzer-*,cuda-*";
    return Options;
  }
};

/// The command line, split into what cuda-tidy takes and what it forwards.
struct Invocation {
  std::vector<std::string> Forward;
  std::optional<std::string> BuildPath;
  std::vector<std::string> Sources;
  std::vector<size_t> SourceIndices;
  std::optional<std::vector<std::string>> FixedArgs;
  /// FixedArgs read as clang's or nvcc's arguments.
  cuda_tidy::FixedArgsReading Fixed;
  std::string SarifPath;
  std::string SarifRoot;
  std::string ExportFixes;
  cuda_tidy::CompileDbOptions Db;
};
} // namespace

static clang::tidy::ClangTidyModuleRegistry::Add<cuda_tidy::CudaTidyModule>
    CudaModule(cuda_tidy::ModuleName, cuda_tidy::ModuleDescription);
static clang::tidy::ClangTidyModuleRegistry::Add<DefaultChecksModule>
    DefaultChecks("cuda-tidy-defaults",
                  "Turns the cuda-* checks on in cuda-tidy.");

static cl::extrahelp CudaTidyHelp(R"(
cuda-tidy options (taken out before clang-tidy parses the rest):
  --export-sarif=<file>     Write the diagnostics as a SARIF 2.1.0 log.
  --sarif-root=<dir>        Make SARIF locations relative to <dir> (default:
                            the working folder).
  --cuda-archs=<list>       Device architectures to analyse, e.g.
                            sm_90,sm_100a (default: those the compile command
                            names; sm_75, nvcc's default, for an nvcc command
                            that names none).
  --cuda-sides=<list>       host, device or host,device (default).
  --cuda-arch-parse=<mode>  once-when-possible (default): one device parse
                            for all architectures when the file's own code
                            does not vary by architecture; each: one per
                            architecture.
  --cuda-path=<dir>         The CUDA toolkit for translated nvcc commands
                            (default: the one the command's nvcc belongs to).
  --resource-usage=<mode>   Where cuda-launch-resources reads kernel register
                            counts: object (default): the object file the
                            compile command writes, when it is newer than
                            the source; compile: that, else the device code
                            compiled with the command's nvcc (--fatbin);
                            none: nowhere.
  -j <n>                    Analyse <n> files at once (default: the number
                            of cores). Output comes in the order of the
                            files whatever <n> is.
  --shard=<k>/<n>           Analyse the k-th of n parts of the files (parts
                            balanced by size), for a CI matrix of n jobs.
  --cache-dir=<dir>         Replay the results of files whose inputs did not
                            change since a run with the same <dir>.
  --pch-cache=<dir>         Keep the CUDA headers every job parses first
                            (clang's CUDA wrapper, cuda_runtime.h) in <dir>
                            as precompiled headers, one per distinct
                            command, for later runs (default: the
                            CUDA_TIDY_PCH_CACHE environment variable; else
                            a run of several files shares them between the
                            files of one command, for that run only).
  --no-pch                  Parse those headers in every job.
  --progress, --no-progress Show (hide) the progress line (default: shown
                            when stderr is a terminal).
  --merge-sarif=<out> <in>...
                            Merge the SARIF logs of shards into one.
  --print-compat-header     Print the compatibility header cuda-tidy
                            force-includes into CUDA commands (for plain
                            clang-tidy: save it and pass -include FILE).

cuda-tidy reads compilation databases written for nvcc (CMake's LANGUAGES
CUDA): it translates nvcc's options into clang's and says which ones it could
not translate. Each CUDA file is analysed for the host and for each device
architecture; a diagnostic both give is reported once. With no configuration,
the cuda-* checks are on (with clang-tidy's defaults). With -p and no file,
every file of the database is analysed.
)");

static bool consumeValue(StringRef Arg, StringRef Name,
                         ArrayRef<std::string> Args, size_t &I,
                         std::string &Value, bool &Ok) {
  StringRef Stripped = Arg.ltrim('-');
  if (!Arg.starts_with("-"))
    return false;
  if (Stripped.consume_front(Name)) {
    if (Stripped.consume_front("=")) {
      Value = Stripped.str();
      return true;
    }
    if (!Stripped.empty())
      return false;
    if (I + 1 >= Args.size()) {
      errs() << "cuda-tidy: error: option '" << Arg << "' needs a value\n";
      Ok = false;
      return true;
    }
    Value = Args[++I];
    return true;
  }
  return false;
}

/// Whether clang-tidy's option \p Name takes its value from the next
/// argument when it is written without "=".
static bool takesSeparateValue(StringRef Name) {
  // CommonOptionsParser registers these only when clang-tidy runs.
  if (Name == "p" || Name == "extra-arg" || Name == "extra-arg-before")
    return true;
  auto &Opts = cl::getRegisteredOptions();
  auto It = Opts.find(Name);
  return It != Opts.end() &&
         It->second->getValueExpectedFlag() == cl::ValueRequired;
}

static bool parseInvocation(ArrayRef<std::string> Args, Invocation &Inv) {
  bool Ok = true;
  Inv.Forward.push_back(Args[0]);
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef Arg = Args[I];
    if (Arg == "--") {
      Inv.FixedArgs.emplace(Args.begin() + I + 1, Args.end());
      break;
    }
    std::string Value;
    if (consumeValue(Arg, "export-sarif", Args, I, Inv.SarifPath, Ok) ||
        consumeValue(Arg, "sarif-root", Args, I, Inv.SarifRoot, Ok) ||
        consumeValue(Arg, "cuda-path", Args, I, Inv.Db.CudaPath, Ok))
      continue;
    if (consumeValue(Arg, "cuda-archs", Args, I, Value, Ok)) {
      std::string Error;
      if (auto Archs = cuda_tidy::parseCudaArchList(Value, Error))
        Inv.Db.Archs = *Archs;
      else if (Ok) {
        errs() << "cuda-tidy: error: --cuda-archs: " << Error << "\n";
        Ok = false;
      }
      continue;
    }
    if (consumeValue(Arg, "cuda-arch-parse", Args, I, Value, Ok)) {
      std::string Error;
      if (auto Mode = cuda_tidy::parseArchParseMode(Value, Error))
        Inv.Db.ArchParse = *Mode;
      else if (Ok) {
        errs() << "cuda-tidy: error: --cuda-arch-parse: " << Error << "\n";
        Ok = false;
      }
      continue;
    }
    if (consumeValue(Arg, "resource-usage", Args, I, Value, Ok)) {
      std::string Error;
      if (auto Mode = cuda_tidy::parseResourceUsageMode(Value, Error))
        Inv.Db.ResourceUsage = *Mode;
      else if (Ok) {
        errs() << "cuda-tidy: error: --resource-usage: " << Error << "\n";
        Ok = false;
      }
      continue;
    }
    if (consumeValue(Arg, "cuda-sides", Args, I, Value, Ok)) {
      std::string Error;
      if (auto Sides = cuda_tidy::parseCudaSides(Value, Error))
        Inv.Db.Sides = *Sides;
      else if (Ok) {
        errs() << "cuda-tidy: error: --cuda-sides: " << Error << "\n";
        Ok = false;
      }
      continue;
    }
    if (consumeValue(Arg, "p", Args, I, Value, Ok)) {
      Inv.BuildPath = Value;
      continue;
    }
    if (consumeValue(Arg, "export-fixes", Args, I, Inv.ExportFixes, Ok)) {
      Inv.Forward.push_back("--export-fixes=" + Inv.ExportFixes);
      continue;
    }
    Inv.Forward.push_back(Args[I]);
    if (!Arg.starts_with("-") || Arg == "-") {
      Inv.Sources.push_back(Args[I]);
      Inv.SourceIndices.push_back(I);
      continue;
    }
    StringRef Name = Arg.ltrim('-');
    if (!Name.contains('=') && takesSeparateValue(Name) && I + 1 < Args.size())
      Inv.Forward.push_back(Args[++I]);
  }
  return Ok;
}

/// Loads the database clang-tidy would load for this command line.
static std::unique_ptr<CompilationDatabase>
loadDatabase(const Invocation &Inv, StringRef FirstSource) {
  if (Inv.FixedArgs)
    return cuda_tidy::makeFixedDatabase(Inv.Fixed);
  // A typo in -p must fail a CI job, not analyse with whatever database a
  // parent folder holds, or without flags.
  if (Inv.BuildPath && !sys::fs::is_directory(*Inv.BuildPath)) {
    errs() << "cuda-tidy: error: -p: no folder '" << *Inv.BuildPath << "'\n";
    return nullptr;
  }
  std::string Error;
  std::unique_ptr<CompilationDatabase> DB =
      Inv.BuildPath
          ? CompilationDatabase::autoDetectFromDirectory(*Inv.BuildPath, Error)
          : CompilationDatabase::autoDetectFromSource(FirstSource, Error);
  if (!DB && Inv.BuildPath) {
    errs() << "cuda-tidy: error: -p: no compilation database in '"
           << *Inv.BuildPath << "' or above it: " << Error << "\n";
    return nullptr;
  }
  if (!DB) {
    errs() << "Error while trying to load a compilation database:\n"
           << Error << "Running without flags.\n";
    DB = std::make_unique<clang::tooling::FixedCompilationDatabase>(
        ".", std::vector<std::string>());
  }
  return DB;
}

/// A header by its extension: `.h`, `.cuh`, `.hpp` and the like.
static bool isHeaderFile(StringRef Path) {
  StringRef Ext = sys::path::extension(Path).ltrim('.');
  return llvm::is_contained({"h", "cuh", "hpp", "hh", "hxx", "inl", "inc"},
                            Ext.lower());
}

static std::string absolutePath(StringRef Path) {
  SmallString<256> Abs(Path);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return Abs.str().str();
}

/// Whether the nearest .clang-tidy (or _clang-tidy) in \p Dir or above it
/// sets Checks.
static bool configSetsChecks(StringRef Dir) {
  SmallString<256> Path(Dir);
  sys::fs::make_absolute(Path);
  for (StringRef D = Path; !D.empty(); D = sys::path::parent_path(D)) {
    for (StringRef Name : {".clang-tidy", "_clang-tidy"}) {
      SmallString<256> File(D);
      sys::path::append(File, Name);
      ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(File);
      if (!Buf)
        continue;
      ErrorOr<clang::tidy::ClangTidyOptions> Parsed =
          clang::tidy::parseConfiguration((*Buf)->getMemBufferRef());
      return !Parsed || Parsed->Checks.has_value();
    }
  }
  return false;
}

/// Whether \p Forward names one of clang-tidy's options in \p Names.
static bool hasOption(ArrayRef<std::string> Forward,
                      std::initializer_list<StringRef> Names) {
  for (StringRef Arg : Forward.drop_front()) {
    if (!Arg.starts_with("-"))
      continue;
    StringRef Name = Arg.ltrim('-').split('=').first;
    if (llvm::is_contained(Names, Name))
      return true;
  }
  return false;
}

static int
writeSarif(const Invocation &Inv, StringRef FixesPath,
           ArrayRef<clang::tooling::TranslationUnitDiagnostics> Extra,
           const cuda_tidy::RunCounts &Counts) {
  std::vector<clang::tooling::TranslationUnitDiagnostics> TUs;
  if (sys::fs::exists(FixesPath)) {
    auto Read = cuda_tidy::readExportedDiagnostics(FixesPath);
    if (!Read) {
      errs() << "cuda-tidy: error: " << toString(Read.takeError()) << "\n";
      return 1;
    }
    TUs = std::move(*Read);
  }
  llvm::append_range(TUs, Extra);
  cuda_tidy::SarifOptions Opts;
  Opts.ToolVersion = CUDA_TIDY_VERSION;
  Opts.DocsBaseUrl = CUDA_TIDY_DOCS_URL;
  SmallString<256> Root(Inv.SarifRoot.empty() ? "." : Inv.SarifRoot);
  if (sys::fs::real_path(Root, Root)) {
    errs() << "cuda-tidy: error: --sarif-root: no folder '" << Inv.SarifRoot
           << "'\n";
    return 1;
  }
  Opts.SourceRoot = Root.str().str();
  Opts.FilesAnalysed = Counts.Files;
  Opts.FilesNotParsed = Counts.NotParsed;
  std::error_code EC;
  raw_fd_ostream OS(Inv.SarifPath, EC, sys::fs::OF_Text);
  if (EC) {
    errs() << "cuda-tidy: error: cannot write '" << Inv.SarifPath
           << "': " << EC.message() << "\n";
    return 1;
  }
  OS << formatv("{0:2}", cuda_tidy::buildSarifLog(TUs, Opts)) << "\n";
  return 0;
}

/// Runs the files of the command line (or of the database) in parallel
/// workers: see ParallelRun.h.
static int runOrchestrator(ArrayRef<std::string> Args, const Invocation &Inv,
                           const cuda_tidy::ParallelOptions &POpts,
                           const char *Argv0) {
  std::unique_ptr<CompilationDatabase> DB = loadDatabase(
      Inv, Inv.Sources.empty() ? "" : absolutePath(Inv.Sources.front()));
  if (!DB)
    return 1;
  cuda_tidy::ParallelRunConfig Config;
  Config.Opts = POpts;
  std::vector<std::string> Files;
  StringSet<> Seen;
  if (Inv.Sources.empty()) {
    Files = DB->getAllFiles();
    llvm::sort(Files);
    Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
    if (Files.empty()) {
      errs() << "cuda-tidy: error: no files to analyse: name them, or give "
                "-p a folder whose database lists some\n";
      return 1;
    }
  } else {
    for (const std::string &S : Inv.Sources)
      if (Seen.insert(absolutePath(S)).second)
        Files.push_back(S);
  }
  // The builds are judged over every file of the run, and said by the
  // first shard only, so that the shards' merged log is the whole run's.
  std::vector<std::string> RunFiles = Files;
  if (POpts.Shard)
    Files =
        cuda_tidy::selectShard(Files, POpts.Shard->first, POpts.Shard->second);
  Config.Files = Files;
  Config.Self = sys::fs::getMainExecutable(Argv0, (void *)&runOrchestrator);
  cuda_tidy::splitWorkerArgs(Args, Inv.SourceIndices, Config);

  SmallString<128> TempDir;
  if (std::error_code EC =
          sys::fs::createUniqueDirectory("cuda-tidy", TempDir)) {
    errs() << "cuda-tidy: error: cannot create a temporary folder: "
           << EC.message() << "\n";
    return 1;
  }
  scope_exit Cleanup([&] { sys::fs::remove_directories(TempDir); });
  Config.TempDir = TempDir.str().str();

  // What cannot be translated is said once for the run here; the workers
  // stay silent about it.
  cuda_tidy::TranslationLog Log("cuda-tidy", errs());
  cuda_tidy::CompileDbOptions DbOpts = Inv.Db;
  DbOpts.ClangExecutable = CUDA_TIDY_CLANG;
  // One PCH per command for the files that share their command with
  // another file of the run (PchCache.h); a kept folder serves every file.
  StringMap<std::vector<std::string>> ByCommand;
  for (const std::string &F : Files)
    for (const CompileCommand &C : DB->getCompileCommands(absolutePath(F))) {
      ByCommand[cuda_tidy::pchShareKey(C)].push_back(F);
      (void)cuda_tidy::translateCompileCommand(C, DbOpts, Log);
    }
  if (!POpts.NoPch && POpts.PchDir.empty()) {
    for (const auto &Entry : ByCommand)
      if (Entry.second.size() > 1)
        for (const std::string &F : Entry.second)
          Config.PchFiles.insert(F);
    SmallString<128> PchDir(TempDir);
    sys::path::append(PchDir, "pch");
    if (!Config.PchFiles.empty() && !sys::fs::create_directory(PchDir))
      Config.Opts.PchDir = PchDir.str().str();
  }
  // What the builds leave without code, once per distinct flags.
  cuda_tidy::BuildReportInputs Build;
  Build.DB = DB.get();
  if (!POpts.Shard || POpts.Shard->first == 1)
    for (const std::string &F : RunFiles)
      Build.Files.push_back(absolutePath(F));
  Build.DbOptions = DbOpts;
  Build.ClangTidyArgs = Inv.Forward;
  Build.BuildPath = Inv.BuildPath;
  if (Inv.FixedArgs)
    Build.DB = nullptr;
  cuda_tidy::BuildReportResult Report =
      cuda_tidy::reportBuildCompatibility(Build, outs());
  if (!Report.Diagnostics.Diagnostics.empty())
    Config.ExtraDiagnostics.push_back(std::move(Report.Diagnostics));
  int Status = cuda_tidy::runParallel(Config);
  return Report.Failed ? 1 : Status;
}

/// For --resource-usage=compile: compiles the device code of each command
/// in \p Originals that has no object file into the fatbin its jobs name.
/// A compile that fails is said, and its jobs lose the fatbin's macro (the
/// database is written again). Returns false when the database cannot be.
static bool compileResourceUsage(ArrayRef<CompileCommand> Originals,
                                 const cuda_tidy::CompileDbOptions &Opts,
                                 std::vector<CompileCommand> &Jobs,
                                 StringRef TempDir) {
  bool Dropped = false;
  for (const CompileCommand &C : Originals) {
    std::optional<cuda_tidy::ResourceUsagePlan> Plan =
        cuda_tidy::planResourceUsage(C, Opts);
    if (!Plan || Plan->Compile.empty() || sys::fs::exists(Plan->Path))
      continue;
    sys::fs::create_directories(Opts.ResourceUsageDir);
    SmallString<128> Log(Plan->Path);
    Log += ".log";
    // ExecuteAndWait has no working folder: sh changes into it first.
    std::vector<StringRef> Argv = {"/bin/sh", "-c",
                                   "cd \"$1\" && shift && exec \"$@\"",
                                   "cuda-tidy", C.Directory};
    for (const std::string &A : Plan->Compile)
      Argv.push_back(A);
    std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(Log),
                                            StringRef(Log)};
    std::string Error;
    int Status = sys::ExecuteAndWait("/bin/sh", Argv, std::nullopt, Redirects,
                                     0, 0, &Error);
    if (Status == 0 && sys::fs::exists(Plan->Path))
      continue;
    std::string Why = Error;
    if (auto Buf = MemoryBuffer::getFile(Log))
      Why = (*Buf)->getBuffer().trim().split('\n').first.str();
    errs() << "cuda-tidy: warning: cannot compile the device code of '"
           << C.Filename << "' for its register counts"
           << (Why.empty() ? "" : ": " + Why)
           << "; cuda-launch-resources does not check its registers\n";
    std::string Define = std::string("-D") + cuda_tidy::ResourceUsageMacro;
    for (CompileCommand &J : Jobs)
      if (J.Filename == C.Filename)
        llvm::erase_if(J.CommandLine,
                       [&](StringRef A) { return A.starts_with(Define); });
    Dropped = true;
  }
  if (!Dropped)
    return true;
  SmallString<128> DbPath(TempDir);
  sys::path::append(DbPath, "compile_commands.json");
  if (Error E = cuda_tidy::writeJsonDatabase(DbPath, Jobs)) {
    errs() << "cuda-tidy: error: " << toString(std::move(E)) << "\n";
    return false;
  }
  return true;
}

/// The values of clang-tidy's option \p Name (--extra-arg and the like).
static std::vector<std::string> optionValues(ArrayRef<std::string> Forward,
                                             StringRef Name) {
  std::vector<std::string> Values;
  for (size_t I = 1; I < Forward.size(); ++I) {
    StringRef Arg = Forward[I];
    if (!Arg.starts_with("-"))
      continue;
    auto [Key, Value] = Arg.ltrim('-').split('=');
    if (Key != Name)
      continue;
    if (Arg.contains('='))
      Values.push_back(Value.str());
    else if (I + 1 < Forward.size())
      Values.push_back(Forward[++I]);
  }
  return Values;
}

/// Translates the commands of the command line's sources into the jobs
/// clang-tidy runs (one per side; Originals: the commands as the database
/// gives them), judges their builds (BuildReport), and writes the jobs as
/// the database in TempDir. False, with a message, when that fails.
static bool writeJobDatabase(Invocation &Inv,
                             const cuda_tidy::ParallelOptions &POpts,
                             StringRef TempDir,
                             std::vector<CompileCommand> &Jobs,
                             std::vector<CompileCommand> &Originals,
                             cuda_tidy::BuildReportResult &BuildReport) {
  std::unique_ptr<CompilationDatabase> DB =
      loadDatabase(Inv, absolutePath(Inv.Sources.front()));
  if (!DB)
    return false;
  cuda_tidy::TranslationLog Log("cuda-tidy", POpts.Worker ? nulls() : errs());
  Inv.Db.ClangExecutable = CUDA_TIDY_CLANG;
  Expected<std::string> Compat = cuda_tidy::writeCompatHeader(TempDir);
  if (!Compat) {
    errs() << "cuda-tidy: error: " << toString(Compat.takeError()) << "\n";
    return false;
  }
  Inv.Db.CompatHeader = *Compat;
  SmallString<128> UsageDir(TempDir);
  sys::path::append(UsageDir, "resource-usage");
  Inv.Db.ResourceUsageDir = UsageDir.str().str();
  for (const std::string &Source : Inv.Sources) {
    // A header has no command of its own: the database infers one from
    // the nearest source file (clang's interpolation, as clangd does), and
    // the header is analysed as that file's language.
    bool Header = isHeaderFile(Source);
    for (const CompileCommand &C :
         DB->getCompileCommands(absolutePath(Source))) {
      Originals.push_back(C);
      for (CompileCommand &J :
           cuda_tidy::translateCompileCommand(C, Inv.Db, Log)) {
        if (Header)
          J.CommandLine.insert(J.CommandLine.begin() + 1,
                               "-Wno-pragma-once-outside-header");
        Jobs.push_back(std::move(J));
      }
    }
  }
  if (!POpts.Worker && !Inv.FixedArgs) {
    cuda_tidy::BuildReportInputs Build;
    Build.DB = DB.get();
    for (const std::string &S : Inv.Sources)
      Build.Files.push_back(absolutePath(S));
    Build.DbOptions = Inv.Db;
    Build.ClangTidyArgs = Inv.Forward;
    Build.BuildPath = Inv.BuildPath;
    BuildReport = cuda_tidy::reportBuildCompatibility(Build, outs());
  }
  SmallString<128> DbPath(TempDir);
  sys::path::append(DbPath, "compile_commands.json");
  if (Error E = cuda_tidy::writeJsonDatabase(DbPath, Jobs)) {
    errs() << "cuda-tidy: error: " << toString(std::move(E)) << "\n";
    return false;
  }
  return true;
}

/// Writes the job database again with precompiled headers for the jobs
/// that can have them (PchCache.h). \p Jobs stay as they are: the result
/// cache's key reads them.
static bool usePrecompiledHeaders(const Invocation &Inv, StringRef PchDir,
                                  ArrayRef<CompileCommand> Jobs,
                                  ArrayRef<std::string> Forward,
                                  StringRef TempDir) {
  cuda_tidy::PchInputs In;
  In.Dir = PchDir.str();
  In.ExtraArgsBefore = optionValues(Forward, "extra-arg-before");
  In.ExtraArgs = optionValues(Forward, "extra-arg");
  In.CompatHeader = Inv.Db.CompatHeader;
  In.CompatText = cuda_tidy::compatHeaderText();
  In.Configs = optionValues(Forward, "config");
  llvm::append_range(In.Configs, optionValues(Forward, "config-file"));
  In.Source = Inv.Sources.front();
  std::vector<CompileCommand> WithPch(Jobs.begin(), Jobs.end());
  cuda_tidy::PchStats Stats = cuda_tidy::usePrecompiledHeaders(WithPch, In);
  if (Stats.Used == 0)
    return true;
  SmallString<128> DbPath(TempDir);
  sys::path::append(DbPath, "compile_commands.json");
  if (Error E = cuda_tidy::writeJsonDatabase(DbPath, WithPch)) {
    errs() << "cuda-tidy: error: " << toString(std::move(E)) << "\n";
    return false;
  }
  return true;
}

/// A worker of a run with --cache-dir: writes the file's cache key, and
/// returns the status to stop with when the cache holds the file's result
/// (the orchestrator replays it); std::nullopt to analyse the file.
static std::optional<int>
replayFromCache(ArrayRef<std::string> Args, const Invocation &Inv,
                const cuda_tidy::ParallelOptions &POpts,
                ArrayRef<CompileCommand> CacheJobs, StringRef TempDir,
                ArrayRef<std::string> Forward, const std::string &Self) {
  // The file by its absolute path: naming it otherwise changes nothing.
  std::vector<std::string> KeyArgs;
  for (size_t I = 0; I < Args.size(); ++I)
    if (I == Inv.SourceIndices.front())
      KeyArgs.push_back(absolutePath(Args[I]));
    else if (!StringRef(Args[I]).starts_with("--export-fixes=") &&
             !StringRef(Args[I]).starts_with("--pch-cache="))
      KeyArgs.push_back(Args[I]);
  cuda_tidy::CacheKeyInputs In;
  In.Jobs = CacheJobs;
  In.Args = KeyArgs;
  In.TempDir = TempDir;
  In.ExtraArgsBefore = optionValues(Forward, "extra-arg-before");
  In.ExtraArgs = optionValues(Forward, "extra-arg");
  In.Source = Inv.Sources.front();
  In.Self = Self;
  // A recorded list of the files read, all unchanged, gives the key
  // without preprocessing; otherwise preprocess and record the list.
  std::string CommandKey = cuda_tidy::computeCommandKey(In);
  std::string Key;
  if (auto Known = cuda_tidy::lookupManifest(POpts.CacheDir, CommandKey)) {
    Key = *Known;
  } else {
    std::vector<cuda_tidy::ReadFile> Read;
    Key = cuda_tidy::computeCacheKey(In, CommandKey, Read);
    if (Error E =
            cuda_tidy::recordManifest(POpts.CacheDir, CommandKey, Key, Read))
      errs() << "cuda-tidy: warning: " << toString(std::move(E)) << "\n";
  }
  if (Error E = cuda_tidy::writeFileText(POpts.CacheKeyFile, Key + "\n")) {
    errs() << "cuda-tidy: error: " << toString(std::move(E)) << "\n";
    return 1;
  }
  if (cuda_tidy::hasCacheEntry(POpts.CacheDir, Key)) {
    if (Error E = cuda_tidy::writeFileText(POpts.CacheKeyFile + ".hit", ""))
      consumeError(std::move(E));
    return 0;
  }
  return std::nullopt;
}

/// After clang-tidy ran on the command line's sources: the SARIF log, the
/// count of each file's warnings, the fixes on notes taken out of the
/// exported fixes (unless --fix-notes), and the closing summary line.
/// Returns the run's status.
static int reportRun(const Invocation &Inv,
                     const cuda_tidy::ParallelOptions &POpts,
                     StringRef FixesPath, bool FixNotes,
                     const cuda_tidy::BuildReportResult &BuildReport,
                     int Status) {
  std::vector<clang::tooling::TranslationUnitDiagnostics> Extra;
  if (!BuildReport.Diagnostics.Diagnostics.empty())
    Extra.push_back(BuildReport.Diagnostics);
  std::vector<clang::tooling::TranslationUnitDiagnostics> Found;
  if (!FixesPath.empty() && sys::fs::exists(FixesPath)) {
    if (auto TUs = cuda_tidy::readExportedDiagnostics(FixesPath))
      Found = std::move(*TUs);
    else
      consumeError(TUs.takeError());
  }
  std::vector<clang::tooling::TranslationUnitDiagnostics> All = Found;
  llvm::append_range(All, Extra);
  const cuda_tidy::RunCounts Counts =
      cuda_tidy::countRun(All, static_cast<unsigned>(Inv.Sources.size()));
  if (!Inv.SarifPath.empty() &&
      writeSarif(Inv, FixesPath, Extra, Counts) != 0 && Status == 0)
    Status = 1;
  if (BuildReport.Failed)
    Status = 1;
  for (const auto &[File, Count] : cuda_tidy::countWarningsByFile(Found))
    if (Count)
      errs() << Count << (Count == 1 ? " warning" : " warnings")
             << " generated for " << File << ".\n";
  if (!FixesPath.empty()) {
    // Only proven fixes leave cuda-tidy unless note fixes were asked for.
    unsigned Waiting = 0;
    if (Error E = FixNotes || POpts.Worker
                      ? Error::success()
                      : cuda_tidy::dropNoteFixes(FixesPath, &Waiting)) {
      errs() << "cuda-tidy: error: " << toString(std::move(E)) << "\n";
      if (Status == 0)
        Status = 1;
    }
    if (Waiting)
      errs() << "cuda-tidy: " << Waiting
             << (Waiting == 1 ? " fix needs" : " fixes need")
             << " review: rerun with --fix-notes\n";
  }
  // A worker's counts are the orchestrator's to add up.
  if (!POpts.Worker && !Inv.Sources.empty())
    errs() << cuda_tidy::formatRunSummary(Counts) << "\n";
  return Status;
}

int main(int argc, const char **argv) {
  InitLLVM X(argc, argv);
  std::vector<std::string> Args(argv, argv + argc);
  if (llvm::is_contained(Args, "--print-compat-header")) {
    outs() << cuda_tidy::compatHeaderText();
    return 0;
  }
  cuda_tidy::ParallelOptions POpts;
  if (!cuda_tidy::extractParallelOptions(Args, POpts))
    return 1;
  if (POpts.MergeSarifOut)
    return cuda_tidy::mergeSarifMain(*POpts.MergeSarifOut,
                                     ArrayRef(Args).drop_front());
  Invocation Inv;
  if (!parseInvocation(Args, Inv))
    return 1;
  // After "--": clang's arguments or nvcc's (FixedArgs.h).
  if (Inv.FixedArgs) {
    Inv.Fixed = cuda_tidy::readFixedArgs(*Inv.FixedArgs, Inv.Db.CudaPath);
    if (!Inv.Fixed.Unknown.empty()) {
      for (const std::string &U : Inv.Fixed.Unknown)
        errs() << "cuda-tidy: error: unknown argument '" << U
               << "' after '--': neither clang nor nvcc takes it\n";
      return 1;
    }
  }
  // Several files, a shard, a cache, or the whole database (-p and no
  // file): one worker per file.
  const bool InfoOnly =
      hasOption(Inv.Forward, {"list-checks", "dump-config", "explain-config",
                              "verify-config", "help", "help-hidden",
                              "help-list", "version"});
  if (!POpts.Worker && !InfoOnly &&
      (Inv.Sources.size() > 1 || POpts.Shard || !POpts.CacheDir.empty() ||
       (Inv.Sources.empty() && Inv.BuildPath)))
    return runOrchestrator(Args, Inv, POpts, argv[0]);

  // No sources: --help, --list-checks, --dump-config and the like.
  std::vector<std::string> Forward = Inv.Forward;
  if (Inv.Sources.empty() && Inv.SarifPath.empty()) {
    if (Inv.FixedArgs) {
      Forward.push_back("--");
      llvm::append_range(Forward, *Inv.FixedArgs);
    }
  }

  SmallString<128> TempDir;
  std::vector<CompileCommand> CacheJobs;
  // The sources' own compile commands, for --resource-usage=compile.
  std::vector<CompileCommand> Originals;
  cuda_tidy::BuildReportResult BuildReport;
  if (!Inv.Sources.empty() || !Inv.SarifPath.empty()) {
    if (std::error_code EC =
            sys::fs::createUniqueDirectory("cuda-tidy", TempDir)) {
      errs() << "cuda-tidy: error: cannot create a temporary folder: "
             << EC.message() << "\n";
      return 1;
    }
  }
  scope_exit Cleanup([&] {
    if (!TempDir.empty())
      sys::fs::remove_directories(TempDir);
  });

  if (!Inv.Sources.empty()) {
    if (!writeJobDatabase(Inv, POpts, TempDir, CacheJobs, Originals,
                          BuildReport))
      return 1;
    Forward.push_back("-p=" + TempDir.str().str());
  }
  // --list-checks and --dump-config read the configuration without the
  // modules' defaults; say explicitly what an unconfigured run enables.
  std::string ConfigDir =
      Inv.Sources.empty()
          ? std::string(".")
          : sys::path::parent_path(absolutePath(Inv.Sources.front())).str();
  if (hasOption(Forward, {"list-checks", "dump-config"}) &&
      !hasOption(Forward, {"checks", "config", "config-file"}) &&
      !configSetsChecks(ConfigDir))
    Forward.push_back("--checks=clang-diagnostic-*,cuda-*");

  // clang-tidy looks for clang's resource headers beside its own binary;
  // name those of the clang this driver was built with.
  if (sys::fs::is_directory(CUDA_TIDY_RESOURCE_DIR))
    Forward.insert(Forward.begin() + 1, std::string("--extra-arg-before="
                                                    "-resource-dir=") +
                                            CUDA_TIDY_RESOURCE_DIR);

  // The fixes file also tells how many fixes wait on notes: export to a
  // temporary one when the user asked for none.
  const bool FixNotes = hasOption(Forward, {"fix-notes"});
  std::string FixesPath = Inv.ExportFixes;
  if (!Inv.SarifPath.empty() || !Inv.Sources.empty()) {
    if (FixesPath.empty()) {
      SmallString<128> P(TempDir);
      sys::path::append(P, "fixes.yaml");
      FixesPath = P.str().str();
      Forward.push_back("--export-fixes=" + FixesPath);
    }
    // An older file must not be mistaken for this run's diagnostics.
    sys::fs::remove(FixesPath);
  }

  // clang's "N warnings generated when compiling for X" adds up over the
  // sides of a file; cuda-tidy prints one count per file instead (see
  // RunSummary.h). The option turns off only those lines: clang-tidy prints
  // the diagnostics with its own options.
  if (!Inv.Sources.empty())
    Forward.insert(Forward.begin() + 1,
                   "--extra-arg-before=-fno-caret-diagnostics");

  // A worker with a cache: stop here when the cache has this file's
  // result (the orchestrator replays it).
  if (!POpts.CacheKeyFile.empty() && !Inv.Sources.empty())
    if (std::optional<int> Done =
            replayFromCache(Args, Inv, POpts, CacheJobs, TempDir, Forward,
                            sys::fs::getMainExecutable(argv[0], (void *)&main)))
      return *Done;

  if (Inv.Db.ResourceUsage == cuda_tidy::ResourceUsageMode::Compile &&
      !compileResourceUsage(Originals, Inv.Db, CacheJobs, TempDir))
    return 1;

  if (!POpts.PchDir.empty() && !Inv.Sources.empty() &&
      !usePrecompiledHeaders(Inv, POpts.PchDir, CacheJobs, Forward, TempDir))
    return 1;

  std::vector<const char *> ForwardArgv;
  for (const std::string &A : Forward)
    ForwardArgv.push_back(A.c_str());
  ForwardArgv.push_back(nullptr);
  // clang prints "[1/1] (1/2) Processing file" for each side of the file:
  // progress for a terminal, noise in a pipe or a CI log.
  std::unique_ptr<cuda_tidy::StderrCapture> Capture;
  if (!POpts.Worker && !Inv.Sources.empty() &&
      !cuda_tidy::progressShown(POpts)) {
    SmallString<128> P(TempDir);
    sys::path::append(P, "stderr.txt");
    Capture = cuda_tidy::StderrCapture::start(P);
  }
  int Status = clang::tidy::clangTidyMain(
      static_cast<int>(ForwardArgv.size() - 1), ForwardArgv.data());
  if (Capture)
    Capture->finish(cuda_tidy::dropToolingProgressLines);
  return reportRun(Inv, POpts, FixesPath, FixNotes, BuildReport, Status);
}
