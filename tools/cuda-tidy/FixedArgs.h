//===--- FixedArgs.h - The compiler arguments after "--" --------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads the compiler arguments a user writes after "--" (`cuda-tidy k.cu --
/// -arch=sm_90 -O2`): clang's, as clang-tidy takes them, or nvcc's, as a CUDA
/// user types them. The model:
///  - the arguments are nvcc's when one of them is an option only nvcc has
///    (`-arch`, `-gencode`, `-code`, `-Xcompiler`, `-ccbin`, `--std c++17`,
///    `--expt-relaxed-constexpr`, ...) or one clang does not know that nvcc
///    translates; they are then written as an nvcc command and translated as a
///    database's nvcc command is (tools/common/NvccArgs.h), with the options
///    only clang knows handed to clang unchanged;
///  - otherwise they are clang's, unchanged;
///  - an option neither clang nor nvcc knows is reported by name before
///    anything runs.
/// It leaves out options files (`--options-file`) after "--": nvcc reads them,
/// and so does the translation, but their options are not classified here.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_CUDA_TIDY_FIXEDARGS_H
#define CUDA_TIDY_TOOLS_CUDA_TIDY_FIXEDARGS_H

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>
#include <vector>

namespace cuda_tidy {

/// How the arguments after "--" were read.
struct FixedArgsReading {
  /// They are an nvcc command's (argv[0] is Nvcc in the database's
  /// commands).
  bool IsNvcc = false;
  /// The nvcc executable written as argv[0] of nvcc commands.
  std::string Nvcc;
  /// The arguments as the database gives them, argv[0] and the file aside.
  std::vector<std::string> Args;
  /// Options neither clang nor nvcc takes, as written.
  std::vector<std::string> Unknown;
};

/// Classifies \p Args (what follows "--"). \p CudaPath is the driver's
/// --cuda-path (empty: nvcc from PATH, else CUDA_PATH, else
/// /usr/local/cuda).
FixedArgsReading readFixedArgs(llvm::ArrayRef<std::string> Args,
                               llvm::StringRef CudaPath);

/// The database of a command line with "--": every file gets the same
/// command, clang's (as clang-tidy's own fixed database) or nvcc's.
std::unique_ptr<clang::tooling::CompilationDatabase>
makeFixedDatabase(const FixedArgsReading &Reading);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_CUDA_TIDY_FIXEDARGS_H
