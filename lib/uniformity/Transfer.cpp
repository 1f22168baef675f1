//===--- Transfer.cpp - The uniformity analysis' transfer function --------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// BlockEvaluator: the level of each expression of one CFG block, from the
// levels of the locals on entry, and what its writes do to them: operators
// through the value algebra (Algebra.cpp, combine), calls through their
// summaries or as known intrinsics, inline assembly, and the writes of
// assignments, calls and asm outputs, joined with the control around them.
//
//===----------------------------------------------------------------------===//

#include "lib/uniformity/UniformityImpl.h"
#include "lib/ast/CudaAST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cuda_tidy {

const VarDecl *localRoot(const Expr *E, const FunctionDecl *F, bool &Exact) {
  Exact = true;
  for (unsigned Steps = 0; E && Steps < 32; ++Steps) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (V && isTracked(V, F) && !V->getType()->isReferenceType())
        return V;
      return nullptr;
    }
    Exact = false;
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        return nullptr;
      E = ME->getBase();
      continue;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *Base = AS->getBase()->IgnoreParenImpCasts();
      if (!Base->getType()->isArrayType())
        return nullptr;
      E = Base;
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

UniformValue BlockEvaluator::initial(const VarDecl *V) const {
  if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
    if (P->getDeclContext() == F && !Fn.Kernel) {
      unsigned Index = P->getFunctionScopeIndex();
      // Bound to a call's argument (UniformityAnalysis::analyzeBound).
      if (Index < Fn.BoundParams.size() && Fn.BoundParams[Index])
        return *Fn.BoundParams[Index];
      if (Index < UniformValue::ThisParam)
        return UniformValue::param(Index);
      return opaque(UniformValue());
    }
    // A kernel's argument: what divides it at every launch.
    if (P->getDeclContext() == F && Fn.Kernel) {
      unsigned Index = P->getFunctionScopeIndex();
      UniformValue V;
      if (Index < Fn.Launch.ParamPow2.size())
        V.Pow2 = Fn.Launch.ParamPow2[Index];
      return V;
    }
  }
  return UniformValue();
}


//===----------------------------------------------------------------------===//
// Writes.
//===----------------------------------------------------------------------===//

void BlockEvaluator::setVar(const VarDecl *V, UniformValue Value, bool Strong,
                            const Stmt *Where, const Expr *From,
                            std::optional<UniformValue> Own) {
  // Control that is the same in every lane of a warp keeps the value's
  // shape and form: a warp runs the write with all of its lanes or with
  // none, so in each warp the variable holds the old value or the new one in
  // every lane (`for (int c = threadIdx.x; c < 1024; c += blockDim.x)`: `c`
  // stays lane-linear, and the loop test warp-uniform).
  UniformValue Contribution = underControl(Value, curCtl());
  if (Noting && Contribution.Base != Uniformity::Block)
    Noting->Writes.push_back(
        {V, Where, From, Contribution.Base, Own.value_or(Value).Base});
  auto [It, Inserted] = Cur->try_emplace(V, Contribution);
  if (Inserted) {
    if (!Strong)
      It->second = join(initial(V), Contribution);
  } else {
    It->second = Strong ? Contribution : join(It->second, Contribution);
  }
  nameValue(V, It->second, Where);
}

void dropSymbol(VarLevels &State, uint32_t Sym, const VarDecl *Keep) {
  for (auto &[Other, Value] : State)
    if (Other != Keep && Value.Affine && Value.SymMul && Value.Sym == Sym)
      Value = withoutSymbol(Value);
}

void BlockEvaluator::nameValue(const VarDecl *V, UniformValue &Value,
                               const Stmt *Where) {
  if (Value.Affine && Value.SymMul) {
    auto &Info = A.SymbolInfos[Value.Sym];
    if (!Info.Copied && Info.Var != V) {
      Info.Copied = true;
      ++A.CopiedCount;
    }
    return;
  }
  // A thread-varying value with no form gets the symbol of this definition
  // (SSA's name for it): `last = first + n` then keeps its relation to
  // `first` until either is written again.
  if (!needsSymbol(Value) || !symbolicVar(V))
    return;
  uint32_t Sym = A.symbolFor(V, Where);
  Value = symbolic(Value, Sym);
  if (A.SymbolInfos[Sym].Copied)
    dropSymbol(*Cur, Sym, V);
}

