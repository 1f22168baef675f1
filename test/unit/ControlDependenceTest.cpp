//===--- ControlDependenceTest.cpp - All blocks' control dependences -------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// iteratedControlDependences computes for every block at once what clang's
// ControlDependencyCalculator computes one block at a time (the uniformity
// analysis used the latter); the two must agree on every block of every
// shape of control flow, the unusual ones included.
//
//===----------------------------------------------------------------------===//

#include "lib/ast/FunctionCfgs.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cuda_tidy;

namespace {

const char *const Functions = R"cc(
  int f(int);
  [[noreturn]] void fail();
  int ifElse(int a) {
    int x = 0;
    if (a) x = 1; else if (a > 2) x = 2; else x = 3;
    return x;
  }
  int loops(int n) {
    int s = 0;
    for (int i = 0; i < n; ++i) {
      if (f(i)) continue;
      if (f(i + 1)) break;
      for (int j = 0; j < i; ++j)
        s += f(j);
    }
    while (s > 10) s -= f(s);
    do { s++; } while (f(s));
    return s;
  }
  int earlyReturns(int n) {
    for (int i = 0; i < n; ++i)
      if (f(i) == 3) return i;
    if (n < 0) fail();
    return -1;
  }
  int forever(int n) {
    if (n) for (;;) f(n);
    while (true) { if (f(n)) break; }
    return 0;
  }
  int switches(int n) {
    int r = 0;
    switch (n) {
    case 0: r = 1;
    case 1: r += 2; break;
    case 2: return 7;
    default: r = f(n);
    }
    return r;
  }
  int gotos(int n) {
  again:
    if (f(n) > 3) goto out;
    n++;
    if (n < 100) goto again;
  out:
    return n && f(n) ? n : -n;
  }
  int deadCode(int n) {
    return n;
    f(n);
    if (n) return 2;
    return 3;
  }
  int constantConditions(int n) {
    if (0) f(n);
    while (1) { if (f(n)) return 1; }
  }
)cc";

TEST(ControlDependence, SameAsClangsCalculatorOnEveryBlock) {
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCodeWithArgs(
      Functions, {"-std=c++17", "-Wno-unreachable-code"}, "input.cc");
  ASSERT_NE(AST, nullptr);
  ASTContext &Ctx = AST->getASTContext();
  auto Found = match(functionDecl(isDefinition()).bind("f"), Ctx);
  unsigned Checked = 0;
  for (const BoundNodes &N : Found) {
    const auto *FD = N.getNodeAs<FunctionDecl>("f");
    FunctionCfg Built = buildFunctionCfg(FD, FD->getBody(), Ctx);
    ASSERT_NE(Built.Cfg, nullptr) << FD->getNameAsString();
    CFG &Cfg = *Built.Cfg;
    std::vector<llvm::SmallVector<unsigned, 4>> All =
        iteratedControlDependences(Cfg);
    ASSERT_EQ(All.size(), Cfg.getNumBlockIDs());
    ControlDependencyCalculator Calc(&Cfg);
    for (CFGBlock *B : Cfg) {
      llvm::SmallVector<unsigned, 4> Expected;
      for (CFGBlock *D : Calc.getControlDependencies(B))
        if (D)
          Expected.push_back(D->getBlockID());
      llvm::sort(Expected);
      EXPECT_EQ(All[B->getBlockID()], Expected)
          << FD->getNameAsString() << " block " << B->getBlockID();
      ++Checked;
    }
  }
  // Every function above was compared, block by block.
  EXPECT_EQ(Found.size(), 8u);
  EXPECT_GT(Checked, 60u);
}

TEST(ControlDependence, LoopConditionDependsOnItself) {
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCodeWithArgs(
      "int g(int); int h(int n) { int s = 0; while (g(s) < n) s++; return s; }",
      {"-std=c++17"}, "input.cc");
  ASSERT_NE(AST, nullptr);
  ASTContext &Ctx = AST->getASTContext();
  const auto *FD = selectFirst<FunctionDecl>(
      "f", match(functionDecl(hasName("h"), isDefinition()).bind("f"), Ctx));
  ASSERT_NE(FD, nullptr);
  FunctionCfg Built = buildFunctionCfg(FD, FD->getBody(), Ctx);
  std::vector<llvm::SmallVector<unsigned, 4>> All =
      iteratedControlDependences(*Built.Cfg);
  // The block that tests the loop condition decides whether it runs again;
  // the exit block depends on nothing.
  unsigned Tests = 0;
  for (const CFGBlock *B : *Built.Cfg) {
    if (isa_and_nonnull<WhileStmt>(B->getTerminatorStmt())) {
      EXPECT_TRUE(llvm::is_contained(All[B->getBlockID()], B->getBlockID()));
      ++Tests;
    }
  }
  EXPECT_EQ(Tests, 1u);
  EXPECT_TRUE(All[Built.Cfg->getExit().getBlockID()].empty());
}

} // namespace
