//===--- ParallelRun.cpp - cuda-tidy over many files, in parallel ---------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "tools/cuda-tidy/ParallelRun.h"
#include "tools/cuda-tidy/FixApply.h"
#include "tools/cuda-tidy/PchCache.h"
#include "tools/cuda-tidy/ResultCache.h"
#include "tools/cuda-tidy/RunSummary.h"
#include "tools/cuda-tidy/SarifExport.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <numeric>
#include <set>
#include <thread>

using namespace llvm;
using clang::tooling::Diagnostic;
using clang::tooling::TranslationUnitDiagnostics;

namespace cuda_tidy {

/// Matches "-Name=V", "--Name=V", "-Name V" and "--Name V" at Args[I]; for
/// short options (Name of one letter) also "-NameV".
static bool takeOption(std::vector<std::string> &Args, size_t I, StringRef Name,
                       std::string &Value, bool &Missing) {
  StringRef Arg = Args[I];
  if (!Arg.starts_with("-"))
    return false;
  StringRef Rest = Arg.drop_front(Arg.starts_with("--") ? 2 : 1);
  if (!Rest.consume_front(Name))
    return false;
  if (Rest.consume_front("=") ||
      (Name.size() == 1 && !Arg.starts_with("--") && !Rest.empty())) {
    Value = Rest.str();
    Args.erase(Args.begin() + I);
    return true;
  }
  if (!Rest.empty())
    return false;
  if (I + 1 >= Args.size()) {
    Missing = true;
    Args.erase(Args.begin() + I);
    return true;
  }
  Value = Args[I + 1];
  Args.erase(Args.begin() + I, Args.begin() + I + 2);
  return true;
}

static std::optional<unsigned> parsePositive(StringRef S) {
  unsigned V;
  if (S.empty() || S.getAsInteger(10, V) || V == 0)
    return std::nullopt;
  return V;
}

/// Creates the folder \p Value (--cache-dir, --pch-cache) and sets \p Out to its absolute path;
/// returns why it cannot be, or an empty string.
static std::string makeFolder(StringRef Value, std::string &Out) {
  if (sys::fs::exists(Value) && !sys::fs::is_directory(Value))
    return "'" + Value.str() + "' is not a folder";
  if (std::error_code EC = sys::fs::create_directories(Value))
    return "cannot create '" + Value.str() + "': " + EC.message();
  SmallString<256> Abs(Value);
  sys::fs::make_absolute(Abs);
  Out = Abs.str().str();
  return "";
}

bool extractParallelOptions(std::vector<std::string> &Args,
                            ParallelOptions &Opts) {
  bool Ok = true;
  auto Fail = [&](const Twine &Message) {
    if (Ok)
      errs() << "cuda-tidy: error: " << Message << "\n";
    Ok = false;
  };
  for (size_t I = 1; I < Args.size();) {
    StringRef Arg = Args[I];
    if (Arg == "--")
      break;
    std::string Value;
    bool Missing = false;
    if (Arg == "--progress" || Arg == "-progress" || Arg == "--no-progress" ||
        Arg == "-no-progress") {
      Opts.Progress = !Arg.contains("no-");
      Args.erase(Args.begin() + I);
      continue;
    }
    if (Arg == "--cuda-tidy-worker") {
      Opts.Worker = true;
      Args.erase(Args.begin() + I);
      continue;
    }
    if (takeOption(Args, I, "cuda-tidy-cache-key", Opts.CacheKeyFile, Missing))
      continue;
    if (takeOption(Args, I, "j", Value, Missing) ||
        takeOption(Args, I, "jobs", Value, Missing)) {
      if (auto N = parsePositive(Value); N && !Missing)
        Opts.Jobs = *N;
      else
        Fail("-j: '" + Value + "' is not a positive number of jobs");
      continue;
    }
    if (takeOption(Args, I, "shard", Value, Missing)) {
      auto [K, N] = StringRef(Value).split('/');
      auto KV = parsePositive(K), NV = parsePositive(N);
      if (!Missing && KV && NV && *KV <= *NV)
        Opts.Shard = {*KV, *NV};
      else
        Fail("--shard: expected K/N with 1 <= K <= N, got '" + Value + "'");
      continue;
    }
    if (takeOption(Args, I, "cache-dir", Value, Missing)) {
      if (Missing || Value.empty())
        Fail("--cache-dir: needs a folder");
      else if (std::string Why = makeFolder(Value, Opts.CacheDir); !Why.empty())
        Fail("--cache-dir: " + Why);
      continue;
    }
    if (Arg == "--no-pch" || Arg == "-no-pch") {
      Opts.NoPch = true;
      Args.erase(Args.begin() + I);
      continue;
    }
    if (takeOption(Args, I, "pch-cache", Value, Missing)) {
      if (Missing || Value.empty())
        Fail("--pch-cache: needs a folder");
      else if (std::string Why = makeFolder(Value, Opts.PchDir); !Why.empty())
        Fail("--pch-cache: " + Why);
      continue;
    }
    if (takeOption(Args, I, "merge-sarif", Value, Missing)) {
      if (Missing || Value.empty())
        Fail("--merge-sarif: needs the output file (--merge-sarif=OUT IN...)");
      else
        Opts.MergeSarifOut = Value;
      continue;
    }
    ++I;
  }
  // The environment names a kept folder for runs that name none; workers
  // take the orchestrator's word.
  if (Ok && !Opts.Worker && !Opts.NoPch && Opts.PchDir.empty())
    if (std::optional<std::string> Env = sys::Process::GetEnv(PchCacheEnv);
        Env && !Env->empty())
      if (std::string Why = makeFolder(*Env, Opts.PchDir); !Why.empty())
        Fail(Twine(PchCacheEnv) + ": " + Why);
  if (Opts.NoPch)
    Opts.PchDir.clear();
  return Ok;
}

void splitWorkerArgs(ArrayRef<std::string> Args, ArrayRef<size_t> SourceIndices,
                     ParallelRunConfig &Config) {
  std::set<size_t> Sources(SourceIndices.begin(), SourceIndices.end());
  std::vector<std::string> &Out = Config.WorkerArgsBefore;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef Arg = Args[I];
    if (Arg == "--") {
      Config.WorkerArgsAfter.assign(Args.begin() + I, Args.end());
      break;
    }
    if (Sources.count(I))
      continue;
    StringRef Name = Arg.starts_with("-") ? Arg.ltrim('-') : StringRef();
    auto [Key, Value] = Name.split('=');
    bool HasValue = Name.contains('=');
    if (Key == "fix" || Key == "fix-errors" || Key == "fix-notes") {
      Config.Fix = true;
      Config.FixErrors |= Key == "fix-errors";
      Config.FixNotes |= Key == "fix-notes";
      continue;
    }
    if (Key == "quiet")
      Config.Quiet = true;
    std::string *Target = Key == "export-fixes"   ? &Config.ExportFixes
                          : Key == "export-sarif" ? &Config.SarifPath
                          : Key == "sarif-root"   ? &Config.SarifRoot
                          : Key == "format-style" ? &Config.FormatStyle
                                                  : nullptr;
    if (!Target) {
      Out.push_back(Args[I]);
      continue;
    }
    if (HasValue)
      *Target = Value.str();
    else if (I + 1 < Args.size())
      *Target = Args[++I];
  }
}

