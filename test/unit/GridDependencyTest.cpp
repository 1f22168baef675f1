//===--- GridDependencyTest.cpp - Tests of lib/pdl ------------------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/pdl/EarlyLaunch.h"
#include "lib/pdl/GridDependency.h"
#include "lib/launch/ConstantEval.h"
#include "lib/launch/LaunchModel.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cuda_tidy;

namespace {

std::unique_ptr<ASTUnit> buildCuda(llvm::StringRef Code, bool Host) {
  std::vector<std::string> Args = {
      "-xcuda", Host ? "--cuda-host-only" : "--cuda-device-only",
      "-nocudainc", "-nocudalib", "--cuda-gpu-arch=sm_90", "-isystem",
      CUDA_TIDY_SOURCE_DIR "/test/Inputs/cuda", "-Wno-unknown-cuda-version"};
  return tooling::buildASTFromCodeWithArgs(
      ("#include <cuda_runtime.h>\n" + Code).str(), Args, "input.cu");
}

const FunctionDecl *kernel(ASTContext &Ctx, llvm::StringRef Name) {
  auto Found = match(functionDecl(hasName(Name), isDefinition()).bind("f"),
                     Ctx);
  return Found.empty() ? nullptr : Found[0].getNodeAs<FunctionDecl>("f");
}

/// The early accesses of kernel `k` in Code, and whether it may wait.
KernelDependency analyse(llvm::StringRef Code) {
  auto AST = buildCuda(Code, /*Host=*/false);
  EXPECT_TRUE(AST);
  if (!AST)
    return {};
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *K = kernel(Ctx, "k");
  EXPECT_TRUE(K);
  if (!K)
    return {};
  GridDependencyAnalysis Deps(Ctx);
  KernelDependency D = Deps.analyzeKernel(K);
  // The statements point into the AST, which dies here: keep counts only.
  for (EarlyAccess &A : D.Early) {
    A.Access = nullptr;
    A.Through = nullptr;
    A.Calls.clear();
  }
  D.Waits.clear();
  return D;
}

TEST(GridDependencyTest, ReadBeforeWait) {
  KernelDependency D = analyse(R"(
    __global__ void k(const float *in, float *out) {
      float v = in[threadIdx.x];
      cudaGridDependencySynchronize();
      out[threadIdx.x] = v;
    })");
  EXPECT_TRUE(D.MayWait);
  EXPECT_TRUE(D.WaitsOnEveryPath);
  ASSERT_EQ(D.Early.size(), 1u);
  EXPECT_FALSE(D.Early[0].Write);
}

TEST(GridDependencyTest, ParametersConstantsAndSharedAreNotGlobal) {
  KernelDependency D = analyse(R"(
    __constant__ float c;
    struct P { const float *src; int n; };
    __global__ void k(P p, float *out) {
      __shared__ float s[32];
      float local[2] = {c, 0.f};
      s[threadIdx.x] = local[0] * p.n;
      cudaTriggerProgrammaticLaunchCompletion();
      cudaGridDependencySynchronize();
      out[threadIdx.x] = p.src[threadIdx.x] + s[threadIdx.x];
    })");
  EXPECT_TRUE(D.Early.empty());
}

TEST(GridDependencyTest, WarpRoleWithoutWait) {
  KernelDependency D = analyse(R"(
    __global__ void k(const float *in, float *out) {
      if (threadIdx.x < 32) {
        cudaGridDependencySynchronize();
        out[threadIdx.x] = in[threadIdx.x];
      } else {
        out[threadIdx.x] = 1.f;
      }
    })");
  EXPECT_FALSE(D.WaitsOnEveryPath);
  ASSERT_EQ(D.Early.size(), 1u);
  EXPECT_TRUE(D.Early[0].Write);
}

TEST(GridDependencyTest, BarrierAfterOneThreadsWait) {
  KernelDependency D = analyse(R"(
    __global__ void k(const float *in, float *out) {
      if (threadIdx.x == 0)
        asm volatile("griddepcontrol.wait;" ::: "memory");
      __syncthreads();
      out[threadIdx.x] = in[threadIdx.x];
    })");
  EXPECT_TRUE(D.WaitsOnEveryPath);
  EXPECT_TRUE(D.Early.empty());
}

TEST(GridDependencyTest, HelpersConstructorsAndWrappers) {
  KernelDependency D = analyse(R"(
    __device__ float at(const float *p, int i) { return p[i]; }
    struct R { float v; __device__ R(const float *p) : v(p[0]) {} };
    __device__ void waitForPredecessor() {
      asm volatile("griddepcontrol.wait;" ::: "memory");
    }
    __global__ void k(const float *in, float *out) {
      float a = at(in, 1);
      R r(in);
      waitForPredecessor();
      out[0] = a + r.v + at(in, 2);
    })");
  EXPECT_TRUE(D.MayWait);
  EXPECT_EQ(D.Early.size(), 2u);
}

TEST(GridDependencyTest, LaunchesWithAndWithoutTheAttribute) {
  auto AST = buildCuda(R"(
    __global__ void early(float *p) {}
    __global__ void inOrder(float *p) {}
    void run(float *p, bool pdl) {
      cudaLaunchAttribute a[1];
      a[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
      a[0].val.programmaticStreamSerializationAllowed = pdl;
      cudaLaunchConfig_t c = {};
      c.attrs = a;
      c.numAttrs = 1;
      cudaLaunchKernelEx(&c, early, p);
      inOrder<<<1, 1>>>(p);
    })",
                       /*Host=*/true);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ConstantEvaluator Eval(Ctx);
  LaunchModel Model(Ctx, Eval);
  EarlyLaunches Launches(Model, Eval);
  EXPECT_TRUE(Launches.any());
  EXPECT_EQ(Launches.classify(kernel(Ctx, "early"), nullptr),
            EarlyStart::Programmatic);
  EXPECT_EQ(Launches.classify(kernel(Ctx, "inOrder"), nullptr),
            EarlyStart::InOrder);
}

} // namespace
