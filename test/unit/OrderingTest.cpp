//===--- OrderingTest.cpp - Unit tests for lib/ordering -------------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/ordering/MemoryOrdering.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cuda_tidy;

namespace {

TEST(OrderingPtx, FindsWaitingAndOrderingInstructions) {
  EXPECT_EQ(firstOrderingInstruction("bar.sync 0;"), "bar.sync");
  EXPECT_EQ(firstOrderingInstruction("mov.u32 %0, %%laneid; membar.gl;"),
            "membar.gl");
  EXPECT_EQ(
      firstOrderingInstruction(
          "{ .reg .pred p; @p mbarrier.try_wait.parity.b64 p, [%0], 0; }"),
      "mbarrier.try_wait.parity.b64");
  EXPECT_EQ(firstOrderingInstruction("L1: griddepcontrol.wait;"),
            "griddepcontrol.wait");
  EXPECT_EQ(firstOrderingInstruction("cp.async.bulk.wait_group.read 0;"),
            "cp.async.bulk.wait_group.read");
  EXPECT_EQ(firstOrderingInstruction("fence.proxy.async.shared::cta;"),
            "fence.proxy.async.shared::cta");
}

TEST(OrderingPtx, LeavesOtherInstructionsAlone) {
  EXPECT_EQ(firstOrderingInstruction("mov.u32 %0, %%smid;"), "");
  // Matched by whole opcode components: 'bar.warp.sync' is not 'bar.sync'.
  EXPECT_EQ(firstOrderingInstruction("bar.warp.sync 0xffffffff;"), "");
  EXPECT_EQ(firstOrderingInstruction("mbarrier.arrive.shared.b64 %0, [%1];"),
            "");
  EXPECT_EQ(firstOrderingInstruction("cp.async.commit_group;"), "");
  // Relaxed arrives order no memory.
  EXPECT_EQ(firstOrderingInstruction("barrier.cluster.arrive.relaxed;"), "");
}

/// A device-only translation unit with the hermetic headers.
std::unique_ptr<ASTUnit> parse(llvm::StringRef Code) {
  return tooling::buildASTFromCodeWithArgs(
      "#include <cuda_runtime.h>\n" + Code.str(),
      {"-xcuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
       "--cuda-gpu-arch=sm_90", "-isystem",
       CUDA_TIDY_SOURCE_DIR "/test/Inputs/cuda"},
      "input.cu");
}

/// The space of the first argument of the N-th call to Callee in Function.
MemorySpace spaceOfArgument(ASTContext &Ctx, llvm::StringRef Function,
                            unsigned N) {
  auto Calls =
      match(callExpr(callee(functionDecl(hasName("sink"))),
                     hasAncestor(functionDecl(hasName(Function)).bind("f")))
                .bind("c"),
            Ctx);
  if (N >= Calls.size())
    return MemorySpace::Unknown;
  const auto *Call = Calls[N].getNodeAs<CallExpr>("c");
  const auto *Func = Calls[N].getNodeAs<FunctionDecl>("f");
  return memoryBaseOf(Call->getArg(0), Func).Space;
}

TEST(OrderingSpaces, FollowsAddressesToTheirVariables) {
  auto AST = parse(R"cu(
    __device__ void sink(const void *);
    __device__ int counter;
    __global__ void k(int *param, int n) {
      __shared__ int tile[32];
      int local[4];
      int *offset = param + n;
      int *moved = param;
      moved = tile;
      sink(&param[threadIdx.x]);
      sink(&counter);
      sink(offset + 1);
      sink(&tile[n]);
      sink(local);
      sink(moved);
    }
    __device__ void helper(int *p) { sink(p); }
  )cu");
  ASTContext &Ctx = AST->getASTContext();
  EXPECT_EQ(spaceOfArgument(Ctx, "k", 0), MemorySpace::Global);
  EXPECT_EQ(spaceOfArgument(Ctx, "k", 1), MemorySpace::Global);
  EXPECT_EQ(spaceOfArgument(Ctx, "k", 2), MemorySpace::Global);
  EXPECT_EQ(spaceOfArgument(Ctx, "k", 3), MemorySpace::Shared);
  EXPECT_EQ(spaceOfArgument(Ctx, "k", 4), MemorySpace::Local);
  // Reassigned: where it points depends on the path.
  EXPECT_EQ(spaceOfArgument(Ctx, "k", 5), MemorySpace::Unknown);
  // A device function's pointer parameter may point anywhere.
  EXPECT_EQ(spaceOfArgument(Ctx, "helper", 0), MemorySpace::Unknown);
}

} // namespace
