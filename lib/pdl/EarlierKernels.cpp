//===--- EarlierKernels.cpp - Which earlier kernel writes a buffer --------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/pdl/EarlierKernels.h"
#include "lib/ast/CudaAST.h"
#include "lib/ast/FunctionCfgs.h"
#include "clang/Analysis/CFG.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include <functional>
#include <map>
#include <optional>
#include <vector>

using namespace clang;

namespace cuda_tidy {

namespace {

/// A kernel that may still run when a launch starts early: a launch, or a
/// call of a function that launches kernels.
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

struct Running {
  const LaunchSite *Site = nullptr;
  const CallExpr *HelperCall = nullptr;
  SourceLocation Loc;
  const LaunchBinding *Binding = nullptr;
  const LauncherLaunch *Launcher = nullptr;
  LaunchPoint point() const { return {Site, Binding, Launcher}; }
};

/// Whether two roots name the same variable (and array element).
bool sameRoot(const BufferRoot &A, const BufferRoot &B) {
  return A.Var == B.Var && A.Element == B.Element;
}

/// The values a local variable is given in a body (its initialiser first);
/// AddressTaken is set when `&V` appears (`cudaMalloc(&V, n)`), Changed
/// when it is incremented or compound-assigned.
struct LocalValues {
  SmallVector<const Expr *, 2> Values;
  bool AddressTaken = false;
  bool Changed = false;
};

void collectValues(const Stmt *S, const VarDecl *V, LocalValues &Out) {
  if (!S)
    return;
  auto IsV = [V](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == V;
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && BO->isAssignmentOp() && IsV(BO->getLHS())) {
    if (BO->getOpcode() == BO_Assign)
      Out.Values.push_back(BO->getRHS());
    else if (!BO->getLHS()->getType()->isPointerType())
      Out.Changed = true;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && IsV(UO->getSubExpr())) {
    if (UO->getOpcode() == UO_AddrOf)
      Out.AddressTaken = true;
    else if (UO->isIncrementDecrementOp() &&
             !UO->getSubExpr()->getType()->isPointerType())
      Out.Changed = true;
  }
  for (const Stmt *Child : S->children())
    collectValues(Child, V, Out);
}

bool isNullPointer(const Expr *E, ASTContext &Ctx) {
  return E->IgnoreParenCasts()->isNullPointerConstant(
             Ctx, Expr::NPC_ValueDependentIsNotNull) != Expr::NPCK_NotNull;
}

/// Whether Outer's path is a prefix of Inner's, or the other way round.
bool samePathPrefix(ArrayRef<const FieldDecl *> A,
                    ArrayRef<const FieldDecl *> B) {
  size_t N = std::min(A.size(), B.size());
  for (size_t I = 0; I < N; ++I)
    if (A[I]->getCanonicalDecl() != B[I]->getCanonicalDecl())
      return false;
  return true;
}

/// Whether a value of type T may hold a pointer.
bool mayHoldPointer(QualType T) {
  T = T.getNonReferenceType();
  return T->isPointerType() || T->isRecordType() || T->isArrayType() ||
         T->isDependentType();
}

/// Whether a kernel given a value of type T may write, through it, the
/// buffer at Rest (the fields left to follow).
bool mayWriteThrough(QualType T, ArrayRef<const FieldDecl *> Rest,
                     unsigned Depth = 0) {
  if (Depth > 4 || T->isDependentType())
    return true;
  if (T->isReferenceType())
    return true;
  if (Rest.empty()) {
    if (const auto *PT = T->getAs<PointerType>())
      return !PT->getPointeeType().isConstQualified();
    if (const auto *RD = T->getAsRecordDecl()) {
      for (const FieldDecl *F : RD->fields())
        if (mayWriteThrough(F->getType(), {}, Depth + 1))
          return true;
      if (const auto *CXX = dyn_cast<CXXRecordDecl>(RD);
          CXX && CXX->hasDefinition() && CXX->getNumBases())
        return true;
      return false;
    }
    if (T->isArrayType())
      return true;
    return false;
  }
  const auto *RD = T->getAsRecordDecl();
  if (!RD || Rest.front()->getParent()->getCanonicalDecl() !=
                 RD->getCanonicalDecl())
    return true;
  return mayWriteThrough(Rest.front()->getType(), Rest.drop_front(),
                         Depth + 1);
}

/// The function a call or construction runs.
const FunctionDecl *calleeOf(const Expr *Call) {
  if (const auto *CE = dyn_cast<CallExpr>(Call))
    return CE->getDirectCallee();
  if (const auto *CC = dyn_cast<CXXConstructExpr>(Call))
    return CC->getConstructor();
  return nullptr;
}

/// The argument of Call that binds parameter Index of its callee.
const Expr *argumentAt(const Expr *Call, unsigned Index) {
  if (const auto *CC = dyn_cast<CXXConstructExpr>(Call))
    return Index < CC->getNumArgs() ? CC->getArg(Index) : nullptr;
  const auto *CE = dyn_cast<CallExpr>(Call);
  if (!CE)
    return nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE))
    if (isa_and_nonnull<CXXMethodDecl>(Op->getDirectCallee()))
      ++Index;
  return Index < CE->getNumArgs() ? CE->getArg(Index) : nullptr;
}

