//===--- EarlierKernelsImpl.h - The host walk's shared parts ---*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Internal to lib/pdl: the class behind EarlierKernels, shared by
// EarlierKernels.cpp (buffers, writes, the judgement) and
// EarlierKernelsWalk.cpp (the kernels that may still run when a launch
// starts early). Checks include EarlierKernels.h, never this header.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_PDL_EARLIERKERNELSIMPL_H
#define CUDA_TIDY_LIB_PDL_EARLIERKERNELSIMPL_H

#include "lib/ast/FunctionCfgs.h"
#include "lib/pdl/EarlierKernels.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <map>
#include <optional>
#include <vector>

namespace cuda_tidy {
namespace pdl_detail {

using namespace clang;

/// A launch as the walk sees it: a launch site, or (for a launcher whose
/// kernel is its parameter) one binding of it, launched from the binding's
/// outermost call.
struct LaunchPoint {
  const LaunchSite *Site = nullptr;
  const LaunchBinding *Binding = nullptr;
  /// A launch through a launcher object (Site is then null).
  const LauncherLaunch *Launcher = nullptr;
  const CallExpr *call() const {
    return Launcher  ? Launcher->Call
           : Binding ? Binding->Through.front()
                     : Site->Call;
  }
  const FunctionDecl *caller() const {
    return Launcher ? Launcher->Caller
           : Binding ? Binding->Caller
                     : Site->Caller;
  }
  const void *key() const {
    return Launcher  ? (const void *)Launcher
           : Binding ? (const void *)Binding
                     : (const void *)Site;
  }
};

/// A kernel that may still run when a launch starts early: a launch, or a
/// call of a function that launches kernels.
struct Running {
  const LaunchSite *Site = nullptr;
  const CallExpr *HelperCall = nullptr;
  SourceLocation Loc;
  const LaunchBinding *Binding = nullptr;
  const LauncherLaunch *Launcher = nullptr;
  LaunchPoint point() const { return {Site, Binding, Launcher}; }
};

/// The argument of Call that binds parameter Index of its callee.
const Expr *argumentAt(const Expr *Call, unsigned Index);

/// Whether S (a kernel body) lets its dependents start.
bool triggers(const Stmt *S);

} // namespace pdl_detail

using namespace pdl_detail;

class EarlierKernels::Impl {
public:
  Impl(ASTContext &Ctx, const LaunchModel &Launches, const EarlyLaunches &Early,
       GridDependencyAnalysis &Deps)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Launches(Launches),
        Early(Early), Deps(Deps) {
    for (const LaunchSite &L : Launches.launches()) {
      if (L.Caller)
        Launching.insert(L.Caller->getCanonicalDecl());
      if (L.Call)
        PointsAt[L.Call].push_back({&L, nullptr});
      // A launcher's launch is made from each call that binds its kernel.
      if (!L.Kernel)
        for (const LaunchBinding &B : L.Bindings)
          if (B.Kernel && B.Caller && !B.Through.empty())
            PointsAt[B.Through.front()].push_back({&L, &B});
    }
    for (const LauncherLaunch &L : Launches.launcherLaunches())
      PointsAt[L.Call].push_back({nullptr, nullptr, &L});
  }

