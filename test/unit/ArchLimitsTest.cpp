//===--- ArchLimitsTest.cpp - Tests of the limits table -------------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/ArchLimits.h"
#include "gtest/gtest.h"

using namespace cuda_tidy;

TEST(ArchLimits, TableMatchesFacts) {
  // shared/FACTS.md: the opt-in maximum per block.
  EXPECT_EQ(findArchLimits(7, 0)->MaxSharedMemPerBlock, 98304u);
  EXPECT_EQ(findArchLimits(7, 5)->MaxSharedMemPerBlock, 65536u);
  EXPECT_EQ(findArchLimits(8, 0)->MaxSharedMemPerBlock, 166912u);
  EXPECT_EQ(findArchLimits(8, 6)->MaxSharedMemPerBlock, 101376u);
  EXPECT_EQ(findArchLimits(8, 9)->MaxBlocksPerSM, 24u);
  EXPECT_EQ(findArchLimits(9, 0)->MaxSharedMemPerBlock, 232448u);
  EXPECT_EQ(findArchLimits(10, 0)->MaxSharedMemPerBlock, 232448u);
  EXPECT_EQ(findArchLimits(12, 0)->MaxSharedMemPerBlock, 101376u);
  EXPECT_EQ(findArchLimits(12, 0)->SharedMemPerSM, 131072u);
  EXPECT_EQ(findArchLimits(9, 0)->MaxNonPortableClusterSize, 16u);
  EXPECT_EQ(findArchLimits(12, 0)->MaxNonPortableClusterSize, 0u);
  EXPECT_FALSE(findArchLimits(8, 0)->HasClusters);
  EXPECT_TRUE(findArchLimits(9, 0)->HasClusters);
  EXPECT_EQ(findArchLimits(5, 2), nullptr);
  EXPECT_EQ(DefaultSharedMemPerBlock, 49152u);
}

TEST(ArchLimits, TableIsSortedAndConsistent) {
  unsigned Previous = 0;
  for (const ArchLimits &L : allArchLimits()) {
    EXPECT_GT(L.cudaArch(), Previous);
    Previous = L.cudaArch();
    EXPECT_LE(L.MaxSharedMemPerBlock, L.SharedMemPerSM);
    EXPECT_GE(L.MaxSharedMemPerBlock, DefaultSharedMemPerBlock);
  }
}

TEST(ArchLimits, ParsesNames) {
  auto P = parseGpuArch("sm_90");
  ASSERT_TRUE(P.Arch);
  EXPECT_EQ(P.Arch->Limits->cudaArch(), 900u);
  EXPECT_EQ(P.Arch->Flavor, ArchFlavor::Real);
  EXPECT_FALSE(P.Arch->allowsLargeStaticSharedMemory());

  P = parseGpuArch("SM_90A");
  ASSERT_TRUE(P.Arch);
  EXPECT_EQ(P.Arch->Flavor, ArchFlavor::ArchSpecific);
  EXPECT_TRUE(P.Arch->allowsLargeStaticSharedMemory());
  EXPECT_EQ(P.Arch->Name, "sm_90a");

  P = parseGpuArch("compute_120");
  ASSERT_TRUE(P.Arch);
  EXPECT_EQ(P.Arch->Flavor, ArchFlavor::Virtual);
  EXPECT_EQ(P.Arch->Limits->Major, 12u);

  P = parseGpuArch("sm_100f");
  ASSERT_TRUE(P.Arch);
  EXPECT_EQ(P.Arch->Flavor, ArchFlavor::FamilySpecific);
}

TEST(ArchLimits, RejectsUnknownNames) {
  for (const char *Bad : {"sm_52", "sm_", "90", "gfx90a", "sm_9x", "sm_80a",
                          "sm_90f", "compute_", ""}) {
    auto P = parseGpuArch(Bad);
    EXPECT_FALSE(P.Arch) << Bad;
    EXPECT_NE(P.Error.find("unknown CUDA architecture"), std::string::npos)
        << Bad;
    EXPECT_NE(P.Error.find("sm_120"), std::string::npos) << Bad;
  }
}
