//===--- TargetDispatchTest.cpp - Tests of the <nv/target> arm choice -----===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/target/TargetDispatch.h"
#include "gtest/gtest.h"

using namespace cuda_tidy;

namespace {

TargetDispatch dispatch(std::initializer_list<const char *> Queries) {
  TargetDispatch D;
  D.Macro = "NV_DISPATCH_TARGET";
  for (const char *Q : Queries) {
    TargetDispatchArm Arm;
    Arm.Query = Q;
    D.Arms.push_back(Arm);
  }
  return D;
}

ArchMacros arch(unsigned CudaArch, unsigned ArchSpecific = 0) {
  ArchMacros M;
  M.CudaArch = CudaArch;
  M.ArchSpecific = ArchSpecific;
  return M;
}

TEST(TargetDispatch, ProvidesAndExactly) {
  TargetDispatch D = dispatch({"NV_PROVIDES_SM_90"});
  EXPECT_EQ(armKept(D, 0, arch(800)), Truth::False);
  EXPECT_EQ(armKept(D, 0, arch(900)), Truth::True);
  EXPECT_EQ(armKept(D, 0, arch(1200)), Truth::True);
  EXPECT_EQ(armKept(D, 0, arch(0)), Truth::False);
  D = dispatch({"NV_IS_EXACTLY_SM_100"});
  EXPECT_EQ(armKept(D, 0, arch(1000)), Truth::True);
  EXPECT_EQ(armKept(D, 0, arch(1030)), Truth::False);
}

TEST(TargetDispatch, FallbackArmAndDecidingQuery) {
  // NV_IF_ELSE_TARGET(NV_IS_EXACTLY_SM_90, t, f)
  TargetDispatch D = dispatch({"NV_IS_EXACTLY_SM_90", ""});
  unsigned Deciding = 99;
  EXPECT_EQ(armKept(D, 1, arch(900), &Deciding), Truth::False);
  EXPECT_EQ(Deciding, 0u);
  EXPECT_EQ(armKept(D, 1, arch(1000), &Deciding), Truth::True);
  EXPECT_EQ(Deciding, 1u);
}

TEST(TargetDispatch, FeaturesHostAndUnknown) {
  TargetDispatch D = dispatch({"NV_HAS_FEATURE_SM_90a"});
  EXPECT_EQ(armKept(D, 0, arch(900)), Truth::False);
  EXPECT_EQ(armKept(D, 0, arch(900, 900)), Truth::True);
  D = dispatch({"NV_IS_HOST", "NV_IS_DEVICE"});
  EXPECT_EQ(armKept(D, 1, arch(800)), Truth::True);
  EXPECT_EQ(armKept(D, 1, arch(0)), Truth::False);
  // A query the model does not know leaves its arm and later ones unknown.
  D = dispatch({"MY_QUERY", "NV_ANY_TARGET"});
  EXPECT_EQ(armKept(D, 0, arch(900)), Truth::Unknown);
  EXPECT_EQ(armKept(D, 1, arch(900)), Truth::Unknown);
}

} // namespace
