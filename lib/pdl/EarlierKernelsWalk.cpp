//===--- EarlierKernelsWalk.cpp - Kernels that may still run --------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The walk back from a launch that starts early to the kernels that may
// still run: over the launching function's CFG (closesChain says where a
// path ends), by source order where the CFG cannot be used, then in the
// launching function's callers.
//
//===----------------------------------------------------------------------===//

#include "lib/ast/CudaAST.h"
#include "lib/pdl/EarlierKernelsImpl.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include <functional>

using namespace clang;

namespace cuda_tidy {

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

} // namespace cuda_tidy
