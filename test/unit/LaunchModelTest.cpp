//===--- LaunchModelTest.cpp - Tests of the launch and smem models --------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/launch/LaunchModel.h"
#include "lib/target/ArchLimits.h"
#include "lib/launch/ConstantEval.h"
#include "lib/launch/SharedMemory.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"
#include <fstream>
#include <sstream>

using namespace clang;
using namespace clang::ast_matchers;
using namespace cuda_tidy;

namespace {

std::unique_ptr<ASTUnit> buildCuda(llvm::StringRef Code, bool Host) {
  std::vector<std::string> Args = {"-xcuda",
                                   Host ? "--cuda-host-only"
                                        : "--cuda-device-only",
                                   "-nocudainc",
                                   "-nocudalib",
                                   "--cuda-gpu-arch=sm_90",
                                   "-isystem",
                                   CUDA_TIDY_SOURCE_DIR "/test/Inputs/cuda",
                                   "-Wno-unknown-cuda-version"};
  return tooling::buildASTFromCodeWithArgs(
      ("#include <cuda_runtime.h>\n" + Code).str(), Args, "input.cu");
}

const FunctionDecl *function(ASTContext &Ctx, llvm::StringRef Name) {
  auto Found =
      match(functionDecl(hasName(Name), isDefinition()).bind("f"), Ctx);
  return Found.empty() ? nullptr : Found[0].getNodeAs<FunctionDecl>("f");
}

/// The value of the initialiser of the variable `probe` in function `f`.
std::optional<uint64_t> probe(llvm::StringRef Code) {
  auto AST = buildCuda(Code, /*Host=*/true);
  if (!AST)
    return std::nullopt;
  ASTContext &Ctx = AST->getASTContext();
  auto Found = match(callExpr(callee(functionDecl(hasName("use"))),
                              hasArgument(0, expr().bind("e"))),
                     Ctx);
  ConstantEvaluator Eval(Ctx);
  // The first call outside dependent code (template patterns are skipped in
  // favour of their instantiations).
  for (const auto &M : Found) {
    const Expr *E = M.getNodeAs<Expr>("e");
    if (!E->isValueDependent())
      return Eval.evaluateInt(E);
  }
  return std::nullopt;
}

TEST(ConstantEvalTest, ConstantsAndLocals) {
  const char *Use = "void use(unsigned long);\n";
  EXPECT_EQ(probe(std::string(Use) + "void f() { use(48 * 1024 + 4); }"),
            49156u);
  EXPECT_EQ(
      probe(std::string(Use) +
            "constexpr int N = 64; void f() { use(N * N * sizeof(float)); }"),
      16384u);
  EXPECT_EQ(
      probe(std::string(Use) + "void f() { const int n = 1000; use(n * 8); }"),
      8000u);
  // A local assigned once.
  EXPECT_EQ(probe(std::string(Use) +
                  "void f() { unsigned long b; b = 70000; use(b); }"),
            70000u);
  // Template arguments, in the instantiation.
  EXPECT_EQ(probe(std::string(Use) +
                  "template <int B> void f() { use(B * 2); } "
                  "void g() { f<300>(); }"),
            600u);
}

TEST(ConstantEvalTest, UnknownStaysUnknown) {
  const char *Use = "void use(unsigned long);\n";
  // Written twice.
  EXPECT_EQ(probe(std::string(Use) +
                  "void f(bool c) { unsigned long b = 1; if (c) b = 70000; "
                  "use(b); }"),
            std::nullopt);
  // Its address escapes.
  EXPECT_EQ(probe(std::string(Use) +
                  "void get(unsigned long *); void f() { unsigned long b = 5; "
                  "get(&b); use(b); }"),
            std::nullopt);
  // A parameter.
  EXPECT_EQ(probe(std::string(Use) + "void f(unsigned long n) { use(n); }"),
            std::nullopt);
  // Defined in terms of itself.
  EXPECT_EQ(probe(std::string(Use) +
                  "void f() { unsigned long b; b = b + 1; use(b); }"),
            std::nullopt);
}

TEST(ConstantEvalTest, Dim3) {
  auto AST =
      buildCuda("void use(dim3);\n"
                "void f() { dim3 g(4, 2); use(g); use(dim3(8)); use(16); }",
                /*Host=*/true);
  ASTContext &Ctx = AST->getASTContext();
  auto Found = match(callExpr(callee(functionDecl(hasName("use"))),
                              hasArgument(0, expr().bind("e")))
                         .bind("c"),
                     Ctx);
  ASSERT_EQ(Found.size(), 3u);
  ConstantEvaluator Eval(Ctx);
  std::vector<std::string> Dims;
  for (const auto &M : Found) {
    std::optional<Dim3> D = Eval.evaluateDim3(M.getNodeAs<Expr>("e"));
    Dims.push_back(D ? D->str() : "?");
  }
  llvm::sort(Dims);
  EXPECT_EQ(Dims,
            (std::vector<std::string>{"(16, 1, 1)", "(4, 2, 1)", "(8, 1, 1)"}));
}

const char *LaunchCode = R"cu(
__global__ void k(float *p) { extern __shared__ float s[]; p[0] = s[0]; }
void setup() {
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 90000);
}
void run(float *p, int n) {
  k<<<dim3(4, 2), 128, 64 * 1024>>>(p);
  void *args[] = {&p};
  cudaLaunchKernel((const void *)k, dim3(8), dim3(64), args, n);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(32);
  config.blockDim = dim3(128);
  config.dynamicSmemBytes = 50000;
  cudaLaunchAttribute attrs[2];
  attrs[0].id = cudaLaunchAttributeCooperative;
  attrs[0].val.cooperative = 1;
  attrs[1].id = cudaLaunchAttributeClusterDimension;
  attrs[1].val.clusterDim.x = 16;
  attrs[1].val.clusterDim.y = 1;
  attrs[1].val.clusterDim.z = 1;
  config.attrs = attrs;
  config.numAttrs = 2;
  cudaLaunchKernelEx(&config, k, p);
}
)cu";

