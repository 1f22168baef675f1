//===--- CudaTarget.h - The GPU architecture a check analyses ---*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Which GPU architecture a translation unit is analysed for.
///
/// Model: clang-tidy runs one compiler job per file. For a CUDA file that is
/// the first device-side job (the first `--cuda-gpu-arch`, sm_52 when none is
/// given) unless `--cuda-host-only` is passed; the device job's target CPU is
/// the architecture ("sm_90a"). The module-wide option `cuda.TargetArch`
/// overrides it, for instance when the build compiles for a different
/// architecture than the job clang-tidy picked, or on the host side, where
/// the compilation names no architecture.
///
/// An architecture the limits table does not know (sm_72, a newer one, or a
/// pre-Volta one such as clang's default sm_52) gives no limits: the checks
/// that need them skip the translation unit, and effectiveGpuArch() says so
/// once per run and architecture, as a configuration message that names the
/// architecture and the reason.
///
/// Several architectures from one parse: a job that targets several
/// architectures does not exist in clang, so the cuda-tidy driver, for a file
/// whose own code does not vary by architecture
/// (tools/common/ArchDependence.h), runs one device job for the first
/// architecture and names all of them in the reserved macro
/// `__CUDA_TIDY_GPU_ARCHS__` ("sm_75,sm_80,sm_90"). The architecture-dependent
/// checks then evaluate their limits for each architecture of the list
/// (effectiveGpuArchs()), giving the diagnostics one job per architecture would
/// give.
///
/// Left out: system headers that declare different functions for different
/// architectures; the one parse sees the first architecture's.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_TARGET_CUDATARGET_H
#define CUDA_TIDY_LIB_TARGET_CUDATARGET_H

#include "lib/target/ArchLimits.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class Preprocessor;
} // namespace clang

namespace cuda_tidy {

/// The macro through which the cuda-tidy driver names the architectures one
/// device job stands for.
inline constexpr llvm::StringLiteral GpuArchListMacroName =
    "__CUDA_TIDY_GPU_ARCHS__";

/// The module-wide option that overrides the compilation's architecture
/// (read by the checks: checks/ModuleOptions.h).
inline constexpr llvm::StringLiteral TargetArchOptionName = "cuda.TargetArch";

/// The architecture the device side of this compilation targets, from its
/// target CPU, or std::nullopt on the host side or for an architecture the
/// limits table does not know (sm_52, the clang default, for instance).
std::optional<GpuArch> compilationGpuArch(const clang::ASTContext &Ctx);

/// Called with an architecture name the limits table does not know and the
/// parser's message (the checks say, once, that its limits are skipped).
using SkippedArch =
    llvm::function_ref<void(llvm::StringRef Name, llvm::StringRef Why)>;

/// The override (the `cuda.TargetArch` option) if set, else the
/// compilation's architecture. When neither is known to the limits table,
/// calls Skipped with the compilation's.
std::optional<GpuArch> effectiveGpuArch(const std::optional<GpuArch> &Override,
                                        const clang::ASTContext &Ctx,
                                        SkippedArch Skipped);

/// Every architecture the architecture-dependent checks evaluate for this
/// translation unit, in order: the override alone if set; else, on the
/// device side, each architecture `__CUDA_TIDY_GPU_ARCHS__` names when \p PP
/// defines it; else the compilation's own. An entry is std::nullopt for the
/// host side and for an architecture the limits table does not know
/// (passed to Skipped, as effectiveGpuArch() does), where the checks apply
/// what holds for every architecture. Never empty.
llvm::SmallVector<std::optional<GpuArch>, 4>
effectiveGpuArchs(const std::optional<GpuArch> &Override,
                  const clang::ASTContext &Ctx, const clang::Preprocessor *PP,
                  SkippedArch Skipped);

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_TARGET_CUDATARGET_H