void BlockEvaluator::write(const Expr *Target, UniformValue Value,
                           bool Compound, const Stmt *Where, const Expr *From,
                           std::optional<UniformValue> Own) {
  bool Exact = false;
  // One field of a local struct: its own local (see fieldVar).
  if (const VarDecl *Field = fieldOf(Target)) {
    setVar(Field, Value, !Compound, Where, From, Own);
    return;
  }
  if (const VarDecl *V = localRoot(Target, F, Exact)) {
    // Writing element a[i] of a local array makes the array as varying as i.
    const Expr *Path = Target->IgnoreParenImpCasts();
    for (unsigned Steps = 0; !Exact && Steps < 32; ++Steps) {
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Path)) {
        Value = plain(join(Value, eval(AS->getIdx())));
        Path = AS->getBase()->IgnoreParenImpCasts();
      } else if (const auto *ME = dyn_cast<MemberExpr>(Path)) {
        Path = ME->getBase()->IgnoreParenImpCasts();
      } else {
        break;
      }
    }
    setVar(V, Value, Exact && !Compound, Where, From, Own);
    return;
  }
  // A store to memory (through a pointer, a reference or a global).
  if (Noting)
    Noting->Stores.push_back(plain(join(Value, curCtl())));
}

void BlockEvaluator::noteBarrier(BarrierSite B,
                                 const FunctionSummary *Summary) {
  if (Noting)
    Noting->Barriers.push_back({std::move(B), Summary});
}

bool BlockEvaluator::notesCurrent(unsigned Block) const {
  return Block < Notes.size() && Notes[Block].Copied == A.CopiedCount;
}

void BlockEvaluator::commit(unsigned Block) {
  const BlockNotes &N = Notes[Block];
  // One value per expression in a block: the order within it is moot.
  for (const auto &[E, V] : N.Exprs)
    Fn.ExprLevels[E] = V;
  // The first write that gave each local each level.
  for (const BlockNotes::Write &W : N.Writes) {
    auto &Reason = Fn.Reasons[W.V];
    for (unsigned L = 1; L <= 2; ++L) {
      if (static_cast<unsigned>(W.Level) < L || Reason[L].Where)
        continue;
      Reason[L].Where = W.Where;
      Reason[L].From = W.From;
      Reason[L].UnderControl = static_cast<unsigned>(W.Own) < L;
    }
  }
  for (const UniformValue &V : N.Stores)
    Fn.StoreLevel = join(Fn.StoreLevel, V);
  for (const BlockNotes::Barrier &B : N.Barriers) {
    if (!BarrierSeen.insert(B.Site.Site).second)
      continue;
    if (!B.Summary) {
      Fn.Barriers.push_back(B.Site);
      continue;
    }
    BarrierSite Reached = B.Summary->FirstBarrier;
    Reached.Site = B.Site.Site;
    Reached.Callee = B.Site.Callee;
    Fn.Barriers.push_back(std::move(Reached));
  }
  for (const UniformValue &V : N.Returned)
    Fn.ReturnLevel = Fn.Returns++ ? join(Fn.ReturnLevel, V) : V;
}

//===----------------------------------------------------------------------===//
// Expressions.
//===----------------------------------------------------------------------===//

UniformValue BlockEvaluator::eval(const Expr *E) {
  if (!E)
    return UniformValue();
  if (!Noting)
    return evalUncached(E);
  if (auto It = Noting->Exprs.find(E); It != Noting->Exprs.end())
    return It->second;
  UniformValue V = evalUncached(E);
  Noting->Exprs[E] = V;
  return V;
}

