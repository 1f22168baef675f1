//===--- NvccArgsTest.cpp - Tests of the nvcc command translation ---------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "tools/common/NvccArgs.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <tuple>

using namespace cuda_tidy;
using llvm::StringRef;

namespace {
/// A fake toolkit under a temporary folder: bin/nvcc, include/cuda_runtime.h
/// and include/cccl.
class NvccArgsTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("nvccargs", Root));
    for (StringRef Dir : {"bin", "include/cccl"}) {
      llvm::SmallString<256> P(Root);
      llvm::sys::path::append(P, Dir);
      ASSERT_FALSE(llvm::sys::fs::create_directories(P));
    }
    write("include/cuda_runtime.h", "");
    write("bin/nvcc", "");
    Nvcc = (Root + "/bin/nvcc").str();
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

  void write(StringRef Rel, StringRef Text) {
    std::error_code EC;
    llvm::raw_fd_ostream OS((Root + "/" + Rel).str(), EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }

  NvccTranslation translate(std::vector<std::string> Args) {
    Args.insert(Args.begin(), Nvcc);
    NvccTranslateOptions Opts;
    Opts.Directory = "/work";
    return translateNvccCommand(Args, Opts, [&](StringRef Path) {
      auto It = OptionFiles.find(Path);
      return It == OptionFiles.end() ? std::optional<std::string>()
                                     : std::optional<std::string>(It->second);
    });
  }

  static bool has(const std::vector<std::string> &V, StringRef S) {
    return llvm::is_contained(V, S);
  }

  llvm::SmallString<256> Root;
  std::string Nvcc;
  llvm::StringMap<std::string> OptionFiles;
};
} // namespace

// The command CMake writes for `LANGUAGES CUDA` with CUDA_ARCHITECTURES 90.
TEST_F(NvccArgsTest, CMakeCommand) {
  NvccTranslation T = translate(
      {"-forward-unknown-to-host-compiler", "-DNDEBUG", "-I/src/include",
       "-isystem", "/opt/dep/include", "-O3", "-std=c++17",
       "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
       "--expt-relaxed-constexpr", "-Xcompiler=-fPIC,-Wall", "-x", "cu", "-c",
       "/src/a.cu", "-o", "a.cu.o"});
  EXPECT_TRUE(T.Untranslated.empty());
  EXPECT_TRUE(T.Problems.empty());
  EXPECT_EQ(T.GpuArchs, std::vector<std::string>{"sm_90"});
  EXPECT_EQ(T.Args.front(), "clang++");
  EXPECT_TRUE(has(T.Args, "--cuda-gpu-arch=sm_90"));
  EXPECT_TRUE(has(T.Args, "-DNDEBUG"));
  EXPECT_TRUE(has(T.Args, "-I/src/include"));
  EXPECT_TRUE(has(T.Args, "/opt/dep/include"));
  EXPECT_TRUE(has(T.Args, "-O3"));
  EXPECT_TRUE(has(T.Args, "-std=c++17"));
  EXPECT_TRUE(has(T.Args, "-fPIC"));
  EXPECT_TRUE(has(T.Args, "-Wall"));
  EXPECT_TRUE(has(T.Args, "cuda"));
  EXPECT_TRUE(has(T.Args, "/src/a.cu"));
  EXPECT_EQ(T.CudaPath, Root.str());
  EXPECT_TRUE(has(T.Args, "--cuda-path=" + Root.str().str()));
  EXPECT_TRUE(has(T.Args, (Root + "/include/cccl").str()));
  for (StringRef Gone :
       {"-forward-unknown-to-host-compiler", "--expt-relaxed-constexpr", "cu",
        "-Xcompiler=-fPIC,-Wall"})
    EXPECT_FALSE(has(T.Args, Gone)) << Gone.str();
}