/// Whether S (a kernel body) lets its dependents start: a call of
/// `cudaTriggerProgrammaticLaunchCompletion`, CUTLASS's
/// `launch_dependent_grids`, or `griddepcontrol.launch_dependents` asm.
bool triggers(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *F = CE->getDirectCallee();
        F && F->getIdentifier() &&
        (F->getName() == "cudaTriggerProgrammaticLaunchCompletion" ||
         F->getName() == "launch_dependent_grids"))
      return true;
  if (const auto *A = dyn_cast<GCCAsmStmt>(S))
    if (StringRef(A->getAsmString()).contains("launch_dependents"))
      return true;
  for (const Stmt *Child : S->children())
    if (triggers(Child))
      return true;
  return false;
}

} // namespace

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

std::optional<BufferRoot>
EarlierKernels::Impl::traceLocal(const VarDecl *V, const FunctionDecl *Fn,
                                 bool Host, unsigned Depth) {
  if (V->getType()->isReferenceType())
    return V->getInit() ? trace(V->getInit(), Fn, Host, Depth + 1)
                        : std::nullopt;
  LocalValues Values;
  if (V->getInit() && !isa<CXXConstructExpr, InitListExpr>(
                          V->getInit()->IgnoreParenImpCasts()))
    Values.Values.push_back(V->getInit());
  if (Fn && Fn->getBody())
    collectValues(Fn->getBody(), V, Values);
  BufferRoot Self{V, {}};
  if (Values.Changed)
    return std::nullopt;
  // An allocation names its own buffer (the host's `cudaMalloc(&d, n)`).
  if (Values.AddressTaken || Values.Values.empty())
    return Host ? std::optional<BufferRoot>(Self) : std::nullopt;
  if (!Visiting.insert(V).second)
    return std::nullopt;
  std::optional<BufferRoot> Common;
  bool Same = true;
  for (const Expr *E : Values.Values) {
    if (isNullPointer(E, Ctx))
      continue;
    std::optional<BufferRoot> R = trace(E, Fn, Host, Depth + 1);
    if (!R || (Common && (!sameRoot(*R, *Common) ||
                          !samePathPrefix(R->Path, Common->Path) ||
                          R->Path.size() != Common->Path.size()))) {
      Same = false;
      break;
    }
    Common = R;
  }
  Visiting.erase(V);
  if (Same && Common)
    return Common;
  // A host struct built in place, or a pointer given several values, is
  // its own buffer only when it takes no value from elsewhere.
  return std::nullopt;
}

std::optional<BufferRoot> EarlierKernels::Impl::trace(const Expr *E,
                                                      const FunctionDecl *Fn,
                                                      bool Host,
                                                      unsigned Depth) {
  SmallVector<const FieldDecl *, 2> Reversed;
  auto Finish = [&](std::optional<BufferRoot> R) -> std::optional<BufferRoot> {
    if (R)
      R->Path.append(Reversed.rbegin(), Reversed.rend());
    return R;
  };
  while (E && Depth++ < 32) {
    E = E->IgnoreParens();
    if (const auto *EW = dyn_cast<ExprWithCleanups>(E)) {
      E = EW->getSubExpr();
      continue;
    }
    if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = MT->getSubExpr();
      continue;
    }
    if (const auto *CE = dyn_cast<CastExpr>(E)) {
      if (CE->getCastKind() == CK_IntegralToPointer)
        return std::nullopt;
      E = CE->getSubExpr();
      continue;
    }
    if (const auto *CC = dyn_cast<CXXConstructExpr>(E)) {
      if (CC->getNumArgs() == 1 &&
          CC->getConstructor()->isCopyOrMoveConstructor()) {
        E = CC->getArg(0);
        continue;
      }
      return std::nullopt;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() == BO_Comma) {
        E = BO->getRHS();
        continue;
      }
      if (!BO->isAdditiveOp())
        return std::nullopt;
      E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                   : BO->getRHS();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      const Expr *Sub = UO->getSubExpr()->IgnoreParens();
      if (UO->getOpcode() != UO_AddrOf)
        return std::nullopt;
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Sub)) {
        E = AS->getBase();
        continue;
      }
      if (const auto *D = dyn_cast<UnaryOperator>(Sub);
          D && D->getOpcode() == UO_Deref) {
        E = D->getSubExpr();
        continue;
      }
      return std::nullopt;
    }
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
      const Expr *T = CO->getTrueExpr(), *F = CO->getFalseExpr();
      if (isNullPointer(T, Ctx)) {
        E = F;
        continue;
      }
      if (isNullPointer(F, Ctx)) {
        E = T;
        continue;
      }
      std::optional<BufferRoot> RT = trace(T, Fn, Host, Depth);
      std::optional<BufferRoot> RF = trace(F, Fn, Host, Depth);
      if (!RT || !RF || !sameRoot(*RT, *RF) ||
          RT->Path.size() != RF->Path.size() ||
          !samePathPrefix(RT->Path, RF->Path))
        return std::nullopt;
      return Finish(RT);
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (ME->isArrow() || !FD)
        return std::nullopt;
      Reversed.push_back(FD);
      E = ME->getBase();
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (!V || !V->hasLocalStorage())
        return std::nullopt;
      if (isa<ParmVarDecl>(V))
        return Finish(BufferRoot{V, {}});
      return Finish(traceLocal(V, Fn, Host, Depth));
    }
    // On the host, an element of a local array of pointers at a constant
    // index: CUB's `(int *)allocations[4]` carved from one allocation.
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E);
        AS && Host && Reversed.empty()) {
      const auto *DRE =
          dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts());
      const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      Expr::EvalResult Index;
      if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
          !V->getType()->isArrayType() || AS->getIdx()->isValueDependent() ||
          !AS->getIdx()->EvaluateAsInt(Index, Ctx))
        return std::nullopt;
      BufferRoot Root{V, {}};
      Root.Element = Index.Val.getInt().getExtValue();
      return Root;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<BufferRoot>
