//===--- Uniformity.cpp - Which values and branches differ by thread ------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The public interface of the uniformity analysis (Uniformity.h): the
// levels, FunctionUniformity over the results of one function, and
// UniformityAnalysis, which caches those results and makes each function's
// summary from them, with the substitution of a call's arguments into a
// summary. UniformityImpl.h says where the rest of the analysis is.
//
//===----------------------------------------------------------------------===//

#include "lib/uniformity/UniformityImpl.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cuda_tidy {

StringRef uniformityName(Uniformity U) {
  switch (U) {
  case Uniformity::Block:
    return "block-uniform";
  case Uniformity::Warp:
    return "warp-uniform";
  case Uniformity::Thread:
    return "thread-varying";
  }
  return "";
}

StringRef barrierScopeName(BarrierScope S) {
  switch (S) {
  case BarrierScope::Block:
    return "block";
  case BarrierScope::Cluster:
    return "cluster";
  case BarrierScope::Grid:
    return "grid";
  }
  return "block";
}

UniformValue join(UniformValue A, UniformValue B) {
  UniformValue R;
  R.Base = std::max(A.Base, B.Base);
  R.Params = A.Params | B.Params;
  R.Shape = A.Shape == B.Shape ? A.Shape : UniformValue::None;
  return R;
}

//===----------------------------------------------------------------------===//
// Summaries at calls.
//===----------------------------------------------------------------------===//

CallOperands operandsOf(const CallExpr *Call) {
  CallOperands Ops;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    Ops.Object = MC->getImplicitObjectArgument();
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
    if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee()))
      if (!MD->isStatic() && Op->getNumArgs() > 0) {
        Ops.Object = Op->getArg(0);
        Ops.FirstArg = 1;
      }
  }
  Ops.ObjectValue = Ops.Object ? Ops.Object : memberCallBase(Call);
  return Ops;
}

UniformValue bind(UniformValue V, UniformValue Obj,
                  ArrayRef<UniformValue> Args) {
  UniformValue R =
      UniformValue::of(V.Base, V.Params ? UniformValue::None : V.Shape);
  if (!V.Params)
    return R;
  for (unsigned I = 0; I < 64; ++I) {
    if (!(V.Params & (uint64_t(1) << I)))
      continue;
    if (I == UniformValue::ThisParam)
      R = join(R, plain(Obj));
    else if (I < Args.size())
      R = join(R, plain(Args[I]));
  }
  R.Shape = UniformValue::None;
  return R;
}

UniformValue FunctionUniformityImpl::substitute(UniformValue V,
                                                const CallExpr *Call) const {
  if (!V.Params)
    return bind(V, UniformValue(), {});
  CallOperands Ops = operandsOf(Call);
  UniformValue ObjLevel;
  if (Ops.ObjectValue)
    ObjLevel = levelOf(Ops.ObjectValue);
  llvm::SmallVector<UniformValue, 8> Args;
  for (unsigned I = Ops.FirstArg, N = Call->getNumArgs(); I < N; ++I)
    Args.push_back(levelOf(Call->getArg(I)));
  return bind(V, ObjLevel, Args);
}

/// The summary of Fn's function for its callers, into S.
static void summarize(UniformityAnalysis &A, const FunctionUniformityImpl &Fn,
                      FunctionSummary &S) {
  const SourceManager &SM = Fn.SM;
  bool System = SM.isInSystemHeader(SM.getExpansionLoc(Fn.F->getLocation()));
  for (const BarrierSite &B : Fn.Barriers) {
    if (B.WarpBarrier)
      continue;
    if (!S.ReachesBarrier) {
      S.ReachesBarrier = true;
      S.FirstBarrier = B;
    }
    UniformValue Ctl = Fn.CtlFull[Fn.blockOf(B.Site)->getBlockID()];
    if (const auto *Call = dyn_cast<CallExpr>(B.Site); Call && B.Callee)
      if (const FunctionSummary *CS = A.summary(B.Callee))
        Ctl = join(Ctl, Fn.substitute(CS->BarrierControl, Call));
    if (!System)
      S.BarrierControl.Params |= Ctl.Params;
  }
  S.Return = Fn.ReturnLevel;
  S.Store = Fn.StoreLevel;
}

//===----------------------------------------------------------------------===//
// The results of one function.
//===----------------------------------------------------------------------===//