TEST_F(NvccArgsTest, ArchitectureSpellings) {
  EXPECT_EQ(translate({"-arch=sm_80", "a.cu"}).GpuArchs,
            std::vector<std::string>{"sm_80"});
  EXPECT_EQ(translate({"-arch", "sm_90a", "a.cu"}).GpuArchs,
            std::vector<std::string>{"sm_90a"});
  EXPECT_EQ(translate({"--gpu-architecture=compute_75", "a.cu"}).GpuArchs,
            std::vector<std::string>{"sm_75"});
  // -code names the real architectures.
  EXPECT_EQ(
      translate({"-arch=compute_80", "-code=sm_80,sm_86", "a.cu"}).GpuArchs,
      (std::vector<std::string>{"sm_80", "sm_86"}));
  EXPECT_EQ(
      translate({"-gencode", "arch=compute_80,code=sm_80",
                 "-gencode=arch=compute_90,code=\"sm_90,compute_90\"",
                 "--generate-code", "arch=compute_100,code=[sm_100a]", "a.cu"})
          .GpuArchs,
      (std::vector<std::string>{"sm_80", "sm_90", "sm_100a"}));
  // PTX only: analysed for the virtual architecture's number.
  EXPECT_EQ(
      translate({"--generate-code=arch=compute_90,code=compute_90", "a.cu"})
          .GpuArchs,
      std::vector<std::string>{"sm_90"});
  EXPECT_EQ(translate({"--cuda-gpu-arch=sm_120", "a.cu"}).GpuArchs,
            std::vector<std::string>{"sm_120"});
  // Repeats collapse.
  EXPECT_EQ(
      translate({"-arch=sm_90", "-gencode=arch=compute_90,code=sm_90", "a.cu"})
          .GpuArchs,
      std::vector<std::string>{"sm_90"});
}

TEST_F(NvccArgsTest, ArchitecturesThatAreNotOne) {
  NvccTranslation T = translate({"-arch=native", "a.cu"});
  EXPECT_TRUE(T.GpuArchs.empty());
  ASSERT_EQ(T.Problems.size(), 1u);
  EXPECT_NE(T.Problems.front().find("'native'"), std::string::npos);
}

TEST_F(NvccArgsTest, HostCompilerOptions) {
  NvccTranslation T = translate(
      {"-Xcompiler", "-fopenmp,-Wextra", "--compiler-options=-O2", "-ccbin",
       "/usr/bin/g++-12", "--compiler-bindir=/opt/gcc", "a.cu"});
  EXPECT_TRUE(has(T.Args, "-fopenmp"));
  EXPECT_TRUE(has(T.Args, "-Wextra"));
  EXPECT_TRUE(has(T.Args, "-O2"));
  EXPECT_FALSE(has(T.Args, "/usr/bin/g++-12"));
  EXPECT_FALSE(has(T.Args, "-ccbin"));
  EXPECT_TRUE(T.Untranslated.empty());
}

TEST_F(NvccArgsTest, UnknownOptionsAreReportedOrForwarded) {
  NvccTranslation T = translate({"-fPIC", "--bogus-flag", "a.cu"});
  EXPECT_EQ(T.Untranslated,
            (std::vector<std::string>{"-fPIC", "--bogus-flag"}));
  EXPECT_FALSE(has(T.Args, "-fPIC"));
  // The forwarding flag applies wherever it is written.
  T = translate({"-fPIC", "-forward-unknown-to-host-compiler", "a.cu"});
  EXPECT_TRUE(T.Untranslated.empty());
  EXPECT_TRUE(has(T.Args, "-fPIC"));
}

TEST_F(NvccArgsTest, RelocatableDeviceCode) {
  EXPECT_TRUE(has(translate({"-rdc=true", "a.cu"}).Args, "-fgpu-rdc"));
  EXPECT_TRUE(has(translate({"--relocatable-device-code", "true", "a.cu"}).Args,
                  "-fgpu-rdc"));
  EXPECT_FALSE(has(translate({"-rdc=false", "a.cu"}).Args, "-fgpu-rdc"));
  NvccTranslation Dc = translate({"-dc", "a.cu"});
  EXPECT_TRUE(has(Dc.Args, "-fgpu-rdc"));
  EXPECT_TRUE(has(Dc.Args, "-c"));
}

TEST_F(NvccArgsTest, MacrosIncludesAndStandard) {
  NvccTranslation T = translate({"-D", "A=1", "-DB", "--define-macro=C", "-UD",
                                 "-I", "inc", "--include-path=inc2", "--std",
                                 "c++20", "--pre-include", "pre.h", "a.cu"});
  for (StringRef S : {"-DA=1", "-DB", "-DC", "-UD", "-Iinc", "-Iinc2",
                      "-std=c++20", "-include", "pre.h"})
    EXPECT_TRUE(has(T.Args, S)) << S.str();
  EXPECT_TRUE(T.Untranslated.empty());
}

