//===--- NvccArgs.cpp - nvcc command lines as clang command lines ---------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "tools/common/NvccArgs.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

using namespace llvm;

namespace cuda_tidy {

namespace {
/// What to do with one nvcc option.
enum class Action {
  Drop, ///< Known; no effect on what the front end sees.
  Arch,
  Code,
  Gencode,
  Define,
  Undefine,
  Include,
  SystemInclude,
  PreInclude,
  Std,
  Language,
  Compile,
  CompileRdc,
  Rdc,
  Output,
  HostOptions,
  OptionsFile,
  ForwardUnknown,
  Optimize,
  Debug,
  FastMath,
  DefaultStream,
  NoWarnings,
  ExtendedLambda,
  RelaxedConstexpr,
};

struct NvccOption {
  StringLiteral Long;
  StringLiteral Short;
  bool TakesValue;
  Action Act;
};
} // namespace

// nvcc's options by their long and short names, leading dashes removed
// (nvcc accepts one or two dashes and "=" or a space before a value).
static const NvccOption NvccOptions[] = {
    {"gpu-architecture", "arch", true, Action::Arch},
    {"gpu-code", "code", true, Action::Code},
    {"generate-code", "gencode", true, Action::Gencode},
    {"cuda-gpu-arch", "", true, Action::Arch},
    {"define-macro", "D", true, Action::Define},
    {"undefine-macro", "U", true, Action::Undefine},
    {"include-path", "I", true, Action::Include},
    {"system-include", "isystem", true, Action::SystemInclude},
    {"pre-include", "include", true, Action::PreInclude},
    {"std", "", true, Action::Std},
    {"x", "", true, Action::Language},
    {"compile", "c", false, Action::Compile},
    {"device-c", "dc", false, Action::CompileRdc},
    {"device-w", "dw", false, Action::Compile},
    {"relocatable-device-code", "rdc", true, Action::Rdc},
    {"output-file", "o", true, Action::Output},
    {"compiler-options", "Xcompiler", true, Action::HostOptions},
    {"options-file", "optf", true, Action::OptionsFile},
    {"forward-unknown-to-host-compiler", "", false, Action::ForwardUnknown},
    {"optimize", "O", true, Action::Optimize},
    {"debug", "g", false, Action::Debug},
    {"use_fast_math", "", false, Action::FastMath},
    {"default-stream", "", true, Action::DefaultStream},
    {"disable-warnings", "w", false, Action::NoWarnings},
    // clang has these semantics by default; nvcc also announces them with
    // a macro, which CCCL and libraries test (cuCollections #errors
    // without __CUDACC_EXTENDED_LAMBDA__).
    {"expt-relaxed-constexpr", "", false, Action::RelaxedConstexpr},
    {"expt-extended-lambda", "", false, Action::ExtendedLambda},
    {"extended-lambda", "", false, Action::ExtendedLambda},
    // The host compiler and the build.
    {"compiler-bindir", "ccbin", true, Action::Drop},
    {"allow-unsupported-compiler", "", false, Action::Drop},
    {"forward-unknown-to-host-linker", "", false, Action::Drop},
    {"forward-unknown-opts", "", false, Action::ForwardUnknown},
    {"machine", "m", true, Action::Drop},
    {"m64", "", false, Action::Drop},
    {"verbose", "v", false, Action::Drop},
    {"dryrun", "", false, Action::Drop},
    {"keep", "", false, Action::Drop},
    {"keep-dir", "", true, Action::Drop},
    {"time", "", true, Action::Drop},
    {"threads", "t", true, Action::Drop},
    {"split-compile", "", true, Action::Drop},
    {"objdir-as-tempdir", "", false, Action::Drop},
    {"output-directory", "odir", true, Action::Drop},
    // Dependency files.
    {"generate-dependencies", "M", false, Action::Drop},
    {"generate-nonsystem-dependencies", "MM", false, Action::Drop},
    {"generate-dependencies-with-compile", "MD", false, Action::Drop},
    {"generate-nonsystem-dependencies-with-compile", "MMD", false,
     Action::Drop},
    {"dependency-output", "MF", true, Action::Drop},
    {"dependency-target-name", "MT", true, Action::Drop},
    {"generate-dependency-targets", "MP", false, Action::Drop},
    // Linking.
    {"library", "l", true, Action::Drop},
    {"library-path", "L", true, Action::Drop},
    {"linker-options", "Xlinker", true, Action::Drop},
    {"cudart", "", true, Action::Drop},
    {"cudadevrt", "", true, Action::Drop},
    {"shared", "", false, Action::Drop},
    {"lib", "", false, Action::Drop},
    {"link", "", false, Action::Drop},
    {"device-link", "dlink", false, Action::Drop},
    {"no-device-link", "nodlink", false, Action::Drop},
    // Code generation and nvcc's internal tools.
    {"device-debug", "G", false, Action::Drop},
    {"generate-line-info", "lineinfo", false, Action::Drop},
    {"maxrregcount", "", true, Action::Drop},
    {"resource-usage", "res-usage", false, Action::Drop},
    {"ptxas-options", "Xptxas", true, Action::Drop},
    {"nvlink-options", "Xnvlink", true, Action::Drop},
    {"archive-options", "Xarchive", true, Action::Drop},
    {"fatbin-options", "Xfatbin", true, Action::Drop},
    {"Xcudafe", "", true, Action::Drop},
    {"ftz", "", true, Action::Drop},
    {"prec-div", "", true, Action::Drop},
    {"prec-sqrt", "", true, Action::Drop},
    {"fmad", "", true, Action::Drop},
    {"extra-device-vectorization", "", false, Action::Drop},
    {"extensible-whole-program", "ewp", false, Action::Drop},
    {"dlink-time-opt", "dlto", false, Action::Drop},
    {"lto", "", false, Action::Drop},
    {"keep-device-functions", "", false, Action::Drop},
    {"source-in-ptx", "src-in-ptx", false, Action::Drop},
    {"restrict", "", false, Action::Drop},
    {"static-global-template-stub", "", true, Action::Drop},
    {"jump-table-density", "", true, Action::Drop},
    {"Ofast-compile", "Ofc", true, Action::Drop},
    {"dopt", "", true, Action::Drop},
    // Diagnostics of nvcc's own front end.
    {"Werror", "", true, Action::Drop},
    {"Wno-deprecated-gpu-targets", "", false, Action::Drop},
    {"Wno-deprecated-declarations", "", false, Action::Drop},
    {"Wreorder", "", false, Action::Drop},
    {"Wdefault-stream-launch", "", false, Action::Drop},
    {"Wmissing-launch-bounds", "", false, Action::Drop},
    {"Wext-lambda-captures-this", "", false, Action::Drop},
    {"diag-suppress", "", true, Action::Drop},
    {"diag-error", "", true, Action::Drop},
    {"diag-warn", "", true, Action::Drop},
    {"display-error-number", "err-no", false, Action::Drop},
    {"no-display-error-number", "no-err-no", false, Action::Drop},
};

/// Options whose value may follow the name directly ("-DFOO", "-O3").
static constexpr StringLiteral JoinedPrefixes[] = {"isystem", "D", "U", "I",
                                                   "O",       "L", "l"};

static const NvccOption *lookupOption(StringRef Name) {
  for (const NvccOption &O : NvccOptions)
    if (Name == O.Long || (!O.Short.empty() && Name == O.Short))
      return &O;
  return nullptr;
}

static const NvccOption *lookupJoined(StringRef Name, StringRef &Value) {
  for (StringRef Prefix : JoinedPrefixes) {
    if (Name.size() > Prefix.size() && Name.starts_with(Prefix)) {
      Value = Name.drop_front(Prefix.size());
      return lookupOption(Prefix);
    }
  }
  return nullptr;
}

static bool isLauncher(StringRef Executable) {
  StringRef Base = sys::path::stem(Executable);
  return Base == "ccache" || Base == "sccache" || Base == "distcc" ||
         Base == "buildcache";
}

static bool isNvccExecutable(StringRef Executable) {
  return sys::path::stem(Executable) == "nvcc";
}

bool isNvccCommand(ArrayRef<std::string> Argv) {
  if (Argv.empty())
    return false;
  if (isNvccExecutable(Argv[0]))
    return true;
  return Argv.size() > 1 && isLauncher(Argv[0]) && isNvccExecutable(Argv[1]);
}

namespace {
/// The state of one translation; options files recurse into it.
class Translator {
public:
  Translator(const NvccTranslateOptions &Opts, ReadFileFn ReadFile,
             NvccTranslation &Out)
      : Opts(Opts), ReadFile(ReadFile), Out(Out) {}

