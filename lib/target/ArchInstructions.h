//===--- ArchInstructions.h - PTX only some targets accept ------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Inline PTX that ptxas accepts on architecture- or family-specific targets
/// only (`wgmma.*` on sm_90a, `tcgen05.*` on the sm_100/103/110 `a` and `f`
/// targets), and the compilations of a build that keep it: for
/// cuda-target-compatibility, which reports the instruction reached under a
/// guard that admits a target of the build that lacks it (ptxas then fails
/// the build: `#if __CUDA_ARCH__ >= 900` around wgmma with `-arch=sm_90a`,
/// which also compiles compute_90).
///
/// Model: the table is ptxas 13.0's answer for a one-instruction kernel on
/// every target from sm_90 to sm_121f (docs/checks/cuda-target-compatibility.md
/// lists it). The instructions are read from the string literals of `asm`
/// statements in the source text, so that every branch is seen whichever one
/// the analysed compilation took. An asm is compiled for a target when
/// every `#if` chain that reads an architecture macro around it (in its
/// file, the function's own guards included) takes the branch that holds it,
/// and its function is compiled: a kernel always, a device function when a
/// call kept for that target reaches it from a kernel (nvcc emits no
/// unreferenced device function in whole-program mode; measured).
/// A condition that cannot be decided (another macro) makes the answer
/// unknown, and nothing is reported; the toolkit's feature queries
/// (`__CUDA_ARCH_HAS_FEATURE__(SM90_ALL)`,
/// `__CUDA_HAS_ARCH_FAMILY_SPECIFIC(100)`) are decided.
///
/// Wrappers: a direct call of a function whose body (its header's text)
/// holds a stand-in for the instruction under the wrapper's own guard:
/// `cuda::ptx`'s call of an undefined `__cuda_ptx_..._is_not_supported...`
/// function (ptxas: "Unresolved extern function"; CUDA 13.0's
/// `cuda::ptx::tcgen05_*` are guarded by `__CUDA_ARCH_FEAT_SM100_ALL ||
/// __CUDA_ARCH_FEAT_SM101_ALL`, so sm_100f, sm_103a/f and sm_110f fail,
/// measured) or CuTe's `CUTE_INVALID_CONTROL_PATH` (a trap at run time). The
/// wrapper's conditions are read with a short table of derived macros:
/// CuTe's and CUTLASS's `*_ARCH_MMA_SM90A_ENABLED` are
/// `__CUDA_ARCH_FEAT_SM90_ALL`, CCCL's `_CCCL_CUDA_COMPILER(NVHPC)` is 0.
///
/// Left out: asm written by macros, wrappers reached through other
/// templates (CuTe's `cute::gemm` on an `MMA_Atom`), CuTe's other derived
/// macros (the SM100 UMMA and TMEM ones), calls through pointers,
/// relocatable device code (every external function is emitted: unknown).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_TARGET_ARCHINSTRUCTIONS_H
#define CUDA_TIDY_LIB_TARGET_ARCHINSTRUCTIONS_H

#include "lib/target/ArchPaths.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include <functional>
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>

namespace clang {
class ASTContext;
class CallExpr;
class FunctionDecl;
} // namespace clang

