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

static Truth evalTarget(llvm::StringRef Text, ArchMacros M) {
  clang::LangOptions LangOpts;
  LangOpts.CPlusPlus = true;
  return evaluateArchCondition(Text, M, LangOpts);
}

TEST(ArchConditionals, FeatureMacros) {
  // nvcc 13: compute_90a defines __CUDA_ARCH_SPECIFIC__ and
  // __CUDA_ARCH_FAMILY_SPECIFIC__ (900) and __CUDA_ARCH_FEAT_SM90_ALL;
  // compute_100f only __CUDA_ARCH_FAMILY_SPECIFIC__ (1000).
  ArchMacros Sm90{900, 0, 0}, Sm90a{900, 900, 900}, Sm100f{1000, 0, 1000};
  EXPECT_EQ(evalTarget("defined(__CUDA_ARCH_FEAT_SM90_ALL)", Sm90a),
            Truth::True);
  EXPECT_EQ(evalTarget("defined(__CUDA_ARCH_FEAT_SM90_ALL)", Sm90),
            Truth::False);
  EXPECT_EQ(evalTarget("defined(__CUDA_ARCH_FEAT_SM100_ALL)", Sm90a),
            Truth::False);
  EXPECT_EQ(evalTarget("__CUDA_ARCH_SPECIFIC__ == 900", Sm90a), Truth::True);
  EXPECT_EQ(evalTarget("__CUDA_ARCH_SPECIFIC__ == 900", Sm90), Truth::False);
  EXPECT_EQ(evalTarget("__CUDA_ARCH_FAMILY_SPECIFIC__ >= 1000", Sm100f),
            Truth::True);
  EXPECT_EQ(evalTarget("defined(__CUDA_ARCH_SPECIFIC__)", Sm100f),
            Truth::False);
  // The other evaluator keeps them unknown: the legacy-region finder must
  // not take '#if defined(__CUDA_ARCH_FEAT_SM90_ALL)' code for dead.
  EXPECT_EQ(eval("defined(__CUDA_ARCH_FEAT_SM90_ALL)", 900), Truth::Unknown);
  EXPECT_EQ(eval("__CUDA_ARCH_SPECIFIC__ == 900", 900), Truth::Unknown);
}

TEST(ArchConditionals, FeatureQueries) {
  // crt/host_defines.h of CUDA 13.0, with the macro values nvcc 13.0 gives
  // (-E -Xcompiler -dM) for sm_90, sm_90a, sm_100a, sm_100f, sm_103f and
  // sm_120f.
  ArchMacros Sm90{900, 0, 0}, Sm90a{900, 900, 900}, Sm100a{1000, 1000, 1000},
      Sm100f{1000, 0, 1000}, Sm103f{1030, 0, 1030}, Sm120f{1200, 0, 1200};
  EXPECT_EQ(evalTarget("__CUDA_ARCH_HAS_FEATURE__(SM90_ALL)", Sm90a),
            Truth::True);
  EXPECT_EQ(evalTarget("__CUDA_ARCH_HAS_FEATURE__(SM90_ALL)", Sm90),
            Truth::False);
  EXPECT_EQ(evalTarget("__CUDA_ARCH_HAS_FEATURE__(SM100_ALL)", Sm100f),
            Truth::False);
  EXPECT_EQ(evalTarget("defined(__CUDA_ARCH__) && "
                       "(__CUDA_ARCH_HAS_FEATURE__(SM100_ALL) || "
                       "__CUDA_ARCH_HAS_FEATURE__(SM90_ALL))",
                       Sm100a),
            Truth::True);
  EXPECT_EQ(evalTarget("__CUDA_HAS_ARCH_SPECIFIC(90)", Sm90a), Truth::True);
  EXPECT_EQ(evalTarget("__CUDA_HAS_ARCH_SPECIFIC(100)", Sm100f), Truth::False);
  EXPECT_EQ(evalTarget("__CUDA_HAS_ARCH_FAMILY_SPECIFIC(100)", Sm100f),
            Truth::True);
  // The family of 100 holds 10.3; 101 names 10.1 alone.
  EXPECT_EQ(evalTarget("__CUDA_HAS_ARCH_FAMILY_SPECIFIC(100)", Sm103f),
            Truth::True);
  EXPECT_EQ(evalTarget("__CUDA_HAS_ARCH_FAMILY_SPECIFIC(101)", Sm100f),
            Truth::False);
  EXPECT_EQ(evalTarget("__CUDA_HAS_ARCH_FAMILY_SPECIFIC(100)", Sm120f),
            Truth::False);
  EXPECT_EQ(evalTarget("__CUDA_HAS_ARCH_FAMILY_SPECIFIC(90)", Sm90),
            Truth::False);
  // Not a query the toolkit defines: unknown, as any other macro.
  EXPECT_EQ(evalTarget("__CUDA_ARCH_HAS_FEATURE__(SM90_ALL, 1)", Sm90a),
            Truth::Unknown);
  // The legacy-region evaluator does not know the feature macros.
  EXPECT_EQ(eval("__CUDA_ARCH_HAS_FEATURE__(SM90_ALL)", 900), Truth::Unknown);
  EXPECT_TRUE(namesArchMacro("__CUDA_HAS_ARCH_FAMILY_SPECIFIC(100)"));
  EXPECT_FALSE(namesArchMacro("USE_SM90"));
}