EarlierKernels::Impl::deviceRoot(const FunctionDecl *Kernel,
                                 const EarlyAccess &A) {
  if (!A.Through)
    return std::nullopt;
  // From the function holding the access out to the kernel, binding each
  // helper's parameter to its argument.
  size_t Level = A.Calls.size();
  const FunctionDecl *Fn = Level ? calleeOf(A.Calls.back()) : Kernel;
  std::optional<BufferRoot> R = trace(A.Through, Fn, /*Host=*/false);
  while (R) {
    const auto *P = dyn_cast<ParmVarDecl>(R->Var);
    const auto *Owner =
        P ? dyn_cast<FunctionDecl>(P->getDeclContext()) : nullptr;
    if (!Owner)
      return std::nullopt;
    if (Owner->getCanonicalDecl() == Kernel->getCanonicalDecl())
      return R;
    if (!Level)
      return std::nullopt;
    const Expr *Call = A.Calls[Level - 1];
    const FunctionDecl *Callee = calleeOf(Call);
    if (!Callee || Callee->getCanonicalDecl() != Owner->getCanonicalDecl() ||
        (isa<CXXMethodDecl>(Callee) && !isa<CXXConstructorDecl>(Callee)))
      return std::nullopt;
    const Expr *Arg = argumentAt(Call, P->getFunctionScopeIndex());
    --Level;
    const FunctionDecl *Caller = Level ? calleeOf(A.Calls[Level - 1]) : Kernel;
    std::optional<BufferRoot> Outer =
        Arg ? trace(Arg, Caller, /*Host=*/false) : std::nullopt;
    if (!Outer)
      return std::nullopt;
    Outer->Path.append(R->Path.begin(), R->Path.end());
    R = Outer;
  }
  return std::nullopt;
}

const Expr *EarlierKernels::Impl::launchArgument(const LaunchSite &L,
                                                 unsigned Index) const {
  const CallExpr *Call = L.Call;
  if (!Call)
    return nullptr;
  if (L.Api == LaunchApi::TripleChevron)
    return Index < Call->getNumArgs() ? Call->getArg(Index) : nullptr;
  if (L.Api != LaunchApi::CudaLaunchKernelEx)
    return nullptr;
  // The C++ template cudaLaunchKernelEx(&config, kernel, args...); the C
  // form takes a `void **` array.
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getIdentifier() ||
      Callee->getName() != "cudaLaunchKernelEx")
    return nullptr;
  return Index + 2 < Call->getNumArgs() ? Call->getArg(Index + 2) : nullptr;
}

/// The argument P passes for its kernel's parameter Index, in the function
/// that makes P's call: for a launcher, the launch's argument followed out
/// through the launcher's parameters to the outermost call.
const Expr *EarlierKernels::Impl::launchArgument(const LaunchPoint &P,
                                                 unsigned Index) const {
  if (P.Launcher)
    return P.Launcher->argument(Index);
  const Expr *E = launchArgument(*P.Site, Index);
  if (!P.Binding || !E)
    return E;
  const auto &Through = P.Binding->Through;
  for (size_t I = Through.size(); I-- > 0;) {
    const Expr *Inner = E->IgnoreParenImpCasts();
    while (true) {
      if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(Inner))
        Inner = MT->getSubExpr()->IgnoreParenImpCasts();
      else if (const auto *CC = dyn_cast<CXXConstructExpr>(Inner);
               CC && CC->getNumArgs() == 1 &&
               CC->getConstructor()->isCopyOrMoveConstructor())
        Inner = CC->getArg(0)->IgnoreParenImpCasts();
      else
        break;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(Inner);
    const auto *Param = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    const FunctionDecl *Callee = Through[I]->getDirectCallee();
    const auto *Owner =
        Param ? dyn_cast<FunctionDecl>(Param->getDeclContext()) : nullptr;
    if (!Owner || !Callee ||
        Owner->getCanonicalDecl() != Callee->getCanonicalDecl())
      return nullptr;
    E = argumentAt(Through[I], Param->getFunctionScopeIndex());
    if (!E || isa<CXXDefaultArgExpr>(E))
      return nullptr;
  }
  return E;
}

