//===--- ArchConditionalsTest.cpp - Tests of the #if evaluator ------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/target/ArchConditionals.h"
#include "clang/Basic/LangOptions.h"
#include "gtest/gtest.h"

using namespace cuda_tidy;

static Truth eval(llvm::StringRef Text, unsigned Arch) {
  clang::LangOptions LangOpts;
  LangOpts.CPlusPlus = true;
  return evaluateArchCondition(Text, Arch, LangOpts);
}

TEST(ArchConditionals, Comparisons) {
  EXPECT_EQ(eval("__CUDA_ARCH__ < 700", 600), Truth::True);
  EXPECT_EQ(eval("__CUDA_ARCH__ < 700", 700), Truth::False);
  EXPECT_EQ(eval("__CUDA_ARCH__ >= 700", 900), Truth::True);
  EXPECT_EQ(eval("700 > __CUDA_ARCH__", 750), Truth::False);
  EXPECT_EQ(eval("__CUDA_ARCH__ <= 610", 1200), Truth::False);
  EXPECT_EQ(eval("__CUDA_ARCH__ == 900", 900), Truth::True);
  EXPECT_EQ(eval("__CUDA_ARCH__ != 900", 900), Truth::False);
  EXPECT_EQ(eval("__CUDA_ARCH__ < 7 * 100", 800), Truth::False);
  EXPECT_EQ(eval("__CUDA_ARCH__ < 700L", 600), Truth::True);
}

TEST(ArchConditionals, LogicAndDefined) {
  EXPECT_EQ(eval("defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700", 800),
            Truth::False);
  EXPECT_EQ(eval("defined __CUDA_ARCH__ && (__CUDA_ARCH__ < 700)", 600),
            Truth::True);
  EXPECT_EQ(eval("!defined(__CUDA_ARCH__)", 900), Truth::False);
  EXPECT_EQ(eval("!defined(__CUDA_ARCH__)", 0), Truth::True);
  EXPECT_EQ(eval("!defined(__CUDA_ARCH__) || __CUDA_ARCH__ < 700", 900),
            Truth::False);
  // Three-valued: an unknown macro does not decide, unless the other side
  // does.
  EXPECT_EQ(eval("OTHER && __CUDA_ARCH__ < 700", 900), Truth::False);
  EXPECT_EQ(eval("OTHER || __CUDA_ARCH__ < 700", 900), Truth::Unknown);
  EXPECT_EQ(eval("OTHER || __CUDA_ARCH__ >= 700", 900), Truth::True);
  EXPECT_EQ(eval("defined(OTHER)", 900), Truth::Unknown);
  EXPECT_EQ(eval("FN(1, 2) && __CUDA_ARCH__ < 300", 900), Truth::False);
}

TEST(ArchConditionals, MalformedIsUnknown) {
  EXPECT_EQ(eval("__CUDA_ARCH__ <", 900), Truth::Unknown);
  EXPECT_EQ(eval("(__CUDA_ARCH__ < 700", 900), Truth::Unknown);
  EXPECT_EQ(eval("__CUDA_ARCH__ / 0", 900), Truth::Unknown);
  EXPECT_EQ(eval("", 900), Truth::Unknown);
}

static Truth evalWith(llvm::StringRef Text, unsigned Arch, unsigned Major,
                      unsigned Minor) {
  clang::LangOptions LangOpts;
  LangOpts.CPlusPlus = true;
  return evaluateArchCondition(Text, Arch, LangOpts,
                               ToolkitVersion{Major, Minor});
}

TEST(ArchConditionals, ToolkitVersions) {
  EXPECT_EQ(evalWith("__CUDACC_VER_MAJOR__ >= 9", 700, 9, 0), Truth::True);
  EXPECT_EQ(evalWith("__CUDACC_VER_MAJOR__ < 9", 900, 12, 9), Truth::False);
  EXPECT_EQ(evalWith("CUDART_VERSION < 9000", 750, 9, 0), Truth::False);
  EXPECT_EQ(evalWith("CUDART_VERSION >= 12090", 900, 12, 9), Truth::True);
  EXPECT_EQ(evalWith("CUDA_VERSION >= 12090", 900, 12, 0), Truth::False);
  EXPECT_EQ(evalWith("__CUDACC_VER_MAJOR__ == 9 && __CUDACC_VER_MINOR__ < 2",
                     700, 9, 0),
            Truth::True);
  EXPECT_EQ(evalWith("defined(__CUDACC_VER_MAJOR__)", 800, 11, 0), Truth::True);
  // The build number is never known.
  EXPECT_EQ(evalWith("__CUDACC_VER_BUILD__ > 0", 800, 11, 0), Truth::Unknown);
  // Without a toolkit version the macros are unknown, as any other.
  EXPECT_EQ(eval("__CUDACC_VER_MAJOR__ >= 9", 900), Truth::Unknown);
  EXPECT_EQ(eval("defined(CUDART_VERSION)", 900), Truth::Unknown);
}
