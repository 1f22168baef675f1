//===--- CudaCompileDb.cpp - Compile databases for the drivers ------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "tools/common/CudaCompileDb.h"
#include "lib/target/ArchPaths.h"
#include "tools/common/ArchDependence.h"
#include "clang/Options/OptionUtils.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

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

/// The language a clang command names with `-x`, if it names one.
static std::optional<StringRef> namedLanguage(ArrayRef<std::string> Args) {
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A == "-x" && I + 1 < Args.size())
      return StringRef(Args[I + 1]);
    if (A.consume_front("-x") && !A.empty())
      return A;
  }
  return std::nullopt;
}

/// A clang command that compiles CUDA: a `.cu`/`.cuh` file, or `-x cuda`.
static bool compilesCuda(StringRef File, ArrayRef<std::string> Args) {
  if (std::optional<StringRef> Lang = namedLanguage(Args))
    return *Lang == "cuda";
  StringRef Ext = sys::path::extension(File);
  return Ext == ".cu" || Ext == ".cuh";
}

std::optional<ArchParseMode> parseArchParseMode(StringRef Value,
                                                std::string &Error) {
  if (Value == "each")
    return ArchParseMode::Each;
  if (Value == "once-when-possible")
    return ArchParseMode::OnceWhenPossible;
  Error = ("unknown value '" + Value +
           "' (expected 'each' or 'once-when-possible')")
              .str();
  return std::nullopt;
}

std::optional<ResourceUsageMode> parseResourceUsageMode(StringRef Value,
                                                        std::string &Error) {
  if (Value == "none")
    return ResourceUsageMode::None;
  if (Value == "object")
    return ResourceUsageMode::Object;
  if (Value == "compile")
    return ResourceUsageMode::Compile;
  Error =
      ("unknown value '" + Value + "' (expected 'object', 'compile' or 'none')")
          .str();
  return std::nullopt;
}

/// The output file a compile command names (`-o FILE`, `-oFILE`,
/// `--output-file FILE`, `--output-file=FILE`), or the database's "output".
static std::string outputOf(const CompileCommand &Command) {
  ArrayRef<std::string> Args = Command.CommandLine;
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if ((A == "-o" || A == "--output-file" || A == "-output-file") &&
        I + 1 < Args.size())
      return Args[I + 1];
    if (A.consume_front("--output-file=") || A.consume_front("-o="))
      return A.str();
    if (A.starts_with("-o") && A.size() > 2 && !A.starts_with("-opt") &&
        !A.starts_with("-odir"))
      return A.drop_front(2).str();
  }
  return Command.Output;
}

/// A file's modification time, or std::nullopt when it does not exist.
static std::optional<sys::TimePoint<>> modified(StringRef Path) {
  sys::fs::file_status Status;
  if (sys::fs::status(Path, Status) || !sys::fs::is_regular_file(Status))
    return std::nullopt;
  return Status.getLastModificationTime();
}

static std::string absoluteIn(StringRef Dir, StringRef Path) {
  SmallString<256> Abs(Path);
  if (!Dir.empty())
    sys::path::make_absolute(Dir, Abs);
  else
    sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return Abs.str().str();
}

/// nvcc's options that write files beside the object (dependencies), with
/// whether they take a value; they are left out of the fatbin compile.
static bool isDependencyOption(StringRef A, bool &TakesValue) {
  StringRef Name = A.ltrim('-').split('=').first;
  TakesValue =
      !A.contains('=') &&
      llvm::is_contained(
          {"MF", "MT", "dependency-output", "dependency-target-name"}, Name);
  return llvm::is_contained(
      {"M", "MM", "MD", "MMD", "MP", "MF", "MT", "generate-dependencies",
       "generate-nonsystem-dependencies", "generate-dependencies-with-compile",
       "generate-nonsystem-dependencies-with-compile",
       "generate-dependency-targets", "dependency-output",
       "dependency-target-name"},
      Name);
}

