//===--- LaunchModel.h - Kernel launches and attributes ---------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The kernel launches of a translation unit and the per-kernel attributes
/// set on them with `cudaFuncSetAttribute` / `cuFuncSetAttribute`.
///
/// Model: a launch site is a call, in any function of the translation unit,
/// that starts a kernel:
///   - `kernel<<<grid, block, bytes, stream>>>(...)`;
///   - `cudaLaunchKernel` / `cudaLaunchCooperativeKernel(func, grid, block,
///     args, bytes, stream)`, C and C++ forms;
///   - `cudaLaunchKernelEx` / `cudaLaunchKernelExC(&config, func, ...)`, with
///     the fields of the local `cudaLaunchConfig_t config` as FieldWrites
///     sees them before the call, and the cluster shape from its attribute
///     array (`attrs[i].id = cudaLaunchAttributeClusterDimension;
///     attrs[i].val.clusterDim.x = ...`, or a single `cudaLaunchAttribute`);
///   - the driver API's `cuLaunchKernel(f, gx, gy, gz, bx, by, bz, bytes,
///     ...)` and `cuLaunchKernelEx(&config, f, ...)` (CUlaunchConfig).
/// A runtime-API kernel is identified by its FunctionDecl (one per template
/// specialisation); a driver-API kernel by the `CUfunction` variable or
/// field that names it. The kernel expression is followed through casts,
/// `&`, locals assigned once (`auto k = f<64>; cudaLaunchKernel((void *)k,
/// ...)`), constant variables, and parameters bound at a call. Values come
/// from ConstantEvaluator.
///
/// An attribute call is `cudaFuncSetAttribute(kernel, attr, value)` or
/// `cuFuncSetAttribute(f, attr, value)` for the attributes the checks read.
/// When its kernel or value is a parameter of the function it is in (a
/// wrapper such as `allowSmem(K k, int bytes)`), it is bound at each call of
/// that function in the translation unit, up to three wrappers deep; the
/// wrapper call is then where the setting is made (its *site*). A setting
/// whose kernel still cannot be followed applies to every launch of a kernel
/// of its function type (any kernel for `const void *`), and the checks
/// trust it. A setting applies to a launch of the same kernel when its site
/// is in another function (a setup routine), or earlier in the launching
/// function in source order.
///
/// A setting is *guarded once per process* when its site or the wrapper
/// call leading to it runs only once however many devices there are: in the
/// initialiser of a function-local `static` (directly or in a lambda called
/// there), in a lambda given to `std::call_once`, or under `if (!flag)` /
/// after `if (flag) return;` where `flag` is a scalar `static` or global
/// variable the same statement list sets. `cudaFuncSetAttribute` applies to
/// the current device only, so other devices stay without it. A flag array
/// indexed by device, a container keyed by device and `thread_local` state
/// are taken as per device and are not guards.
///
/// A kernel is also followed through a call of a function whose body only
/// returns one (CUB's kernel getters, `static auto K() { return &k<T>; }`).
///
/// Left out: launches and attribute calls in system headers or in templates
/// that are never instantiated; launches inside wrappers called from
/// outside the translation unit (a launch whose kernel is a parameter stays
/// unresolved, and is bound at the calls that are seen); kernels read from memory or
/// from variables written more than once; control flow (an attribute call
/// in a branch counts); the order of calls across functions;
/// `cudaLaunchConfig_t` passed by pointer from elsewhere (its fields are
/// unknown).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_LAUNCH_LAUNCHMODEL_H
#define CUDA_TIDY_LIB_LAUNCH_LAUNCHMODEL_H

#include "lib/launch/ConstantEval.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class Decl;
class Expr;
class FunctionDecl;
class MacroArgs;
class PPCallbacks;
class Preprocessor;
class SourceManager;
class Type;
class VarDecl;
} // namespace clang