/// Collects, in S, the calls of functions that launch kernels that may run
/// before At (before it in source order, or anywhere in Loop, and not in
/// another arm of a branch), and the last `cudaDeviceSynchronize()` before
/// At that every path to At runs.
void EarlierKernels::Impl::collectBefore(const Stmt *S, const FunctionDecl *Fn,
                                         const Expr *At, const Stmt *Loop,
                                         SmallVectorImpl<Running> &Out,
                                         SourceLocation &Sync) {
  if (!S)
    return;
  if (const auto *CE = dyn_cast<CallExpr>(S); CE && CE != At) {
    SourceLocation Loc = CE->getBeginLoc();
    const Stmt *Body = Fn->getBody();
    bool Earlier = (before(Loc, At->getBeginLoc()) || within(Loc, Loop)) &&
                   !exclusive(Body, Loc, At->getBeginLoc());
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (Earlier && Callee && Callee->getIdentifier() &&
        Callee->getName() == "cudaDeviceSynchronize" && !Loop &&
        dominates(Body, Loc, At->getBeginLoc()) &&
        (Sync.isInvalid() || before(Sync, Loc)))
      Sync = Loc;
    if (Earlier && Callee && !isa<CUDAKernelCallExpr>(CE) &&
        Launching.contains(Callee->getCanonicalDecl()) &&
        !isInSystemHeader(Callee))
      Out.push_back({nullptr, CE, Loc});
  }
  for (const Stmt *Child : S->children())
    collectBefore(Child, Fn, At, Loop, Out, Sync);
}

/// Whether S is a macro's `do { ... } while (0)`: its body runs once.
static bool runsOnce(const Stmt *S, ASTContext &Ctx) {
  const auto *Do = dyn_cast<DoStmt>(S);
  Expr::EvalResult R;
  return Do && Do->getCond() && !Do->getCond()->isValueDependent() &&
         Do->getCond()->EvaluateAsInt(R, Ctx) && R.Val.getInt().isZero();
}

/// The outermost loop of Body that contains Loc, or null; a macro's
/// `do { ... } while (0)` runs once and is no loop.
static const Stmt *outermostLoop(const Stmt *S, SourceLocation Loc,
                                 const SourceManager &SM, ASTContext &Ctx) {
  if (!S || SM.isBeforeInTranslationUnit(Loc, S->getBeginLoc()) ||
      SM.isBeforeInTranslationUnit(S->getEndLoc(), Loc))
    return nullptr;
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S) &&
      !runsOnce(S, Ctx))
    return S;
  for (const Stmt *Child : S->children())
    if (const Stmt *Found = outermostLoop(Child, Loc, SM, Ctx))
      return Found;
  return nullptr;
}

/// Whether A and B lie in different arms of a branch of S (`if`/`else`,
/// `?:`): no run reaches both.
bool EarlierKernels::Impl::exclusive(const Stmt *S, SourceLocation A,
                                     SourceLocation B) const {
  if (!S || !within(A, S) || !within(B, S))
    return false;
  auto Split = [&](const Stmt *X, const Stmt *Y) {
    return X && Y &&
           ((within(A, X) && within(B, Y)) || (within(B, X) && within(A, Y)));
  };
  if (const auto *If = dyn_cast<IfStmt>(S);
      If && Split(If->getThen(), If->getElse()))
    return true;
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S);
      CO && Split(CO->getTrueExpr(), CO->getFalseExpr()))
    return true;
  for (const Stmt *Child : S->children())
    if (exclusive(Child, A, B))
      return true;
  return false;
}

/// Whether every run that reaches B has run A first, as far as the
/// branches of S show: no branch or loop holds A without holding B.
bool EarlierKernels::Impl::dominates(const Stmt *S, SourceLocation A,
                                     SourceLocation B) const {
  if (!S || !within(A, S))
    return true;
  if (isa<IfStmt, SwitchStmt, ForStmt, WhileStmt, DoStmt, CXXForRangeStmt,
          AbstractConditionalOperator, CXXTryStmt, LambdaExpr>(S) &&
      !runsOnce(S, Ctx) && !within(B, S))
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && BO->isLogicalOp() && !within(B, S))
    return false;
  for (const Stmt *Child : S->children())
    if (!dominates(Child, A, B))
      return false;
  return true;
}

/// Whether P may finish, or let its dependents start, before the kernel
/// before it has finished: P may start early and does not wait on every
/// path, or triggers its dependents.
bool EarlierKernels::Impl::mayOverlapPredecessor(const LaunchPoint &P) {
  if (P.Launcher ? !EarlyLaunches::mayStartEarly(*P.Launcher)
                 : !Early.mayStartEarly(*P.Site))
    return false;
  SmallVector<const FunctionDecl *, 1> Kernels = kernelsOf(P);
  if (Kernels.empty())
    return true;
  for (const FunctionDecl *K : Kernels) {
    const FunctionDecl *Def = K->getDefinition();
    if (!Def || !Def->hasBody() || !Deps.waitsOnEveryPath(Def) ||
        triggersBeforeWait(Def))
      return true;
  }
  return false;
}