  void run(ArrayRef<std::string> Args, unsigned Depth);
  void finish(StringRef Nvcc);

private:
  void addArch(StringRef Name, StringRef Origin);
  void handle(const NvccOption &O, StringRef Value, StringRef Spelling,
              unsigned Depth);
  void parseGencode(StringRef Value, StringRef Spelling);

  void computeCode(std::optional<unsigned> Version);

  const NvccTranslateOptions &Opts;
  ReadFileFn ReadFile;
  NvccTranslation &Out;
  std::vector<std::string> Body;
  // -arch and -code: the real architectures are -code's when it is given.
  std::vector<std::string> ArchNames, CodeNames;
  // -gencode: its virtual architecture and its code, for NvccCodeTargets.
  std::vector<std::pair<std::string, std::vector<std::string>>> Gencodes;
  bool ForwardUnknown = false;
  bool Rdc = false;
};
} // namespace

void Translator::addArch(StringRef Name, StringRef Origin) {
  std::optional<std::string> Arch = normalizeGpuArch(Name);
  if (!Arch) {
    Out.Problems.push_back(("'" + Origin + "' names no single GPU " +
                            "architecture ('" + Name.trim() +
                            "'); it is ignored")
                               .str());
    return;
  }
  if (!llvm::is_contained(Out.GpuArchs, *Arch))
    Out.GpuArchs.push_back(*Arch);
}

void Translator::parseGencode(StringRef Value, StringRef Spelling) {
  // arch=compute_90,code=[compute_90,sm_90] or code="sm_90,compute_90".
  StringRef Arch, Code;
  size_t CodePos = Value.find("code=");
  StringRef Head =
      CodePos == StringRef::npos ? Value : Value.take_front(CodePos);
  if (CodePos != StringRef::npos)
    Code = Value.drop_front(CodePos + 5);
  Head = Head.trim().rtrim(',');
  if (!Head.consume_front("arch=")) {
    Out.Problems.push_back(
        ("'" + Spelling + "' has no 'arch=': it is ignored").str());
    return;
  }
  Arch = Head;
  Code = Code.trim().trim("\"'").trim("[]");
  SmallVector<StringRef, 4> Codes, Real;
  Code.split(Codes, ',', -1, false);
  Out.Code.Options.push_back(Spelling.str());
  Gencodes.emplace_back(Arch.trim().trim("\"'").str(),
                        std::vector<std::string>());
  for (StringRef C : Codes)
    Gencodes.back().second.push_back(C.trim().str());
  for (StringRef C : Codes)
    if (C.trim().starts_with("sm_"))
      Real.push_back(C.trim());
  if (!Real.empty()) {
    for (StringRef R : Real)
      addArch(R, Spelling);
    return;
  }
  // PTX only: the JIT compiles for the virtual architecture's number.
  addArch(Codes.empty() ? Arch : Codes.front(), Spelling);
}

void Translator::handle(const NvccOption &O, StringRef Value,
                        StringRef Spelling, unsigned Depth) {
  switch (O.Act) {
  case Action::Drop:
  case Action::ForwardUnknown:
    return;
  case Action::Arch: {
    Out.Code.Options.push_back(Spelling.str());
    SmallVector<StringRef, 4> Names;
    Value.split(Names, ',', -1, false);
    for (StringRef N : Names)
      ArchNames.push_back(N.str());
    return;
  }
  case Action::Code: {
    Out.Code.Options.push_back(Spelling.str());
    SmallVector<StringRef, 4> Names;
    Value.split(Names, ',', -1, false);
    for (StringRef N : Names)
      CodeNames.push_back(N.str());
    return;
  }
  case Action::Gencode:
    parseGencode(Value, Spelling);
    return;
  case Action::Define:
    Body.push_back(("-D" + Value).str());
    return;
  case Action::Undefine:
    Body.push_back(("-U" + Value).str());
    return;
  case Action::Include:
    Body.push_back(("-I" + Value).str());
    return;
  case Action::SystemInclude:
    Body.push_back("-isystem");
    Body.push_back(Value.str());
    return;
  case Action::PreInclude:
    Body.push_back("-include");
    Body.push_back(Value.str());
    return;
  case Action::Std:
    Body.push_back(("-std=" + Value).str());
    return;
  case Action::Language: {
    StringRef Lang = StringSwitch<StringRef>(Value)
                         .Case("cu", "cuda")
                         // clang's names, which a database's interpolation
                         // writes for a header it has no command for.
                         .Case("cuda", "cuda")
                         .Case("cuda-cpp-output", "cuda")
                         .Case("c++-header", "c++")
                         .Case("c++", "c++")
                         .Case("c", "c")
                         .Case("ptx", "")
                         .Default("");
    if (Lang.empty()) {
      Out.Untranslated.push_back(Spelling.str());
      return;
    }
    Body.push_back("-x");
    Body.push_back(Lang.str());
    return;
  }
  case Action::CompileRdc:
    Rdc = true;
    [[fallthrough]];
  case Action::Compile:
    Body.push_back("-c");
    return;
  case Action::Rdc:
    Rdc = Value.equals_insensitive("true");
    return;
  case Action::Output:
    Body.push_back("-o");
    Body.push_back(Value.str());
    return;
  case Action::HostOptions: {
    SmallVector<StringRef, 4> Host;
    Value.split(Host, ',', -1, false);
    for (StringRef H : Host)
      Body.push_back(H.trim().str());
    return;
  }
  case Action::OptionsFile: {
    SmallVector<StringRef, 2> Files;
    Value.split(Files, ',', -1, false);
    for (StringRef F : Files) {
      SmallString<256> Path(F);
      if (!Opts.Directory.empty())
        sys::path::make_absolute(Opts.Directory, Path);
      std::optional<std::string> Text;
      if (Depth < 8)
        Text = ReadFile(Path);
      if (!Text) {
        Out.Problems.push_back(("cannot read the options file '" + Path +
                                "' of '" + Spelling + "'")
                                   .str());
        continue;
      }
      BumpPtrAllocator Alloc;
      StringSaver Saver(Alloc);
      SmallVector<const char *, 32> Tokens;
      cl::TokenizeGNUCommandLine(*Text, Saver, Tokens);
      std::vector<std::string> Args(Tokens.begin(), Tokens.end());
      run(Args, Depth + 1);
    }
    return;
  }
  case Action::Optimize:
    Body.push_back(("-O" + Value).str());
    return;
  case Action::Debug:
    Body.push_back("-g");
    return;
  case Action::FastMath:
    Body.push_back("-fgpu-approx-transcendentals");
    return;
  case Action::DefaultStream:
    // clang's driver does not forward -fgpu-default-stream for CUDA (it
    // reports it as unused on every job); its front end takes it and then
    // defines CUDA_API_PER_THREAD_DEFAULT_STREAM, as nvcc does.
    if (Value == "per-thread" || Value == "legacy") {
      Body.push_back("-Xclang");
      Body.push_back(("-fgpu-default-stream=" + Value).str());
    } else if (Value != "null")
      Out.Untranslated.push_back(Spelling.str());
    return;
  case Action::NoWarnings:
    Body.push_back("-w");
    return;
  case Action::ExtendedLambda:
    Body.push_back("-D__CUDACC_EXTENDED_LAMBDA__=1");
    return;
  case Action::RelaxedConstexpr:
    Body.push_back("-D__CUDACC_RELAXED_CONSTEXPR__=1");
    return;
  }
}

void Translator::run(ArrayRef<std::string> Args, unsigned Depth) {
  for (const std::string &A : Args)
    if (StringRef(A).ltrim('-') == "forward-unknown-to-host-compiler" ||
        StringRef(A).ltrim('-') == "forward-unknown-opts")
      ForwardUnknown = true;

  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef Arg = Args[I];
    if (Arg.empty())
      continue;
    if (!Arg.starts_with("-") || Arg == "-") {
      Body.push_back(Arg.str()); // An input file.
      continue;
    }
    // "--" ends the options (a database's interpolated command for a header
    // puts one before the file): the rest are input files.
    if (Arg == "--") {
      for (++I; I < Args.size(); ++I)
        Body.push_back(Args[I]);
      break;
    }
    StringRef Stripped =
        Arg.starts_with("--") ? Arg.drop_front(2) : Arg.drop_front(1);
    auto [Name, Attached] = Stripped.split('=');
    bool HasValue = Stripped.contains('=');
    StringRef Value = Attached;
    const NvccOption *O = lookupOption(Name);
    if (!O && Arg.starts_with("-") && !Arg.starts_with("--")) {
      O = lookupJoined(Stripped, Value);
      HasValue = O != nullptr;
    }
    if (!O) {
      if (ForwardUnknown)
        Body.push_back(Arg.str());
      else
        Out.Untranslated.push_back(Arg.str());
      continue;
    }
    std::string Spelling = Arg.str();
    if (O->TakesValue && !HasValue) {
      if (I + 1 >= Args.size()) {
        Out.Problems.push_back(
            ("option '" + Arg + "' has no value; it is ignored").str());
        continue;
      }
      Value = Args[++I];
      Spelling += " " + Args[I];
    }
    handle(*O, Value, Spelling, Depth);
  }
}