/// The nvcc command that compiles \p Command's device code into \p Fatbin.
static std::vector<std::string> fatbinCommand(const CompileCommand &Command,
                                              StringRef Fatbin) {
  ArrayRef<std::string> Args = Command.CommandLine;
  // A launcher (ccache) before nvcc is left out.
  size_t First = 0;
  while (First < Args.size() && sys::path::stem(Args[First]) != "nvcc")
    ++First;
  std::vector<std::string> Out;
  if (First == Args.size())
    return Out;
  Out.push_back(Args[First]);
  bool Rdc = false;
  for (size_t I = First + 1; I < Args.size(); ++I) {
    StringRef A = Args[I];
    StringRef Name = A.ltrim('-');
    bool TakesValue = false;
    if (Name == "c" || Name == "compile" || Name == "dw" || Name == "device-w")
      continue;
    if (Name == "dc" || Name == "device-c") {
      Rdc = true;
      continue;
    }
    if (A == "-o" || Name == "output-file") {
      ++I;
      continue;
    }
    if (Name.starts_with("output-file=") || A.starts_with("-o=") ||
        (A.starts_with("-o") && A.size() > 2 && !A.starts_with("-opt") &&
         !A.starts_with("-odir")))
      continue;
    if (A.starts_with("-") && isDependencyOption(A, TakesValue)) {
      I += TakesValue;
      continue;
    }
    Out.push_back(A.str());
  }
  if (Rdc)
    Out.push_back("-rdc=true");
  Out.push_back("--fatbin");
  Out.push_back("-o");
  Out.push_back(Fatbin.str());
  return Out;
}

std::optional<ResourceUsagePlan>
planResourceUsage(const CompileCommand &Command, const CompileDbOptions &Opts) {
  if (Opts.ResourceUsage == ResourceUsageMode::None)
    return std::nullopt;
  std::string Source = absoluteIn(Command.Directory, Command.Filename);
  std::optional<sys::TimePoint<>> SourceTime = modified(Source);
  std::string Output = outputOf(Command);
  if (!Output.empty() && SourceTime) {
    std::string Object = absoluteIn(Command.Directory, Output);
    std::optional<sys::TimePoint<>> ObjectTime = modified(Object);
    if (ObjectTime && *ObjectTime >= *SourceTime)
      return ResourceUsagePlan{Object, {}};
  }
  if (Opts.ResourceUsage != ResourceUsageMode::Compile ||
      Opts.ResourceUsageDir.empty() || !isNvccCommand(Command.CommandLine))
    return std::nullopt;
  // One fatbin per command: its name holds the command's hash.
  std::string Key =
      Command.Directory + "\n" + llvm::join(Command.CommandLine, "\n");
  SmallString<256> Fatbin(Opts.ResourceUsageDir);
  sys::path::append(Fatbin, (sys::path::stem(Command.Filename) + "-" +
                             utohexstr(xxh3_64bits(Key)) + ".fatbin")
                                .str());
  ResourceUsagePlan Plan{Fatbin.str().str(), fatbinCommand(Command, Fatbin)};
  if (Plan.Compile.empty())
    return std::nullopt;
  return Plan;
}

/// `-DMacro="Text"`, the text as a string literal.
static std::string stringDefine(StringRef Macro, StringRef Text) {
  std::string Literal = "\"";
  for (char C : Text) {
    if (C == '"' || C == '\\')
      Literal += '\\';
    Literal += C;
  }
  Literal += '"';
  return ("-D" + Macro + "=" + Literal).str();
}

/// Replaces the device jobs of \p Jobs by one for the first architecture
/// that names them all, when the user's code does not vary between them.
static void mergeDeviceJobs(std::vector<CudaJob> &Jobs,
                            const CompileCommand &Command,
                            const CompileDbOptions &Opts) {
  std::vector<std::string> Archs;
  size_t First = Jobs.size();
  for (size_t I = 0; I < Jobs.size(); ++I) {
    if (Jobs[I].Side == "host" || Jobs[I].Side == "device" ||
        Jobs[I].Side.empty())
      continue;
    First = std::min(First, I);
    Archs.push_back(Jobs[I].Side);
  }
  if (Archs.size() < 2)
    return;
  // The resource headers of the clang that the analysis runs with.
  std::string ResourceDir;
  SmallString<256> Clang;
  if (sys::path::is_absolute(Opts.ClangExecutable) &&
      !sys::fs::real_path(Opts.ClangExecutable, Clang))
    ResourceDir = clang::GetResourcesPath(Clang);
  ArchDependence D = findArchDependence(Jobs[First].Args, Archs,
                                        Command.Directory, ResourceDir);
  if (D.Varies)
    return;
  CudaJob Merged = std::move(Jobs[First]);
  Merged.Args.insert(Merged.Args.begin() + 1, std::string("-D") +
                                                  GpuArchListMacro + "=" +
                                                  llvm::join(Archs, ","));
  std::vector<CudaJob> Out;
  for (size_t I = 0; I < Jobs.size(); ++I) {
    if (I == First)
      Out.push_back(std::move(Merged));
    else if (!llvm::is_contained(Archs, Jobs[I].Side))
      Out.push_back(std::move(Jobs[I]));
  }
  Jobs = std::move(Out);
}

