//===--- CudaToolkit.cpp - What nvcc knows of its toolkit -----------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The toolkit an nvcc command compiles with, and what nvcc defines from it
// that clang does not: its version macros, `__NVCC__`, the folders it
// searches. Declared in NvccArgs.h.
//
//===----------------------------------------------------------------------===//

#include "tools/common/NvccArgs.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace llvm;

namespace cuda_tidy {

std::optional<std::string> findCudaToolkitFromNvcc(StringRef Nvcc) {
  std::string Program = Nvcc.str();
  if (!sys::path::has_parent_path(Nvcc)) {
    ErrorOr<std::string> Found = sys::findProgramByName(Nvcc);
    if (!Found)
      return std::nullopt;
    Program = *Found;
  }
  SmallString<256> Real;
  if (sys::fs::real_path(Program, Real))
    return std::nullopt;
  StringRef Bin = sys::path::parent_path(Real);
  StringRef Root = sys::path::parent_path(Bin);
  SmallString<256> Header(Root);
  sys::path::append(Header, "include", "cuda_runtime.h");
  if (Root.empty() || !sys::fs::exists(Header))
    return std::nullopt;
  return Root.str();
}

std::optional<std::string> ccclIncludeDir(StringRef CudaPath) {
  if (CudaPath.empty())
    return std::nullopt;
  SmallString<256> Cccl(CudaPath);
  sys::path::append(Cccl, "include", "cccl");
  if (!sys::fs::is_directory(Cccl))
    return std::nullopt;
  return Cccl.str().str();
}

std::optional<unsigned> toolkitVersion(StringRef CudaPath) {
  SmallString<256> Header(CudaPath);
  sys::path::append(Header, "include", "cuda.h");
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Header);
  if (!Buf)
    return std::nullopt;
  SmallVector<StringRef, 0> Lines;
  (*Buf)->getBuffer().split(Lines, '\n');
  for (StringRef Line : Lines) {
    Line = Line.trim();
    if (!Line.consume_front("#define CUDA_VERSION"))
      continue;
    unsigned Version;
    if (!Line.trim().getAsInteger(10, Version) && Version >= 1000)
      return Version;
  }
  return std::nullopt;
}

void appendToolkitArgs(StringRef CudaPath, std::vector<std::string> &Args) {
  Args.push_back(("--cuda-path=" + CudaPath).str());
  if (std::optional<std::string> Cccl = ccclIncludeDir(CudaPath)) {
    // CCCL (thrust, cub, libcu++) is toolkit code: system headers.
    Args.push_back("-isystem");
    Args.push_back(*Cccl);
  }
  // What nvcc defines and clang does not: the toolkit's version (code
  // such as `#if __CUDACC_VER_MAJOR__ >= 9` picks its branch by it), and
  // the cluster API of cooperative groups, which CUDA 13's headers declare
  // only for nvcc unless this macro is set (clang 22 parses them with it).
  if (std::optional<unsigned> Version = toolkitVersion(CudaPath)) {
    Args.push_back("-D__CUDACC_VER_MAJOR__=" + std::to_string(*Version / 1000));
    Args.push_back("-D__CUDACC_VER_MINOR__=" +
                   std::to_string(*Version % 1000 / 10));
    // nvcc itself, which code tests to pick its CUDA spelling (`#ifdef
    // __NVCC__` ... `__host__ __device__`). Only with the version: CCCL
    // under __NVCC__ reads __CUDACC_VER_MAJOR__ and rejects a missing one.
    Args.push_back("-D__NVCC__");
  }
  Args.push_back("-D_CG_CLUSTER_INTRINSICS_AVAILABLE");
}

} // namespace cuda_tidy