/// The level of a read of `threadIdx`, `blockDim`, `blockIdx` or `gridDim`
/// in a function whose launches are Launch.
static UniformValue builtinLevel(const BuiltinVarRef &Ref,
                                 const UniformityOptions &Opts,
                                 const LaunchFacts &Launch) {
  bool Linear = Opts.BlockSizeMultipleOf32;
  switch (Ref.Var) {
  case BuiltinVar::ThreadIdx: {
    // Blocks of one row (or one layer): the index is 0 in every thread.
    if (Ref.Dim < 3 && Launch.MaxThreads[Ref.Dim] == 1) {
      UniformValue Zero;
      Zero.Pow2 = ZeroPow2;
      return Zero;
    }
    // Rows (or layers) of whole warps: the index is the same in every lane
    // of a warp.
    bool WarpUniform =
        (Ref.Dim == 1 && Launch.ExtentPow2[0] >= 5) ||
        (Ref.Dim == 2 && Launch.ExtentPow2[0] + Launch.ExtentPow2[1] >= 5);
    UniformValue V = UniformValue::of(
        WarpUniform ? Uniformity::Warp : Uniformity::Thread,
        Ref.Dim == 0 && Linear ? UniformValue::LaneLinear : UniformValue::None);
    if (Ref.Dim < 3) {
      V.Affine = true;
      V.Pow2 = ZeroPow2;
      V.Lin[Ref.Dim] = 1;
    }
    return V;
  }
  case BuiltinVar::BlockDim: {
    UniformValue V = UniformValue::of(Uniformity::Block,
                                      Ref.Dim == 0 && Linear
                                          ? UniformValue::Aligned
                                          : UniformValue::None);
    V.Pow2 = Ref.Dim == 0 && Linear ? 5 : 0;
    V.DimX = Ref.Dim == 0;
    if (Ref.Dim < 3 && Launch.BlockDim[Ref.Dim])
      V.Pow2 =
          static_cast<uint8_t>(llvm::countr_zero(Launch.BlockDim[Ref.Dim]));
    return V;
  }
  case BuiltinVar::BlockIdx:
    return Opts.Scope == BarrierScope::Block
               ? UniformValue()
               : UniformValue::of(Uniformity::Thread);
  default:
    return UniformValue();
  }
}

UniformValue BlockEvaluator::evalDeclRef(const DeclRefExpr *DRE) {
  // A template parameter an `if constexpr` fixes (analyzeBound's pins).
  for (const auto &[D, Value] : Fn.Pins)
    if (D == DRE->getDecl()) {
      UniformValue C;
      C.Pow2 = static_cast<uint8_t>(
          pow2Of(llvm::APSInt(llvm::APInt(64, uint64_t(Value), true))));
      return C;
    }
  const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
  // Each block has its own copy of a __shared__ variable.
  if (V && Opts.Scope != BarrierScope::Block && V->hasAttr<CUDASharedAttr>())
    return UniformValue::of(Uniformity::Thread);
  if (!V || V->hasGlobalStorage() || V->isConstexpr())
    return UniformValue();
  if (!isTracked(V, F)) // A capture: part of the closure object.
    return UniformValue::param(UniformValue::ThisParam);
  if (Escaped.contains(V))
    return UniformValue::of(Uniformity::Thread);
  // A local reference is as uniform as what it was bound to: its
  // declaration sets it like any other local.
  auto It = Cur->find(V);
  UniformValue Value = It == Cur->end() ? initial(V) : It->second;
  // The whole of a struct some of whose fields were written one by one.
  if (!A.FieldsOf.empty())
    if (auto Fields = A.FieldsOf.find(V); Fields != A.FieldsOf.end())
      for (const VarDecl *Field : Fields->second)
        if (auto FI = Cur->find(Field); FI != Cur->end())
          Value = join(Value, FI->second);
  return Value;
}