std::vector<std::string> selectShard(ArrayRef<std::string> Files, unsigned K,
                                     unsigned N) {
  std::vector<uint64_t> Sizes(Files.size(), 0);
  for (size_t I = 0; I < Files.size(); ++I)
    if (sys::fs::file_size(Files[I], Sizes[I]))
      Sizes[I] = 0;
  std::vector<size_t> Order(Files.size());
  std::iota(Order.begin(), Order.end(), 0);
  llvm::stable_sort(Order, [&](size_t A, size_t B) {
    if (Sizes[A] != Sizes[B])
      return Sizes[A] > Sizes[B];
    return Files[A] < Files[B];
  });
  std::vector<uint64_t> Load(N, 0);
  std::vector<bool> Mine(Files.size(), false);
  for (size_t I : Order) {
    unsigned Least = 0;
    for (unsigned S = 1; S < N; ++S)
      if (Load[S] < Load[Least])
        Least = S;
    // An empty file still costs a parse: count it as one byte.
    Load[Least] += std::max<uint64_t>(Sizes[I], 1);
    Mine[I] = Least == K - 1;
  }
  std::vector<std::string> Shard;
  for (size_t I = 0; I < Files.size(); ++I)
    if (Mine[I])
      Shard.push_back(Files[I]);
  return Shard;
}