TEST_F(NvccArgsTest, DroppedOptions) {
  NvccTranslation T = translate(
      {"--expt-extended-lambda", "--extended-lambda", "-lineinfo", "-G",
       "--maxrregcount=64", "-Xptxas", "-v", "-MD", "-MF", "a.d", "-MT", "a.o",
       "-Wno-deprecated-gpu-targets", "--diag-suppress=177", "-Xcudafe",
       "--display_error_number", "-cudart", "shared", "a.cu"});
  EXPECT_TRUE(T.Untranslated.empty());
  EXPECT_TRUE(T.Problems.empty());
  for (StringRef Gone : {"-lineinfo", "-G", "a.d", "shared", "-MD"})
    EXPECT_FALSE(has(T.Args, Gone)) << Gone.str();
}

// nvcc announces extended lambdas and relaxed constexpr with macros that
// CCCL and libraries test (cuCollections #errors without the first); clang
// has the semantics without the flags. Without the flags, neither macro.
TEST_F(NvccArgsTest, LanguageExtensionMacros) {
  NvccTranslation T = translate(
      {"--expt-extended-lambda", "--expt-relaxed-constexpr", "a.cu"});
  EXPECT_TRUE(has(T.Args, "-D__CUDACC_EXTENDED_LAMBDA__=1"));
  EXPECT_TRUE(has(T.Args, "-D__CUDACC_RELAXED_CONSTEXPR__=1"));
  EXPECT_FALSE(has(T.Args, "--expt-extended-lambda"));
  EXPECT_TRUE(has(translate({"--extended-lambda", "a.cu"}).Args,
                  "-D__CUDACC_EXTENDED_LAMBDA__=1"));
  NvccTranslation Plain = translate({"-arch=sm_90", "a.cu"});
  EXPECT_FALSE(has(Plain.Args, "-D__CUDACC_EXTENDED_LAMBDA__=1"));
  EXPECT_FALSE(has(Plain.Args, "-D__CUDACC_RELAXED_CONSTEXPR__=1"));
}

TEST_F(NvccArgsTest, OptionsFiles) {
  OptionFiles["/work/opts.rsp"] =
      "-DFROM_FILE \"-I/path with space\" --options-file inner.rsp";
  OptionFiles["/work/inner.rsp"] = "-arch=sm_86";
  NvccTranslation T = translate({"--options-file", "opts.rsp", "a.cu"});
  EXPECT_TRUE(has(T.Args, "-DFROM_FILE"));
  EXPECT_TRUE(has(T.Args, "-I/path with space"));
  EXPECT_EQ(T.GpuArchs, std::vector<std::string>{"sm_86"});

  T = translate({"-optf", "missing.rsp", "a.cu"});
  ASSERT_EQ(T.Problems.size(), 1u);
  EXPECT_NE(T.Problems.front().find("missing.rsp"), std::string::npos);
}

TEST_F(NvccArgsTest, MissingValueAndMissingToolkit) {
  NvccTranslation T = translate({"a.cu", "-arch"});
  ASSERT_EQ(T.Problems.size(), 1u);
  EXPECT_NE(T.Problems.front().find("'-arch' has no value"), std::string::npos);

  NvccTranslateOptions Opts;
  T = translateNvccCommand(
      {"/nonexistent/bin/nvcc", "a.cu"}, Opts,
      [](StringRef) { return std::optional<std::string>(); });
  EXPECT_TRUE(T.CudaPath.empty());
  ASSERT_EQ(T.Problems.size(), 1u);
  EXPECT_NE(T.Problems.front().find("no CUDA toolkit found"),
            std::string::npos);
}

TEST_F(NvccArgsTest, RecognisesNvccCommands) {
  EXPECT_TRUE(isNvccCommand({"/usr/local/cuda/bin/nvcc", "a.cu"}));
  EXPECT_TRUE(isNvccCommand({"nvcc"}));
  EXPECT_TRUE(isNvccCommand({"/usr/bin/ccache", "nvcc", "a.cu"}));
  EXPECT_FALSE(isNvccCommand({"/usr/bin/clang++", "a.cu"}));
  EXPECT_FALSE(isNvccCommand({"ccache", "g++", "a.cc"}));
  // A launcher is not passed on to clang.
  NvccTranslateOptions Opts;
  Opts.CudaPath = "/cuda";
  NvccTranslation T = translateNvccCommand(
      {"ccache", "nvcc", "-arch=sm_90", "a.cu"}, Opts,
      [](StringRef) { return std::optional<std::string>(); });
  EXPECT_EQ(T.Args.front(), "clang++");
  EXPECT_FALSE(has(T.Args, "nvcc"));
  EXPECT_TRUE(has(T.Args, "--cuda-path=/cuda"));
}