bool BlockEvaluator::initFields(const VarDecl *V, const DeclStmt *DS) {
  const auto *ILE = dyn_cast_or_null<InitListExpr>(
      V->getInit() ? V->getInit()->IgnoreImplicit() : nullptr);
  const RecordDecl *RD = V->getType()->getAsRecordDecl();
  const auto *CRD = dyn_cast_or_null<CXXRecordDecl>(RD);
  if (!ILE || !RD || RD->isUnion() || V->getType()->isReferenceType() ||
      !V->getIdentifier() || (CRD && CRD->getNumBases()))
    return false;
  unsigned I = 0;
  for (const FieldDecl *Field : RD->fields()) {
    if (I >= ILE->getNumInits() || Field->isUnnamedBitField() ||
        !Field->getIdentifier())
      return false;
    ++I;
  }
  if (I != ILE->getNumInits())
    return false;
  // `P p = {threadIdx.x, n};`: each field gets its initialiser's level.
  setVar(V, UniformValue(), /*Strong=*/true, DS, nullptr);
  I = 0;
  for (const FieldDecl *Field : RD->fields()) {
    const Expr *Init = ILE->getInit(I++);
    setVar(A.fieldVar(V, Field), eval(Init), /*Strong=*/true, DS, Init);
  }
  return true;
}

const VarDecl *BlockEvaluator::fieldOf(const Expr *E, const VarDecl **Whole) {
  const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
  if (!ME || ME->isArrow())
    return nullptr;
  const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
  const auto *DRE = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!Field || !Field->getIdentifier() || !V || !V->getIdentifier() ||
      !isTracked(V, F) || V->getType()->isReferenceType())
    return nullptr;
  const RecordDecl *RD = V->getType()->getAsRecordDecl();
  if (!RD || RD->isUnion() || Field->getParent() != RD)
    return nullptr;
  if (Whole)
    *Whole = V;
  return A.fieldVar(V, Field);
}

UniformValue BlockEvaluator::evalField(const MemberExpr *ME,
                                       const VarDecl *Field,
                                       const VarDecl *Whole) {
  if (Escaped.contains(Whole))
    return UniformValue::of(Uniformity::Thread);
  Fn.FieldReads[ME] = Field;
  auto It = Cur->find(Whole);
  UniformValue Value = It == Cur->end() ? initial(Whole) : It->second;
  if (auto FI = Cur->find(Field); FI != Cur->end())
    Value = join(Value, FI->second);
  return Value;
}