void Translator::finish(StringRef Nvcc) {
  // -code's real architectures win over -arch's, as in nvcc.
  const std::vector<std::string> &Named =
      CodeNames.empty() ? ArchNames : CodeNames;
  bool AnyReal = llvm::any_of(Named, [](const std::string &N) {
    return StringRef(N).starts_with("sm_");
  });
  for (const std::string &N : Named)
    if (!AnyReal || StringRef(N).starts_with("sm_"))
      addArch(N, (CodeNames.empty() ? "-arch=" : "-code=") + N);

  Out.Args.push_back(Opts.ClangExecutable);
  for (const std::string &Arch : Out.GpuArchs)
    Out.Args.push_back("--cuda-gpu-arch=" + Arch);
  if (Rdc)
    Out.Args.push_back("-fgpu-rdc");

  Out.CudaPath = Opts.CudaPath;
  if (Out.CudaPath.empty()) {
    if (std::optional<std::string> Found = findCudaToolkitFromNvcc(Nvcc))
      Out.CudaPath = *Found;
  }
  if (Out.CudaPath.empty()) {
    Out.Problems.push_back(
        ("no CUDA toolkit found for '" + Nvcc +
         "' (looked for include/cuda_runtime.h beside its bin folder); "
         "clang will search its default places; pass --cuda-path=DIR")
            .str());
  } else {
    appendToolkitArgs(Out.CudaPath, Out.Args);
  }
  computeCode(Out.CudaPath.empty() ? std::nullopt
                                   : toolkitVersion(Out.CudaPath));
  // The toolkit is usually newer than the CUDA version clang knows.
  Out.Args.push_back("-Wno-unknown-cuda-version");
  llvm::append_range(Out.Args, Body);
}