namespace cuda_tidy {

/// An instruction ptxas accepts on some targets only.
struct ArchInstruction {
  /// The mnemonic's prefix ("wgmma.", "tcgen05.").
  llvm::StringLiteral Prefix;
  /// A qualifier the instruction must also carry (".f32" of redux.sync),
  /// or empty.
  llvm::StringLiteral Qualifier;
  /// The targets ptxas accepts it on, in words ("sm_90a only").
  llvm::StringLiteral Where;
  /// Whether ptxas accepts it on \p T.
  bool (*Accepts)(const CompileTarget &T);
};

/// The table's instructions in the asm text \p Text (its literals joined),
/// with the mnemonic as written ("wgmma.fence.sync.aligned").
llvm::SmallVector<std::pair<const ArchInstruction *, std::string>, 2>
findArchInstructions(llvm::StringRef Text);

/// The guard that admits exactly targets accepting \p I, given the build's
/// \p Targets: `__CUDA_ARCH_FEAT_SM90_ALL` for wgmma,
/// `__CUDA_ARCH_FAMILY_SPECIFIC__ == 1000` (one per accepting family of the
/// build) for tcgen05, `defined(__CUDA_ARCH_FAMILY_SPECIFIC__)` for what
/// every `a`/`f` target accepts.
std::string fittingGuard(const ArchInstruction &I,
                         llvm::ArrayRef<CompileTarget> Targets);

/// One inline PTX instruction a build compiles for targets that reject it.
struct InstructionFinding {
  const ArchInstruction *Instruction = nullptr;
  std::string Mnemonic;
  /// The asm's string literal.
  clang::SourceLocation Asm;
  /// The targets of the build that compile it and reject it, in the order
  /// given.
  llvm::SmallVector<CompileTarget, 2> Rejecting;
  /// The innermost architecture condition around it (empty: none), and
  /// where it is.
  std::string GuardCondition;
  clang::SourceLocation Guard;
};

/// A call of a library wrapper (a `cuda::ptx` function, a CuTe atom such as
/// `cute::warpgroup_arrive`) whose own guard leaves a target of the build
/// without the instruction: for that target the wrapper's body is what its
/// header puts in the instruction's place.
struct WrapperFinding {
  enum Consequence {
    /// A call of an extern function no library defines
    /// (`__cuda_ptx_tcgen05_alloc_is_not_supported_before_SM_100a_SM_101a__`):
    /// ptxas fails ("Unresolved extern function").
    UnresolvedExtern,
    /// CuTe's `CUTE_INVALID_CONTROL_PATH`: assert, printf and a breakpoint;
    /// the build succeeds and the kernel stops on a GPU that runs that code.
    Trap,
  };
  Consequence Kind = UnresolvedExtern;
  const clang::FunctionDecl *Callee = nullptr;
  /// What the header writes in the instruction's place (the extern
  /// function's name, or `CUTE_INVALID_CONTROL_PATH`).
  std::string Marker;
  /// The first instruction of the wrapper's asm ("tcgen05.alloc..."), or
  /// empty.
  std::string Mnemonic;
  /// The wrapper's own condition for the branch with the instruction, as
  /// its header writes it, or empty.
  std::string WrapperCondition;
  clang::SourceLocation Call;
  llvm::SmallVector<CompileTarget, 2> Failing;
  /// The innermost architecture condition around the call (empty: none).
  std::string GuardCondition;
  clang::SourceLocation Guard;
};

/// The calls of a function: each caller and where the call is written.
using CallersFn = std::function<llvm::SmallVector<
    std::pair<const clang::FunctionDecl *, clang::SourceLocation>, 2>(
    const clang::FunctionDecl *)>;

/// Reads the inline PTX of functions against a build's targets.
class ArchInstructionAnalysis {
public:
  ArchInstructionAnalysis(const clang::ASTContext &Ctx, ToolkitVersion TK,
                          CallersFn Callers);
  ~ArchInstructionAnalysis();

  /// The findings for the definition \p F under the build's \p Targets.
  llvm::SmallVector<InstructionFinding, 1>
  analyze(const clang::FunctionDecl *F, llvm::ArrayRef<CompileTarget> Targets);

  /// The calls of wrappers in \p F whose header compiles, for a target
  /// of the build that the call site admits, a stand-in for the
  /// instruction (an unresolved extern function or CuTe's trap).
  llvm::SmallVector<WrapperFinding, 1>
  analyzeWrapperCalls(const clang::FunctionDecl *F,
                      llvm::ArrayRef<CompileTarget> Targets);

private:
  struct FileText;
  /// Whether the code at file offset \p Offset of \p File, in the body of a
  /// library function starting at \p BodyBegin, is compiled for \p T, its
  /// conditions read with the wrappers' derived macros
  /// (`CUTE_ARCH_MMA_SM90A_ENABLED`, CCCL's `_CCCL_CUDA_COMPILER(NVHPC)`).
  Truth keptInWrapper(clang::FileID File, unsigned Offset, unsigned BodyBegin,
                      const CompileTarget &T, std::string *Condition);
  /// One wrapper call of \p F, if the wrapper's header has a stand-in.
  std::optional<WrapperFinding>
  wrapperCall(const clang::FunctionDecl *F, const clang::CallExpr *Call,
              llvm::ArrayRef<CompileTarget> Targets);
  const FileText *fileText(clang::FileID File);
  /// Whether the code at \p Loc, in the body of \p In, is compiled for
  /// \p T, as far as the architecture conditions of its file tell.
  Truth keptAt(clang::SourceLocation Loc, const CompileTarget &T,
               const clang::FunctionDecl *In, std::string *Condition = nullptr,
               clang::SourceLocation *Guard = nullptr);
  /// Whether \p F is compiled for \p T.
  Truth emitted(const clang::FunctionDecl *F, const CompileTarget &T,
                unsigned Depth);

  const clang::ASTContext &Ctx;
  ToolkitVersion TK;
  CallersFn Callers;
  llvm::DenseMap<clang::FileID, std::unique_ptr<FileText>> Files;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_TARGET_ARCHINSTRUCTIONS_H