UniformValue BlockEvaluator::evalUncached(const Expr *E) {
  if (auto Ref = getBuiltinVarRef(E))
    return builtinLevel(*Ref, Opts, Fn.Launch);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return evalDeclRef(DRE);
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const VarDecl *Whole = nullptr;
    if (const VarDecl *Field = fieldOf(ME, &Whole))
      return evalField(ME, Field, Whole);
  }
  if (isa<CXXThisExpr>(E))
    return UniformValue::param(UniformValue::ThisParam);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return evalBinary(BO);
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    UniformValue Sub = eval(UO->getSubExpr());
    if (UO->isIncrementDecrementOp()) {
      // `j++` keeps j's thread part (its uniform part moves by one).
      UniformValue Stepped = Sub;
      Stepped.Shape = UniformValue::None;
      Stepped.Pow2 = 0;
      Stepped.DimX = false;
      if (!Stepped.Affine && Stepped.Base == Uniformity::Thread)
        Stepped = plain(Stepped);
      write(UO->getSubExpr(), Stepped, /*Compound=*/false, UO, nullptr,
            UniformValue());
      return plain(Sub);
    }
    if (UO->getOpcode() == UO_Plus || UO->getOpcode() == UO_Extension)
      return Sub;
    if (UO->getOpcode() == UO_Minus && Sub.Affine) {
      UniformValue Neg = plain(Sub);
      Neg.Affine = true;
      Neg.Rest = Sub.Rest;
      Neg.Pow2 = Sub.Pow2;
      Neg.FloorShift = Sub.FloorShift;
      Neg.FloorMul = -Sub.FloorMul;
      Neg.Flr = Sub.Flr;
      for (unsigned I = 0; I < 4; ++I)
        Neg.Lin[I] = -Sub.Lin[I];
      Neg.Sym = Sub.Sym;
      Neg.SymMul = -Sub.SymMul;
      if (Neg.FloorMul == INT16_MIN || Sub.SymMul == INT16_MIN ||
          llvm::is_contained(Sub.Lin, INT16_MIN))
        return plain(Sub);
      return Neg;
    }
    if (UO->getOpcode() == UO_Minus && Sub.Base != Uniformity::Thread) {
      UniformValue Neg = plain(Sub);
      Neg.Pow2 = Sub.Pow2;
      return Neg;
    }
    return plain(Sub);
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return evalCall(Call);
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    UniformValue C = eval(CO->getCond());
    UniformValue T = eval(CO->getTrueExpr());
    UniformValue Fv = eval(CO->getFalseExpr());
    // A condition the launches' grid decides (`MIN(n, start + 16)` with
    // `n / 32` blocks): the value is the arm it picks.
    if (C.Base == Uniformity::Thread && isa<ConditionalOperator>(CO))
      if (std::optional<bool> Known = decideByGrid(CO->getCond(), Fn))
        return *Known ? T : Fv;
    UniformValue R = join(T, Fv);
    if (!C.isBlockUniform())
      R = plain(join(R, C));
    return R;
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    UniformValue V = eval(Cast->getSubExpr());
    // A form is about integers: a conversion to floating point ends it.
    if ((V.Affine || V.Pow2) &&
        !Cast->getType()->isIntegralOrEnumerationType()) {
      UniformValue P = plain(V);
      P.Shape = V.Shape;
      return P;
    }
    // A symbol stands for any value: a narrower type may cut it.
    if (V.Affine && V.SymMul &&
        Cast->getType()->isIntegralOrEnumerationType() &&
        Cast->getSubExpr()->getType()->isIntegralOrEnumerationType() &&
        Ctx.getTypeSize(Cast->getType()) <
            Ctx.getTypeSize(Cast->getSubExpr()->getType()))
      return withoutSymbol(V);
    return V;
  }
  if (const auto *Lit = dyn_cast<IntegerLiteral>(E)) {
    UniformValue V;
    V.Pow2 = static_cast<uint8_t>(pow2Of(llvm::APSInt(Lit->getValue())));
    return V;
  }
  if (const auto *Subst = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
    return eval(Subst->getReplacement());
  // `index_type{threadIdx.x}`: one scalar in braces is that scalar.
  if (const auto *Init = dyn_cast<InitListExpr>(E);
      Init && Init->getNumInits() == 1 && Init->getType()->isScalarType())
    return eval(Init->getInit(0));
  if (const auto *P = dyn_cast<ParenExpr>(E))
    return eval(P->getSubExpr());
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(E))
    return OVE->getSourceExpr() ? eval(OVE->getSourceExpr()) : UniformValue();
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E))
    return eval(POE->getResultExpr() ? POE->getResultExpr()
                                     : POE->getSyntacticForm());
  if (const auto *Lambda = dyn_cast<LambdaExpr>(E)) {
    UniformValue R;
    for (const Expr *Init : Lambda->capture_inits())
      R = join(R, eval(Init));
    return plain(R);
  }
  if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
    return eval(DA->getExpr());
  if (const auto *DI = dyn_cast<CXXDefaultInitExpr>(E))
    return eval(DI->getExpr());
  if (isa<StmtExpr, BlockExpr>(E))
    return opaque(UniformValue());
  // Loads, constructors, initialiser lists and the rest: as uniform as what
  // they are made of.
  UniformValue R;
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      R = join(R, eval(CE));
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    const FunctionDecl *Def = nullptr;
    if (Ctor && Ctor->hasBody(Def) && Def && !Ctor->isTrivial())
      if (const FunctionSummary *S = A.summary(Def))
        R = join(R, plain(S->Store));
  }
  return plain(R);
}

