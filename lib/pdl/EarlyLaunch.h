//===--- EarlyLaunch.h - Kernels that may start before their predecessor -===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The host side of Programmatic Dependent Launch: which kernels of a
/// translation unit may start while the kernel before them in the stream
/// still runs.
///
/// Model: a launch is *programmatic* when its attribute array (read by
/// lib/launch/LaunchAttributes.h: `cudaLaunchKernelEx`, its C++ template,
/// `cudaLaunchKernelExC`, `cuLaunchKernelEx`, the array filled inline or by
/// a helper) holds `cudaLaunchAttributeProgrammaticStreamSerialization` or
/// `CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION` with a value not
/// proven zero (a runtime flag such as `enable_pdl` counts). A launch is
/// *plain* when it cannot carry the attribute (`<<<>>>`,
/// `cudaLaunchKernel`) or its array is read and lacks it. Otherwise (an Ex
/// launch whose configuration is built elsewhere) it is *unreadable*.
///
/// A kernel may run early when a programmatic launch of it is visible; when
/// no launch of it is visible, an unreadable one is, or a programmatic
/// launch whose kernel cannot be resolved exists, it *may* run early, and
/// callers decide from the kernel itself (a kernel that waits expects to).
/// A kernel whose every visible launch is plain runs in stream order.
///
/// An Ex launch whose kernel is a local function pointer the launching
/// function assigns only kernels (`kernel = &k<64, half>;` in each arm of a
/// dispatch) launches each of them. A launch in a launcher whose kernel is
/// its parameter launches, at each call of the launcher the launch model
/// binds (LaunchSite::Bindings), the kernel given there; when every
/// binding names a kernel, the launch is read. A launch through a launcher
/// object (LauncherLaunch, Thrust's and CUB's `triple_chevron::doit`) is
/// programmatic when its dependent-launch flag is not proven false.
///
/// Left out: CUDA graphs with programmatic edges and launches in other
/// translation units (a kernel with no visible launch is "unseen"); which
/// kernel precedes which in a stream.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_PDL_EARLYLAUNCH_H
#define CUDA_TIDY_LIB_PDL_EARLYLAUNCH_H

#include "lib/launch/LaunchModel.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace cuda_tidy {

/// A launch that lets its kernel start early.
struct ProgrammaticLaunch {
  const LaunchSite *Site = nullptr;
  /// For a launch in a launcher (a function given the kernel, CUB's
  /// `doit(kernel, args...)`): the binding at one call of it, whose
  /// outermost call is where the kernel is launched from.
  const LaunchBinding *Binding = nullptr;
  /// For a launch through a launcher object (Site is then null).
  const LauncherLaunch *Launcher = nullptr;
  /// Where the attribute's id is set (in the launching function).
  const clang::Expr *Attribute = nullptr;
  /// The attribute is set to a nonzero constant, and nothing in the
  /// launching function before the launch branches (`if`, `switch`, `?:`,
  /// `&&`, `||`, a loop): the launch does not depend on a check of the
  /// device or of the code's PTX version (`ptxVersion >= 90`).
  bool Unconditional = false;
};

/// How a kernel is launched, as far as the translation unit shows.
enum class EarlyStart {
  Programmatic, ///< a programmatic launch of it is visible
  Unseen,       ///< no launch of it can be read
  InOrder,      ///< every visible launch of it is plain
};

/// The programmatic launches of one translation unit.
class EarlyLaunches {
public:
  EarlyLaunches(const LaunchModel &Launches, ConstantEvaluator &Eval);

  /// Whether the translation unit has a programmatic launch.
  bool any() const { return Any; }

  /// How Kernel is launched; Programmatic launches are appended to Out.
  EarlyStart classify(const clang::FunctionDecl *Kernel,
                      llvm::SmallVectorImpl<ProgrammaticLaunch> *Out) const;

  /// Whether every launch of Kernel the translation unit may make is
  /// visible and read: none is unreadable, and no programmatic launch of an
  /// unresolved kernel may be one of Kernel.
  bool allLaunchesRead(const clang::FunctionDecl *Kernel) const;

  /// Whether L may let its kernel start early (programmatic or unreadable).
  bool mayStartEarly(const LaunchSite &L) const;
  /// Whether a launcher launch may let its kernel start early: its
  /// dependent-launch flag is given and not proven false.
  static bool mayStartEarly(const LauncherLaunch &L) {
    return L.DependentLaunch && !(L.DependentValue && *L.DependentValue == 0);
  }

  /// The kernels L launches: its own, or those an Ex launch through a local
  /// function pointer may launch (see the model); empty when unresolved.
  llvm::SmallVector<const clang::FunctionDecl *, 1>
  kernelsOf(const LaunchSite &L) const;

private:
  struct PerKernel {
    llvm::SmallVector<ProgrammaticLaunch, 1> Programmatic;
    bool Plain = false;
    bool Unreadable = false;
  };
  llvm::DenseMap<const clang::Decl *, PerKernel> ByKernel;
  /// Ex launches that may start their kernel early.
  llvm::DenseSet<const LaunchSite *> Early;
  /// The kernels of launches through a local function pointer.
  llvm::DenseMap<const LaunchSite *,
                 llvm::SmallVector<const clang::FunctionDecl *, 4>>
      Candidates;
  bool Any = false;
  bool UnresolvedProgrammatic = false;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_PDL_EARLYLAUNCH_H
