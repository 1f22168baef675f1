//===--- ArchConditionals.h - Code only old architectures compile -*- C++
//-*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Finds the preprocessor regions that no compilation for Volta (compute
/// capability 7.0) or later includes: the pre-Volta branch of
/// `#if __CUDA_ARCH__ < 700 ... #else ... #endif`, the pre-CUDA-9 branch of
/// `#if __CUDACC_VER_MAJOR__ >= 9 ... #else ... #endif` or `#if CUDART_VERSION
/// < 9000`, and the like. Legacy code in such a region is deliberate (no
/// toolkit of the last eight years compiles it), and checks stay silent on it,
/// even when the analysing compiler (clang defines no `__CUDACC_VER_*__`)
/// takes that branch.
///
/// Model: every `#if`/`#elif` condition is evaluated symbolically for each
/// modern compilation: every `__CUDA_ARCH__` value from 700 to 1210 with
/// every toolkit that can build for it (CUDA 9 to 13, minor 0 or 9:
/// `__CUDACC_VER_MAJOR__`, `__CUDACC_VER_MINOR__`, `CUDART_VERSION` and
/// `CUDA_VERSION` = 1000 * major + 10 * minor), with three-valued logic over
/// integer literals, those macros, `defined(...)`, `!`, the comparisons,
/// `+ - * /`, `&&`, `||` and parentheses. Any other macro is unknown. A region
/// is legacy-only when, for every modern compilation, its own condition is
/// definitely false or an earlier condition of its chain is definitely true.
/// `#ifdef __CUDA_ARCH__` (or a toolkit version macro) is true for every
/// device compilation; `#ifndef` false.
///
/// Left out: conditions spelled through other macros
/// (`#if MY_ARCH_IS_OLD`) are unknown, so their code is analysed: the check
/// errs towards reporting.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_TARGET_ARCHCONDITIONALS_H
#define CUDA_TIDY_LIB_TARGET_ARCHCONDITIONALS_H

#include "lib/target/ToolkitVersion.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <optional>

namespace clang {
class PPCallbacks;
class SourceManager;
class LangOptions;
} // namespace clang

namespace cuda_tidy {

/// Three-valued truth for a preprocessor condition at one `__CUDA_ARCH__`.
enum class Truth { False, True, Unknown };

/// Evaluates the text of a `#if` condition with `__CUDA_ARCH__` set to
/// CudaArch (0 means "not defined", as on the host side) and the toolkit
/// version macros set from TK (unknown when TK's Major is 0). The feature
/// macros of architecture- and family-specific targets (and the toolkit's
/// queries of them) are unknown.
Truth evaluateArchCondition(llvm::StringRef Condition, unsigned CudaArch,
                            const clang::LangOptions &LangOpts,
                            ToolkitVersion TK = {});

/// The architecture macros of one device compilation, as nvcc 13 defines
/// them (checked with nvcc): `__CUDA_ARCH__`; for an architecture-specific
/// target (`compute_90a`) also `__CUDA_ARCH_SPECIFIC__`,
/// `__CUDA_ARCH_FAMILY_SPECIFIC__` (both 900) and `__CUDA_ARCH_FEAT_SM90_ALL`;
/// for a family-specific one (`compute_100f`) `__CUDA_ARCH_FAMILY_SPECIFIC__`
/// (1000) only.
struct ArchMacros {
  /// `__CUDA_ARCH__`; 0 on the host side.
  unsigned CudaArch = 0;
  /// `__CUDA_ARCH_SPECIFIC__`, 0 when not defined.
  unsigned ArchSpecific = 0;
  /// `__CUDA_ARCH_FAMILY_SPECIFIC__`, 0 when not defined.
  unsigned FamilySpecific = 0;