namespace cuda_tidy {

/// How a launch site starts its kernel.
enum class LaunchApi {
  TripleChevron,
  CudaLaunchKernel,
  CudaLaunchCooperativeKernel,
  CudaLaunchKernelEx,
  CuLaunchKernel,
  CuLaunchKernelEx,
};

/// Whether the launch goes through the driver API (cuFuncSetAttribute).
inline bool isDriverApi(LaunchApi Api) {
  return Api == LaunchApi::CuLaunchKernel || Api == LaunchApi::CuLaunchKernelEx;
}

/// One kernel launch.
/// A launch made in a helper whose shape or kernel depends on the helper's
/// parameters, evaluated at one call of the helper (`void launch(int
/// threads) { k<<<g, threads>>>(); } ... launch(2048);`).
struct LaunchBinding {
  /// The calls that lead from user code to the launching helper, outermost
  /// first (at most three).
  llvm::SmallVector<const clang::CallExpr *, 1> Through;
  /// The function that makes the outermost call, Through.front().
  const clang::FunctionDecl *Caller = nullptr;
  const clang::FunctionDecl *Kernel = nullptr;
  std::optional<Dim3> Grid, Block;
  std::optional<uint64_t> DynamicSmem;
};

struct LaunchSite {
  LaunchApi Api = LaunchApi::TripleChevron;
  /// The launching call (a CUDAKernelCallExpr for <<<>>>).
  const clang::CallExpr *Call = nullptr;
  /// The function that contains the launch.
  const clang::FunctionDecl *Caller = nullptr;
  /// The kernel's identity: its canonical FunctionDecl (runtime API) or the
  /// CUfunction variable or field (driver API); null when unresolved.
  const clang::Decl *KernelKey = nullptr;
  /// The kernel, for the runtime API.
  const clang::FunctionDecl *Kernel = nullptr;
  /// The kernel as written at the launch (`k`, `k<float>`, `(void *)k`, `f`).
  const clang::Expr *KernelExpr = nullptr;
  /// The dynamic shared memory as written at the launch, or the value
  /// assigned to the config's field; null when defaulted or zero.
  const clang::Expr *DynamicSmemExpr = nullptr;
  /// Its value: 0 when defaulted, std::nullopt when unproven.
  std::optional<uint64_t> DynamicSmem;
  std::optional<Dim3> Grid, Block;
  /// The local `cudaLaunchConfig_t` / `CUlaunchConfig` of an Ex launch.
  const clang::VarDecl *ConfigVar = nullptr;
  /// A cluster-dimension launch attribute: whether one is set, its shape if
  /// proven, and the expression that sets its x component.
  bool HasClusterAttr = false;
  std::optional<Dim3> Cluster;
  const clang::Expr *ClusterExpr = nullptr;
  /// For a `<<<>>>`, `cudaLaunchKernel` or `cuLaunchKernel` launch whose
  /// grid, block, shared memory or kernel reads a parameter of its
  /// function: the launch evaluated at each call of that function (64 calls
  /// at most, three calls deep), in source order. The fields above keep the
  /// values proven whatever the call. A `cudaLaunchKernelEx` launch whose
  /// kernel is a parameter of its function (a launcher object's
  /// `doit(kernel, args...)`, as CUB's) is bound the same way, for its
  /// kernel only (Grid, Block and DynamicSmem stay unset).
  llvm::SmallVector<LaunchBinding, 1> Bindings;

  /// The kernel's name for messages ("k", "k<float>", "f").
  std::string kernelName() const;
};

/// A launch through a library launcher object whose host path a device
/// compilation leaves out (it is chosen by `NV_IF_TARGET(NV_IS_HOST, ...)`):
/// Thrust's and CUB's `triple_chevron(grid, block, bytes, stream,
/// dependent_launch).doit(kernel, args...)`, the object made directly or by
/// a factory's `operator()` with the same arguments (CUB's
/// `launcher_factory(...)`). It launches with programmatic stream
/// serialization when `dependent_launch` is given and not proven false.
struct LauncherLaunch {
  /// The `doit` call.
  const clang::CallExpr *Call = nullptr;
  /// The function that makes it.
  const clang::FunctionDecl *Caller = nullptr;
  /// The kernel, when it can be followed (`k<T>`, a local holding one, a
  /// getter that returns one).
  const clang::FunctionDecl *Kernel = nullptr;
  /// The `dependent_launch` argument, or null when it is left out.
  const clang::Expr *DependentLaunch = nullptr;
  /// Its value, when proven.
  std::optional<uint64_t> DependentValue;
  /// The argument for the kernel's parameter Index, or null.
  const clang::Expr *argument(unsigned Index) const;
};

/// The function attributes the checks read.
enum class FuncAttr {
  MaxDynamicSharedMemorySize,
  NonPortableClusterSizeAllowed,
  RequiredClusterWidth,
  RequiredClusterHeight,
  RequiredClusterDepth,
};

/// How a setting is limited to run once per process (see the model).
struct OnceGuard {
  enum Kind { StaticFlag, StaticInit, CallOnce } K = StaticFlag;
  /// The flag, the static variable initialised, or the once_flag (may be
  /// null for call_once with an unnamed flag).
  const clang::VarDecl *Var = nullptr;
  /// Where the guard is written.
  clang::SourceLocation Loc;
};

/// One cudaFuncSetAttribute / cuFuncSetAttribute setting: the call, bound
/// through the wrapper calls that lead to it, if any.
struct FuncAttributeCall {
  FuncAttr Attr;
  /// The cudaFuncSetAttribute / cuFuncSetAttribute call itself.
  const clang::CallExpr *Call = nullptr;
  /// The call in user code that makes the setting: Call, or the outermost
  /// wrapper call.
  const clang::CallExpr *Site = nullptr;
  /// The wrapper calls from Site inwards (empty for a direct call).
  llvm::SmallVector<const clang::CallExpr *, 1> Through;
  /// The function that contains Site.
  const clang::FunctionDecl *Caller = nullptr;
  const clang::Decl *KernelKey = nullptr;
  /// The kernel could not be followed; the setting may be for any kernel of
  /// type KernelType (any kernel when KernelType is null).
  bool KernelUnknown = false;
  const clang::Type *KernelType = nullptr;
  /// The value, when proven.
  std::optional<uint64_t> Value;
  bool Driver = false;
  /// Set when the setting runs only once per process.
  std::optional<OnceGuard> Guard;
};

/// The launches and attribute calls of one translation unit.
class LaunchModel {
public:
  /// Collects them from the whole translation unit, in source order.
  LaunchModel(clang::ASTContext &Ctx, ConstantEvaluator &Eval);

