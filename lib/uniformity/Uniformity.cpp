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
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"

using namespace clang;

namespace cuda_tidy {

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
  // Both values are U + a thread part (none for a value that is not
  // thread-varying and has no form): the join keeps a thread part both
  // share, with the less uniform U.
  if ((A.Affine || A.Base != Uniformity::Thread) &&
      (B.Affine || B.Base != Uniformity::Thread)) {
    R.Pow2 = std::min(A.Pow2, B.Pow2);
    R.DimX = (A.DimX || A.Pow2 == ZeroPow2) && (B.DimX || B.Pow2 == ZeroPow2);
    if (A.Affine && B.Affine && sameThreadPart(A, B)) {
      R.Affine = true;
      R.Rest = std::max(A.Rest, B.Rest);
      R.Lin = A.Lin;
      R.Flr = A.Flr;
      R.FloorMul = A.FloorMul;
      R.FloorShift = A.FloorShift;
      R.Sym = A.Sym;
      R.SymMul = A.SymMul;
    }
  }
  // Thread-varying only through parameters' thread parts that may cancel
  // (see UniformValue::Mixed): so is the join, when each side is uniform or
  // varies only so.
  if (R.Base == Uniformity::Thread) {
    auto Open = [](const UniformValue &X) {
      return X.Base != Uniformity::Thread || X.Mixed;
    };
    if (Open(A) && Open(B)) {
      R.Mixed = A.Mixed | B.Mixed;
      R.MixRest = std::max(ownLevel(A), ownLevel(B));
    }
  }
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
  // A value that depends on no parameter is the callee's own, affine form
  // included (`return blockIdx.x * blockDim.x + threadIdx.x;`).
  if (!V.Params)
    return V;
  // A value that varies only through the thread parts of parameters in
  // V.Mixed stays so where the arguments for them are the caller's own
  // parameters; any other argument makes it thread-varying (a concrete one
  // is judged by boundBarrierControl, which analyses the callee again).
  bool Open = V.Base == Uniformity::Thread && V.Mixed;
  UniformValue R = UniformValue::of(ownLevel(V));
  uint64_t Mixed = 0;
  for (unsigned I = 0; I < 64; ++I) {
    if (!(V.Params & (uint64_t(1) << I)))
      continue;
    UniformValue Arg;
    if (I == UniformValue::ThisParam)
      Arg = plain(Obj);
    else if (I < Args.size())
      Arg = plain(Args[I]);
    else
      continue;
    if (Open && (V.Mixed & (uint64_t(1) << I))) {
      if (!Arg.Params || (Arg.Base == Uniformity::Thread && !Arg.Mixed)) {
        Open = false;
      } else {
        Mixed |= Arg.Params;
        Arg.Base = ownLevel(Arg);
        Arg.Mixed = 0;
        Arg.MixRest = Uniformity::Block;
      }
    }
    R = join(R, Arg);
  }
  if (V.Base == Uniformity::Thread) {
    if (Open && (R.Base != Uniformity::Thread || R.Mixed)) {
      R.MixRest = ownLevel(R);
      R.Mixed |= Mixed;
    } else {
      R.Mixed = 0;
      R.MixRest = Uniformity::Block;
    }
    R.Base = Uniformity::Thread;
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
    if (!System) {
      S.BarrierControl.Params |= Ctl.Params;
      // Varying only through parameters whose thread parts may cancel: the
      // callers decide (boundBarrierControl), not a report inside.
      if (Ctl.Base == Uniformity::Thread && Ctl.Mixed) {
        S.BarrierControl.Base = Uniformity::Thread;
        S.BarrierControl.Mixed |= Ctl.Mixed;
      }
    }
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

ValueSource
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

struct UniformityAnalysis::BoundEntry {
  const FunctionDecl *F = nullptr;
  llvm::SmallVector<std::optional<UniformValue>, 4> Params;
  TemplatePins Pins;
  std::unique_ptr<FunctionUniformity> Result;
};

UniformityAnalysis::UniformityAnalysis(ASTContext &Ctx, UniformityOptions Opts)
    : Ctx(Ctx), Opts(Opts) {}
UniformityAnalysis::~UniformityAnalysis() = default;

/// At most this many bound analyses per translation unit.
static constexpr unsigned MaxBound = 256;

const FunctionUniformity *UniformityAnalysis::analyzeBound(
    const FunctionDecl *F, ArrayRef<std::optional<UniformValue>> Params,
    ArrayRef<std::pair<const Decl *, int64_t>> Pins) {
  const FunctionDecl *Def = nullptr;
  if (!F || !F->hasBody(Def) || !Def)
    return nullptr;
  for (const auto &E : Bound)
    if (E->F == Def && llvm::equal(E->Params, Params) &&
        llvm::equal(E->Pins, Pins))
      return E->Result.get();
  if (Bound.size() >= MaxBound || Depth >= MaxSummaryDepth || Work > MaxWork)
    return nullptr;
  auto Entry = std::make_unique<BoundEntry>();
  Entry->F = Def;
  Entry->Params.assign(Params.begin(), Params.end());
  Entry->Pins.assign(Pins.begin(), Pins.end());
  auto Impl = std::make_unique<FunctionUniformityImpl>(Ctx, Def);
  Impl->BoundParams = Entry->Params;
  Impl->Pins = Entry->Pins;
  ++Depth;
  bool Ok = FunctionSolver(*this, *Impl).run();
  --Depth;
  if (Ok)
    Entry->Result = std::make_unique<FunctionUniformity>(std::move(Impl));
  Bound.push_back(std::move(Entry));
  return Bound.back()->Result.get();
}

UniformValue UniformityAnalysis::boundBarrierControl(
    const FunctionUniformity &Caller, const CallExpr *Call,
    const FunctionDecl *Callee, unsigned Nesting) {
  const FunctionSummary *S = summary(Callee);
  if (!S)
    return UniformValue::of(Uniformity::Thread);
  UniformValue Plain = Caller.substitute(S->BarrierControl, Call);
  uint64_t Mask = S->BarrierControl.Mixed;
  if (!Mask || Nesting > 4 || (Mask & (uint64_t(1) << UniformValue::ThisParam)))
    return Plain;
  // The arguments for the parameters whose thread parts may cancel: each
  // must be known in the caller (no parameter of its own).
  CallOperands Ops = operandsOf(Call);
  llvm::SmallVector<std::optional<UniformValue>, 4> Params;
  for (unsigned I = Ops.FirstArg, N = Call->getNumArgs(); I < N; ++I) {
    unsigned P = I - Ops.FirstArg;
    if (P >= 64 || !(Mask & (uint64_t(1) << P)))
      continue;
    UniformValue Arg = Caller.valueOf(Call->getArg(I));
    if (Arg.Params)
      return Plain;
    Params.resize(P + 1);
    Params[P] = Arg;
  }
  const FunctionUniformity *Own = analyze(Callee);
  const FunctionUniformity *B = analyzeBound(Callee, Params, {});
  if (!Own || !B)
    return Plain;
  UniformValue Ctl;
  for (const BarrierSite &Inner : B->barriers()) {
    if (Inner.WarpBarrier)
      continue;
    // A barrier the callee reports itself.
    UniformValue OwnCtl = Own->controlAt(Inner.Site, true);
    if (OwnCtl.Base == Uniformity::Thread && !OwnCtl.Mixed)
      continue;
    UniformValue C = B->controlAt(Inner.Site, true);
    if (const auto *IC = dyn_cast<CallExpr>(Inner.Site); IC && Inner.Callee)
      C = join(C, boundBarrierControl(*B, IC, Inner.Callee, Nesting + 1));
    Ctl = join(Ctl, C);
  }
  return Caller.substitute(Ctl, Call);
}

/// Adds to Pins what Cond fixes when it holds (Holds) or fails: `P == c`,
/// `c == P`, `P != c`, and the parts of `&&` that hold.
static void pinsOf(const Expr *Cond, bool Holds, const ASTContext &Ctx,
                   TemplatePins &Pins) {
  const auto *BO = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  if (!BO)
    return;
  if (BO->getOpcode() == BO_LAnd && Holds) {
    pinsOf(BO->getLHS(), true, Ctx, Pins);
    pinsOf(BO->getRHS(), true, Ctx, Pins);
    return;
  }
  if (!(BO->getOpcode() == BO_EQ && Holds) &&
      !(BO->getOpcode() == BO_NE && !Holds))
    return;
  for (auto [PE, CE] : {std::pair(BO->getLHS(), BO->getRHS()),
                        std::pair(BO->getRHS(), BO->getLHS())}) {
    const auto *DRE = dyn_cast<DeclRefExpr>(PE->IgnoreParenImpCasts());
    if (!DRE || !isa<NonTypeTemplateParmDecl>(DRE->getDecl()))
      continue;
    if (std::optional<llvm::APSInt> C = constantOf(CE, Ctx);
        C && C->getSignificantBits() <= 64) {
      Pins.emplace_back(DRE->getDecl(), C->getExtValue());
      return;
    }
  }
}

/// S, a statement of a body with parent map PM, lies inside Branch.
static bool encloses(const Stmt *Branch, const Stmt *S, const ParentMap &PM) {
  for (; S; S = PM.getParent(S))
    if (S == Branch)
      return true;
  return false;
}

/// Adds to Pins what the `static_assert`s in St (a statement of a body with
/// parent map PM) fix for every instantiation that keeps At: those outside
/// any `if constexpr` branch and those in branches that hold At too
/// (a discarded branch's assertion is not checked). Lambdas (expressions)
/// and local classes (declarations) are other functions.
static void staticAssertPins(const Stmt *St, const Stmt *At,
                             const ParentMap &PM, const ASTContext &Ctx,
                             TemplatePins &Pins) {
  if (!St || isa<Expr>(St))
    return;
  if (const auto *DS = dyn_cast<DeclStmt>(St)) {
    for (const Decl *D : DS->decls())
      if (const auto *SA = dyn_cast<StaticAssertDecl>(D))
        if (!SA->isFailed() && SA->getAssertExpr())
          pinsOf(SA->getAssertExpr(), /*Holds=*/true, Ctx, Pins);
    return;
  }
  if (const auto *If = dyn_cast<IfStmt>(St); If && If->isConstexpr()) {
    for (const Stmt *Branch : {If->getThen(), If->getElse()})
      if (Branch && encloses(Branch, At, PM))
        staticAssertPins(Branch, At, PM, Ctx, Pins);
    return;
  }
  for (const Stmt *Child : St->children())
    staticAssertPins(Child, At, PM, Ctx, Pins);
}

const FunctionUniformity *
UniformityAnalysis::analyzePinnedAt(const FunctionDecl *F, const Stmt *S) {
  const FunctionDecl *Def = nullptr;
  if (!F || !S || !F->hasBody(Def) || !Def || !Def->isTemplated())
    return nullptr;
  ParentMap PM(Def->getBody());
  TemplatePins Pins;
  for (const Stmt *Child = S, *P = PM.getParent(S); P;
       Child = P, P = PM.getParent(P)) {
    const auto *If = dyn_cast<IfStmt>(P);
    if (!If || !If->isConstexpr() || !If->getCond())
      continue;
    if (Child == If->getThen())
      pinsOf(If->getCond(), /*Holds=*/true, Ctx, Pins);
    else if (Child == If->getElse())
      pinsOf(If->getCond(), /*Holds=*/false, Ctx, Pins);
  }
  // `static_assert(CG == 1)` in the body holds in every instantiation that
  // keeps it: one outside `if constexpr`, or in branches that also hold S.
  for (const Stmt *St : Def->getBody()->children())
    staticAssertPins(St, S, PM, Ctx, Pins);
  if (Pins.empty())
    return nullptr;
  llvm::sort(Pins);
  Pins.erase(llvm::unique(Pins), Pins.end());
  return analyzeBound(Def, {}, Pins);
}

const VarDecl *UniformityAnalysis::fieldVar(const VarDecl *V,
                                            const FieldDecl *Field) {
  const VarDecl *&Slot = FieldVars[{V, Field}];
  if (!Slot) {
    std::string Name = (V->getName() + "." + Field->getName()).str();
    // Not added to any context: the analysis' name for the field's value.
    Slot = VarDecl::Create(Ctx, const_cast<DeclContext *>(V->getDeclContext()),
                           V->getBeginLoc(), V->getLocation(),
                           &Ctx.Idents.get(Name), Field->getType(), nullptr,
                           SC_None);
    FieldsOf[V].push_back(Slot);
  }
  return Slot;
}

uint32_t UniformityAnalysis::symbolFor(const void *Var,
                                       const void *Definition) {
  auto [It, New] = Symbols.try_emplace(std::pair(Var, Definition),
                                       uint32_t(SymbolInfos.size()));
  if (New)
    SymbolInfos.push_back({Var, false});
  return It->second;
}

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
