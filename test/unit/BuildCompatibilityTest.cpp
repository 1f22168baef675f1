//===--- BuildCompatibilityTest.cpp - Tests of the build judgement --------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "tools/common/BuildCompatibility.h"
#include "llvm/ADT/STLExtras.h"
#include "gtest/gtest.h"

using namespace cuda_tidy;
using llvm::StringRef;

/// The code an nvcc command with these options embeds (CUDA 13: no toolkit
/// is found, the newest known is assumed).
static NvccCodeTargets code(std::vector<std::string> Args) {
  Args.insert(Args.begin(), "nvcc");
  Args.push_back("-c");
  Args.push_back("k.cu");
  NvccTranslateOptions Opts;
  Opts.CudaPath = "/nonexistent-cuda-toolkit";
  return translateNvccCommand(Args, Opts,
                              [](StringRef) { return std::nullopt; })
      .Code;
}

static std::vector<std::string> names(const NvccCodeTargets &C) {
  std::vector<std::string> Out;
  for (const CodeImage &I : C.Images)
    Out.push_back(I.name());
  return Out;
}

using Names = std::vector<std::string>;

// Each expectation is what `nvcc --dryrun` (CUDA 13.0) lists in its
// fatbinary command for the same options.
TEST(NvccCodeTargets, ArchShorthands) {
  EXPECT_EQ(names(code({"-arch=sm_80"})), (Names{"sm_80", "compute_80"}));
  EXPECT_EQ(names(code({"-arch=compute_80"})), (Names{"compute_80"}));
  EXPECT_EQ(names(code({"-arch=sm_90a"})),
            (Names{"compute_90", "sm_90a", "compute_90a"}));
  EXPECT_EQ(names(code({"-arch=sm_100f"})),
            (Names{"compute_100", "sm_100f", "compute_100f"}));
  EXPECT_EQ(names(code({"-arch=compute_90a"})),
            (Names{"compute_90", "compute_90a"}));
  EXPECT_EQ(code({"-arch=sm_90a"}).CompileArchs,
            (Names{"compute_90", "compute_90a"}));
  // The last -arch counts (nvcc warns "incompatible redefinition").
  EXPECT_EQ(names(code({"-arch=sm_80", "-arch", "sm_86"})),
            (Names{"sm_86", "compute_86"}));
  // No option: nvcc 13's default.
  NvccCodeTargets Default = code({});
  EXPECT_TRUE(Default.Default);
  EXPECT_EQ(names(Default), (Names{"sm_75", "compute_75"}));
}

TEST(NvccCodeTargets, ExplicitCode) {
  EXPECT_EQ(names(code({"-gencode", "arch=compute_80,code=sm_80"})),
            (Names{"sm_80"}));
  EXPECT_EQ(names(code({"-arch=compute_80", "-code=compute_80,sm_86,sm_90"})),
            (Names{"compute_80", "sm_86", "sm_90"}));
  EXPECT_EQ(code({"-arch=compute_80", "-code=sm_86"}).CompileArchs,
            (Names{"compute_80"}));
  // CMake's spellings of 80, 80-real, 80-virtual.
  EXPECT_EQ(
      names(code({"--generate-code=arch=compute_80,code=[compute_80,sm_80]"})),
      (Names{"compute_80", "sm_80"}));
  EXPECT_EQ(names(code({"--generate-code=arch=compute_80,code=[sm_80]"})),
            (Names{"sm_80"}));
  EXPECT_EQ(names(code({"--generate-code=arch=compute_80,code=[compute_80]"})),
            (Names{"compute_80"}));
  EXPECT_EQ(names(code({"--generate-code=arch=compute_90a,code=[sm_90a]"})),
            (Names{"sm_90a"}));
  // -gencode adds to -arch.
  EXPECT_EQ(names(code({"-arch=sm_80", "-gencode=arch=compute_90,code=sm_90"})),
            (Names{"sm_80", "compute_80", "sm_90"}));
  EXPECT_EQ(code({"-gencode=arch=compute_80,code=sm_80",
                  "-gencode=arch=compute_90,code=sm_90"})
                .Options,
            (Names{"-gencode=arch=compute_80,code=sm_80",
                   "-gencode=arch=compute_90,code=sm_90"}));
}