/// Whether S, a statement of a kernel's body, waits on every path through
/// it: a wait call (or a function that waits on every path), a wait
/// `asm`, or a block (a target dispatch's arm) holding one directly.
static bool waitsHere(const Stmt *S, GridDependencyAnalysis &Deps) {
  if (!S)
    return false;
  if (const auto *E = dyn_cast<Expr>(S))
    S = E->IgnoreImplicit();
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *F = CE->getDirectCallee();
    return F && ((F->getIdentifier() &&
                  F->getName() == "cudaGridDependencySynchronize") ||
                 (F->hasBody() && Deps.waitsOnEveryPath(F)));
  }
  if (const auto *A = dyn_cast<GCCAsmStmt>(S))
    return isWaitAsm(A);
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return llvm::any_of(CS->body(),
                        [&](const Stmt *C) { return waitsHere(C, Deps); });
  return false;
}

/// Whether Def (which waits on every path) may let its dependents start
/// before it has waited: a trigger anywhere, unless the body's first
/// statement that waits on every path comes before every trigger.
bool EarlierKernels::Impl::triggersBeforeWait(const FunctionDecl *Def) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body)
    return triggers(Def->getBody());
  bool Waited = false;
  for (const Stmt *S : Body->body()) {
    if (!Waited && waitsHere(S, Deps)) {
      // A trigger beside the wait in the same block may come first.
      if (triggers(S))
        return true;
      Waited = true;
      continue;
    }
    if (!Waited && triggers(S))
      return true;
  }
  return !Waited && triggers(Body);
}

/// The calls of each function in the translation unit's host code, with
/// the function that makes them; built on first use.
const SmallVector<std::pair<const CallExpr *, const FunctionDecl *>, 2> &
EarlierKernels::Impl::callersOf(const FunctionDecl *Fn) {
  if (!CallersBuilt) {
    CallersBuilt = true;
    std::function<void(const Stmt *, const FunctionDecl *)> Scan =
        [&](const Stmt *S, const FunctionDecl *In) {
          if (!S)
            return;
          if (const auto *CE = dyn_cast<CallExpr>(S))
            if (const FunctionDecl *Callee = CE->getDirectCallee())
              Callers[Callee->getCanonicalDecl()].push_back({CE, In});
          for (const Stmt *Child : S->children())
            Scan(Child, In);
        };
    std::function<void(const DeclContext *)> Walk =
        [&](const DeclContext *DC) {
          for (const Decl *D : DC->decls()) {
            if (const auto *FTD = dyn_cast<FunctionTemplateDecl>(D))
              for (const FunctionDecl *Spec : FTD->specializations())
                if (Spec->hasBody() && !isInSystemHeader(Spec))
                  Scan(Spec->getBody(), Spec);
            if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
              if (FD->doesThisDeclarationHaveABody() &&
                  !FD->hasAttr<CUDAGlobalAttr>() && !isInSystemHeader(FD))
                Scan(FD->getBody(), FD);
            } else if (const auto *Inner = dyn_cast<DeclContext>(D);
                       Inner && !isa<FunctionDecl, FunctionTemplateDecl>(D) &&
                       (isa<NamespaceDecl, LinkageSpecDecl, CXXRecordDecl>(D)))
              Walk(Inner);
          }
        };
    Walk(Ctx.getTranslationUnitDecl());
  }
  static const SmallVector<std::pair<const CallExpr *, const FunctionDecl *>, 2>
      None;
  auto It = Callers.find(Fn->getCanonicalDecl());
  return It == Callers.end() ? None : It->second;
}

/// The launches before At in Fn, by source order (when Fn's CFG cannot
/// be used): nearest first, not in another arm of a branch, all of a loop
/// holding At; the walk ends at a `cudaDeviceSynchronize()` or at a launch
/// every path to At runs whose kernel cannot overlap its predecessor.
/// Returns whether the walk reached the top of Fn.
bool EarlierKernels::Impl::runningBySource(const FunctionDecl *Fn,
                                           const Expr *At,
                                           SmallVectorImpl<Running> &Out) {
  const Stmt *Body = Fn->getBody();
  SourceLocation AtLoc = At->getBeginLoc();
  const Stmt *Loop = outermostLoop(Body, AtLoc, SM, Ctx);
  SmallVector<Running, 4> All;
  for (const LaunchSite &P : Launches.launches()) {
    if (!P.Caller || !P.Call ||
        P.Caller->getCanonicalDecl() != Fn->getCanonicalDecl())
      continue;
    SourceLocation Loc = P.Call->getBeginLoc();
    if ((P.Call != At && before(Loc, AtLoc)) || within(Loc, Loop))
      if (!exclusive(Body, Loc, AtLoc))
        All.push_back({&P, nullptr, Loc});
  }
  SourceLocation Sync;
  collectBefore(Body, Fn, At, Loop, All, Sync);
  if (Sync.isValid())
    llvm::erase_if(All, [&](const Running &R) { return before(R.Loc, Sync); });
  // Nearest first.
  llvm::stable_sort(All, [&](const Running &A, const Running &B) {
    return before(B.Loc, A.Loc);
  });
  for (const Running &R : All) {
    Out.push_back(R);
    if (!R.HelperCall && !Loop && dominates(Body, R.Loc, AtLoc) &&
        !mayOverlapPredecessor(R.point()))
      return false;
  }
  return Sync.isInvalid();
}

