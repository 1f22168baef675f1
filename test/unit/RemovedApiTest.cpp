//===--- RemovedApiTest.cpp - Tests of lib/toolkit ------------------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/toolkit/DevicePropFix.h"
#include "lib/toolkit/RemovedApi.h"
#include "lib/toolkit/RemovedApiUses.h"
#include "lib/toolkit/TextureObjectFix.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"
#include <fstream>
#include <sstream>

using namespace clang;
using namespace cuda_tidy;

namespace {

/// The table is sorted by kind and name, as its header says, and each name
/// appears once per kind.
TEST(RemovedApiTest, TableIsSortedAndUnique) {
  llvm::ArrayRef<RemovedApi> Table = removedApis();
  ASSERT_FALSE(Table.empty());
  for (size_t I = 1; I < Table.size(); ++I) {
    const RemovedApi &A = Table[I - 1], &B = Table[I];
    if (A.Kind == B.Kind)
      EXPECT_LT(A.Name.str(), B.Name.str()) << "at " << B.Name.str();
    else
      EXPECT_LT(static_cast<int>(A.Kind), static_cast<int>(B.Kind));
  }
}

TEST(RemovedApiTest, Lookups) {
  const RemovedApi *Sync = findRemovedFunction("cudaThreadSynchronize");
  ASSERT_NE(Sync, nullptr);
  EXPECT_EQ(Sync->Replacement, "cudaDeviceSynchronize");
  EXPECT_EQ(Sync->In.str(), "13.0");
  EXPECT_EQ(describeChange(*Sync), "removed in CUDA 13.0");
  EXPECT_EQ(findRemovedFunction("cudaDeviceSynchronize"), nullptr);
  // Kinds do not mix: a field name is not a function.
  EXPECT_EQ(findRemovedFunction("clockRate"), nullptr);
  const RemovedApi *Clock = findRemovedDevicePropField("clockRate");
  ASSERT_NE(Clock, nullptr);
  EXPECT_EQ(Clock->Replacement, "cudaDevAttrClockRate");
  const RemovedApi *Double4 = findRemovedType("double4");
  ASSERT_NE(Double4, nullptr);
  EXPECT_EQ(describeChange(*Double4), "deprecated since CUDA 13.0");
  EXPECT_EQ(Double4->Replacement, "double4_16a");
  EXPECT_EQ(findRemovedType("double4_16a"), nullptr);
}

/// Every removed or changed runtime function the parse needs is declared by
/// the compatibility text, except those recognised from clang's errors.
TEST(RemovedApiTest, CompatDeclarationsCoverTheTable) {
  std::string Text = compatDeclarations().str();
  for (const RemovedApi &A : removedApis()) {
    if (A.Change == ApiChange::Deprecated || A.Kind == ApiKind::DevicePropField)
      continue;
    if (A.Name == "cudaProfilerInitialize")
      continue; // From "undeclared identifier": cuda_profiler_api.h's.
    if (A.Kind == ApiKind::Type) {
      EXPECT_NE(Text.find("struct " + A.Name.str()), std::string::npos)
          << A.Name.str();
      continue;
    }
    bool Declared = Text.find(" " + A.Name.str() + "(") != std::string::npos ||
                    Text.find("\n" + A.Name.str() + "(") != std::string::npos ||
                    Text.find(", " + A.Name.str() + ",") != std::string::npos;
    EXPECT_TRUE(Declared) << A.Name.str();
  }
}

/// Each entry is in the table of the check's page, with its release.
TEST(RemovedApiTest, DocumentationTableMatches) {
  std::ifstream In(CUDA_TIDY_SOURCE_DIR
                   "/docs/checks/cuda-removed-toolkit-api.md");
  ASSERT_TRUE(In.good());
  std::stringstream Buffer;
  Buffer << In.rdbuf();
  std::vector<std::string> Rows;
  std::string Line;
  while (std::getline(Buffer, Line))
    if (Line.rfind("| `", 0) == 0)
      Rows.push_back(Line);
  for (const RemovedApi &A : removedApis()) {
    std::string Name = A.Kind == ApiKind::DevicePropField
                           ? "`cudaDeviceProp::" + A.Name.str() + "`"
                           : "`" + A.Name.str();
    std::string When = A.Change == ApiChange::Removed    ? "removed in "
                       : A.Change == ApiChange::Changed ? "changed in "
                                                         : "deprecated in ";
    When += A.In.str();
    bool Found = false;
    for (const std::string &R : Rows)
      if (R.find(Name) != std::string::npos &&
          R.find(When) != std::string::npos)
        Found = true;
    EXPECT_TRUE(Found) << A.Name.str() << " (" << When << ")";
  }
}

/// Parses Code with the hermetic stubs and the compatibility declarations,
/// force-included from a system include folder as the check's predefines
/// would add them.
std::unique_ptr<ASTUnit> buildWithCompat(llvm::StringRef Code) {
  const std::string Compat = "/cuda-tidy-compat/removed_api.h";
  std::vector<std::string> Args = {"-xcuda",
                                   "--cuda-host-only",
                                   "-nocudainc",
                                   "-nocudalib",
                                   "--cuda-gpu-arch=sm_90",
                                   "-isystem",
                                   CUDA_TIDY_SOURCE_DIR "/test/Inputs/cuda",
                                   "-isystem",
                                   "/cuda-tidy-compat",
                                   "-include",
                                   "removed_api.h",
                                   "-Wno-unknown-cuda-version"};
  tooling::FileContentMappings Files = {
      {Compat, compatDeclarations().str()}};
  return tooling::buildASTFromCodeWithArgs(
      Code, Args, "input.cu", "clang-tool",
      std::make_shared<PCHContainerOperations>(),
      tooling::getClangStripDependencyFileAdjuster(), Files);
}

const char *const TextureProgram = R"cpp(
texture<float, 1, cudaReadModeElementType> texIn;
__global__ void scale(float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = 2.0f * tex1Dfetch(texIn, i);
}
void run(const float *in, float *out, int n) {
  texIn.filterMode = cudaFilterModePoint;
  cudaBindTexture(0, texIn, in, n * sizeof(float));
  scale<<<1, 32>>>(out, n);
  cudaUnbindTexture(texIn);
  cudaThreadSynchronize();
}
)cpp";