TEST(NvccCodeTargets, SpecialArchitectures) {
  EXPECT_EQ(names(code({"-arch=all"})),
            (Names{"sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89",
                   "sm_90", "sm_100", "sm_103", "sm_110", "sm_120", "sm_121",
                   "compute_120"}));
  EXPECT_EQ(names(code({"-arch=all-major"})),
            (Names{"sm_75", "sm_80", "sm_90", "sm_100", "sm_110", "sm_120",
                   "compute_120"}));
  NvccCodeTargets Native = code({"-arch=native"});
  EXPECT_TRUE(Native.Native);
  EXPECT_TRUE(Native.Images.empty());
}

static std::optional<BuildVerdict>
judge(std::vector<std::string> Args,
      std::optional<llvm::SmallVector<const ArchLimits *, 16>> Supported =
          std::nullopt) {
  return judgeBuild(code(std::move(Args)), 13000, Supported);
}

TEST(BuildCompatibility, DefaultPolicy) {
  // No PTX after the newest cubin: a warning with what to add.
  std::optional<BuildVerdict> Real =
      judge({"--generate-code=arch=compute_80,code=[sm_80]"});
  ASSERT_TRUE(Real);
  EXPECT_TRUE(Real->Warning);
  EXPECT_EQ(Real->Predicate,
            "is built as sm_80 cubins only, with no PTX: it cannot run on "
            "compute capability 7.0, 7.5 and 9.0 or later (Volta, Turing, "
            "Hopper, Blackwell); add 'compute_80' PTX or an 'sm_90' target "
            "(CMake: '80' instead of '80-real')");
  // PTX carries it forward: a remark for the older GPUs.
  std::optional<BuildVerdict> Both =
      judge({"--generate-code=arch=compute_80,code=[compute_80,sm_80]"});
  ASSERT_TRUE(Both);
  EXPECT_FALSE(Both->Warning);
  EXPECT_NE(Both->Predicate.find("7.0 and 7.5 (Volta, Turing)"),
            std::string::npos);
  EXPECT_FALSE(judge({"-arch=compute_120"})->Warning);
  EXPECT_TRUE(judge({"-gencode", "arch=compute_86,code=sm_86"})->Warning);
  EXPECT_TRUE(judge({"-gencode", "arch=compute_100,code=sm_100"})->Warning);
  std::optional<BuildVerdict> A =
      judge({"--generate-code=arch=compute_90a,code=[sm_90a]"});
  EXPECT_TRUE(A->Warning);
  EXPECT_NE(A->Predicate.find("'sm_90a' is architecture-specific and runs on "
                              "9.0 only"),
            std::string::npos);
  // -arch=sm_90a also embeds compute_90 PTX.
  EXPECT_FALSE(judge({"-arch=sm_90a"})->Warning);
  EXPECT_FALSE(judge({"-arch=all"})->Warning);
  EXPECT_FALSE(judge({"-arch=all-major"})->Warning);
  EXPECT_TRUE(judge({"-arch=native"})->Warning);
}