/// The compilation `-arch=NAME` alone stands for: its images and the virtual
/// architectures compiled (see NvccCodeTargets).
static void addArchShorthand(StringRef Name, NvccCodeTargets &Code) {
  std::optional<CodeImage> I = parseCodeImage(Name);
  if (!I)
    return;
  CodeImage Base = *I;
  Base.Features = FeatureSet::Generic;
  CodeImage Ptx = *I;
  Ptx.Kind = ImageKind::Ptx;
  CodeImage BasePtx = Base;
  BasePtx.Kind = ImageKind::Ptx;
  if (Name.trim().starts_with("lto_")) {
    // LTO-IR: the device link makes the cubin.
    Code.Images.push_back(Base);
    Code.CompileArchs.push_back(BasePtx.name());
    return;
  }
  if (I->Features != FeatureSet::Generic) {
    // nvcc adds the generic PTX of the same number (nvcc --dryrun: sm_90a
    // gives compute_90 PTX, the sm_90a cubin and compute_90a PTX).
    Code.Images.push_back(BasePtx);
    Code.CompileArchs.push_back(BasePtx.name());
  }
  if (I->Kind == ImageKind::Cubin)
    Code.Images.push_back(*I);
  Code.Images.push_back(Ptx);
  Code.CompileArchs.push_back(Ptx.name());
}