UniformValue BlockEvaluator::evalBinary(const BinaryOperator *BO) {
  if (BO->isAssignmentOp()) {
    UniformValue R = eval(BO->getRHS());
    UniformValue L = eval(BO->getLHS());
    if (!BO->isCompoundAssignmentOp()) {
      write(BO->getLHS(), R, /*Compound=*/false, BO, BO->getRHS());
      return R;
    }
    // `x op= y` stores what `x op y` computes: `tid += blockDim.x *
    // gridDim.x` keeps a lane-linear index lane-linear.
    UniformValue New = combine(BO->getOpcode() == BO_AddAssign   ? BO_Add
                               : BO->getOpcode() == BO_SubAssign ? BO_Sub
                               : BO->getOpcode() == BO_MulAssign ? BO_Mul
                               : BO->getOpcode() == BO_ShlAssign ? BO_Shl
                                                                 : BO_Comma,
                               BO->getLHS(), L, BO->getRHS(), R, Consts, Opts);
    write(BO->getLHS(), New, /*Compound=*/false, BO, BO->getRHS(), R);
    return New;
  }
  if (BO->getOpcode() == BO_Comma) {
    eval(BO->getLHS());
    return eval(BO->getRHS());
  }
  const Expr *LE = BO->getLHS(), *RE = BO->getRHS();
  UniformValue L = eval(LE);
  UniformValue R = eval(RE);
  if (BO->isLogicalOp())
    return plain(join(L, R));
  UniformValue V = combine(BO->getOpcode(), LE, L, RE, R, Consts, Opts);
  // A comparison the launches' bounds decide (`i < 1000` with i below 768
  // in every thread of a grid of 3 blocks of 256) is the same everywhere.
  if (V.Base == Uniformity::Thread && BO->isRelationalOp())
    if (decideByRanges(BO, Fn))
      return UniformValue();
  return V;
}

//===----------------------------------------------------------------------===//
// Calls.
//===----------------------------------------------------------------------===//

UniformValue BlockEvaluator::evalCall(const CallExpr *Call) {
  // In a template pattern a dependent call names its callee without
  // resolving it; the one function its name finds is the callee.
  const FunctionDecl *FD = resolveCallee(Call);
  CallOperands Ops = operandsOf(Call);
  UniformValue ObjLevel;
  if (Ops.ObjectValue)
    ObjLevel = eval(Ops.ObjectValue);
  UniformValue AllArgs = plain(ObjLevel);
  llvm::SmallVector<UniformValue, 8> Args;
  for (unsigned I = Ops.FirstArg, N = Call->getNumArgs(); I < N; ++I) {
    Args.push_back(eval(Call->getArg(I)));
    AllArgs = join(AllArgs, plain(Args.back()));
  }
  if (!FD) {
    AllArgs = join(AllArgs, plain(eval(Call->getCallee())));
    return opaque(AllArgs);
  }

  if (auto B = recognizeBarrier(Call, Ctx))
    noteBarrier(std::move(*B));

  std::optional<UniformValue> Result =
      intrinsicLevel(Call, FD, Args, Opts, Ctx, headerFunction(FD));
  const FunctionSummary *Summary = nullptr;
  const FunctionDecl *Def = nullptr;
  if (!Result && FD->hasBody(Def) && Def)
    Summary = A.summary(Def);

  // What the call returns, and what it may store through references,
  // pointers to locals and its object: a known intrinsic or a toolkit
  // function computes from its arguments, a summarised one as its summary
  // says, another is opaque.
  UniformValue Plain = Result || (!Summary && headerFunction(FD))
                           ? AllArgs
                           : opaque(AllArgs);
  UniformValue Stored =
      Summary ? join(AllArgs, bind(Summary->Store, ObjLevel, Args)) : Plain;
  writeThroughCall(Call, FD, Ops, Stored);

  if (Result)
    return *Result;
  if (!Summary)
    return Plain;
  if (Summary->ReachesBarrier) {
    BarrierSite B;
    B.Site = Call;
    B.Callee = Def;
    noteBarrier(std::move(B), Summary);
  }
  return bind(Summary->Return, ObjLevel, Args);
}