void checkLaunches(bool Host) {
  auto AST = buildCuda(LaunchCode, Host);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ConstantEvaluator Eval(Ctx);
  LaunchModel Model(Ctx, Eval);
  ASSERT_EQ(Model.launches().size(), 3u);
  const LaunchSite &Chevron = Model.launches()[0];
  EXPECT_EQ(Chevron.Api, LaunchApi::TripleChevron);
  EXPECT_EQ(Chevron.kernelName(), "k");
  EXPECT_EQ(Chevron.DynamicSmem, std::optional<uint64_t>(65536));
  ASSERT_TRUE(Chevron.Grid);
  EXPECT_EQ(Chevron.Grid->str(), "(4, 2, 1)");
  const LaunchSite &Api = Model.launches()[1];
  EXPECT_EQ(Api.Api, LaunchApi::CudaLaunchKernel);
  EXPECT_EQ(Api.KernelKey, Chevron.KernelKey);
  EXPECT_EQ(Api.DynamicSmem, std::nullopt);
  const LaunchSite &Ex = Model.launches()[2];
  EXPECT_EQ(Ex.Api, LaunchApi::CudaLaunchKernelEx);
  EXPECT_EQ(Ex.DynamicSmem, std::optional<uint64_t>(50000));
  EXPECT_TRUE(Ex.HasClusterAttr);
  ASSERT_TRUE(Ex.Cluster);
  EXPECT_EQ(Ex.Cluster->str(), "(16, 1, 1)");
  ASSERT_TRUE(Ex.Grid);
  EXPECT_EQ(Ex.Grid->X, 32u);
  // The setup routine's opt-in applies to every launch of k.
  auto OptIns = Model.settingsFor(Ex, FuncAttr::MaxDynamicSharedMemorySize);
  ASSERT_EQ(OptIns.size(), 1u);
  EXPECT_EQ(OptIns[0]->Value, std::optional<uint64_t>(90000));
  EXPECT_TRUE(
      Model.settingsFor(Ex, FuncAttr::NonPortableClusterSizeAllowed).empty());
}