/// `-arch=V -code=C...` and `-gencode arch=V,code=C...`: exactly the images C,
/// compiled from V.
static void addExplicit(StringRef Virtual, ArrayRef<std::string> Codes,
                        NvccCodeTargets &Code) {
  if (std::optional<CodeImage> V = parseCodeImage(Virtual)) {
    V->Kind = ImageKind::Ptx;
    Code.CompileArchs.push_back(V->name());
  }
  for (StringRef C : Codes)
    if (std::optional<CodeImage> I = parseCodeImage(C))
      Code.Images.push_back(*I);
}

/// `-arch=all` and `-arch=all-major` of the toolkit \p Version (1000 * major
/// + 10 * minor; the newest known when unknown), from `nvcc --dryrun` of
/// CUDA 13.0 and the CUDA 12 release notes.
static void addAllArchs(bool MajorOnly, std::optional<unsigned> Version,
                        NvccCodeTargets &Code) {
  unsigned V = Version.value_or(13000);
  llvm::SmallVector<unsigned, 16> Cubins;
  unsigned Ptx;
  if (V >= 13000) {
    if (MajorOnly)
      Cubins = {75, 80, 90, 100, 110, 120};
    else
      Cubins = {75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121};
    Ptx = 120;
  } else if (V >= 12080) {
    if (MajorOnly)
      Cubins = {50, 60, 70, 80, 90, 100, 120};
    else
      Cubins = {50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90, 100,
                101, 103, 120, 121};
    Ptx = 120;
  } else {
    if (MajorOnly)
      Cubins = {50, 60, 70, 80, 90};
    else
      Cubins = {50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90};
    Ptx = 90;
  }
  for (unsigned C : Cubins) {
    Code.Images.push_back({ImageKind::Cubin, C / 10, C % 10});
    Code.CompileArchs.push_back("compute_" + std::to_string(C));
  }
  Code.Images.push_back({ImageKind::Ptx, Ptx / 10, Ptx % 10});
}