// Devices left without code inside what a build covers: warnings, with the
// fix. `sm_100a` runs on 10.0 only (B300, 10.3, is left out: vLLM's report);
// `sm_100f` and `-arch=sm_100a` (compute_100 PTX) cover 10.3.
TEST(BuildCompatibility, HolesInsideTheBuild) {
  std::optional<BuildVerdict> A =
      judge({"-gencode", "arch=compute_100a,code=sm_100a", "-gencode",
             "arch=compute_120,code=[sm_120,compute_120]"});
  ASSERT_TRUE(A);
  EXPECT_TRUE(A->Warning);
  EXPECT_NE(A->Predicate.find(
                "compute capability 10.3 (Blackwell) has no code although "
                "the build covers 10.0: 'sm_100a' is architecture-specific "
                "and runs on 10.0 only; build 'sm_100f' (CMake '100f') for "
                "the whole family, or add 'compute_100' PTX"),
            std::string::npos)
      << A->Predicate;
  // 11.0 (Jetson Thor) is Blackwell, a generation the build covers: no hole.
  std::optional<BuildVerdict> F =
      judge({"-gencode", "arch=compute_100f,code=sm_100f", "-gencode",
             "arch=compute_120,code=[sm_120,compute_120]"});
  ASSERT_TRUE(F);
  EXPECT_FALSE(F->Warning) << F->Predicate;
  EXPECT_FALSE(judge({"-arch=sm_100a", "-gencode",
                      "arch=compute_120,code=[sm_120,compute_120]"})
                   ->Warning);
  // A generation between those built: sm_75 cubins and compute_90 PTX.
  std::optional<BuildVerdict> Gap =
      judge({"-gencode", "arch=compute_75,code=sm_75", "-gencode",
             "arch=compute_90,code=compute_90"});
  ASSERT_TRUE(Gap);
  EXPECT_TRUE(Gap->Warning);
  EXPECT_NE(Gap->Predicate.find("compute capability 8.0 to 8.9 (Ampere, Ada) "
                                "has no code between the generations the "
                                "build covers; add an 'sm_80' target"),
            std::string::npos)
      << Gap->Predicate;
  // sm_80 cubins run on 8.6, 8.7 and 8.9; sm_90a beside them is no hole.
  EXPECT_FALSE(judge({"-gencode", "arch=compute_80,code=[sm_80,compute_80]",
                      "-gencode", "arch=compute_90a,code=sm_90a"})
                   ->Warning);
  // sm_120a alone leaves 12.1 (DGX Spark); compute_90 PTX would run there.
  EXPECT_FALSE(judge({"-gencode", "arch=compute_90,code=[sm_90,compute_90]",
                      "-gencode", "arch=compute_120a,code=sm_120a"})
                   ->Warning);
  std::optional<BuildVerdict> Spark =
      judge({"-gencode", "arch=compute_90,code=sm_90", "-gencode",
             "arch=compute_120a,code=sm_120a"});
  ASSERT_TRUE(Spark);
  EXPECT_TRUE(Spark->Warning);
  EXPECT_NE(Spark->Predicate.find("build 'sm_120f'"), std::string::npos)
      << Spark->Predicate;
}

TEST(BuildCompatibility, SupportedList) {
  std::string Error;
  auto Hopper = parseSupportedArchitectures("90", Error);
  ASSERT_TRUE(Hopper);
  // Exactly the builds FACTS.md measured as failing on the H100.
  EXPECT_TRUE(judge({"-gencode", "arch=compute_80,code=sm_80"}, Hopper));
  EXPECT_TRUE(judge({"-gencode", "arch=compute_86,code=sm_86"}, Hopper));
  EXPECT_TRUE(judge({"-gencode", "arch=compute_100,code=sm_100"}, Hopper));
  EXPECT_TRUE(judge({"-gencode", "arch=compute_120,code=compute_120"}, Hopper));
  EXPECT_FALSE(judge({"-gencode", "arch=compute_80,code=compute_80"}, Hopper));
  EXPECT_FALSE(
      judge({"-gencode", "arch=compute_80,code=[sm_80,compute_80]"}, Hopper));
  EXPECT_FALSE(judge({"-gencode", "arch=compute_90a,code=sm_90a"}, Hopper));
  auto Team = parseSupportedArchitectures("75;80;90;100;120", Error);
  std::optional<BuildVerdict> Old = judge({"-arch=sm_80"}, Team);
  ASSERT_TRUE(Old);
  EXPECT_TRUE(Old->Warning);
  EXPECT_EQ(Old->Predicate,
            "is built as sm_80 cubins and compute_80 PTX: it cannot run on "
            "compute capability 7.5 (Turing), which "
            "'cuda.SupportedArchitectures' names; add 'compute_75' PTX, "
            "which runs on 7.5 and later, or a cubin for each");
}

TEST(BuildCompatibility, OnceForEachDistinctBuild) {
  std::vector<BuildCommand> Commands;
  for (StringRef File : {"a.cu", "b.cu", "c.cu"}) {
    BuildCommand C;
    C.File = File.str();
    C.Code = code({"--generate-code=arch=compute_80,code=[sm_80]"});
    C.Toolkit = 13000;
    Commands.push_back(C);
  }
  BuildCommand Fine;
  Fine.File = "d.cu";
  Fine.Code = code({"-arch=all"});
  Commands.push_back(Fine);
  std::vector<BuildFinding> F =
      judgeBuilds(Commands, [](StringRef P) { return P.str(); });
  ASSERT_EQ(F.size(), 2u);
  EXPECT_EQ(F[0].Files, 3u);
  EXPECT_EQ(F[0].File, "a.cu");
  EXPECT_EQ(F[0].Options, "--generate-code=arch=compute_80,code=[sm_80]");
  EXPECT_TRUE(StringRef(F[0].Message)
                  .starts_with("'a.cu' and 2 other files are built as sm_80"));
  EXPECT_FALSE(F[1].Warning);
}