TEST(NvccArchs, Normalize) {
  EXPECT_EQ(normalizeGpuArch("sm_90"), "sm_90");
  EXPECT_EQ(normalizeGpuArch("compute_100"), "sm_100");
  EXPECT_EQ(normalizeGpuArch("sm_90a"), "sm_90a");
  EXPECT_EQ(normalizeGpuArch("120"), "sm_120");
  EXPECT_EQ(normalizeGpuArch("native"), std::nullopt);
  EXPECT_EQ(normalizeGpuArch("lto_90"), std::nullopt);
  EXPECT_EQ(normalizeGpuArch("sm_90x"), std::nullopt);
  EXPECT_EQ(normalizeGpuArch(""), std::nullopt);
}

TEST(CudaJobs, SplitsHostAndEachArchitecture) {
  std::vector<std::string> Cmd{"clang++", "--cuda-gpu-arch=sm_80", "-x",
                               "cuda",    "--cuda-gpu-arch=sm_90", "-c",
                               "a.cu"};
  std::vector<CudaJob> Jobs = splitCudaJobs(Cmd, {}, CudaSides{});
  ASSERT_EQ(Jobs.size(), 3u);
  EXPECT_EQ(Jobs[0].Side, "host");
  EXPECT_EQ(Jobs[0].Args,
            (std::vector<std::string>{"clang++", "--cuda-host-only", "-x",
                                      "cuda", "-c", "a.cu"}));
  EXPECT_EQ(Jobs[1].Side, "sm_80");
  EXPECT_EQ(Jobs[1].Args,
            (std::vector<std::string>{"clang++", "--cuda-device-only",
                                      "--cuda-gpu-arch=sm_80", "-x", "cuda",
                                      "-c", "a.cu"}));
  EXPECT_EQ(Jobs[2].Side, "sm_90");

  // The user's selection replaces the command's.
  Jobs = splitCudaJobs(Cmd, {"sm_100"}, CudaSides{false, true});
  ASSERT_EQ(Jobs.size(), 1u);
  EXPECT_EQ(Jobs[0].Side, "sm_100");
  EXPECT_TRUE(llvm::is_contained(Jobs[0].Args, "--cuda-gpu-arch=sm_100"));
  EXPECT_FALSE(llvm::is_contained(Jobs[0].Args, "--cuda-gpu-arch=sm_80"));

  // Not CUDA: one job, unchanged.
  std::vector<std::string> Cpp{"clang++", "-c", "a.cpp"};
  Jobs = splitCudaJobs(Cpp, {"sm_90"}, CudaSides{});
  ASSERT_EQ(Jobs.size(), 1u);
  EXPECT_EQ(Jobs[0].Args, Cpp);
}

TEST(CudaJobs, ParsesSelections) {
  std::string Error;
  auto Sides = parseCudaSides("host,device", Error);
  ASSERT_TRUE(Sides);
  EXPECT_TRUE(Sides->Host && Sides->Device);
  Sides = parseCudaSides("device", Error);
  ASSERT_TRUE(Sides);
  EXPECT_TRUE(!Sides->Host && Sides->Device);
  EXPECT_FALSE(parseCudaSides("gpu", Error));
  EXPECT_NE(Error.find("'gpu'"), std::string::npos);

  auto Archs = parseCudaArchList("sm_90,compute_100,sm_90", Error);
  ASSERT_TRUE(Archs);
  EXPECT_EQ(*Archs, (std::vector<std::string>{"sm_90", "sm_100"}));
  EXPECT_FALSE(parseCudaArchList("sm_90,volta", Error));
  EXPECT_NE(Error.find("'volta'"), std::string::npos);
}

TEST_F(NvccArgsTest, DefaultStream) {
  // Both spellings; the option goes to clang's front end, which defines
  // CUDA_API_PER_THREAD_DEFAULT_STREAM, and not to its driver, which would
  // report it as unused.
  for (std::vector<std::string> Args :
       {std::vector<std::string>{"--default-stream", "per-thread", "-c",
                                 "/src/a.cu"},
        std::vector<std::string>{"--default-stream=per-thread", "-c",
                                 "/src/a.cu"}}) {
    NvccTranslation T = translate(Args);
    EXPECT_TRUE(T.Untranslated.empty());
    auto It = llvm::find(T.Args, "-fgpu-default-stream=per-thread");
    ASSERT_NE(It, T.Args.end());
    ASSERT_NE(It, T.Args.begin());
    EXPECT_EQ(*(It - 1), "-Xclang");
  }
  NvccTranslation Legacy =
      translate({"--default-stream", "legacy", "-c", "/src/a.cu"});
  EXPECT_TRUE(has(Legacy.Args, "-fgpu-default-stream=legacy"));
  NvccTranslation Null =
      translate({"--default-stream", "null", "-c", "/src/a.cu"});
  EXPECT_FALSE(has(Null.Args, "-Xclang"));
  EXPECT_TRUE(Null.Untranslated.empty());
}