void BlockEvaluator::writeThroughCall(const CallExpr *Call,
                                      const FunctionDecl *FD,
                                      const CallOperands &Ops,
                                      UniformValue Stored) {
  for (unsigned I = Ops.FirstArg, N = Call->getNumArgs(); I < N; ++I) {
    const Expr *Arg = Call->getArg(I);
    unsigned P = I - Ops.FirstArg;
    bool ByRef = P < FD->getNumParams() &&
                 FD->getParamDecl(P)->getType()->isLValueReferenceType() &&
                 !FD->getParamDecl(P)
                      ->getType()
                      .getNonReferenceType()
                      .isConstQualified();
    const Expr *Stripped = Arg->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(Stripped);
        UO && UO->getOpcode() == UO_AddrOf)
      write(UO->getSubExpr(), Stored, /*Compound=*/true, Call, nullptr);
    else if (ByRef || Stripped->getType()->isArrayType())
      write(Stripped, Stored, /*Compound=*/true, Call, nullptr);
  }
  if (const Expr *Obj = Ops.Object) {
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    if (MD && !MD->isConst() && !Obj->getType()->isPointerType())
      write(Obj, Stored, /*Compound=*/true, Call, nullptr);
  }
}

//===----------------------------------------------------------------------===//
// Statements.
//===----------------------------------------------------------------------===//

void BlockEvaluator::transferAsm(const GCCAsmStmt *Asm) {
  if (auto B = recognizeBarrier(Asm, Ctx))
    noteBarrier(std::move(*B));
  UniformValue Inputs;
  for (unsigned I = 0, N = Asm->getNumInputs(); I < N; ++I)
    Inputs = join(Inputs, plain(eval(Asm->getInputExpr(I))));
  UniformValue Level = asmLevel(Asm->getAsmString(), Inputs);
  for (unsigned I = 0, N = Asm->getNumOutputs(); I < N; ++I) {
    eval(Asm->getOutputExpr(I));
    write(Asm->getOutputExpr(I), Level, /*Compound=*/false, Asm, nullptr);
  }
}

void BlockEvaluator::transfer(const Stmt *S) {
  if (const auto *E = dyn_cast<Expr>(S)) {
    eval(E);
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      const auto *V = dyn_cast<VarDecl>(D);
      if (!V)
        continue;
      UniformValue Init = V->getInit() ? eval(V->getInit()) : UniformValue();
      if (isTracked(V, F) && !initFields(V, DS))
        setVar(V, Init, /*Strong=*/true, DS, V->getInit());
    }
    return;
  }
  if (const auto *Ret = dyn_cast<ReturnStmt>(S)) {
    UniformValue V = eval(Ret->getRetValue());
    if (Noting) {
      // The value returned, with its form where every thread of a warp
      // returns together (`return blockIdx.x * blockDim.x + threadIdx.x;`).
      UniformValue Returned =
          withoutSymbol(underControl(V, Fn.CtlFull[CurBlock]));
      Returned.Shape = UniformValue::None;
      Noting->Returned.push_back(Returned);
    }
    return;
  }
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S))
    transferAsm(Asm);
}

void BlockEvaluator::replay(unsigned Block, VarLevels &S) {
  const CFGBlock *B = Fn.ById[Block];
  Cur = &S;
  CurBlock = Block;
  if (Notes.size() <= Block)
    Notes.resize(Fn.ById.size());
  Noting = &Notes[Block];
  Noting->clear();
  Noting->Copied = A.CopiedCount;
  for (const CFGElement &El : *B)
    if (auto CS = El.getAs<CFGStmt>())
      transfer(CS->getStmt());
  Fn.CondLevel[Block] =
      plain(eval(dyn_cast_or_null<Expr>(B->getTerminatorCondition(false))));
  Cur = nullptr;
  Noting = nullptr;
}

} // namespace cuda_tidy