FunctionUniformity::FunctionUniformity(
    std::unique_ptr<FunctionUniformityImpl> Impl)
    : Impl(std::move(Impl)) {}
FunctionUniformity::~FunctionUniformity() = default;

const FunctionDecl *FunctionUniformity::function() const { return Impl->F; }

UniformValue FunctionUniformity::valueOf(const Expr *E) const {
  return Impl->levelOf(E);
}

UniformValue FunctionUniformity::controlAt(const Stmt *S,
                                           bool CountKernelExits) const {
  const CFGBlock *B = Impl->reachableBlockOf(S);
  return B ? Impl->ctlOf(B->getBlockID(), CountKernelExits) : UniformValue();
}

std::optional<DivergenceCause>
FunctionUniformity::causeAt(const Stmt *S, Uniformity Level, uint64_t ParamMask,
                            bool CountKernelExits) const {
  return Impl->causeAt(S, Level, ParamMask, CountKernelExits);
}

std::string
FunctionUniformity::describe(const Expr *E, Uniformity Level,
                             llvm::SmallVectorImpl<TraceStep> *Trace,
                             unsigned MaxSteps) const {
  llvm::SmallPtrSet<const VarDecl *, 8> Seen;
  unsigned Steps = MaxSteps;
  return Impl->describe(E, Level, Trace, Steps, Seen);
}

std::optional<ValueOrigin> FunctionUniformity::origin(const VarDecl *V,
                                                      Uniformity Level) const {
  if (const ValueOrigin *O = Impl->originOf(V, Level))
    return *O;
  return std::nullopt;
}

bool FunctionUniformity::skippersOnlyLeave(const Stmt *S, Uniformity Level,
                                           uint64_t ParamMask) const {
  return Impl->skippersOnlyLeave(S, Level, ParamMask);
}

bool FunctionUniformity::quietAfter(const Stmt *S) const {
  return Impl->quietAfter(S);
}

bool FunctionUniformity::exitAvoiding(
    const Stmt *From, llvm::function_ref<bool(const Stmt *)> Stop) const {
  return Impl->exitAvoiding(From, Stop);
}

std::optional<LoopExit>
FunctionUniformity::earlyLoopExit(const Stmt *Barrier, Uniformity Level) const {
  return Impl->earlyLoopExit(Barrier, Level);
}

llvm::ArrayRef<BarrierSite> FunctionUniformity::barriers() const {
  return Impl->Barriers;
}

UniformValue FunctionUniformity::substitute(UniformValue V,
                                            const CallExpr *Call) const {
  return Impl->substitute(V, Call);
}

//===----------------------------------------------------------------------===//
// The analysis of a translation unit.
//===----------------------------------------------------------------------===//

UniformityAnalysis::UniformityAnalysis(ASTContext &Ctx, UniformityOptions Opts)
    : Ctx(Ctx), Opts(Opts) {}
UniformityAnalysis::~UniformityAnalysis() = default;

const FunctionUniformity *UniformityAnalysis::analyze(const FunctionDecl *F) {
  if (!F)
    return nullptr;
  const FunctionDecl *Def = nullptr;
  if (!F->hasBody(Def) || !Def)
    return nullptr;
  auto &Slot = Cache[Def];
  if (!Slot)
    Slot = std::make_unique<Entry>();
  Entry *E = Slot.get();
  if (E->Result || E->Failed)
    return E->Result.get();
  if (E->InProgress || Depth >= MaxSummaryDepth || Work > MaxWork)
    return nullptr;

  E->InProgress = true;
  ++Depth;
  auto Impl = std::make_unique<FunctionUniformityImpl>(Ctx, Def);
  bool Ok = FunctionSolver(*this, *Impl).run();
  --Depth;
  // The cache may have grown while analysing callees.
  E = Cache[Def].get();
  E->InProgress = false;
  if (!Ok) {
    E->Failed = true;
    return nullptr;
  }
  summarize(*this, *Impl, E->Summary);
  E->Result = std::make_unique<FunctionUniformity>(std::move(Impl));
  return E->Result.get();
}

const FunctionSummary *UniformityAnalysis::summary(const FunctionDecl *F) {
  if (!analyze(F))
    return nullptr;
  const FunctionDecl *Def = nullptr;
  F->hasBody(Def);
  return &Cache.find(Def)->second->Summary;
}

} // namespace cuda_tidy