namespace {
/// One file of the run.
struct Task {
  std::string File;
  std::string OutPath, ErrPath, FixesPath, KeyPath;
  sys::ProcessInfo Process;
  enum { Waiting, Running, Done } State = Waiting;
  int Status = 0;
  std::string Failure;
  /// The output came from the cache.
  bool Replayed = false;
  std::string CachedFixes;
};

/// The line at the bottom of a terminal that says how far the run is.
class ProgressLine {
public:
  explicit ProgressLine(bool Enabled) : Enabled(Enabled) {}
  void show(size_t Done, size_t Total) {
    if (!Enabled)
      return;
    auto Elapsed = std::chrono::steady_clock::now() - Start;
    double Seconds = std::chrono::duration<double>(Elapsed).count();
    std::string Line;
    raw_string_ostream OS(Line);
    OS << "cuda-tidy: [" << Done << "/" << Total << "] " << clock(Seconds)
       << " elapsed";
    if (Done > 0 && Done < Total)
      OS << ", about " << clock(Seconds / Done * (Total - Done)) << " left";
    errs() << "\r\x1b[K" << Line;
    errs().flush();
    Shown = true;
  }
  void clear() {
    if (!Shown)
      return;
    errs() << "\r\x1b[K";
    errs().flush();
    Shown = false;
  }

private:
  static std::string clock(double Seconds) {
    unsigned S = static_cast<unsigned>(Seconds + 0.5);
    return formatv("{0}:{1:2}", S / 60, S % 60).str();
  }
  bool Enabled;
  bool Shown = false;
  std::chrono::steady_clock::time_point Start =
      std::chrono::steady_clock::now();
};
} // namespace

static std::string readFileOrEmpty(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  return Buf ? (*Buf)->getBuffer().str() : std::string();
}

static bool startTask(const ParallelRunConfig &Config, Task &T) {
  std::vector<std::string> Argv = Config.WorkerArgsBefore;
  Argv.push_back("--cuda-tidy-worker");
  Argv.push_back("--export-fixes=" + T.FixesPath);
  if (!Config.Opts.CacheDir.empty()) {
    Argv.push_back("--cache-dir=" + Config.Opts.CacheDir);
    Argv.push_back("--cuda-tidy-cache-key=" + T.KeyPath);
  }
  if (!Config.Opts.PchDir.empty() &&
      (Config.PchFiles.empty() || Config.PchFiles.contains(T.File)))
    Argv.push_back("--pch-cache=" + Config.Opts.PchDir);
  Argv.push_back(T.File);
  llvm::append_range(Argv, Config.WorkerArgsAfter);
  std::vector<StringRef> Refs(Argv.begin(), Argv.end());
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(T.OutPath),
                                          StringRef(T.ErrPath)};
  std::string ErrMsg;
  bool Failed = false;
  T.Process = sys::ExecuteNoWait(Config.Self, Refs, std::nullopt, Redirects, 0,
                                 &ErrMsg, &Failed);
  if (Failed || T.Process.Pid == sys::ProcessInfo::InvalidPid) {
    T.Failure = "cannot run '" + Config.Self + "': " + ErrMsg;
    T.State = Task::Done;
    T.Status = 1;
    return false;
  }
  T.State = Task::Running;
  return true;
}

/// Whether \p T finished; collects its status.
static bool pollTask(Task &T) {
  std::string ErrMsg;
  sys::ProcessInfo PI = sys::Wait(T.Process, /*SecondsToWait=*/0, &ErrMsg);
  if (PI.Pid == 0)
    return false;
  T.State = Task::Done;
  T.Status = PI.ReturnCode;
  if (PI.ReturnCode < 0)
    T.Failure = "the analysis of '" + T.File +
                "' failed: " + (ErrMsg.empty() ? "it crashed" : ErrMsg);
  return true;
}

/// After a worker ends: replays the cache on a hit, stores its results on a
/// miss.
static void settleCache(const ParallelRunConfig &Config, Task &T) {
  if (Config.Opts.CacheDir.empty() || !T.Failure.empty())
    return;
  std::string Key = StringRef(readFileOrEmpty(T.KeyPath)).trim().str();
  if (Key.empty())
    return;
  SmallString<128> HitMarker(T.KeyPath);
  HitMarker += ".hit";
  if (sys::fs::exists(HitMarker)) {
    Expected<CachedResult> Cached = readCacheEntry(Config.Opts.CacheDir, Key);
    if (!Cached) {
      T.Failure = "cache entry for '" + T.File +
                  "' unreadable: " + toString(Cached.takeError());
      T.Status = 1;
      return;
    }
    T.Replayed = true;
    T.Status = Cached->Status;
    if (Error E = writeFileText(T.OutPath, Cached->Out))
      consumeError(std::move(E));
    if (Error E = writeFileText(T.ErrPath, Cached->Err))
      consumeError(std::move(E));
    sys::fs::remove(T.FixesPath);
    if (Cached->Fixes)
      if (Error E = writeFileText(T.FixesPath, *Cached->Fixes))
        consumeError(std::move(E));
    return;
  }
  // Only complete analyses: clang-tidy's statuses are 0 and 1.
  if (T.Status != 0 && T.Status != 1)
    return;
  std::optional<std::string> Fixes;
  if (sys::fs::exists(T.FixesPath))
    Fixes = readFileOrEmpty(T.FixesPath);
  if (Error E =
          storeCacheEntry(Config.Opts.CacheDir, Key, readFileOrEmpty(T.OutPath),
                          readFileOrEmpty(T.ErrPath), Fixes, T.Status))
    errs() << "cuda-tidy: warning: " << toString(std::move(E)) << "\n";
}

