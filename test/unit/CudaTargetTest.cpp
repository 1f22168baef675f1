//===--- CudaTargetTest.cpp - Tests of the target architecture ------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/target/CudaTarget.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace cuda_tidy;

/// Parses a trivial CUDA file with the given side and architecture flags.
static std::unique_ptr<clang::ASTUnit> parse(std::vector<std::string> Extra) {
  std::vector<std::string> Args = {"-xcuda", "-nocudainc", "-nocudalib",
                                   "-isystem",
                                   CUDA_TIDY_SOURCE_DIR "/test/Inputs/cuda"};
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  return clang::tooling::buildASTFromCodeWithArgs(
      "#include <cuda_runtime.h>\n__global__ void k() {}\n", Args, "t.cu");
}

TEST(CudaTarget, ReadsTheDeviceJobsArchitecture) {
  auto AST = parse({"--cuda-device-only", "--cuda-gpu-arch=sm_90a"});
  ASSERT_TRUE(AST);
  auto Arch = compilationGpuArch(AST->getASTContext());
  ASSERT_TRUE(Arch);
  EXPECT_EQ(Arch->Name, "sm_90a");
  EXPECT_EQ(Arch->Flavor, ArchFlavor::ArchSpecific);
  EXPECT_EQ(Arch->Limits->MaxSharedMemPerBlock, 232448u);

  AST = parse({"--cuda-device-only", "--cuda-gpu-arch=sm_120"});
  ASSERT_TRUE(AST);
  Arch = compilationGpuArch(AST->getASTContext());
  ASSERT_TRUE(Arch);
  EXPECT_EQ(Arch->Limits->MaxSharedMemPerBlock, 101376u);
}

TEST(CudaTarget, HostSideAndUnknownArchitecturesHaveNone) {
  auto AST = parse({"--cuda-host-only", "--cuda-gpu-arch=sm_90"});
  ASSERT_TRUE(AST);
  EXPECT_FALSE(compilationGpuArch(AST->getASTContext()));

  // clang's default, sm_52, predates the table.
  AST = parse({"--cuda-device-only", "--cuda-gpu-arch=sm_52"});
  ASSERT_TRUE(AST);
  EXPECT_FALSE(compilationGpuArch(AST->getASTContext()));
}