/// The virtual architectures a clang CUDA command compiles for
/// (`--cuda-gpu-arch=sm_90a` -> `compute_90a`).
static std::vector<std::string> clangCompileArchs(ArrayRef<std::string> Args) {
  std::vector<std::string> Out;
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef A = Args[I];
    std::string Value;
    if (A.consume_front("--cuda-gpu-arch=") || A.consume_front("--offload-arch="))
      Value = A.str();
    else if ((A == "--cuda-gpu-arch" || A == "--offload-arch") &&
             I + 1 < Args.size())
      Value = Args[++I];
    if (std::optional<CodeImage> Image = parseCodeImage(Value)) {
      Image->Kind = ImageKind::Ptx;
      if (!llvm::is_contained(Out, Image->name()))
        Out.push_back(Image->name());
    }
  }
  return Out;
}

std::optional<NvccTranslation>
translateNvcc(const CompileCommand &Command, const CompileDbOptions &Opts) {
  if (!isNvccCommand(Command.CommandLine))
    return std::nullopt;
  NvccTranslateOptions TOpts;
  TOpts.ClangExecutable = Opts.ClangExecutable;
  TOpts.CudaPath = Opts.CudaPath;
  TOpts.Directory = Command.Directory;
  return translateNvccCommand(Command.CommandLine, TOpts, readFile);
}

std::vector<CompileCommand>
translateCompileCommand(const CompileCommand &Command,
                        const CompileDbOptions &Opts, TranslationLog &Log) {
  std::vector<std::string> Args = Command.CommandLine;
  // clang knows `.cu` but not `.cuh`: a CUDA header named on the command
  // line (with `--` and its flags, or a database entry of its own) would be
  // an input it does not compile ("expected exactly one compiler job").
  if (!isNvccCommand(Args) && !Args.empty() &&
      sys::path::extension(Command.Filename).equals_insensitive(".cuh") &&
      !namedLanguage(Args)) {
    Args.insert(Args.begin() + 1, "cuda");
    Args.insert(Args.begin() + 1, "-x");
  }
  // The architectures the build compiles the device code for, which
  // cuda-target-compatibility evaluates `__CUDA_ARCH__` conditions for in
  // every job of the file (lib/target/ArchPaths.h).
  std::vector<std::string> BuildArchs;
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
    if (!T.Code.Native)
      BuildArchs = T.Code.CompileArchs;
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
    // nvcc searches the toolkit's CCCL (thrust, cub, libcu++; CUDA 13 keeps
    // it in include/cccl, where cooperative groups include it from) and
    // clang does not; and the toolkit is usually newer than clang knows.
    bool NoCudaInc = llvm::is_contained(Args, "-nocudainc");
    std::string CudaPath = Opts.CudaPath;
    for (StringRef A : Args)
      if (A.consume_front("--cuda-path="))
        CudaPath = A.str();
    if (CudaPath.empty() && sys::fs::exists("/usr/local/cuda/include/cuda.h"))
      CudaPath = "/usr/local/cuda";
    std::optional<std::string> Cccl = ccclIncludeDir(CudaPath);
    if (!NoCudaInc && Cccl &&
        llvm::none_of(Args, [](StringRef A) { return A.contains("cccl"); })) {
      Args.push_back("-isystem");
      Args.push_back(*Cccl);
    }
    Args.insert(Args.begin() + 1, "-Wno-unknown-cuda-version");
    BuildArchs = clangCompileArchs(Args);
  }
  if (std::optional<ResourceUsagePlan> Plan =
          planResourceUsage(Command, Opts)) {
    Args.insert(Args.begin() + 1, stringDefine(ResourceUsageMacro, Plan->Path));
    if (!Plan->Compile.empty())
      Args.insert(Args.begin() + 2,
                  stringDefine(ResourceUsageNameMacro,
                               ("nvcc --fatbin of " +
                                sys::path::filename(Command.Filename))
                                   .str()));
  }
  if (!Opts.Archs.empty()) {
    // --cuda-archs replaces the command's architectures.
    std::vector<std::string> Override{"clang"};
    for (const std::string &A : Opts.Archs)
      Override.push_back("--cuda-gpu-arch=" + A);
    BuildArchs = clangCompileArchs(Override);
  }
  if (!BuildArchs.empty() && (isNvccCommand(Command.CommandLine) ||
                              compilesCuda(Command.Filename, Args)))
    Args.insert(Args.begin() + 1, ("-D" + BuildArchsMacroName + "=" +
                                   llvm::join(BuildArchs, ","))
                                      .str());
  if (!Opts.CompatHeader.empty() &&
      (isNvccCommand(Command.CommandLine) ||
       compilesCuda(Command.Filename, Args)) &&
      llvm::none_of(Args, [](StringRef A) { return A == "-nocudainc"; })) {
    Args.push_back("-include");
    Args.push_back(Opts.CompatHeader);
  }

  // nvcc's architecture macros for `a` and `f` targets (clang 22 has no
  // `f` targets and defines fewer macros): see clangDeviceArch().
  bool NvccMacros = isNvccCommand(Command.CommandLine);
  std::vector<CompileCommand> Out;
  if (!Opts.SplitJobs) {
    if (!Opts.Archs.empty()) {
      // The first architecture is the one a single-job tool analyses.
      std::vector<CudaJob> Jobs =
          splitCudaJobs(Args, Opts.Archs, CudaSides{false, true}, NvccMacros);
      if (Jobs.size() == 1 && !Jobs.front().Side.empty()) {
        Args = std::move(Jobs.front().Args);
      }
    } else {
      useClangDeviceArchs(Args, NvccMacros);
    }
    Out.push_back(Command);
    Out.back().CommandLine = std::move(Args);
    return Out;
  }
  std::vector<CudaJob> Jobs =
      splitCudaJobs(Args, Opts.Archs, Opts.Sides, NvccMacros);
  if (Opts.ArchParse == ArchParseMode::OnceWhenPossible)
    mergeDeviceJobs(Jobs, Command, Opts);
  for (CudaJob &J : Jobs) {
    Out.push_back(Command);
    Out.back().CommandLine = std::move(J.Args);
    if (!J.Side.empty())
      Out.back().Heuristic = J.Side;
  }
  return Out;
}