  EarlierWriter judge(const FunctionDecl *Kernel, const EarlyAccess &A);

private:
  std::optional<BufferRoot> trace(const Expr *E, const FunctionDecl *Fn,
                                  bool Host, unsigned Depth = 0);
  std::optional<BufferRoot> traceLocal(const VarDecl *V,
                                       const FunctionDecl *Fn, bool Host,
                                       unsigned Depth);
  std::optional<BufferRoot> deviceRoot(const FunctionDecl *Kernel,
                                       const EarlyAccess &A);
  const Expr *launchArgument(const LaunchSite &L, unsigned Index) const;
  const Expr *launchArgument(const LaunchPoint &P, unsigned Index) const;
  SmallVector<const FunctionDecl *, 1> kernelsOf(const LaunchPoint &P) const {
    if (P.Launcher)
      return P.Launcher->Kernel
                 ? SmallVector<const FunctionDecl *, 1>{P.Launcher->Kernel}
                 : SmallVector<const FunctionDecl *, 1>{};
    if (P.Binding)
      return {P.Binding->Kernel};
    return Early.kernelsOf(*P.Site);
  }
  void collectBefore(const Stmt *S, const FunctionDecl *Fn, const Expr *At,
                     const Stmt *Loop, SmallVectorImpl<Running> &Out,
                     SourceLocation &Sync);
  bool runningBySource(const FunctionDecl *Fn, const Expr *At,
                       SmallVectorImpl<Running> &Out);
  std::optional<bool> runningByCfg(const FunctionDecl *Fn, const Expr *At,
                                   SmallVectorImpl<Running> &Out);
  bool closesChain(const Stmt *S, SmallVectorImpl<Running> &Out);
  bool triggersBeforeWait(const FunctionDecl *Def);
  bool exclusive(const Stmt *S, SourceLocation A, SourceLocation B) const;
  bool dominates(const Stmt *S, SourceLocation A, SourceLocation B) const;
  const SmallVector<std::pair<const CallExpr *, const FunctionDecl *>, 2> &
  callersOf(const FunctionDecl *Fn);
  EarlierWriter writerBefore(const FunctionDecl *Fn, const Expr *At,
                       const BufferRoot &Buffer, bool Write, unsigned Depth);
  bool mayOverlapPredecessor(const LaunchPoint &P);
  bool touches(const LaunchPoint &P, const FunctionDecl *Writer,
               const BufferRoot &Buffer, bool Write);
  bool writesThrough(const FunctionDecl *Kernel, const BufferRoot &Buffer);
  bool writeTargets(const Stmt *S, const FunctionDecl *Kernel,
                    const BufferRoot &Buffer);
  bool pointerMayBe(const Expr *Ptr, const FunctionDecl *Kernel,
                    const BufferRoot &Buffer);
  std::optional<BufferRoot> hostRoot(const Expr *Arg,
                                     const FunctionDecl *Caller);
  std::optional<BufferRoot> resolveFields(const BufferRoot &R,
                                          const FunctionDecl *Caller);
  /// Untraceable: At, an argument, names no buffer of the host code.
  static EarlierWriter unfollowed(const Expr *At) {
    EarlierWriter W;
    W.At = At;
    W.Why = EarlierWriter::ArgumentUnfollowed;
    return W;
  }
  bool before(SourceLocation A, SourceLocation B) const {
    return SM.isBeforeInTranslationUnit(A, B);
  }
  bool within(SourceLocation Loc, const Stmt *S) const {
    return S && !before(Loc, S->getBeginLoc()) && !before(S->getEndLoc(), Loc);
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  const LaunchModel &Launches;
  const EarlyLaunches &Early;
  GridDependencyAnalysis &Deps;
  /// Functions that contain a launch.
  llvm::DenseSet<const Decl *> Launching;
  /// The launches made at each call: a launch site, or a launcher's call.
  llvm::DenseMap<const Stmt *, SmallVector<LaunchPoint, 1>> PointsAt;
  /// The CFGs of the host functions walked.
  llvm::DenseMap<const FunctionDecl *, FunctionCfg> Cfgs;
  llvm::DenseSet<const VarDecl *> Visiting;
  llvm::DenseMap<const Decl *,
                 SmallVector<std::pair<const CallExpr *, const FunctionDecl *>, 2>>
      Callers;
  bool CallersBuilt = false;
  /// Memoised writesThrough, by kernel, parameter and path.
  std::map<std::pair<const FunctionDecl *, std::vector<const void *>>, bool>
      Writes;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_PDL_EARLIERKERNELSIMPL_H
