//===--- StderrCapture.h - stderr through a filter ----------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Sends what this process writes to stderr (file descriptor 2: llvm::errs()
/// and stdio alike) into a file while it is alive, and at finish() writes the
/// file's text, filtered, to the real stderr. cuda-tidy uses it around the
/// in-process clang-tidy run to leave out clang's per-side progress lines
/// when its output goes to a pipe or a file.
///
/// A crash in between must still be seen: a signal handler writes the file
/// back unfiltered (the stack dump that LLVM's own handler printed included)
/// before the process dies. POSIX only.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_CUDA_TIDY_STDERRCAPTURE_H
#define CUDA_TIDY_TOOLS_CUDA_TIDY_STDERRCAPTURE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>

namespace cuda_tidy {

class StderrCapture {
public:
  /// Starts capturing into a new file at \p Path; nullptr (and stderr left
  /// as it is) when the file cannot be made.
  static std::unique_ptr<StderrCapture> start(llvm::StringRef Path);

  /// Restores stderr and writes the captured text through \p Filter.
  void finish(llvm::function_ref<std::string(llvm::StringRef)> Filter);

  ~StderrCapture();

private:
  StderrCapture() = default;
  std::string Path;
  int SavedFd = -1;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_CUDA_TIDY_STDERRCAPTURE_H