  bool operator==(const ArchMacros &O) const {
    return CudaArch == O.CudaArch && ArchSpecific == O.ArchSpecific &&
           FamilySpecific == O.FamilySpecific;
  }
};

/// Evaluates a `#if` condition with every architecture macro of \p Macros
/// known (`__CUDA_ARCH_FEAT_SM90_ALL`, `__CUDA_ARCH_SPECIFIC__`,
/// `__CUDA_ARCH_FAMILY_SPECIFIC__` included: 0, or not defined, unless
/// \p Macros sets them), and the toolkit's queries of them as
/// crt/host_defines.h defines them (`__CUDA_ARCH_HAS_FEATURE__(SM90_ALL)`,
/// `__CUDA_HAS_ARCH_SPECIFIC(90)`, `__CUDA_HAS_ARCH_FAMILY_SPECIFIC(100)`).
Truth evaluateArchCondition(llvm::StringRef Condition, const ArchMacros &Macros,
                            const clang::LangOptions &LangOpts,
                            ToolkitVersion TK = {});

/// Whether \p Text names an architecture macro: `__CUDA_ARCH__` and the
/// `__CUDA_ARCH_*` feature macros, or the toolkit's queries
/// `__CUDA_HAS_ARCH_SPECIFIC(N)` and `__CUDA_HAS_ARCH_FAMILY_SPECIFIC(N)`.
inline bool namesArchMacro(llvm::StringRef Text) {
  return Text.contains("__CUDA_ARCH") || Text.contains("__CUDA_HAS_ARCH");
}

/// One branch of a conditional chain read from source text.
struct ConditionalBranch {
  enum BranchKind { If, Ifdef, Ifndef, Elif, Elifdef, Elifndef, Else };
  BranchKind Kind = If;
  /// The condition's text (`#if`, `#elif`) or the macro name (the `def`
  /// forms); empty for `#else`.
  std::string Condition;
  /// Offsets in the text: the directive's `#`, the end of its line
  /// (continuations included), and where the branch's code ends (the `#` of
  /// the next directive of the chain).
  unsigned Begin = 0, End = 0, BodyEnd = 0;
};

/// A `#if ... #endif` chain read from source text.
struct ConditionalChain {
  llvm::SmallVector<ConditionalBranch, 2> Branches;
  /// The `#endif` line.
  unsigned EndifBegin = 0, EndifEnd = 0;
  /// The enclosing chain and its branch, or -1.
  int Parent = -1;
  int ParentBranch = -1;
  /// Some condition names an architecture macro (`__CUDA_ARCH*`).
  bool ReadsArch = false;
};

/// The conditional directives of a piece of source text (a function body),
/// found with the raw lexer, so that every branch is seen whichever one the
/// compilation took.
struct ConditionalText {
  /// In the order of their `#if`; a chain's parent comes before it.
  llvm::SmallVector<ConditionalChain, 4> Chains;
  /// Every preprocessor directive line (`#pragma` too), as [begin, end).
  llvm::SmallVector<std::pair<unsigned, unsigned>, 8> DirectiveLines;
  /// False when a chain ends or continues outside the text (an `#else` or
  /// `#endif` with no `#if` in it, or an `#if` with no `#endif`).
  bool Balanced = true;
};

/// Reads the conditional chains of \p Text.
ConditionalText readConditionals(llvm::StringRef Text,
                                 const clang::LangOptions &LangOpts);

/// Whether each branch of \p Chain is taken under \p Macros: True (taken),
/// False (not taken: its condition is false or an earlier one is true), or
/// Unknown. Enclosing chains are not considered.
llvm::SmallVector<Truth, 4>
branchTruths(const ConditionalChain &Chain, const ArchMacros &Macros,
             const clang::LangOptions &LangOpts, ToolkitVersion TK);

/// The legacy-only regions of one translation unit, filled by the callbacks
/// that makeCallbacks() returns while the preprocessor runs.
class LegacyArchRegions {
public:
  /// Callbacks to hand to Preprocessor::addPPCallbacks. This object must
  /// outlive them.
  std::unique_ptr<clang::PPCallbacks>
  makeCallbacks(const clang::SourceManager &SM,
                const clang::LangOptions &LangOpts);

  /// Whether the file location Loc lies in a legacy-only region.
  bool contains(clang::SourceLocation Loc,
                const clang::SourceManager &SM) const;

  /// Records a region; used by the callbacks.
  void add(clang::SourceRange Range) { Regions.push_back(Range); }

private:
  llvm::SmallVector<clang::SourceRange, 8> Regions;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_TARGET_ARCHCONDITIONALS_H