/// The compatibility header's text; see writeCompatHeader().
static constexpr const char *CompatHeaderText = R"(// Written by cuda-tidy: what nvcc provides and clang does not, so that code
// nvcc builds parses. Force-included into CUDA commands, after clang's CUDA
// wrapper headers.
#pragma clang system_header
#if defined(__CUDA__)
// Clusters over 8 blocks: nvcc builds them and the GPU runs them with the
// non-portable opt-in; clang 22 rejects the attribute. cuda-tidy's checks
// read the arguments where the macro is written.
#undef __cluster_dims__
#define __cluster_dims__(...)

// Host min and max of mixed signedness and width, as nvcc's math headers
// declare them for host code.
#define CUDA_TIDY_COMPAT_MINMAX(R, A, B)                                        static inline __host__ R min(A a, B b) {                                        return (R)a < (R)b ? (R)a : (R)b;                                           }                                                                             static inline __host__ R max(A a, B b) {                                        return (R)a > (R)b ? (R)a : (R)b;                                           }
CUDA_TIDY_COMPAT_MINMAX(int, int, int)
CUDA_TIDY_COMPAT_MINMAX(unsigned int, unsigned int, unsigned int)
CUDA_TIDY_COMPAT_MINMAX(unsigned int, int, unsigned int)
CUDA_TIDY_COMPAT_MINMAX(unsigned int, unsigned int, int)
CUDA_TIDY_COMPAT_MINMAX(long, long, long)
CUDA_TIDY_COMPAT_MINMAX(unsigned long, unsigned long, unsigned long)
CUDA_TIDY_COMPAT_MINMAX(unsigned long, long, unsigned long)
CUDA_TIDY_COMPAT_MINMAX(unsigned long, unsigned long, long)
CUDA_TIDY_COMPAT_MINMAX(long long, long long, long long)
CUDA_TIDY_COMPAT_MINMAX(unsigned long long, unsigned long long,
                        unsigned long long)