// Launches are host code, but the device side parses them too.
TEST(LaunchModelTest, DeviceSide) { checkLaunches(/*Host=*/false); }
TEST(LaunchModelTest, HostSide) { checkLaunches(/*Host=*/true); }

TEST(LaunchModelTest, OptInAfterLaunchInSameFunctionDoesNotApply) {
  auto AST = buildCuda(R"cu(
__global__ void k(float *p) {}
void run(float *p) {
  k<<<1, 1, 60000>>>(p);
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 60000);
}
)cu",
                       /*Host=*/true);
  ASTContext &Ctx = AST->getASTContext();
  ConstantEvaluator Eval(Ctx);
  LaunchModel Model(Ctx, Eval);
  ASSERT_EQ(Model.launches().size(), 1u);
  EXPECT_TRUE(Model
                  .settingsFor(Model.launches()[0],
                               FuncAttr::MaxDynamicSharedMemorySize)
                  .empty());
}

TEST(SharedMemoryTest, CountsReachedAndGlobalVariables) {
  auto AST = buildCuda(R"cu(
struct S { double d; char c; };
__shared__ float g[100];
__device__ void helper() { __shared__ S s[10]; s[0].c = 1; g[0] = 1.0f; }
__device__ void unused() { __shared__ float never[1000]; never[0] = 0; }
__global__ void k() {
  __shared__ char bytes[3];
  extern __shared__ float dyn[];
  bytes[0] = 0;
  dyn[0] = 0;
  helper();
}
template <int N> __global__ void t() { __shared__ int a[N]; a[0] = 0; }
template __global__ void t<7>();
)cu",
                       /*Host=*/false);
  ASTContext &Ctx = AST->getASTContext();
  SharedMemoryAccounting Acc(Ctx);
  const StaticSharedMemory &K = Acc.of(function(Ctx, "k"));
  ASSERT_EQ(K.Variables.size(), 3u);
  // Largest first: s (10 x 16), g (400), bytes (3).
  EXPECT_EQ(K.Variables[0].Var->getName(), "g");
  EXPECT_EQ(K.Variables[0].Size, 400u);
  EXPECT_EQ(K.Variables[1].Var->getName(), "s");
  EXPECT_EQ(K.Variables[1].Size, 160u);
  EXPECT_EQ(K.Variables[1].Align, 8u);
  EXPECT_EQ(K.Variables[2].Size, 3u);
  // Decreasing alignment: s at 0, g at 160, bytes at 560.
  EXPECT_EQ(K.Total, 563u);

  auto Found = match(
      functionDecl(hasName("t"), isTemplateInstantiation()).bind("f"), Ctx);
  ASSERT_EQ(Found.size(), 1u);
  EXPECT_EQ(Acc.of(Found[0].getNodeAs<FunctionDecl>("f")).Total, 28u);
}

/// The per-architecture tables in the docs agree with lib/target/ArchLimits.
TEST(DocsTest, DynamicSharedMemoryTableMatchesLimits) {
  std::ifstream In(CUDA_TIDY_SOURCE_DIR
                   "/docs/checks/cuda-dynamic-shared-memory-opt-in.md");
  ASSERT_TRUE(In.good());
  std::stringstream Buffer;
  Buffer << In.rdbuf();
  std::string Text = Buffer.str();
  for (const ArchLimits &L : allArchLimits()) {
    std::string Row = "| sm_" + std::to_string(L.Major * 10 + L.Minor) + " | " +
                      L.Example + " | " +
                      std::to_string(DefaultSharedMemPerBlock) + " | " +
                      std::to_string(L.MaxSharedMemPerBlock) + " |";
    EXPECT_NE(Text.find(Row), std::string::npos) << "missing row: " << Row;
  }
}

} // namespace
