//===--- BuildCompatibility.h - GPUs a build's flags leave out --*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the cuda-tidy driver says about the GPUs a file's nvcc flags leave
/// without code (the build side of cuda-target-compatibility): the images
/// the flags embed (NvccCodeTargets) judged by the rules of
/// lib/target/BinaryCompatibility.h against the GPUs of the limits table,
/// or those `cuda.SupportedArchitectures` names, in words a user can act on.
///
/// Policy: with a configured list, a warning when a listed GPU cannot run
/// the code. Without one, every GPU of the table from Volta on is judged: a
/// warning when a generation newer than every image has no code (no PTX
/// carries the build forward), a remark when only older ones are left out.
/// `-arch=native` is always a warning: its cubins are those of the build
/// machine and it has no PTX. Commands are grouped by the options that
/// choose their code, so a project says each distinct build once.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_COMMON_BUILDCOMPATIBILITY_H
#define CUDA_TIDY_TOOLS_COMMON_BUILDCOMPATIBILITY_H

#include "tools/common/NvccArgs.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>
#include <string>
#include <vector>

namespace cuda_tidy {

/// The verdict on one build.
struct BuildVerdict {
  bool Warning = false;
  /// "is built as sm_80 cubins only, with no PTX: it cannot run on ...;
  /// add ..." (the subject, the file, is the caller's).
  std::string Predicate;
};

/// Judges \p Code built with the toolkit \p Toolkit (CUDA_VERSION, or
/// std::nullopt) against \p Supported (std::nullopt: every GPU of the table).
/// std::nullopt when the code runs on every GPU judged.
std::optional<BuildVerdict>
judgeBuild(const NvccCodeTargets &Code, std::optional<unsigned> Toolkit,
           const std::optional<llvm::SmallVector<const ArchLimits *, 16>>
               &Supported);

/// One compile command of a run.
struct BuildCommand {
  std::string File;
  NvccCodeTargets Code;
  std::optional<unsigned> Toolkit;
  /// `cuda.SupportedArchitectures` for this file, if configured.
  std::optional<llvm::SmallVector<const ArchLimits *, 16>> Supported;
};

/// A finding for one distinct build of a run.
struct BuildFinding {
  bool Warning = false;
  /// The whole sentence, subject included.
  std::string Message;
  /// The options that choose the code, as written ("nvcc's default" when
  /// none).
  std::string Options;
  /// The first file built so.
  std::string File;
  unsigned Files = 0;
};

/// One finding per distinct options (and configured list) with something to
/// say, in the order of the first file of each. \p Display shortens a path
/// for the message.
std::vector<BuildFinding>
judgeBuilds(llvm::ArrayRef<BuildCommand> Commands,
            llvm::function_ref<std::string(llvm::StringRef)> Display);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_COMMON_BUILDCOMPATIBILITY_H