  llvm::ArrayRef<LaunchSite> launches() const { return Launches; }
  /// The launches through launcher objects (see LauncherLaunch); not among
  /// launches().
  llvm::ArrayRef<LauncherLaunch> launcherLaunches() const {
    return LauncherCalls;
  }
  llvm::ArrayRef<FuncAttributeCall> attributeCalls() const { return Attrs; }

  /// The calls setting Attr on L's kernel that apply to L (see the model),
  /// in source order of their sites. With IncludeUnknown, also those whose
  /// kernel is unknown and may be L's.
  llvm::SmallVector<const FuncAttributeCall *, 2>
  settingsFor(const LaunchSite &L, FuncAttr Attr,
              bool IncludeUnknown = false) const;

  /// The cluster shape set with the RequiredCluster{Width,Height,Depth}
  /// attributes for L's kernel (missing components are 1), or std::nullopt
  /// when none applies or a value is unproven. *Where is set to the width
  /// (or first) call.
  std::optional<Dim3> requiredClusterFor(const LaunchSite &L,
                                         const clang::CallExpr **Where) const;

private:
  std::vector<LaunchSite> Launches;
  std::vector<LauncherLaunch> LauncherCalls;
  std::vector<FuncAttributeCall> Attrs;
  const clang::SourceManager &SM;
};

/// The name of a guard for messages ("'done'", "'std::call_once'").
std::string describeGuard(const OnceGuard &G);

/// The name of the opt-in function and attribute constants, per API.
struct OptInSpelling {
  llvm::StringRef SetAttribute;   ///< cudaFuncSetAttribute / cuFuncSetAttribute
  llvm::StringRef MaxDynamicSmem; ///< ...MaxDynamicSharedMemorySize
  llvm::StringRef NonPortableCluster;
};
OptInSpelling optInSpelling(LaunchApi Api);

/// The source text of E as written in a file (not in a macro body), or
/// std::nullopt.
std::optional<std::string> writtenText(const clang::Expr *E,
                                       const clang::ASTContext &Ctx);

/// The kernel as written at L, without casts or '&' (`k<float>`, `f`).
std::optional<std::string> writtenKernel(const LaunchSite &L,
                                         const clang::ASTContext &Ctx);

/// A fix-it that inserts `Call;` on its own line before the statement that
/// contains L's launch, at that statement's indentation. Fails (WhyNot set)
/// when the launch is not part of a statement directly in a block (`if (c)
/// k<<<...>>>();`), or the statement starts inside a macro or a system
/// header.
std::optional<clang::FixItHint> insertBeforeLaunch(const LaunchSite &L,
                                                   clang::ASTContext &Ctx,
                                                   llvm::StringRef Call,
                                                   std::string &WhyNot);

/// A `__cluster_dims__(x, y, z)` written on a kernel.
struct ClusterDimsSpelling {
  clang::SourceLocation Loc;
  /// The macro expands to nothing (cuda-tidy's compatibility header), so
  /// clang reported no error for it.
  bool Empty = false;
  /// Each argument's value, when it is an integer literal or a macro that
  /// expands to one; missing arguments are 1.
  std::optional<Dim3> Dims;
};

/// Records the expansions of the `__cluster_dims__` macro, because clang
/// drops the attribute (with an error) when it asks for more than 8 blocks.
class ClusterDimsMacros {
public:
  /// Callbacks that fill this object; register with the preprocessor.
  std::unique_ptr<clang::PPCallbacks> makeCallbacks(clang::Preprocessor &PP);

  /// The macro written between the start of one of FD's declarations and
  /// its name, if any.
  const ClusterDimsSpelling *find(const clang::FunctionDecl *FD,
                                  const clang::SourceManager &SM) const;

  void add(ClusterDimsSpelling S) { Spellings.push_back(S); }

private:
  std::vector<ClusterDimsSpelling> Spellings;
};

/// The cluster shape of a kernel: from its `cluster_dims` attribute, else
/// from a `__cluster_dims__` macro the attribute was dropped from (clang
/// drops it with an error over 8 blocks; *FromMacro is then set, unless the
/// macro is cuda-tidy's empty compatibility definition). *Loc is
/// where it is written.
std::optional<Dim3> kernelClusterDims(const clang::FunctionDecl *Kernel,
                                      const ClusterDimsMacros *Macros,
                                      ConstantEvaluator &Eval,
                                      clang::SourceLocation *Loc,
                                      bool *FromMacro = nullptr);

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_LAUNCH_LAUNCHMODEL_H