/// The diagnostics of every file, one per (check, file, offset, message).
static TranslationUnitDiagnostics
mergeDiagnostics(ArrayRef<TranslationUnitDiagnostics> TUs) {
  TranslationUnitDiagnostics All;
  StringSet<> Seen;
  for (const TranslationUnitDiagnostics &TU : TUs) {
    if (All.MainSourceFile.empty())
      All.MainSourceFile = TU.MainSourceFile;
    for (const Diagnostic &D : TU.Diagnostics)
      if (Seen.insert((D.DiagnosticName + "\n" + D.Message.FilePath + "\n" +
                       Twine(D.Message.FileOffset) + "\n" + D.Message.Message)
                          .str())
              .second)
        All.Diagnostics.push_back(D);
  }
  return All;
}

namespace {
/// What became of a run's SARIF log.
enum class SarifWrite { Written, Failed, NoSourceRoot };
} // namespace

/// The SARIF log of a run (--export-sarif): the workers' diagnostics and the
/// orchestrator's own (the build report), with the run's counts.
/// NoSourceRoot: --sarif-root names no folder (the run stops there).
static SarifWrite writeRunSarif(const ParallelRunConfig &Config,
                                ArrayRef<TranslationUnitDiagnostics> TUs,
                                size_t Total) {
  SarifOptions Opts;
  Opts.ToolVersion = CUDA_TIDY_VERSION;
  Opts.DocsBaseUrl = CUDA_TIDY_DOCS_URL;
  SmallString<256> Root(Config.SarifRoot.empty() ? "." : Config.SarifRoot);
  if (sys::fs::real_path(Root, Root)) {
    errs() << "cuda-tidy: error: --sarif-root: no folder '" << Config.SarifRoot
           << "'\n";
    return SarifWrite::NoSourceRoot;
  }
  Opts.SourceRoot = Root.str().str();
  if (Config.Opts.Shard)
    Opts.AutomationId =
        formatv("cuda-tidy/shard-{0}-of-{1}/", Config.Opts.Shard->first,
                Config.Opts.Shard->second)
            .str();
  std::vector<TranslationUnitDiagnostics> SarifTUs(TUs.begin(), TUs.end());
  llvm::append_range(SarifTUs, Config.ExtraDiagnostics);
  RunCounts Counts = countRun(SarifTUs, static_cast<unsigned>(Total));
  Opts.FilesAnalysed = Counts.Files;
  Opts.FilesNotParsed = Counts.NotParsed;
  if (Error E = writeSarifLog(Config.SarifPath, SarifTUs, Opts)) {
    errs() << "cuda-tidy: error: " << toString(std::move(E)) << "\n";
    return SarifWrite::Failed;
  }
  return SarifWrite::Written;
}

bool progressShown(const ParallelOptions &Opts) {
  return Opts.Progress.value_or(sys::Process::StandardOutIsDisplayed() &&
                                sys::Process::StandardErrIsDisplayed());
}

