//===--- EarlierKernels.h - Which earlier kernel writes a buffer -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The host side of an early access: whether a kernel launched before the
/// early-starting kernel, and perhaps still running, may write the buffer
/// the kernel reads before its wait (or touch the buffer it writes).
///
/// Model. A *buffer* is named by a root variable and a path of fields: on
/// the device, a kernel parameter (`params.ptrSeqLens`), reached from the
/// pointer an access goes through by casts, pointer arithmetic, `&p[i]`,
/// `?:` with a null arm, locals the function never assigns again, and a
/// helper's parameter bound at its call; on the host, the argument of the
/// launch followed the same way to a local or a parameter of the launching
/// function (a local whose address is taken, as by `cudaMalloc(&d, n)`, or
/// that is never assigned a pointer, is its own root; one given pointers to
/// different buffers cannot be followed). Two buffers are the same when their roots are the same
/// variable and one path extends the other; distinct variables are taken to
/// be distinct buffers.
///
/// The kernels that may still run when a launch starts early are the
/// launches met walking the launching function's CFG back from it (around
/// loops: a launch in a loop meets its own earlier runs), nearest first.
/// A path ends at a launch (kept) whose kernels do not start early, or
/// wait on every path and trigger their dependents only after the body's
/// first statement that waits (then its predecessor has finished before
/// it lets the next kernel start); at `cudaDeviceSynchronize()` or
/// `cudaStreamSynchronize()`; and at a memory copy or set (the next kernel
/// starts only when it is done). When the CFG cannot be used, launches
/// before it in source order (not in another arm of an `if`/`else` or
/// `?:`; in a loop every launch of the loop) are walked, the walk ending
/// at one every path runs. A launch is a launch site, a launcher
/// template's launch at one call of it (LaunchBinding), or a
/// `triple_chevron::doit` call (LauncherLaunch), whose arguments are
/// followed out through the launcher's parameters. A call, before the launch, of a
/// function of the translation unit that launches a kernel is a kernel that
/// may write anything. When the walk reaches the top of the launching
/// function and the buffer is one of its parameters, it goes on before
/// each call of the function in the translation unit (three callers deep),
/// with the argument as the buffer. Launches before that (callers in other
/// translation units) are not seen: with none, nothing is taken to write
/// the buffer. Memory copies and sets are no kernels and write nothing
/// here. Streams are not told apart. A host buffer that is an element of
/// a local array of pointers read at a constant index (`(int
/// *)allocations[4]`) is its own buffer: distinct elements are taken to be
/// distinct buffers.
///
/// A kernel may write a buffer when it receives it (or a struct holding it)
/// through a parameter whose type reaches it as a pointer to non-const and
/// its body writes through that parameter (an assignment or increment of an
/// element, a pointer argument of a call, an `asm` operand, or a pointer it
/// cannot follow); a kernel whose arguments cannot be followed (`void **`
/// arguments, an unresolved kernel, one without a body) may write anything.
/// For a write before the wait, any kernel given the buffer counts.
///
/// Untraceable: a kernel with a launch that cannot be read, or whose
/// launches are not all visible; an access whose pointer does not come
/// from a kernel parameter; an argument that cannot be followed. The check
/// then keeps its device-side rule (every global access counts: the
/// buffer is taken to be written by the previous kernel) and says which of
/// the three it was (EarlierWriter::Why, with the argument in At).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_PDL_EARLIERKERNELS_H
#define CUDA_TIDY_LIB_PDL_EARLIERKERNELS_H

#include "lib/pdl/EarlyLaunch.h"
#include "lib/pdl/GridDependency.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace clang {
class ASTContext;
class FieldDecl;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace cuda_tidy {

/// A buffer: a variable and the fields followed from it; on the host, an
/// element of a local array of pointers read at a constant index
/// (`(int *)allocations[4]`) is its own buffer (Element).
struct BufferRoot {
  const clang::VarDecl *Var = nullptr;
  llvm::SmallVector<const clang::FieldDecl *, 2> Path;
  int64_t Element = -1;
};

/// What the host code says about one early access.
struct EarlierWriter {
  enum Kind {
    Untraceable, ///< the host side cannot be followed: the device rule holds
    None,        ///< no kernel that may still run writes (or touches) it
    Found,       ///< a kernel that may still run may write (or touch) it
  } K = Untraceable;
  /// For Found: the launch of that kernel, or the call that leads to
  /// launches (null when it is the early launch itself in a loop). For
  /// Untraceable with Why == ArgumentUnfollowed: the argument.
  const clang::Expr *At = nullptr;
  /// For Found: the kernel, when known.
  const clang::FunctionDecl *Writer = nullptr;
  /// For Untraceable: why the host side cannot be followed.
  enum Reason {
    LaunchesNotSeen,   ///< not every launch of the kernel is visible and read
    NotFromParameter,  ///< the access's pointer comes from no kernel parameter
    ArgumentUnfollowed ///< an argument (At) names no buffer of the host code
  } Why = LaunchesNotSeen;
};

/// The host-side model of one translation unit (see the file comment).
class EarlierKernels {
public:
  EarlierKernels(clang::ASTContext &Ctx, const LaunchModel &Launches,
                 const EarlyLaunches &Early, GridDependencyAnalysis &Deps);
  ~EarlierKernels();

  /// Whether a kernel that may still run when Kernel starts early may
  /// write what A reads (or access what A writes).
  EarlierWriter judge(const clang::FunctionDecl *Kernel,
                      const EarlyAccess &A);

  class Impl;

private:
  std::unique_ptr<Impl> P;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_PDL_EARLIERKERNELS_H
