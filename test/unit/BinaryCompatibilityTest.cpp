//===--- BinaryCompatibilityTest.cpp - Tests of the compatibility rules ---===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/target/BinaryCompatibility.h"
#include "gtest/gtest.h"

using namespace cuda_tidy;

static CodeImage image(llvm::StringRef Name) {
  std::optional<CodeImage> I = parseCodeImage(Name);
  EXPECT_TRUE(I.has_value()) << Name.str();
  return I.value_or(CodeImage());
}

static bool runs(llvm::StringRef Name, unsigned Major, unsigned Minor) {
  return runsOn(image(Name), Major, Minor);
}

TEST(BinaryCompatibility, ParsesImages) {
  EXPECT_EQ(image("sm_80").Kind, ImageKind::Cubin);
  EXPECT_EQ(image("compute_120").Kind, ImageKind::Ptx);
  EXPECT_EQ(image("compute_120").Major, 12u);
  EXPECT_EQ(image("SM_90A").Features, FeatureSet::ArchSpecific);
  EXPECT_EQ(image("sm_100f").Features, FeatureSet::FamilySpecific);
  EXPECT_EQ(image("lto_90").Kind, ImageKind::Cubin);
  EXPECT_EQ(image("86").number(), 86u);
  EXPECT_EQ(image("compute_90a").name(), "compute_90a");
  EXPECT_FALSE(parseCodeImage("native"));
  EXPECT_FALSE(parseCodeImage("sm_9"));
  EXPECT_FALSE(parseCodeImage("sm_1000"));
  EXPECT_FALSE(parseCodeImage("sm_90x"));
}

TEST(BinaryCompatibility, CubinsRunWithinTheirMajorVersion) {
  EXPECT_TRUE(runs("sm_80", 8, 0));
  EXPECT_TRUE(runs("sm_80", 8, 6));
  EXPECT_TRUE(runs("sm_80", 8, 9));
  EXPECT_FALSE(runs("sm_86", 8, 0));
  EXPECT_FALSE(runs("sm_80", 9, 0));
  EXPECT_FALSE(runs("sm_80", 7, 5));
  EXPECT_TRUE(runs("sm_100", 10, 3));
  EXPECT_FALSE(runs("sm_100", 11, 0));
  EXPECT_FALSE(runs("sm_100", 12, 0));
  EXPECT_TRUE(runs("sm_120", 12, 1));
}

TEST(BinaryCompatibility, PtxRunsOnItsVersionAndLater) {
  EXPECT_TRUE(runs("compute_80", 8, 0));
  EXPECT_TRUE(runs("compute_80", 9, 0));
  EXPECT_TRUE(runs("compute_80", 12, 1));
  EXPECT_TRUE(runs("compute_75", 8, 6));
  EXPECT_FALSE(runs("compute_80", 7, 5));
  EXPECT_FALSE(runs("compute_120", 9, 0));
}

TEST(BinaryCompatibility, FeatureSpecificTargets) {
  // 'a': that compute capability only, cubin or PTX.
  EXPECT_TRUE(runs("sm_90a", 9, 0));
  EXPECT_FALSE(runs("sm_90a", 10, 0));
  EXPECT_FALSE(runs("compute_90a", 10, 0));
  EXPECT_FALSE(runs("sm_100a", 10, 3));
  // 'f': the family (same major version, equal or higher minor).
  EXPECT_TRUE(runs("sm_100f", 10, 0));
  EXPECT_TRUE(runs("sm_100f", 10, 3));
  EXPECT_FALSE(runs("sm_103f", 10, 0));
  EXPECT_FALSE(runs("sm_100f", 11, 0));
  EXPECT_FALSE(runs("compute_100f", 12, 0));
  EXPECT_TRUE(runs("compute_120f", 12, 1));
}

TEST(BinaryCompatibility, MeasuredOnTheH100) {
  // shared/FACTS.md: these builds fail with cudaErrorNoKernelImageForDevice
  // on an H100 ...
  for (llvm::StringRef Name : {"sm_80", "sm_86", "sm_100", "compute_120"})
    EXPECT_FALSE(runs(Name, 9, 0)) << Name.str();
  // ... and these run.
  for (llvm::StringRef Name : {"compute_80", "sm_90a", "sm_90"})
    EXPECT_TRUE(runs(Name, 9, 0)) << Name.str();
}

TEST(BinaryCompatibility, JudgesImages) {
  llvm::SmallVector<const ArchLimits *, 16> All = knownDevices();
  ASSERT_EQ(All.front()->cudaArch(), 700u);
  CompatibilityVerdict Real80 = judgeImages({image("sm_80")}, All);
  EXPECT_TRUE(Real80.ForwardGap);
  EXPECT_EQ(describeComputeCapabilities(Real80.CannotRun, All),
            "7.0, 7.5 and 9.0 or later (Volta, Turing, Hopper, Blackwell)");
  CompatibilityVerdict Both80 =
      judgeImages({image("sm_80"), image("compute_80")}, All);
  EXPECT_FALSE(Both80.ForwardGap);
  EXPECT_EQ(describeComputeCapabilities(Both80.CannotRun, All),
            "7.0 and 7.5 (Volta, Turing)");
  CompatibilityVerdict Ptx120 = judgeImages({image("compute_120")}, All);
  EXPECT_FALSE(Ptx120.ForwardGap);
  EXPECT_EQ(describeComputeCapabilities(Ptx120.CannotRun, All),
            "7.0 to 11.0 (Volta, Turing, Ampere, Ada, Hopper, Blackwell)");
  // An 'a' image leaves the rest of its own and later generations out.
  CompatibilityVerdict Sm90a = judgeImages({image("sm_90a")}, All);
  EXPECT_TRUE(Sm90a.ForwardGap);
  // A configured list is named entry by entry.
  std::string Error;
  auto Supported = parseSupportedArchitectures("75;80;90;100;120", Error);
  ASSERT_TRUE(Supported) << Error;
  CompatibilityVerdict Listed = judgeImages({image("sm_80")}, *Supported);
  EXPECT_EQ(describeComputeCapabilities(Listed.CannotRun, *Supported),
            "7.5, 9.0, 10.0 and 12.0 (Turing, Hopper, Blackwell)");
  EXPECT_TRUE(judgeImages({image("sm_75"), image("compute_75")}, *Supported)
                  .CannotRun.empty());
}

TEST(BinaryCompatibility, DescribesImages) {
  EXPECT_EQ(describeImages({image("sm_80")}), "sm_80 cubins only, with no PTX");
  EXPECT_EQ(describeImages({image("compute_120")}), "compute_120 PTX only");
  EXPECT_EQ(describeImages(
                {image("sm_80"), image("sm_90"), image("compute_90")}),
            "sm_80 and sm_90 cubins and compute_90 PTX");
}

TEST(BinaryCompatibility, SupportedArchitecturesOption) {
  std::string Error;
  auto L = parseSupportedArchitectures(" 75; sm_80,9.0 ;100-real;120a", Error);
  ASSERT_TRUE(L) << Error;
  ASSERT_EQ(L->size(), 5u);
  EXPECT_EQ((*L)[0]->cudaArch(), 750u);
  EXPECT_EQ((*L)[2]->cudaArch(), 900u);
  EXPECT_EQ((*L)[4]->cudaArch(), 1200u);
  EXPECT_FALSE(parseSupportedArchitectures("75;52", Error));
  EXPECT_NE(Error.find("'52'"), std::string::npos) << Error;
  EXPECT_FALSE(parseSupportedArchitectures("volta", Error));
  EXPECT_FALSE(parseSupportedArchitectures(" ; ", Error));
}
