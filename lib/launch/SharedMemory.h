//===--- SharedMemory.h - Static shared memory per kernel -------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How much static shared memory a kernel declares, and which variables it
/// comes from.
///
/// Model: a kernel uses every `__shared__` variable of fixed size that is
/// declared in its body, declared in a function it reaches through direct
/// calls (including constructors, operators and calls in template
/// instantiations) whose body is in the translation unit, or declared at
/// namespace or class scope and referenced from any of those functions. Each
/// variable counts once per kernel. Its size and alignment are those of its
/// type (arrays, structs, template arguments substituted: a template kernel
/// is accounted per instantiation). The total is the smallest layout the
/// variables fit in: sorted by decreasing alignment, each placed at the next
/// multiple of its alignment. ptxas never allocates less, so a total over a
/// limit is a real overflow.
///
/// Left out: `extern __shared__` arrays (dynamic shared memory, sized at
/// launch), variables of dependent or incomplete type, functions defined in
/// other translation units or called through pointers (their variables are
/// unknown, so the total is a lower bound), and what the compiler reserves
/// on its own (1 KiB per block on recent GPUs, not counted by ptxas against
/// the 48 KiB limit).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_LAUNCH_SHAREDMEMORY_H
#define CUDA_TIDY_LIB_LAUNCH_SHAREDMEMORY_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <memory>

namespace clang {
class ASTContext;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace cuda_tidy {

/// One `__shared__` variable a kernel uses.
struct SharedVariable {
  const clang::VarDecl *Var;
  uint64_t Size;
  uint64_t Align;
};

/// The static shared memory of one kernel.
struct StaticSharedMemory {
  /// Bytes, laid out as described in the file comment.
  uint64_t Total = 0;
  /// The variables, largest first (ties in the order the kernel reaches
  /// them).
  llvm::SmallVector<SharedVariable, 4> Variables;
};

/// Computes and caches StaticSharedMemory per kernel.
class SharedMemoryAccounting {
public:
  explicit SharedMemoryAccounting(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// The static shared memory of Kernel (a __global__ function with a body;
  /// an empty result otherwise).
  const StaticSharedMemory &of(const clang::FunctionDecl *Kernel);

  /// Whether VD is a static `__shared__` variable that counts (not extern,
  /// complete, not dependent).
  static bool isCountedSharedVar(const clang::VarDecl *VD);

private:
  /// What one function's body names: its counted `__shared__` variables and
  /// the functions with bodies it calls, each in the order written.
  struct BodyUses {
    llvm::SmallVector<const clang::VarDecl *, 2> Vars;
    llvm::SmallVector<const clang::FunctionDecl *, 4> Callees;
  };
  /// F's uses, walked once (a helper or a header function is called from
  /// many kernels).
  const BodyUses &usesOf(const clang::FunctionDecl *F);

  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::unique_ptr<StaticSharedMemory>>
      Cache;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<BodyUses>>
      Uses;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_LAUNCH_SHAREDMEMORY_H
