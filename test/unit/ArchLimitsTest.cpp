//===--- ArchLimitsTest.cpp - Tests of the limits table -------------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/target/ArchLimits.h"
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

TEST(ArchLimits, NewerComputeCapabilities) {
  // The CUDA C++ Programming Guide's compute capability table, as cited in
  // lib/target/ArchLimits.cpp.
  const ArchLimits *Orin = findArchLimits(8, 7);
  ASSERT_NE(Orin, nullptr);
  EXPECT_EQ(Orin->MaxSharedMemPerBlock, 163u * 1024);
  EXPECT_EQ(Orin->SharedMemPerSM, 164u * 1024);
  EXPECT_EQ(Orin->MaxWarpsPerSM, 48u);
  EXPECT_EQ(Orin->MaxBlocksPerSM, 16u);
  EXPECT_FALSE(Orin->HasClusters);

  const ArchLimits *B300 = findArchLimits(10, 3);
  ASSERT_NE(B300, nullptr);
  EXPECT_EQ(B300->MaxSharedMemPerBlock, 232448u);
  EXPECT_EQ(B300->MaxWarpsPerSM, 64u);
  EXPECT_EQ(B300->MaxBlocksPerSM, 32u);
  EXPECT_TRUE(B300->HasClusters);

  const ArchLimits *Thor = findArchLimits(11, 0);
  ASSERT_NE(Thor, nullptr);
  EXPECT_EQ(Thor->MaxSharedMemPerBlock, 232448u);
  EXPECT_EQ(Thor->MaxWarpsPerSM, 48u);
  EXPECT_EQ(Thor->MaxBlocksPerSM, 24u);
  EXPECT_TRUE(Thor->HasClusters);

  const ArchLimits *Spark = findArchLimits(12, 1);
  ASSERT_NE(Spark, nullptr);
  EXPECT_EQ(Spark->MaxSharedMemPerBlock, 101376u);
  EXPECT_EQ(Spark->MaxWarpsPerSM, 48u);
  EXPECT_EQ(Spark->MaxBlocksPerSM, 24u);
  EXPECT_TRUE(Spark->HasClusters);

  // Still unknown: 7.2 and 10.1, never guessed from a neighbour.
  EXPECT_EQ(findArchLimits(7, 2), nullptr);
  EXPECT_EQ(findArchLimits(10, 1), nullptr);
}

TEST(ArchLimits, ParsesNewerNames) {
  for (const char *Name :
       {"sm_87", "compute_87", "sm_103", "sm_103a", "sm_103f", "sm_110",
        "sm_110a", "sm_121", "sm_121a", "compute_121f"}) {
    auto P = parseGpuArch(Name);
    EXPECT_TRUE(P.Arch) << Name << ": " << P.Error;
  }
  // Architecture-specific targets start at sm_90a.
  EXPECT_FALSE(parseGpuArch("sm_87a").Arch);
  EXPECT_NE(knownGpuArchList().find("sm_87, sm_89"), std::string::npos);
  EXPECT_NE(knownGpuArchList().find("sm_103, sm_110, sm_120, sm_121"),
            std::string::npos);
}

TEST(ArchLimits, SaysWhyAnArchitectureIsUnknown) {
  auto P = parseGpuArch("sm_72");
  ASSERT_FALSE(P.Arch);
  EXPECT_NE(P.Error.find("compute capability 7.2 is not in cuda-tidy's "
                         "limits table"),
            std::string::npos)
      << P.Error;
  P = parseGpuArch("sm_52");
  ASSERT_FALSE(P.Arch);
  EXPECT_NE(P.Error.find("compute capability 5.2 is older than Volta (7.0)"),
            std::string::npos)
      << P.Error;
}

TEST(ArchLimits, OccupancyRowsMatchPtxasAndTheOccupancyHeader) {
  // Resident blocks and threads per SM: the ranges CUDA 13.0's ptxas
  // accepts for .minnctapersm and .maxntid x .minnctapersm (in warps).
  struct Row {
    unsigned Major, Minor, Blocks, Threads;
  } Rows[] = {{7, 5, 16, 1024},  {8, 0, 32, 2048},  {8, 6, 16, 1536},
              {8, 7, 16, 1536},  {8, 9, 24, 1536},  {9, 0, 32, 2048},
              {10, 0, 32, 2048}, {10, 3, 32, 2048}, {11, 0, 24, 1536},
              {12, 0, 24, 1536}, {12, 1, 24, 1536}};
  for (const Row &R : Rows) {
    const ArchLimits *L = findArchLimits(R.Major, R.Minor);
    ASSERT_NE(L, nullptr);
    EXPECT_EQ(L->MaxBlocksPerSM, R.Blocks) << L->cudaArch();
    EXPECT_EQ(L->maxThreadsPerSM(), R.Threads) << L->cudaArch();
  }
  // Registers: the guides (64K per SM, 255 per thread) and cuda_occupancy.h
  // (allocated per warp in units of 256, 4 register file partitions).
  for (const ArchLimits &L : allArchLimits()) {
    EXPECT_EQ(L.RegistersPerSM, 65536u);
    EXPECT_EQ(L.RegistersPerBlock, 65536u);
    EXPECT_EQ(L.MaxRegistersPerThread, 255u);
    EXPECT_EQ(L.RegisterAllocationUnit, 256u);
    EXPECT_EQ(L.RegisterFilePartitions, 4u);
    EXPECT_EQ(L.smNumber() * 10, L.cudaArch());
  }
  EXPECT_EQ(MaxThreadsPerBlock, 1024u);
  EXPECT_EQ(MaxBlockDim[2], 64u);
  EXPECT_EQ(MaxGridDim[0], 2147483647u);
  EXPECT_EQ(MaxGridDim[1], 65535u);
}

TEST(ArchLimits, AllocatedRegisters) {
  const ArchLimits &H100 = *findArchLimits(9, 0);
  // Measured on an H100: 72 x 1024 fails (cudaFuncGetAttributes gives
  // maxThreadsPerBlock 896 for it), 72 x 256 runs.
  EXPECT_EQ(allocatedRegistersPerBlock(H100, 72, 1024), 73728u);
  EXPECT_EQ(allocatedRegistersPerBlock(H100, 72, 896), 64512u);
  EXPECT_EQ(allocatedRegistersPerBlock(H100, 72, 256), 18432u);
  // 64 registers fit 1024 threads exactly.
  EXPECT_EQ(allocatedRegistersPerBlock(H100, 64, 1024), 65536u);
  // The granularity: 68 x 32 = 2176 takes 2304, 30 warps count as 32.
  EXPECT_EQ(allocatedRegistersPerBlock(H100, 68, 960), 73728u);
  EXPECT_EQ(allocatedRegistersPerBlock(H100, 68, 896), 64512u);
  // A partial warp is a whole warp.
  EXPECT_EQ(allocatedRegistersPerBlock(H100, 255, 1), 8192u * 4);
  EXPECT_EQ(allocatedRegistersPerBlock(H100, 0, 1024), 0u);
}

TEST(ArchLimits, Clusters) {
  EXPECT_EQ(largestClusterAnyGpu(), 16u);
  EXPECT_EQ(findArchLimits(9, 0)->largestCluster(), 16u);
  EXPECT_EQ(findArchLimits(12, 0)->largestCluster(), PortableClusterSize);
  EXPECT_EQ(findArchLimits(8, 0)->largestCluster(), 0u);
}
