//===--- RingSlotsTest.cpp - Unit tests for lib/asynccopy/RingSlots -------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/asynccopy/RingSlots.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cuda_tidy::asynccopy;

namespace {

/// A device-only translation unit with the hermetic headers.
std::unique_ptr<ASTUnit> parse(llvm::StringRef Code) {
  return tooling::buildASTFromCodeWithArgs(
      "#include <cuda_runtime.h>\n" + Code.str(),
      {"-xcuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
       "--cuda-gpu-arch=sm_80", "-isystem",
       CUDA_TIDY_SOURCE_DIR "/test/Inputs/cuda"},
      "input.cu");
}

struct Collected {
  std::unique_ptr<ASTUnit> AST;
  VarWrites Writes;
  const VarDecl *var(llvm::StringRef Name) const {
    auto M = match(varDecl(hasName(Name)).bind("v"), AST->getASTContext());
    return M.empty() ? nullptr : M.front().getNodeAs<VarDecl>("v");
  }
};

Collected collect(llvm::StringRef Code) {
  Collected C;
  C.AST = parse(Code);
  auto M = match(functionDecl(hasName("k"), isDefinition()).bind("f"),
                 C.AST->getASTContext());
  const auto *FD = M.front().getNodeAs<FunctionDecl>("f");
  C.Writes = collectVarWrites(FD->getBody(), C.AST->getASTContext());
  return C;
}

TEST(RingSlots, ModularStepsKeepARingRange) {
  Collected C = collect(R"cu(
    __global__ void k(int n) {
      int a = 0, b = 1, c = 0, d = 0;
      for (int i = 0; i < n; ++i) {
        a = (a + 1) % 3;
        b = (b + 1) & 3;
        c ^= 64;
        ++d;
        if (d == 5)
          d = 0;
      }
    })cu");
  EXPECT_EQ(C.Writes.Modulus.lookup(C.var("a")), 3);
  EXPECT_EQ(C.Writes.Modulus.lookup(C.var("b")), 4);
  EXPECT_EQ(C.Writes.Modulus.lookup(C.var("c")), 128);
  EXPECT_EQ(C.Writes.Modulus.lookup(C.var("d")), 5);
  EXPECT_TRUE(C.Writes.Counter.count(C.var("i")));
  EXPECT_TRUE(C.Writes.Unstable.empty());
}

TEST(RingSlots, OtherWritesAreUnstable) {
  Collected C = collect(R"cu(
    __global__ void k(int n) {
      int a = 0, b = 0, c = 9, d = 0, e = 0;
      for (int i = 0; i < n; ++i) {
        a = b;        // assigned from another variable
        b += n;       // by a non-constant
        c ^= 4;       // starts outside [0, 8)
        d = (d + 1) % 4;
        ++d;          // a plain step beside a modular one, no wrap
        e += 16;      // linear: moved, not a ring
      }
    })cu");
  EXPECT_TRUE(C.Writes.Unstable.count(C.var("a")));
  EXPECT_TRUE(C.Writes.Unstable.count(C.var("b")));
  EXPECT_TRUE(C.Writes.Unstable.count(C.var("c")));
  EXPECT_TRUE(C.Writes.Unstable.count(C.var("d")));
  EXPECT_FALSE(C.Writes.Unstable.count(C.var("e")));
  EXPECT_TRUE(C.Writes.Moved.count(C.var("e")));
  EXPECT_FALSE(C.Writes.Modulus.count(C.var("e")));
  EXPECT_FALSE(C.Writes.Counter.count(C.var("e")));
}

TEST(RingSlots, ShiftMovesSlotsBackModuloTheRing) {
  Collected C = collect(R"cu(
    __global__ void k(int n) {
      int s = 0;
      for (int i = 0; i < n; ++i)
        s = (s + 1) % 4;
    })cu");
  SlotModel Slots(C.Writes, C.AST->getASTContext());
  Slot P;
  P.Kind = Slot::Affine;
  P.Var = C.var("s");
  P = Slots.settle(P); // s stays in [0, 4): compared modulo 4
  EXPECT_EQ(P.S, 4);
  Step Move;
  Move.Var = P.Var;
  Move.By = 1;
  Move.Mod = 4;
  Slots.shift(Move, P);
  EXPECT_EQ(P.C, 3); // the slot issued at s is s - 1 = s + 3 after the step
  Slot Q = P;
  Q.C = 3;
  EXPECT_TRUE(Slots.overlapSure(P, Q));
  Q.C = 0;
  EXPECT_FALSE(Slots.overlapSure(P, Q));
}

} // namespace