TEST(ArchConditionals, ReadsChainsFromText) {
  clang::LangOptions LangOpts;
  LangOpts.CPlusPlus = true;
  llvm::StringRef Text = "  int i = 0;\n"
                         "#if __CUDA_ARCH__ < 900\n"
                         "  a();\n"
                         "#  ifdef FAST\n"
                         "  b();\n"
                         "#  endif\n"
                         "#elif __CUDA_ARCH__ >= 1000 \\\n"
                         "      && __CUDA_ARCH__ < 1200\n"
                         "  c(); // #else in a comment\n"
                         "#else\n"
                         "  d(\"#endif\");\n"
                         "#endif\n"
                         "#pragma unroll\n";
  ConditionalText CT = readConditionals(Text, LangOpts);
  ASSERT_TRUE(CT.Balanced);
  ASSERT_EQ(CT.Chains.size(), 2u);
  const ConditionalChain &Outer = CT.Chains[0];
  ASSERT_EQ(Outer.Branches.size(), 3u);
  EXPECT_TRUE(Outer.ReadsArch);
  EXPECT_EQ(Outer.Branches[0].Condition, "__CUDA_ARCH__ < 900");
  EXPECT_EQ(Outer.Branches[1].Kind, ConditionalBranch::Elif);
  EXPECT_TRUE(llvm::StringRef(Outer.Branches[1].Condition)
                  .contains("__CUDA_ARCH__ < 1200"));
  EXPECT_EQ(Outer.Branches[2].Kind, ConditionalBranch::Else);
  EXPECT_TRUE(Text.slice(Outer.Branches[0].End, Outer.Branches[0].BodyEnd)
                  .contains("a();"));
  EXPECT_TRUE(Text.slice(Outer.Branches[2].End, Outer.Branches[2].BodyEnd)
                  .contains("d("));
  const ConditionalChain &Inner = CT.Chains[1];
  EXPECT_EQ(Inner.Parent, 0);
  EXPECT_EQ(Inner.ParentBranch, 0);
  EXPECT_FALSE(Inner.ReadsArch);
  EXPECT_EQ(Inner.Branches[0].Kind, ConditionalBranch::Ifdef);
  EXPECT_EQ(Inner.Branches[0].Condition, "FAST");
  // Six conditional lines and the #pragma.
  EXPECT_EQ(CT.DirectiveLines.size(), 7u);

  auto Truths = [&](unsigned Arch) {
    return branchTruths(Outer, ArchMacros{Arch, 0, 0}, LangOpts, {});
  };
  EXPECT_EQ(Truths(800), (llvm::SmallVector<Truth, 4>{
                             Truth::True, Truth::False, Truth::False}));
  EXPECT_EQ(Truths(1000), (llvm::SmallVector<Truth, 4>{
                              Truth::False, Truth::True, Truth::False}));
  EXPECT_EQ(Truths(900), (llvm::SmallVector<Truth, 4>{
                             Truth::False, Truth::False, Truth::True}));
  // An undecidable first condition leaves the rest undecided too.
  ConditionalText Unknown =
      readConditionals("#if FOO\nx();\n#else\ny();\n#endif\n", LangOpts);
  EXPECT_EQ(branchTruths(Unknown.Chains[0], ArchMacros{900, 0, 0}, LangOpts,
                         {}),
            (llvm::SmallVector<Truth, 4>{Truth::Unknown, Truth::Unknown}));
}

TEST(ArchConditionals, UnbalancedText) {
  clang::LangOptions LangOpts;
  LangOpts.CPlusPlus = true;
  EXPECT_FALSE(readConditionals("x();\n#endif\n", LangOpts).Balanced);
  EXPECT_FALSE(readConditionals("#if A\nx();\n", LangOpts).Balanced);
  EXPECT_FALSE(readConditionals("#else\nx();\n", LangOpts).Balanced);
}
