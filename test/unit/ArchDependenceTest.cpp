//===--- ArchDependenceTest.cpp - Tests of the one-parse decision ---------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "tools/common/ArchDependence.h"
#include "tools/common/CudaCompileDb.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace cuda_tidy;
using llvm::StringRef;

namespace {
/// A CUDA file and a system header folder under a temporary folder,
/// preprocessed for the device side of the first architecture, without the
/// toolkit.
class ArchDependenceTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("archdep", Root));
    llvm::SmallString<256> Sys(Root);
    llvm::sys::path::append(Sys, "sys");
    ASSERT_FALSE(llvm::sys::fs::create_directories(Sys));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

  std::string path(StringRef Rel) { return (Root + "/" + Rel).str(); }
  void write(StringRef Rel, StringRef Text) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(path(Rel), EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  std::vector<std::string> deviceArgs(StringRef FirstArch) {
    return {"clang++",
            "-x",
            "cuda",
            "--cuda-device-only",
            ("--cuda-gpu-arch=" + FirstArch).str(),
            "-nocudainc",
            "-nocudalib",
            "-isystem",
            path("sys"),
            path("main.cu")};
  }
  ArchDependence scan(StringRef Main,
                      std::vector<std::string> Archs = {"sm_75", "sm_90"}) {
    write("main.cu", Main);
    return findArchDependence(deviceArgs(Archs.front()), Archs, Root.str());
  }

  llvm::SmallString<128> Root;
};
} // namespace

TEST(ArchValue, FromNames) {
  EXPECT_EQ(cudaArchValue("sm_75"), 750u);
  EXPECT_EQ(cudaArchValue("sm_100a"), 1000u);
  EXPECT_EQ(cudaArchValue("compute_90"), 900u);
  EXPECT_EQ(cudaArchValue("sm_120f"), 1200u);
  EXPECT_EQ(cudaArchValue("volta"), 0u);
  EXPECT_EQ(cudaArchValue("gfx90a"), 0u);
}

TEST_F(ArchDependenceTest, PlainCodeDoesNotVary) {
  ArchDependence D =
      scan("__global__ void k(int *p) { p[threadIdx.x] = 1; }\n");
  EXPECT_FALSE(D.Varies) << D.Reason;
  EXPECT_EQ(D.Reason, "");
}

TEST_F(ArchDependenceTest, ConditionThatDiffersVaries) {
  ArchDependence D = scan("#if __CUDA_ARCH__ >= 900\n"
                          "__device__ int hopper;\n"
                          "#endif\n");
  EXPECT_TRUE(D.Varies);
  EXPECT_EQ(D.Reason, "main.cu:1: '#if' reads '__CUDA_ARCH__'");
}

TEST_F(ArchDependenceTest, ConditionTrueForEveryArchitectureDoesNot) {
  // sm_75 and sm_90 are both 700 and later; the host test is the same for
  // every device architecture.
  ArchDependence D =
      scan("#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700\n"
           "__device__ int volta;\n"
           "#endif\n"
           "#ifdef __CUDA_ARCH__\n"
           "__device__ int device;\n"
           "#endif\n"
           "#ifndef __CUDA_ARCH__\n"
           "int host;\n"
           "#endif\n");
  EXPECT_FALSE(D.Varies) << D.Reason;
  // A condition at 800 differs between sm_75 and sm_90, not between sm_80
  // and later architectures.
  D = scan("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800\n#endif\n");
  EXPECT_TRUE(D.Varies);
  D = scan("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800\n#endif\n",
           {"sm_80", "sm_90", "sm_100"});
  EXPECT_FALSE(D.Varies) << D.Reason;
}

TEST_F(ArchDependenceTest, ValueInCodeVaries) {
  ArchDependence D = scan("__device__ int arch() { return __CUDA_ARCH__; }\n");
  EXPECT_TRUE(D.Varies);
  EXPECT_EQ(D.Reason, "main.cu:1: code expands '__CUDA_ARCH__'");
}

TEST_F(ArchDependenceTest, FeatureMacrosVary) {
  // Defined for sm_90a only: whether it is defined differs.
  ArchDependence D =
      scan("#ifdef __CUDA_ARCH_FEAT_SM90_ALL\n#endif\n", {"sm_90", "sm_90a"});
  EXPECT_TRUE(D.Varies);
  EXPECT_EQ(D.Reason, "main.cu:1: '#ifdef' reads '__CUDA_ARCH_FEAT_SM90_ALL'");
  D = scan("#if defined(__CUDA_ARCH_SPECIFIC__)\n#endif\n");
  EXPECT_TRUE(D.Varies);
}