TEST_F(NvccArgsTest, InterpolatedHeaderCommand) {
  // What a database's interpolation writes for a header from an nvcc entry:
  // clang's language name and "--" before the file.
  NvccTranslation T =
      translate({"-arch=sm_90", "-x", "cuda", "-c", "--", "/src/helpers.cuh"});
  EXPECT_TRUE(T.Untranslated.empty());
  auto X = llvm::find(T.Args, "-x");
  ASSERT_NE(X, T.Args.end());
  ASSERT_NE(X + 1, T.Args.end());
  EXPECT_EQ(*(X + 1), "cuda");
  EXPECT_TRUE(has(T.Args, "/src/helpers.cuh"));
  EXPECT_FALSE(has(T.Args, "--"));
}

TEST_F(NvccArgsTest, NvccMacros) {
  // Without a readable CUDA_VERSION no version is guessed.
  NvccTranslation Unknown = translate({"-c", "/src/a.cu"});
  EXPECT_FALSE(llvm::any_of(Unknown.Args, [](const std::string &A) {
    return StringRef(A).starts_with("-D__CUDACC_VER_");
  }));
  EXPECT_TRUE(has(Unknown.Args, "-D_CG_CLUSTER_INTRINSICS_AVAILABLE"));
  // CCCL under __NVCC__ needs the version: no __NVCC__ without it.
  EXPECT_FALSE(has(Unknown.Args, "-D__NVCC__"));
  write("include/cuda.h",
        "#ifndef CUDA_H\n#define CUDA_VERSION 12040\n#endif\n");
  NvccTranslation T = translate({"-c", "/src/a.cu"});
  EXPECT_TRUE(has(T.Args, "-D__CUDACC_VER_MAJOR__=12"));
  EXPECT_TRUE(has(T.Args, "-D__CUDACC_VER_MINOR__=4"));
  EXPECT_TRUE(has(T.Args, "-D__NVCC__"));
}

// The parse of each nvcc architecture under clang 22, and nvcc 13.0's macros
// for it (`nvcc -E -Xcompiler -dM --cuda -gencode arch=compute_X,code=sm_X`):
// clang rejects the `f` names and defines for `a` only `__CUDA_ARCH__` and
// `__CUDA_ARCH_FEAT_SMXY_ALL`.
TEST(ClangDeviceArch, NvccMacroSets) {
  using Args = std::vector<std::string>;
  auto Parse = [](StringRef Name, bool Nvcc = true) {
    std::optional<ClangDeviceArch> D = clangDeviceArch(Name, Nvcc);
    EXPECT_TRUE(D) << Name.str();
    return D.value_or(ClangDeviceArch{});
  };
  EXPECT_EQ(Parse("sm_90").Arch, "sm_90");
  EXPECT_TRUE(Parse("sm_90").MacroArgs.empty());
  EXPECT_EQ(Parse("sm_90a").Arch, "sm_90a");
  EXPECT_EQ(Parse("sm_90a").MacroArgs,
            (Args{"-D__CUDA_ARCH_SPECIFIC__=900",
                  "-D__CUDA_ARCH_FAMILY_SPECIFIC__=900"}));
  EXPECT_EQ(Parse("compute_100a").Arch, "sm_100a");
  EXPECT_EQ(Parse("100a").MacroArgs,
            (Args{"-D__CUDA_ARCH_SPECIFIC__=1000",
                  "-D__CUDA_ARCH_FAMILY_SPECIFIC__=1000"}));
  // A clang build keeps clang's macros.
  EXPECT_TRUE(Parse("sm_90a", /*Nvcc=*/false).MacroArgs.empty());
  // Family-specific: the `a` target of the number, less its feature macro.
  for (auto [Name, Clang, Number] :
       {std::tuple<StringRef, StringRef, StringRef>{"sm_100f", "sm_100a", "100"},
        {"compute_103f", "sm_103a", "103"},
        {"sm_110f", "sm_110a", "110"},
        {"120f", "sm_120a", "120"},
        {"sm_121f", "sm_121a", "121"}}) {
    ClangDeviceArch D = Parse(Name);
    EXPECT_EQ(D.Arch, Clang.str()) << Name.str();
    EXPECT_EQ(D.MacroArgs,
              (Args{("-U__CUDA_ARCH_FEAT_SM" + Number + "_ALL").str(),
                    ("-D__CUDA_ARCH_FAMILY_SPECIFIC__=" + Number + "0").str()}))
        << Name.str();
    // The same whatever compiler the command names: clang has no `f`.
    EXPECT_EQ(Parse(Name, false).MacroArgs, D.MacroArgs);
  }
  // A number clang has no `a` target for: the generic one.
  EXPECT_EQ(Parse("sm_130f").Arch, "sm_130");
  EXPECT_EQ(Parse("sm_130f").MacroArgs,
            (Args{"-D__CUDA_ARCH_FAMILY_SPECIFIC__=1300"}));
  EXPECT_FALSE(clangDeviceArch("native", true));
  EXPECT_FALSE(clangDeviceArch("lto_90", true));
}