/// The declarations parse with the hermetic CUDA 13 stubs, and old code
/// resolves against them.
TEST(RemovedApiTest, OldCodeParsesAndResolves) {
  std::unique_ptr<ASTUnit> AST = buildWithCompat(TextureProgram);
  ASSERT_TRUE(AST);
  EXPECT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  RemovedApiUses Uses = collectRemovedApiUses(AST->getASTContext(), FieldErrorLocs());
  ASSERT_EQ(Uses.TextureRefs.size(), 1u);
  EXPECT_EQ(Uses.TextureRefs[0]->getName(), "texIn");
  // tex1Dfetch, cudaBindTexture, cudaUnbindTexture, cudaThreadSynchronize.
  EXPECT_EQ(Uses.Functions.size(), 4u);
  EXPECT_EQ(Uses.Launches.size(), 1u);
  std::vector<TexturePlan> Plans =
      planTextureObjectFixes(Uses, AST->getASTContext());
  ASSERT_EQ(Plans.size(), 1u);
  EXPECT_TRUE(Plans[0].Fix.ok()) << Plans[0].Fix.WhyNot;
  // Declaration, descriptors, creation, the setting removed, destruction,
  // the read's texel type, the kernel's parameter and the launch argument.
  EXPECT_EQ(Plans[0].Fix.Edits.size(), 8u);
  EXPECT_EQ(Plans[0].FunctionUses.size(), 3u);
}

/// A second binding stops the rewrite, with the reason.
TEST(RemovedApiTest, SecondBindingStopsTheRewrite) {
  std::unique_ptr<ASTUnit> AST = buildWithCompat(R"cpp(
texture<float, 1> t;
__global__ void k(float *out) { out[0] = tex1Dfetch(t, 0); }
void run(const float *a, const float *b, float *out) {
  cudaBindTexture(0, t, a, 4);
  k<<<1, 1>>>(out);
  cudaBindTexture(0, t, b, 4);
  k<<<1, 1>>>(out);
}
)cpp");
  ASSERT_TRUE(AST);
  EXPECT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  RemovedApiUses Uses = collectRemovedApiUses(AST->getASTContext(), FieldErrorLocs());
  std::vector<TexturePlan> Plans =
      planTextureObjectFixes(Uses, AST->getASTContext());
  ASSERT_EQ(Plans.size(), 1u);
  EXPECT_FALSE(Plans[0].Fix.ok());
  EXPECT_NE(Plans[0].Fix.WhyNot.find("bound more than once"),
            std::string::npos);
}

/// A project's own struct named cudaDeviceProp (in a namespace) is not the
/// toolkit's: its fields are not reported.
TEST(RemovedApiTest, OnlyTheToolkitsDevicePropCounts) {
  std::unique_ptr<ASTUnit> AST = buildWithCompat(R"cpp(
namespace mine { struct cudaDeviceProp { int clockRate; }; }
int f(mine::cudaDeviceProp p) { return p.clockRate; }
)cpp");
  ASSERT_TRUE(AST);
  RemovedApiUses Uses = collectRemovedApiUses(AST->getASTContext(), FieldErrorLocs());
  EXPECT_TRUE(Uses.Fields.empty());
}

} // namespace