TEST_F(ArchDependenceTest, MacrosDerivedInSystemHeaders) {
  // A system macro spelled with __CUDA_ARCH__, and one that only later
  // architectures define (the first, sm_75, skips its definition).
  write("sys/target.h", "#pragma once\n"
                        "#define ARCH_VALUE __CUDA_ARCH__\n"
                        "#if __CUDA_ARCH__ >= 800\n"
                        "#define HAS_AMPERE 1\n"
                        "#endif\n"
                        "#define PLAIN 4\n");
  ArchDependence D = scan("#include <target.h>\n"
                          "__device__ int v = ARCH_VALUE;\n");
  EXPECT_TRUE(D.Varies);
  EXPECT_EQ(D.Reason, "main.cu:2: code expands 'ARCH_VALUE'");
  D = scan("#include <target.h>\n#ifdef HAS_AMPERE\n#endif\n");
  EXPECT_TRUE(D.Varies);
  EXPECT_EQ(D.Reason, "main.cu:2: '#ifdef' reads 'HAS_AMPERE'");
  // Through a user macro.
  D = scan("#include <target.h>\n"
           "#define MINE ARCH_VALUE\n"
           "__device__ int v = MINE;\n");
  EXPECT_TRUE(D.Varies);
  D = scan("#include <target.h>\n__device__ int v = PLAIN;\n");
  EXPECT_FALSE(D.Varies) << D.Reason;
}

TEST_F(ArchDependenceTest, HeaderIncludedUnderAVaryingConditionIsNotDerived) {
  // Known limitation, by design (see ArchDependence.h): a whole header
  // included in a varying region is a difference of declarations; the
  // macros it defines are not taken as architecture-derived.
  write("sys/inner.h", "#pragma once\n#define FROM_INNER 1\n");
  write("sys/outer.h", "#pragma once\n"
                       "#if __CUDA_ARCH__ >= 700 || defined(SOMETHING)\n"
                       "#include <inner.h>\n"
                       "#endif\n");
  ArchDependence D =
      scan("#include <outer.h>\n__device__ int v = FROM_INNER;\n");
  EXPECT_FALSE(D.Varies) << D.Reason;
}

TEST_F(ArchDependenceTest, UnpreprocessableFileVaries) {
  ArchDependence D = scan("#include \"missing.h\"\n");
  EXPECT_TRUE(D.Varies);
  EXPECT_EQ(D.Reason, "the device side does not preprocess");
}

TEST_F(ArchDependenceTest, TranslationMergesDeviceJobs) {
  write("main.cu", "__global__ void k(int *p) { p[0] = 1; }\n");
  clang::tooling::CompileCommand C;
  C.Directory = Root.str().str();
  C.Filename = path("main.cu");
  C.CommandLine = {"clang++",
                   "-x",
                   "cuda",
                   "--cuda-gpu-arch=sm_75",
                   "--cuda-gpu-arch=sm_90",
                   "--cuda-gpu-arch=sm_100",
                   "-nocudainc",
                   "-nocudalib",
                   "-c",
                   path("main.cu")};
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  TranslationLog Log("test", OS);
  CompileDbOptions Opts;
  std::vector<clang::tooling::CompileCommand> Jobs =
      translateCompileCommand(C, Opts, Log);
  ASSERT_EQ(Jobs.size(), 2u);
  EXPECT_EQ(Jobs[0].Heuristic, "host");
  EXPECT_EQ(Jobs[1].Heuristic, "sm_75");
  EXPECT_TRUE(llvm::is_contained(
      Jobs[1].CommandLine, "-D__CUDA_TIDY_GPU_ARCHS__=sm_75,sm_90,sm_100"));
  EXPECT_TRUE(llvm::is_contained(Jobs[1].CommandLine, "--cuda-gpu-arch=sm_75"));

  // Today's path on request: one job per architecture, no list.
  Opts.ArchParse = ArchParseMode::Each;
  Jobs = translateCompileCommand(C, Opts, Log);
  ASSERT_EQ(Jobs.size(), 4u);
  for (const auto &J : Jobs)
    EXPECT_FALSE(llvm::any_of(J.CommandLine, [](StringRef A) {
      return A.contains("__CUDA_TIDY_GPU_ARCHS__");
    }));

  // A file that varies keeps its jobs.
  write("main.cu", "#if __CUDA_ARCH__ >= 900\n#endif\n");
  Opts.ArchParse = ArchParseMode::OnceWhenPossible;
  EXPECT_EQ(translateCompileCommand(C, Opts, Log).size(), 4u);
  EXPECT_EQ(Log.count(), 0u) << Text;
}

TEST(ArchParseMode, Parses) {
  std::string Error;
  EXPECT_EQ(parseArchParseMode("each", Error), ArchParseMode::Each);
  EXPECT_EQ(parseArchParseMode("once-when-possible", Error),
            ArchParseMode::OnceWhenPossible);
  EXPECT_EQ(parseArchParseMode("once", Error), std::nullopt);
  EXPECT_EQ(Error,
            "unknown value 'once' (expected 'each' or 'once-when-possible')");
}