int runParallel(const ParallelRunConfig &Config) {
  const size_t Total = Config.Files.size();
  unsigned Jobs =
      Config.Opts.Jobs
          ? Config.Opts.Jobs
          : std::max(1u, llvm::hardware_concurrency().compute_thread_count());
  std::vector<Task> Tasks(Total);
  for (size_t I = 0; I < Total; ++I) {
    Task &T = Tasks[I];
    T.File = Config.Files[I];
    auto Name = [&](StringRef Ext) {
      SmallString<128> P(Config.TempDir);
      sys::path::append(P, "file" + Twine(I) + "." + Ext);
      return P.str().str();
    };
    T.OutPath = Name("out");
    T.ErrPath = Name("err");
    T.FixesPath = Name("yaml");
    T.KeyPath = Name("key");
  }
  const bool ShowProgress = progressShown(Config.Opts);
  ProgressLine Progress(ShowProgress);

  int Status = 0;
  size_t Next = 0, Printed = 0, Running = 0, Finished = 0;
  auto LastShown = std::chrono::steady_clock::now();
  Progress.show(0, Total);
  while (Printed < Total) {
    while (Running < Jobs && Next < Total) {
      Task &T = Tasks[Next++];
      if (startTask(Config, T))
        ++Running;
      else
        ++Finished;
    }
    bool Any = false;
    for (Task &T : Tasks)
      if (T.State == Task::Running && pollTask(T)) {
        --Running;
        ++Finished;
        Any = true;
        settleCache(Config, T);
      }
    bool PrintedAny = false;
    while (Printed < Total && Tasks[Printed].State == Task::Done) {
      Task &T = Tasks[Printed++];
      Progress.clear();
      PrintedAny = true;
      outs() << readFileOrEmpty(T.OutPath);
      outs().flush();
      // clang's per-side progress lines only where progress is shown.
      std::string Err = readFileOrEmpty(T.ErrPath);
      errs() << (ShowProgress ? Err : dropToolingProgressLines(Err));
      if (!T.Failure.empty())
        errs() << "cuda-tidy: error: " << T.Failure << "\n";
      errs().flush();
      if (T.Status != 0)
        Status = 1;
    }
    auto Now = std::chrono::steady_clock::now();
    if (PrintedAny || Any || Now - LastShown > std::chrono::seconds(1)) {
      Progress.show(Finished, Total);
      LastShown = Now;
    }
    if (!Any && Printed < Total)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  Progress.clear();

  // What the workers exported, in the order of the files.
  std::vector<TranslationUnitDiagnostics> TUs;
  for (const Task &T : Tasks) {
    if (!sys::fs::exists(T.FixesPath))
      continue;
    auto Read = readExportedDiagnostics(T.FixesPath);
    if (!Read) {
      errs() << "cuda-tidy: error: " << toString(Read.takeError()) << "\n";
      Status = 1;
      continue;
    }
    llvm::append_range(TUs, std::move(*Read));
  }

  if (!Config.SarifPath.empty()) {
    SarifWrite Sarif = writeRunSarif(Config, TUs, Total);
    if (Sarif == SarifWrite::NoSourceRoot)
      return 1;
    if (Sarif == SarifWrite::Failed)
      Status = 1;
  }

  if (Config.Fix) {
    if (applyFixesOnce(TUs, Config.FixErrors, Config.FixNotes,
                       Config.FormatStyle, Config.Quiet) != 0)
      Status = 1;
  }

  // One fixes file for the run; only proven fixes unless --fix-notes.
  unsigned Waiting = countFixesWaitingOnNotes(TUs);
  if (!Config.ExportFixes.empty()) {
    TranslationUnitDiagnostics All = mergeDiagnostics(TUs);
    if (!Config.FixNotes)
      for (Diagnostic &D : All.Diagnostics)
        for (auto &Note : D.Notes)
          Note.Fix.clear();
    sys::fs::remove(Config.ExportFixes);
    if (!All.Diagnostics.empty()) {
      std::error_code EC;
      raw_fd_ostream OS(Config.ExportFixes, EC, sys::fs::OF_Text);
      if (EC) {
        errs() << "cuda-tidy: error: cannot write '" << Config.ExportFixes
               << "': " << EC.message() << "\n";
        Status = 1;
      } else {
        yaml::Output YAML(OS);
        YAML << All;
      }
    }
  }
  if (!Config.Opts.CacheDir.empty()) {
    size_t Replayed =
        llvm::count_if(Tasks, [](const Task &T) { return T.Replayed; });
    errs() << "cuda-tidy: cache: " << Replayed << " of " << Total
           << (Total == 1 ? " file" : " files") << " replayed\n";
  }
  if (Waiting && !Config.FixNotes)
    errs() << "cuda-tidy: " << Waiting
           << (Waiting == 1 ? " fix needs" : " fixes need")
           << " review: rerun with --fix-notes\n";
  std::vector<TranslationUnitDiagnostics> All = TUs;
  llvm::append_range(All, Config.ExtraDiagnostics);
  errs() << formatRunSummary(countRun(All, static_cast<unsigned>(Total)))
         << "\n";
  return Status;
}

} // namespace cuda_tidy
