//===--- FixItHelpersTest.cpp - Tests of the shared fix-it helpers --------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/OptionValues.h"
#include "lib/ast/CudaAST.h"
#include "lib/ast/FixItHelpers.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringMap.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cuda_tidy;

namespace {

std::unique_ptr<ASTUnit> parse(llvm::StringRef Code) {
  std::vector<std::string> Args = {
      "-xcuda",     "--cuda-device-only", "-nocudainc", "-nocudalib",
      "--cuda-gpu-arch=sm_90", "-isystem",
      CUDA_TIDY_SOURCE_DIR "/test/Inputs/cuda"};
  return tooling::buildASTFromCodeWithArgs(
      ("#include <cuda_runtime.h>\n" + Code).str(), Args, "input.cu");
}

const FunctionDecl *function(ASTUnit &AST, llvm::StringRef Name) {
  auto Found = match(functionDecl(hasName(Name), isDefinition()).bind("f"),
                     AST.getASTContext());
  return Found.empty() ? nullptr
                       : Found.front().getNodeAs<FunctionDecl>("f");
}

} // namespace

TEST(FixItHelpers, IndentationOfTheLine) {
  auto AST = parse("__device__ int f(int a) {\n"
                   "\tint b = a;  return b;\n"
                   "}\n");
  ASSERT_TRUE(AST);
  auto Found = match(
      findAll(stmt(anyOf(declStmt(), returnStmt())).bind("s")),
      *function(*AST, "f")->getBody(), AST->getASTContext());
  ASSERT_EQ(Found.size(), 2u);
  const SourceManager &SM = AST->getSourceManager();
  LineIndent First =
      lineIndentOf(Found[0].getNodeAs<Stmt>("s")->getBeginLoc(), SM);
  EXPECT_EQ(First.Indent, "\t");
  EXPECT_TRUE(First.StartsLine);
  LineIndent Second =
      lineIndentOf(Found[1].getNodeAs<Stmt>("s")->getBeginLoc(), SM);
  EXPECT_EQ(Second.Indent, "\t");
  EXPECT_FALSE(Second.StartsLine);
  EXPECT_EQ(lineIndentOf(SourceLocation(), SM).Indent, "");
}

TEST(FixItHelpers, FreshNamesShadowNothing) {
  auto AST = parse("__device__ int v;\n"
                   "__device__ int f(int v2) { int v3 = v + v2; return v3; }\n");
  ASSERT_TRUE(AST);
  llvm::StringSet<> Used = namesUsedIn(function(*AST, "f"));
  EXPECT_TRUE(Used.contains("v"));
  EXPECT_TRUE(Used.contains("v2"));
  EXPECT_TRUE(Used.contains("v3"));
  EXPECT_EQ(freshName("v", Used), "v4");
  EXPECT_EQ(freshName("w", Used), "w");
}

TEST(CudaAST, LaunchBoundsReadOnce) {
  auto AST = parse("__global__ void __launch_bounds__(256, 2) a() {}\n"
                   "__global__ void b() {}\n"
                   "template <int N> __global__ void __launch_bounds__(N) "
                   "c() {}\n"
                   "template __global__ void c<128>();\n");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  std::optional<LaunchBounds> A = launchBoundsOf(function(*AST, "a"), Ctx);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->MaxThreads, 256u);
  EXPECT_EQ(A->MinBlocks, 2u);
  EXPECT_FALSE(A->MaxCluster);
  EXPECT_EQ(launchBoundsMaxThreads(function(*AST, "a"), Ctx), 256u);
  EXPECT_FALSE(launchBoundsOf(function(*AST, "b"), Ctx));
  // The pattern's bound is value-dependent: not read; the instantiation's
  // is.
  auto Cs = match(functionDecl(hasName("c"), isDefinition()).bind("f"), Ctx);
  unsigned Read = 0, Dependent = 0;
  for (const BoundNodes &N : Cs) {
    const auto *C = N.getNodeAs<FunctionDecl>("f");
    std::optional<uint64_t> Max = launchBoundsMaxThreads(C, Ctx);
    if (C->isDependentContext()) {
      ++Dependent;
      EXPECT_FALSE(Max);
    } else {
      ++Read;
      EXPECT_EQ(Max, 128u);
    }
  }
  EXPECT_EQ(Read, 1u);
  EXPECT_EQ(Dependent, 1u);
}

namespace {
struct OptionValue {
  std::string Value;
};
} // namespace

TEST(OptionValues, OneLookupOneMessageOneSetOfWords) {
  llvm::StringMap<OptionValue> Options;
  Options["cuda.A"] = {"  sm_90 "};
  Options["cuda.Blank"] = {"  "};
  EXPECT_EQ(moduleOption(Options, "cuda.A"), llvm::StringRef("sm_90"));
  EXPECT_FALSE(moduleOption(Options, "cuda.Blank"));
  EXPECT_FALSE(moduleOption(Options, "cuda.Unset"));
  EXPECT_EQ(invalidOptionMessage("cuda.A", "why"),
            "invalid value for option 'cuda.A': why");
  for (const char *Yes : {"true", "TRUE", "1", "on", "Yes"})
    EXPECT_EQ(parseBoolOption(Yes), true) << Yes;
  for (const char *No : {"false", " 0 ", "off", "no"})
    EXPECT_EQ(parseBoolOption(No), false) << No;
  EXPECT_FALSE(parseBoolOption("maybe"));
}