CUDA_TIDY_COMPAT_MINMAX(unsigned long long, long long, unsigned long long)
CUDA_TIDY_COMPAT_MINMAX(unsigned long long, unsigned long long, long long)
CUDA_TIDY_COMPAT_MINMAX(float, float, float)
CUDA_TIDY_COMPAT_MINMAX(double, double, double)
CUDA_TIDY_COMPAT_MINMAX(double, float, double)
CUDA_TIDY_COMPAT_MINMAX(double, double, float)
#undef CUDA_TIDY_COMPAT_MINMAX

// nvcc's scoped atomics (CUDA 12.8 and later): compiler builtins of nvcc,
// with their order and scope constants from the toolkit's
// crt/device_functions.h, which clang's wrapper headers do not include.
#if !__has_builtin(__nv_atomic_load_n)
enum {
  __NV_ATOMIC_RELAXED,
  __NV_ATOMIC_CONSUME,
  __NV_ATOMIC_ACQUIRE,
  __NV_ATOMIC_RELEASE,
  __NV_ATOMIC_ACQ_REL,
  __NV_ATOMIC_SEQ_CST
};
enum {
  __NV_THREAD_SCOPE_THREAD,
  __NV_THREAD_SCOPE_BLOCK,
  __NV_THREAD_SCOPE_CLUSTER,
  __NV_THREAD_SCOPE_DEVICE,
  __NV_THREAD_SCOPE_SYSTEM
};
#define CUDA_TIDY_COMPAT_NV_ATOMIC_RMW(OP)                                     \
  template <class T>                                                           \
  __device__ T __nv_atomic_fetch_##OP(T *, T, int,                             \
                                      int = __NV_THREAD_SCOPE_SYSTEM);         \
  template <class T>                                                           \
  __device__ void __nv_atomic_##OP(T *, T, int, int = __NV_THREAD_SCOPE_SYSTEM);
CUDA_TIDY_COMPAT_NV_ATOMIC_RMW(add)
CUDA_TIDY_COMPAT_NV_ATOMIC_RMW(sub)
CUDA_TIDY_COMPAT_NV_ATOMIC_RMW(and)
CUDA_TIDY_COMPAT_NV_ATOMIC_RMW(or)
CUDA_TIDY_COMPAT_NV_ATOMIC_RMW(xor)
CUDA_TIDY_COMPAT_NV_ATOMIC_RMW(min)
CUDA_TIDY_COMPAT_NV_ATOMIC_RMW(max)
#undef CUDA_TIDY_COMPAT_NV_ATOMIC_RMW
template <class T>
__device__ T __nv_atomic_load_n(T *, int, int = __NV_THREAD_SCOPE_SYSTEM);
template <class T>
__device__ void __nv_atomic_load(T *, T *, int,
                                 int = __NV_THREAD_SCOPE_SYSTEM);
template <class T>
__device__ void __nv_atomic_store_n(T *, T, int,
                                    int = __NV_THREAD_SCOPE_SYSTEM);
template <class T>
__device__ void __nv_atomic_store(T *, T *, int,
                                  int = __NV_THREAD_SCOPE_SYSTEM);
template <class T>
__device__ T __nv_atomic_exchange_n(T *, T, int,
                                    int = __NV_THREAD_SCOPE_SYSTEM);
template <class T>
__device__ void __nv_atomic_exchange(T *, T *, T *, int,
                                     int = __NV_THREAD_SCOPE_SYSTEM);
template <class T>
__device__ bool __nv_atomic_compare_exchange_n(T *, T *, T, bool, int, int,
                                               int = __NV_THREAD_SCOPE_SYSTEM);
template <class T>
__device__ bool __nv_atomic_compare_exchange(T *, T *, T *, bool, int, int,
                                             int = __NV_THREAD_SCOPE_SYSTEM);
__device__ void __nv_atomic_thread_fence(int, int = __NV_THREAD_SCOPE_SYSTEM);
#endif
#endif
)";

StringRef compatHeaderText() { return CompatHeaderText; }

Expected<std::string> writeCompatHeader(StringRef Dir) {
  SmallString<256> Path(Dir);
  sys::path::append(Path, "cuda_tidy_compat.h");
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC)
    return createStringError(EC, "cannot write '%s': %s", Path.c_str(),
                             EC.message().c_str());
  OS << CompatHeaderText;
  return Path.str().str();
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