/// Whether S, a statement of a host function, ends the walk back: a
/// launch (or launcher call) each of whose kernels cannot overlap the
/// kernel before it, a device or stream synchronisation, or a memory copy
/// or set (the kernel after it in the stream starts only when it is done,
/// and it only when everything before it is). The launches made at S are
/// added to Out.
bool EarlierKernels::Impl::closesChain(const Stmt *S,
                                       SmallVectorImpl<Running> &Out) {
  auto It = PointsAt.find(S);
  if (It != PointsAt.end()) {
    bool Closes = true;
    for (const LaunchPoint &P : It->second) {
      Out.push_back(
          {P.Site, nullptr, P.call()->getBeginLoc(), P.Binding, P.Launcher});
      Closes &= !mayOverlapPredecessor(P);
    }
    return Closes;
  }
  const auto *CE = dyn_cast<CallExpr>(S);
  const FunctionDecl *Callee = CE ? CE->getDirectCallee() : nullptr;
  if (!Callee || isa<CUDAKernelCallExpr>(CE))
    return false;
  if (Callee->getIdentifier()) {
    StringRef Name = Callee->getName();
    if (Name == "cudaDeviceSynchronize" || Name == "cudaStreamSynchronize" ||
        Name.starts_with("cudaMemcpy") || Name.starts_with("cudaMemset") ||
        Name.starts_with("cuMemcpy") || Name.starts_with("cuMemset"))
      return true;
  }
  if (Launching.contains(Callee->getCanonicalDecl()) &&
      !isInSystemHeader(Callee))
    Out.push_back({nullptr, CE, CE->getBeginLoc()});
  return false;
}

/// The launches that may still run when Fn reaches At, walking Fn's CFG
/// back from At (around loops, so a launch in a loop meets its own earlier
/// runs) until each path meets a statement that ends the chain
/// (closesChain). Returns whether some path reaches Fn's entry, or
/// std::nullopt when At is not in the CFG.
std::optional<bool>
EarlierKernels::Impl::runningByCfg(const FunctionDecl *Fn, const Expr *At,
                                   SmallVectorImpl<Running> &Out) {
  auto [It, New] = Cfgs.try_emplace(Fn);
  if (New)
    It->second = buildFunctionCfg(Fn, Fn->getBody(), Ctx);
  CFG *G = It->second.Cfg.get();
  if (!G)
    return std::nullopt;
  const CFGBlock *Start = nullptr;
  unsigned StartAt = 0;
  for (const CFGBlock *B : *G) {
    for (unsigned I = 0; I < B->size() && !Start; ++I)
      if (auto CS = (*B)[I].getAs<CFGStmt>(); CS && CS->getStmt() == At) {
        Start = B;
        StartAt = I;
      }
    if (Start)
      break;
  }
  if (!Start)
    return std::nullopt;
  bool Open = false;
  llvm::DenseSet<const CFGBlock *> Entered;
  SmallVector<std::pair<const CFGBlock *, unsigned>, 8> Work = {
      {Start, StartAt}};
  while (!Work.empty()) {
    auto [B, End] = Work.pop_back_val();
    bool Closed = false;
    for (unsigned I = End; I-- > 0 && !Closed;)
      if (auto CS = (*B)[I].getAs<CFGStmt>())
        Closed = closesChain(CS->getStmt(), Out);
    if (Closed)
      continue;
    if (B == &G->getEntry())
      Open = true;
    for (const CFGBlock *Pred : B->preds())
      if (Pred && Entered.insert(Pred).second)
        Work.push_back({Pred, Pred->size()});
  }
  // Nearest first, as far as source order tells.
  llvm::stable_sort(Out, [&](const Running &A, const Running &B) {
    bool ABefore = before(A.Loc, At->getBeginLoc());
    bool BBefore = before(B.Loc, At->getBeginLoc());
    if (ABefore != BBefore)
      return ABefore;
    return before(B.Loc, A.Loc);
  });
  return Open;
}

/// Whether a kernel that may still run when Fn reaches At (a launch, or a
/// call that leads to one) may write Buffer (a variable of Fn), or touch
/// it for a write; the walk goes on in Fn's callers while some path from
/// the top of Fn to At is not ended by a statement that ends the chain.
EarlierWriter EarlierKernels::Impl::writerBefore(const FunctionDecl *Fn,
                                           const Expr *At,
                                           const BufferRoot &Buffer,
                                           bool Write, unsigned Depth) {
  EarlierWriter None{EarlierWriter::None, nullptr, nullptr};
  const Stmt *Body = Fn ? Fn->getBody() : nullptr;
  if (!Body || Depth > 3)
    return None;
  SmallVector<Running, 4> All;
  std::optional<bool> Open = runningByCfg(Fn, At, All);
  if (!Open) {
    All.clear();
    Open = runningBySource(Fn, At, All);
  }
  llvm::DenseSet<const void *> Seen;
  for (const Running &R : All) {
    if (!Seen.insert(R.HelperCall ? (const void *)R.HelperCall
                                  : R.point().key())
             .second)
      continue;
    if (R.HelperCall)
      return {EarlierWriter::Found, R.HelperCall, nullptr};
    LaunchPoint P = R.point();
    SmallVector<const FunctionDecl *, 1> Kernels = kernelsOf(P);
    if (Kernels.empty())
      return {EarlierWriter::Found, P.call(), nullptr};
    for (const FunctionDecl *K : Kernels)
      if (touches(P, K, Buffer, Write))
        return {EarlierWriter::Found, P.call(), K};
  }
  // Kernels launched before Fn runs: in its callers, for a buffer Fn is
  // given.
  const auto *Param = dyn_cast<ParmVarDecl>(Buffer.Var);
  if (!*Open || !Param)
    return None;
  for (const auto &[Call, Caller] : callersOf(Fn)) {
    const Expr *Arg = argumentAt(Call, Param->getFunctionScopeIndex());
    std::optional<BufferRoot> Outer = Arg ? hostRoot(Arg, Caller) : std::nullopt;
    if (!Outer)
      return unfollowed(Arg ? Arg : Call);
    Outer->Path.append(Buffer.Path.begin(), Buffer.Path.end());
    EarlierWriter W = writerBefore(Caller, Call, *Outer, Write, Depth + 1);
    if (W.K != EarlierWriter::None)
      return W;
  }
  return None;
}

