//===--- ArchPaths.h - What each architecture compiles of a function -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Which code of a kernel or device function each compilation keeps when the
/// body is split by `#if __CUDA_ARCH__ ...` conditions, and whether what it
/// keeps does the function's work: for cuda-target-compatibility, which
/// reports the architectures that get an empty body, a body that only traps,
/// or a body whose results (its stores to global memory) are compiled out.
///
/// Model: the body's text is read with the raw lexer, so that every branch
/// of its conditionals is seen whichever one the analysed compilation took
/// (lib/target/ArchConditionals.h reads the chains and evaluates their
/// conditions). For a compile target (a `__CUDA_ARCH__` value with its
/// feature macros) the code it keeps is the text outside the branches it
/// does not take; a branch whose condition cannot be decided (another macro)
/// counts as kept. The kept tokens are split into statements:
///  - the body is *empty* when no statement is left but `(void)x;` casts and
///    `return;`;
///  - it *only traps* when the rest are `__trap()`, `__brkpt()`,
///    `asm("trap;")`, `assert(false)`/`assert(0)`/`assert(!"...")` (or a
///    macro that expands to one), `printf` calls and `(void)` casts;
///  - it *has a result* when a kept token stores or may store: a pointer or
///    reference parameter to non-const data (or a local pointer the AST
///    shows derived from one), a namespace-scope `__device__` or
///    `__managed__` variable, a member of a class-typed parameter that is
///    assigned, `this` or a field in a member function, an atomic or store
///    intrinsic (`atomic*`, `__st*`), `printf`, inline `asm`, a call of a
///    function of the translation unit that returns `void` or takes such a
///    pointer, and `return <value>` in a non-void function unless the value
///    is a constant (a literal, or a local only ever set to literals in the
///    kept code: the compilation dropped what computes it).
/// Findings follow the direction of GPU generations: a compile target is
/// reported only when an *older* compilation (a lower `__CUDA_ARCH__`,
/// Volta on, generic or `a`/`f`) keeps code that works (or that stores), so
/// a lower bound (`#if __CUDA_ARCH__ >= 800` with no `#else`: older GPUs are
/// not supported) is silent, while a range or an upper bound (`< 900`,
/// `== 800`) that leaves later generations without the code is reported. A
/// generic target also counts as losing what the `a`/`f` target of its own
/// architecture keeps (`#if defined(__CUDA_ARCH_FEAT_SM90_ALL)` built for
/// plain sm_90).
///
/// Left out: code selected by macros other than the architecture and
/// toolkit-version macros (unknown: kept), `if constexpr` and `NV_IF_TARGET`
/// (not preprocessor conditions: both branches are kept), function bodies
/// written by a macro, and calls whose effect only the callee's body shows
/// (a non-void helper that writes a global variable counts as no result).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_TARGET_ARCHPATHS_H
#define CUDA_TIDY_LIB_TARGET_ARCHPATHS_H

#include "lib/target/ArchConditionals.h"
#include "lib/target/BinaryCompatibility.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class FunctionDecl;
class Preprocessor;
} // namespace clang

namespace cuda_tidy {

/// The macro through which the cuda-tidy driver gives every job of a file
/// the virtual architectures its build compiles the device code for
/// ("compute_80,compute_90a"), whichever job (host, one architecture, all
/// architectures in one parse) clang-tidy runs.
inline constexpr llvm::StringLiteral BuildArchsMacroName =
    "__CUDA_TIDY_BUILD_ARCHS__";

/// One compilation of device code: its `__CUDA_ARCH__` value and feature
/// set.
struct CompileTarget {
  unsigned CudaArch = 0;
  FeatureSet Features = FeatureSet::Generic;

  /// The macros nvcc defines for it.
  ArchMacros macros() const;
  /// "sm_90", "sm_90a", "sm_100f".
  std::string name() const;
  bool operator==(const CompileTarget &O) const {
    return CudaArch == O.CudaArch && Features == O.Features;
  }
};

/// Parses "sm_90", "compute_90a", "sm_100f" or CMake's "90"; std::nullopt
/// for anything else.
std::optional<CompileTarget> parseCompileTarget(llvm::StringRef Name);

/// Every modern compilation (compute capability 7.0 on, with the `a` and
/// `f` targets), in increasing `__CUDA_ARCH__` order: the older
/// compilations a finding is judged against.
llvm::ArrayRef<CompileTarget> modernCompileTargets();

/// What a function's kept code amounts to.
/// (MessageOnly: messages and nothing else, such as CUTLASS's
/// "only supports sm90a" stub: work unless the work is compiled for an
/// `a`/`f` target instead.)
enum class PathKind { Empty, TrapOnly, MessageOnly, Working };

/// A finding for some compile targets of a function.
struct ArchPathFinding {
  enum FindingKind {
    EmptyBody, ///< The targets keep no statement of the body.
    TrapsOnly, ///< The targets keep only a trap (and messages), or only
               ///< messages while an `a`/`f` compilation keeps the work.
    NoResult,  ///< The targets keep code, but none of its results.
  };
  FindingKind Kind = EmptyBody;
  /// The targets concerned, in the order they were given.
  llvm::SmallVector<CompileTarget, 4> Targets;
  /// An older compilation that keeps the work.
  CompileTarget Working;
  /// The branch holding the work (or results) the targets do not take, and
  /// its chain's first directive; invalid when none could be pointed at.
  clang::SourceLocation Guard;
  ConditionalBranch::BranchKind GuardKind = ConditionalBranch::If;
  std::string GuardCondition, ChainCondition;
  /// For NoResult of a non-void function: the `return` of a constant the
  /// targets keep (invalid when none).
  clang::SourceLocation ConstantReturn;
  /// The branch of that chain the targets take, if any (an `#else` that
  /// does no work or only traps).
  clang::SourceLocation Taken;
  ConditionalBranch::BranchKind TakenKind = ConditionalBranch::Else;
};

/// Reads the architecture paths of functions, with what the translation
/// unit tells about stores (its device variables and functions).
class ArchPathAnalysis {
public:
  ArchPathAnalysis(const clang::ASTContext &Ctx,
                   const clang::Preprocessor *PP, ToolkitVersion TK);

  /// The findings for \p F (a definition) under \p Targets. Empty when the
  /// body holds no architecture conditional, or cannot be read.
  llvm::SmallVector<ArchPathFinding, 2>
  analyze(const clang::FunctionDecl *F, llvm::ArrayRef<CompileTarget> Targets);

private:
  void collectTranslationUnitFacts();

  const clang::ASTContext &Ctx;
  const clang::Preprocessor *PP;
  ToolkitVersion TK;
  bool Collected = false;
  /// Namespace-scope `__device__`/`__managed__` variables (non-const).
  llvm::StringSet<> DeviceVariables;
  /// Functions of the translation unit whose calls may store: they return
  /// void or take a pointer or reference to non-const data.
  llvm::StringSet<> EffectfulFunctions;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_TARGET_ARCHPATHS_H
