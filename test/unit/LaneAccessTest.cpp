//===--- LaneAccessTest.cpp - Tests of the lane model -------------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/LaneAccess.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cuda_tidy;

namespace {

std::unique_ptr<ASTUnit> parse(StringRef Code) {
  std::vector<std::string> Args = {"-xcuda",
                                   "--cuda-device-only",
                                   "-nocudainc",
                                   "-nocudalib",
                                   "--cuda-gpu-arch=sm_90",
                                   "-Wno-unknown-cuda-version",
                                   "-isystem",
                                   std::string(CUDA_TIDY_SOURCE_DIR) +
                                       "/test/Inputs/cuda"};
  return tooling::buildASTFromCodeWithArgs(
      "#include <cuda_runtime.h>\n" + Code.str(), Args, "input.cu");
}

const FunctionDecl *kernel(ASTContext &Ctx) {
  return selectFirst<FunctionDecl>(
      "f", match(functionDecl(hasName("k"), isDefinition()).bind("f"), Ctx));
}

TEST(LaneAccess, EvaluatesLaneAffineIndices) {
  auto AST = parse(R"(
    __global__ void k(int *p) {
      unsigned tid = threadIdx.x;
      int lane = tid & 31;
      p[0] = (lane + 1) & 31;
      p[1] = lane ^ 16;
      p[2] = tid - 1;
    })");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *F = kernel(Ctx);
  ASSERT_TRUE(F);
  auto Rhs = [&](unsigned I) {
    auto Found = match(binaryOperator(isAssignmentOperator(),
                                      hasLHS(arraySubscriptExpr(
                                          hasIndex(integerLiteral(equals(I))))))
                           .bind("a"),
                       Ctx);
    return Found.front().getNodeAs<BinaryOperator>("a")->getRHS();
  };
  LaneAccessAnalysis A(Ctx);
  EXPECT_EQ(A.evaluateAt(Rhs(0), F, 31, 64), 0);
  EXPECT_EQ(A.evaluateAt(Rhs(0), F, 33, 64), 2);
  EXPECT_EQ(A.evaluateAt(Rhs(1), F, 3, 64), 19);
  // Unsigned arithmetic wraps as on the GPU.
  EXPECT_EQ(A.evaluateAt(Rhs(2)->IgnoreImpCasts(), F, 0, 64),
            int64_t(0xffffffffu));
  EXPECT_EQ(A.evaluateAt(Rhs(2), F, 0, 64), -1);
}

TEST(LaneAccess, GuardMasks) {
  auto AST = parse(R"(
    __global__ void k(int *p, int n) {
      int tid = threadIdx.x;
      int lane = tid & 31;
      if (tid < 32) p[0] = 1;
      if (tid < 16) p[1] = 1;
      if (lane >= 2) p[2] = 1;
      if (blockIdx.x < n) p[3] = 1;
      if (p[4] > 0) p[5] = 1;
    })");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *F = kernel(Ctx);
  ASSERT_TRUE(F);
  auto Store = [&](unsigned I) -> const Stmt * {
    auto Found = match(binaryOperator(isAssignmentOperator(),
                                      hasLHS(arraySubscriptExpr(
                                          hasIndex(integerLiteral(equals(I))))))
                           .bind("a"),
                       Ctx);
    return Found.front().getNodeAs<BinaryOperator>("a");
  };
  LaneAccessAnalysis A(Ctx);
  EXPECT_EQ(A.guardMask(Store(0), F), FullLaneMask);
  EXPECT_EQ(A.guardMask(Store(1), F), 0x0000ffffu);
  EXPECT_EQ(A.guardMask(Store(2), F), 0xfffffffcu);
  EXPECT_EQ(A.guardMask(Store(3), F), FullLaneMask);
  EXPECT_EQ(A.guardMask(Store(5), F), std::nullopt);
}

TEST(LaneAccess, FindsExchangesAndNotOwnSlots) {
  auto AST = parse(R"(
    __device__ void warpReduce(volatile int *s, int tid) {
      s[tid] += s[tid + 16];
    }
    __global__ void k(int *out) {
      __shared__ int s[64];
      int tid = threadIdx.x;
      s[tid] = out[tid];
      __syncthreads();
      s[tid] *= 2;
      __syncthreads();
      if (tid < 32)
        warpReduce(s, tid);
      out[tid] = s[tid];
    })");
  ASSERT_TRUE(AST);
  LaneAccessAnalysis A(AST->getASTContext());
  A.run();
  ASSERT_EQ(A.exchanges().size(), 1u);
  const WarpExchange &X = A.exchanges().front();
  EXPECT_EQ(X.Func->getName(), "warpReduce");
  EXPECT_TRUE(X.Via != nullptr);
  EXPECT_EQ(X.ReaderLane, 0u);
  EXPECT_EQ(X.WriterLane, 16u);
  EXPECT_EQ(X.Shared->getName(), "s");
  EXPECT_EQ(A.statementMask(X.ReadStmt), FullLaneMask);
}

TEST(LaneAccess, BarrierSeparates) {
  auto AST = parse(R"(
    __global__ void k(int *out) {
      __shared__ int s[32];
      int lane = threadIdx.x & 31;
      s[lane] = lane;
      __syncwarp();
      out[lane] = s[(lane + 1) & 31];
    })");
  ASSERT_TRUE(AST);
  LaneAccessAnalysis A(AST->getASTContext());
  A.run();
  EXPECT_TRUE(A.exchanges().empty());
}

} // namespace