void Translator::computeCode(std::optional<unsigned> Version) {
  NvccCodeTargets &Code = Out.Code;
  std::string Arch =
      ArchNames.empty() ? "" : StringRef(ArchNames.back()).trim().str();
  if (Arch == "native") {
    Code.Native = true;
  } else if (Arch == "all" || Arch == "all-major") {
    addAllArchs(Arch == "all-major", Version, Code);
  } else if (!Arch.empty() && !CodeNames.empty()) {
    addExplicit(Arch, CodeNames, Code);
  } else if (!Arch.empty()) {
    addArchShorthand(Arch, Code);
  }
  for (const auto &[Virtual, Codes] : Gencodes) {
    if (Codes.empty())
      addArchShorthand(Virtual, Code); // "-gencode arch=sm_80": the shorthand.
    else
      addExplicit(Virtual, Codes, Code);
  }
  if (Arch.empty() && Gencodes.empty()) {
    Code.Default = true;
    addArchShorthand(Version && *Version < 13000 ? "sm_52" : NvccDefaultArch,
                     Code);
  }
  // Command order without repeats.
  std::vector<CodeImage> Images;
  for (const CodeImage &I : Code.Images)
    if (!llvm::is_contained(Images, I))
      Images.push_back(I);
  Code.Images = std::move(Images);
  std::vector<std::string> Compile;
  for (const std::string &C : Code.CompileArchs)
    if (!llvm::is_contained(Compile, C))
      Compile.push_back(C);
  Code.CompileArchs = std::move(Compile);
}

NvccTranslation translateNvccCommand(ArrayRef<std::string> Argv,
                                     const NvccTranslateOptions &Opts,
                                     ReadFileFn ReadFile) {
  NvccTranslation Out;
  if (Argv.empty())
    return Out;
  size_t First = isLauncher(Argv[0]) && Argv.size() > 1 ? 1 : 0;
  Translator T(Opts, ReadFile, Out);
  T.run(Argv.drop_front(First + 1), 0);
  T.finish(Argv[First]);
  return Out;
}

} // namespace cuda_tidy