/// Whether Ptr, a pointer a kernel writes through, may point into Buffer
/// (a parameter of the kernel and a path): it comes from Buffer's
/// parameter along a path that agrees with Buffer's, or it cannot be
/// followed.
bool EarlierKernels::Impl::pointerMayBe(const Expr *Ptr,
                                        const FunctionDecl *Kernel,
                                        const BufferRoot &Buffer) {
  std::optional<BufferRoot> R = trace(Ptr, Kernel, /*Host=*/false);
  if (!R) {
    // An array of the thread or of the block is no buffer of the host.
    const auto *DRE = dyn_cast<DeclRefExpr>(Ptr->IgnoreParenCasts());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return !V || !(V->getType()->isArrayType() ||
                   V->hasAttr<CUDASharedAttr>());
  }
  return sameRoot(*R, Buffer) && samePathPrefix(R->Path, Buffer.Path);
}

/// Whether S writes through a pointer that may point into Buffer: an
/// assignment or increment of an element, a pointer argument of a call
/// (an atomic, a helper), an `asm` operand.
bool EarlierKernels::Impl::writeTargets(const Stmt *S,
                                        const FunctionDecl *Kernel,
                                        const BufferRoot &Buffer) {
  if (!S)
    return false;
  auto ElementPointer = [](const Expr *LHS) -> const Expr * {
    LHS = LHS->IgnoreParenImpCasts();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(LHS))
      return AS->getBase();
    if (const auto *UO = dyn_cast<UnaryOperator>(LHS);
        UO && UO->getOpcode() == UO_Deref)
      return UO->getSubExpr();
    if (const auto *ME = dyn_cast<MemberExpr>(LHS); ME && ME->isArrow())
      return ME->getBase();
    return nullptr;
  };
  const Expr *Target = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    Target = ElementPointer(BO->getLHS());
  else if (const auto *UO = dyn_cast<UnaryOperator>(S);
           UO && UO->isIncrementDecrementOp())
    Target = ElementPointer(UO->getSubExpr());
  else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
           Op && Op->isAssignmentOp() && Op->getNumArgs())
    Target = ElementPointer(Op->getArg(0));
  if (Target && pointerMayBe(Target, Kernel, Buffer))
    return true;
  if (const auto *CE = dyn_cast<CallExpr>(S))
    for (const Expr *Arg : CE->arguments()) {
      QualType T = Arg->getType();
      if ((T->isPointerType() && !T->getPointeeType().isConstQualified()) ||
          (Arg->isGLValue() && T->isRecordType()))
        if (pointerMayBe(Arg, Kernel, Buffer))
          return true;
    }
  if (const auto *A = dyn_cast<GCCAsmStmt>(S)) {
    for (unsigned I = 0; I < A->getNumInputs(); ++I)
      if (A->getInputExpr(I)->getType()->isPointerType() ||
          A->getInputExpr(I)->getType()->isIntegerType())
        if (pointerMayBe(A->getInputExpr(I), Kernel, Buffer))
          return true;
    for (unsigned I = 0; I < A->getNumOutputs(); ++I)
      if (ElementPointer(A->getOutputExpr(I)) &&
          pointerMayBe(ElementPointer(A->getOutputExpr(I)), Kernel, Buffer))
        return true;
  }
  for (const Stmt *Child : S->children())
    if (writeTargets(Child, Kernel, Buffer))
      return true;
  return false;
}

/// Whether Kernel may write Buffer (one of its parameters and a path).
bool EarlierKernels::Impl::writesThrough(const FunctionDecl *Kernel,
                                         const BufferRoot &Buffer) {
  std::vector<const void *> Key = {Buffer.Var};
  for (const FieldDecl *F : Buffer.Path)
    Key.push_back(F);
  auto [It, New] = Writes.try_emplace({Kernel, Key}, true);
  if (New)
    It->second = writeTargets(Kernel->getBody(), Kernel, Buffer);
  return It->second;
}