TEST(ClangDeviceArch, DeviceJobsOfAnNvccBuild) {
  std::vector<std::string> Cmd{"clang++", "--cuda-gpu-arch=sm_90a",
                               "--cuda-gpu-arch=sm_100f", "-x", "cuda", "-c",
                               "a.cu"};
  std::vector<CudaJob> Jobs =
      splitCudaJobs(Cmd, {}, CudaSides{}, /*NvccMacros=*/true);
  ASSERT_EQ(Jobs.size(), 3u);
  // The host side gets none of the device macros (nvcc defines none there).
  EXPECT_EQ(Jobs[0].Args, (std::vector<std::string>{"clang++",
                                                    "--cuda-host-only", "-x",
                                                    "cuda", "-c", "a.cu"}));
  EXPECT_EQ(Jobs[1].Side, "sm_90a");
  EXPECT_EQ(Jobs[1].Args,
            (std::vector<std::string>{
                "clang++", "--cuda-device-only", "--cuda-gpu-arch=sm_90a",
                "-D__CUDA_ARCH_SPECIFIC__=900",
                "-D__CUDA_ARCH_FAMILY_SPECIFIC__=900", "-x", "cuda", "-c",
                "a.cu"}));
  EXPECT_EQ(Jobs[2].Side, "sm_100f");
  EXPECT_EQ(Jobs[2].Args,
            (std::vector<std::string>{
                "clang++", "--cuda-device-only", "--cuda-gpu-arch=sm_100a",
                "-U__CUDA_ARCH_FEAT_SM100_ALL",
                "-D__CUDA_ARCH_FAMILY_SPECIFIC__=1000", "-x", "cuda", "-c",
                "a.cu"}));
  // A clang build's `a` job is left as clang compiles it.
  Jobs = splitCudaJobs(Cmd, {}, CudaSides{false, true}, false);
  ASSERT_EQ(Jobs.size(), 2u);
  EXPECT_FALSE(llvm::is_contained(Jobs[0].Args,
                                  "-D__CUDA_ARCH_SPECIFIC__=900"));
}

TEST(ClangDeviceArch, OneCommandForASingleJobTool) {
  // clang runs the device job of the first name in order (sm_100a before
  // sm_90a): its macros are the ones given.
  std::vector<std::string> Cmd{"clang++", "--cuda-gpu-arch=sm_90a",
                               "--cuda-gpu-arch=sm_100f",
                               "--cuda-gpu-arch=sm_120f", "-c", "a.cu"};
  useClangDeviceArchs(Cmd, true);
  EXPECT_EQ(Cmd, (std::vector<std::string>{
                     "clang++", "-U__CUDA_ARCH_FEAT_SM100_ALL",
                     "-D__CUDA_ARCH_FAMILY_SPECIFIC__=1000",
                     "--cuda-gpu-arch=sm_90a", "--cuda-gpu-arch=sm_100a",
                     "--cuda-gpu-arch=sm_120a", "-c", "a.cu"}));
  std::vector<std::string> Generic{"clang++", "--cuda-gpu-arch=sm_80", "-c",
                                   "a.cu"};
  std::vector<std::string> Before = Generic;
  useClangDeviceArchs(Generic, true);
  EXPECT_EQ(Generic, Before);
}