/// The host buffer Arg names in Caller (see resolveFields).
std::optional<BufferRoot>
EarlierKernels::Impl::hostRoot(const Expr *Arg, const FunctionDecl *Caller) {
  std::optional<BufferRoot> R = trace(Arg, Caller, /*Host=*/true);
  return R ? resolveFields(*R, Caller) : std::nullopt;
}

/// A host buffer whose first field Caller assigns (`p.partial = partial;`)
/// followed to the value assigned; R itself when Caller assigns none.
std::optional<BufferRoot>
EarlierKernels::Impl::resolveFields(const BufferRoot &R,
                                    const FunctionDecl *Caller) {
  if (R.Path.empty() || !Caller || !Caller->getBody())
    return R;
  SmallVector<const Expr *, 2> Values;
  std::function<void(const Stmt *)> Scan = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->getOpcode() == BO_Assign)
      if (const auto *ME = dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParens());
          ME && !ME->isArrow() && ME->getMemberDecl() == R.Path.front())
        if (const auto *DRE =
                dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
            DRE && DRE->getDecl() == R.Var)
          Values.push_back(BO->getRHS());
    for (const Stmt *Child : S->children())
      Scan(Child);
  };
  Scan(Caller->getBody());
  if (Values.empty())
    return R;
  std::optional<BufferRoot> Common;
  for (const Expr *V : Values) {
    std::optional<BufferRoot> F = trace(V, Caller, /*Host=*/true);
    if (!F || (Common && (!sameRoot(*F, *Common) ||
                          F->Path.size() != Common->Path.size() ||
                          !samePathPrefix(F->Path, Common->Path))))
      return std::nullopt;
    Common = F;
  }
  Common->Path.append(R.Path.begin() + 1, R.Path.end());
  return Common;
}

bool EarlierKernels::Impl::touches(const LaunchPoint &P,
                                   const FunctionDecl *Writer,
                                   const BufferRoot &Buffer, bool Write) {
  const FunctionDecl *Def = Writer->getDefinition();
  if (!Def)
    Def = Writer;
  for (const ParmVarDecl *Param : Def->parameters()) {
    QualType T = Param->getType();
    if (!mayHoldPointer(T))
      continue;
    if (!Write && !mayWriteThrough(T, {}))
      continue;
    const Expr *Arg = launchArgument(P, Param->getFunctionScopeIndex());
    if (!Arg)
      return true;
    std::optional<BufferRoot> R = hostRoot(Arg, P.caller());
    if (!R)
      return true;
    if (!sameRoot(*R, Buffer) || !samePathPrefix(R->Path, Buffer.Path))
      continue;
    if (Write || R->Path.size() > Buffer.Path.size())
      return true;
    ArrayRef<const FieldDecl *> Rest =
        ArrayRef(Buffer.Path).drop_front(R->Path.size());
    if (!mayWriteThrough(T, Rest))
      continue;
    if (!Def->hasBody())
      return true;
    BufferRoot InKernel{Param, SmallVector<const FieldDecl *, 2>(Rest)};
    if (writesThrough(Def, InKernel))
      return true;
  }
  return false;
}

EarlierWriter EarlierKernels::Impl::judge(const FunctionDecl *Kernel,
                                          const EarlyAccess &A) {
  EarlierWriter Untraceable;
  if (!Early.allLaunchesRead(Kernel))
    return Untraceable;
  SmallVector<ProgrammaticLaunch, 2> Programmatic;
  if (Early.classify(Kernel, &Programmatic) != EarlyStart::Programmatic)
    return Untraceable;
  std::optional<BufferRoot> Device = deviceRoot(Kernel, A);
  if (!Device) {
    Untraceable.Why = EarlierWriter::NotFromParameter;
    return Untraceable;
  }
  unsigned Index = cast<ParmVarDecl>(Device->Var)->getFunctionScopeIndex();
  for (const ProgrammaticLaunch &L : Programmatic) {
    LaunchPoint Point{L.Site, L.Binding, L.Launcher};
    const Expr *Arg = launchArgument(Point, Index);
    std::optional<BufferRoot> Whole =
        Arg ? trace(Arg, Point.caller(), /*Host=*/true) : std::nullopt;
    if (!Whole)
      return unfollowed(Arg ? Arg : Point.call());
    Whole->Path.append(Device->Path.begin(), Device->Path.end());
    // The field the kernel reads, followed to what the host assigns it.
    std::optional<BufferRoot> Host = resolveFields(*Whole, Point.caller());
    if (!Host)
      return unfollowed(Arg);
    EarlierWriter W =
        writerBefore(Point.caller(), Point.call(), *Host, A.Write, 0);
    if (W.K != EarlierWriter::None)
      return W;
  }
  return {EarlierWriter::None, nullptr, nullptr};
}

EarlierKernels::EarlierKernels(ASTContext &Ctx, const LaunchModel &Launches,
                               const EarlyLaunches &Early,
                               GridDependencyAnalysis &Deps)
    : P(std::make_unique<Impl>(Ctx, Launches, Early, Deps)) {}

EarlierKernels::~EarlierKernels() = default;

EarlierWriter EarlierKernels::judge(const FunctionDecl *Kernel,
                                    const EarlyAccess &A) {
  return P->judge(Kernel, A);
}

} // namespace cuda_tidy
