//===--- WarpValues.cpp - Integer values, a warp at a time ----------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/ast/CudaAST.h"
#include "lib/lanes/CallContexts.h"
#include "lib/lanes/FunctionFacts.h"
#include "lib/lanes/WarpEvaluator.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace cuda_tidy::lanes {

WarpValues::WarpValues(clang::ASTContext &Ctx, uint64_t &WorkDone,
                       FunctionFacts &Facts, CallContexts &Calls)
    : Ctx(Ctx), WorkDone(WorkDone), Facts(Facts), Calls(Calls) {}

/// Fn(thread) in each lane of Active: the lanes' values from their linear
/// thread index.
template <typename Fn>
static Vals eachThread(uint32_t Active, const Env &En, Fn &&F) {
  Vals R;
  R.Valid = Active;
  allLanes([&](unsigned L) { R.V[L] = F(En.Tid + L); });
  return R;
}

int64_t WarpValues::normalize(int64_t V, QualType T) {
  const IntTypes::Info &I = Types.of(T);
  if (!I.Integer)
    return V;
  if (I.Boolean)
    return V != 0;
  const unsigned Width = I.Width;
  if (Width >= 64)
    return V;
  uint64_t Mask = (uint64_t(1) << Width) - 1;
  uint64_t U = uint64_t(V) & Mask;
  if (I.Signed && (U >> (Width - 1)))
    U |= ~Mask;
  return int64_t(U);
}

void WarpValues::normalizeAll(Vals &W, QualType T) {
  const IntTypes::Info &I = Types.of(T);
  if (!I.Integer)
    return;
  if (I.Boolean) {
    allLanes([&](unsigned L) { W.V[L] = W.V[L] != 0; });
    return;
  }
  const unsigned Width = I.Width;
  if (Width >= 64 || Width == 0)
    return;
  if (I.Signed) {
    const unsigned Shift = 64 - Width;
    allLanes([&](unsigned L) {
      W.V[L] = int64_t(uint64_t(W.V[L]) << Shift) >> Shift;
    });
  } else {
    const uint64_t Mask = (uint64_t(1) << Width) - 1;
    allLanes([&](unsigned L) { W.V[L] = int64_t(uint64_t(W.V[L]) & Mask); });
  }
}


Vals WarpValues::normalized(Vals W, QualType T) {
  normalizeAll(W, T);
  return W;
}

std::optional<int64_t> WarpValues::constantOf(const Expr *E) {
  auto [It, New] = Constants.try_emplace(E);
  if (New) {
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx))
      It->second = R.Val.getInt().getExtValue();
  }
  return It->second;
}

std::optional<int64_t> WarpValues::eval(const Expr *E,
                                                      const Frame &Fr,
                                                      const Env &En,
                                                      unsigned Depth) {
  Vals W = evalW(E, Fr, En, 1, Depth);
  if (!(W.Valid & 1))
    return std::nullopt;
  return W.V[0];
}

Vals WarpValues::evalW(const Expr *E, const Frame &Fr, const Env &En,
                       uint32_t Active, unsigned Depth) {
  Vals R;
  if (!Active || !E || Depth > MaxDepth || E->isValueDependent() ||
      E->isTypeDependent())
    return R;
  // The work is counted per thread, as if each were evaluated on its own.
  WorkDone += llvm::popcount(Active);
  E = E->IgnoreParens();
  // `threadIdx.x` and the like (below implicit conversions, which are
  // evaluated on their own).
  if (isa<PseudoObjectExpr, MSPropertyRefExpr, MemberExpr>(E)) {
    bool Builtin = false;
    Vals B = evalBuiltinW(E, En, Active, Builtin);
    if (Builtin)
      return B;
  }
  QualType T = E->getType();
  if (const auto *IL = dyn_cast<IntegerLiteral>(E))
    return splat(Active, normalize(int64_t(IL->getValue().getZExtValue()), T));
  if (const auto *CL = dyn_cast<CharacterLiteral>(E))
    return splat(Active, int64_t(CL->getValue()));
  if (const auto *BL = dyn_cast<CXXBoolLiteralExpr>(E))
    return splat(Active, int64_t(BL->getValue()));
  if (isa<SubstNonTypeTemplateParmExpr, UnaryExprOrTypeTraitExpr>(E)) {
    if (auto C = constantOf(E))
      return splat(Active, *C);
    return R;
  }
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    switch (CE->getCastKind()) {
    case CK_LValueToRValue:
    case CK_NoOp:
    case CK_IntegralCast:
    case CK_IntegralToBoolean:
      return normalized(evalW(CE->getSubExpr(), Fr, En, Active, Depth + 1),
                        T);
    default:
      return R;
    }
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return evalDeclRefW(DRE, Fr, En, Active, Depth);
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    UnaryOperatorKind Op = UO->getOpcode();
    if (Op != UO_Plus && Op != UO_Minus && Op != UO_Not && Op != UO_LNot)
      return R;
    R = evalW(UO->getSubExpr(), Fr, En, Active, Depth + 1);
    if (Op == UO_Minus)
      allLanes([&](unsigned L) { R.V[L] = int64_t(0 - uint64_t(R.V[L])); });
    else if (Op == UO_Not)
      allLanes([&](unsigned L) { R.V[L] = ~R.V[L]; });
    else if (Op == UO_LNot)
      allLanes([&](unsigned L) { R.V[L] = R.V[L] == 0; });
    if (Op != UO_LNot)
      normalizeAll(R, T);
    return R;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return evalBinaryW(BO, Fr, En, Active, Depth);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    Vals C = evalW(CO->getCond(), Fr, En, Active, Depth + 1);
    uint32_t True = 0;
    allLanes([&](unsigned K) { True |= uint32_t(C.V[K] != 0) << K; });
    True &= C.Valid;
    Vals A = evalW(CO->getTrueExpr(), Fr, En, True, Depth + 1);
    Vals B = evalW(CO->getFalseExpr(), Fr, En, C.Valid & ~True, Depth + 1);
    allLanes([&](unsigned K) {
      if ((A.Valid >> K) & 1)
        B.V[K] = A.V[K];
    });
    B.Valid |= A.Valid;
    return B;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    R = evalCooperativeW(CE, En, Active);
    if (uint32_t Rest = Active & ~R.Valid) {
      Vals C = evalCallW(CE, Fr, En, Rest, Depth + 1);
      forLanes(C.Valid, [&](unsigned K) { R.V[K] = C.V[K]; });
      R.Valid |= C.Valid;
    }
    normalizeAll(R, T);
    return R;
  }
  // `cta.thread_index().x`
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    const auto *Call =
        dyn_cast<CallExpr>(ME->getBase()->IgnoreImplicit()->IgnoreParens());
    if (FD && Call && FD->getName() == "x")
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        if (Callee->getDeclName().isIdentifier() &&
            Callee->getName() == "thread_index")
          return normalized(evalCooperativeW(Call, En, Active), T);
    return R;
  }
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    return evalW(EWC->getSubExpr(), Fr, En, Active, Depth + 1);
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return tableElementW(ASE, Fr, En, Active, Depth);
  return R;
}

/// The array variable whose element ASE designates (`table[k]`), or null.
static const VarDecl *arrayOf(const ArraySubscriptExpr *ASE) {
  const auto *Decay = dyn_cast<ImplicitCastExpr>(ASE->getBase()->IgnoreParens());
  if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay)
    return nullptr;
  return refVar(Decay->getSubExpr());
}

Vals WarpValues::tableElementW(const ArraySubscriptExpr *ASE, const Frame &Fr,
                               const Env &En, uint32_t Active,
                               unsigned Depth) {
  Vals R;
  const VarDecl *V = arrayOf(ASE);
  const std::vector<int64_t> *Table = V ? constantTable(V, Fr.F) : nullptr;
  if (!Table)
    return R;
  Vals Index = evalW(ASE->getIdx(), Fr, En, Active, Depth + 1);
  forLanes(Index.Valid, [&](unsigned L) {
    if (Index.V[L] < 0 || uint64_t(Index.V[L]) >= Table->size())
      return;
    R.V[L] = normalize((*Table)[size_t(Index.V[L])], ASE->getType());
    R.Valid |= 1u << L;
  });
  return R;
}

/// Whether every use of array V in Body reads an element (`V[i]` as a
/// value): nothing writes it or takes its address.
static bool onlyElementReads(const VarDecl *V, const Stmt *Body,
                             const ParentMap &PM) {
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == V) {
      const Stmt *Up = PM.getParentIgnoreParens(DRE);
      const auto *Decay = dyn_cast_or_null<ImplicitCastExpr>(Up);
      if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay)
        return false;
      const auto *ASE =
          dyn_cast_or_null<ArraySubscriptExpr>(PM.getParentIgnoreParens(Decay));
      if (!ASE || ASE->getBase()->IgnoreParens() != Decay)
        return false;
      const auto *Read =
          dyn_cast_or_null<ImplicitCastExpr>(PM.getParentIgnoreParens(ASE));
      if (!Read || Read->getCastKind() != CK_LValueToRValue)
        return false;
    }
    llvm::append_range(Work, S->children());
  }
  return true;
}

const std::vector<int64_t> *WarpValues::constantTable(const VarDecl *V,
                                                      const FunctionDecl *F) {
  auto [It, New] = Tables.try_emplace(V);
  if (!New)
    return It->second ? &*It->second : nullptr;
  const auto *AT = Ctx.getAsConstantArrayType(V->getType());
  const auto *Init =
      V->getInit() ? dyn_cast<InitListExpr>(V->getInit()->IgnoreImplicit())
                   : nullptr;
  if (!AT || !AT->getElementType()->isIntegerType() || !Init ||
      AT->getSize().getZExtValue() > MaxTableSize ||
      V->hasAttr<CUDASharedAttr>() || V->hasAttr<CUDAConstantAttr>())
    return nullptr;
  // A const array is never written; another only where F declares it and
  // reads nothing but its elements.
  if (!V->getType().isConstQualified()) {
    if (!V->hasLocalStorage() || V->getDeclContext() != F || !F->hasBody())
      return nullptr;
    FunctionInfo &FI = Facts.info(F);
    if (!FI.PM || !onlyElementReads(V, F->getBody(), *FI.PM))
      return nullptr;
  }
  std::vector<int64_t> Values;
  for (uint64_t K = 0, N = AT->getSize().getZExtValue(); K < N; ++K) {
    const Expr *E = K < Init->getNumInits() ? Init->getInit(unsigned(K))
                                            : Init->getArrayFiller();
    if (E && isa<ImplicitValueInitExpr>(E)) {
      Values.push_back(0);
      continue;
    }
    std::optional<int64_t> C = E ? constantOf(E) : std::nullopt;
    if (!C)
      return nullptr;
    Values.push_back(normalize(*C, AT->getElementType()));
  }
  It = Tables.find(V);
  It->second = std::move(Values);
  return &*It->second;
}

Vals WarpValues::evalBuiltinW(const Expr *E, const Env &En, uint32_t Active,
                              bool &Handled) {
  Vals R;
  std::optional<BuiltinVarRef> Ref =
      isa<PseudoObjectExpr, MSPropertyRefExpr, MemberExpr>(E)
          ? getBuiltinVarRef(E)
          : std::nullopt;
  Handled = Ref.has_value();
  if (!Ref)
    return R;
  if (Ref->Var == BuiltinVar::ThreadIdx) {
    if (Ref->Dim == 0)
      return eachThread(Active, En, [&](int64_t X) {
        return En.ShapeKnown ? X % En.BlockDim : X;
      });
    if (!En.ShapeKnown)
      return R;
    if (Ref->Dim == 1)
      return eachThread(Active, En, [&](int64_t X) {
        return (X / En.BlockDim) % En.DimY;
      });
    return eachThread(Active, En,
                      [&](int64_t X) { return X / (En.BlockDim * En.DimY); });
  }
  if (Ref->Var == BuiltinVar::BlockDim) {
    if (Ref->Dim != 0 && !En.ShapeKnown)
      return R;
    noteBlockDim(En);
    return splat(Active, Ref->Dim == 0   ? En.BlockDim
                         : Ref->Dim == 1 ? En.DimY
                                         : En.DimZ);
  }
  // Both accesses of an exchange run in one block: any block stands for
  // it (global memory indexed by `blockIdx.x * blockDim.x + threadIdx.x`).
  if (Ref->Var == BuiltinVar::BlockIdx)
    return splat(Active, 0);
  return R;
}

Vals WarpValues::evalDeclRefW(const DeclRefExpr *DRE, const Frame &Fr,
                              const Env &En, uint32_t Active,
                              unsigned Depth) {
  Vals R;
  if (const auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
    return splat(Active, EC->getInitVal().getExtValue());
  const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
  if (!V || !V->getType()->isIntegerType())
    return R;
  auto L = En.Loop.find(V);
  if (L != En.Loop.end())
    return splat(Active, L->second);
  if (!En.Trips.empty())
    if (auto Trip = En.Trips.find(V); Trip != En.Trips.end())
      return strideValue(V, Trip->second, Fr, En, Active, Depth + 1);
  if (const auto *PV = dyn_cast<ParmVarDecl>(V)) {
    // A warp helper nothing calls, run by one warp: a parameter named as a
    // thread index is the lane's (CallContexts::uncalledWarpHelper).
    if (!Fr.Call && Fr.F == PV->getDeclContext() &&
        CallContexts::assumedThreadIndex(PV) &&
        Calls.uncalledWarpHelper(Fr.F) &&
        !Facts.isModified(Facts.info(Fr.F), PV))
      return normalized(eachThread(Active, En, [](int64_t X) { return X; }),
                        V->getType());
    if (!Fr.Call || !Fr.Parent || Fr.F != PV->getDeclContext())
      return R;
    unsigned Idx = PV->getFunctionScopeIndex();
    if (Idx >= Fr.Call->getNumArgs())
      return R;
    return normalized(
        evalW(Fr.Call->getArg(Idx), *Fr.Parent, En, Active, Depth + 1),
        V->getType());
  }
  if (V->hasLocalStorage()) {
    // `asm("mov.u32 %0, %%laneid;" : "=r"(lane));`, the only write.
    if (V->getDeclContext() == Fr.F && !V->getInit()) {
      FunctionInfo &FI = Facts.info(Fr.F);
      if (FI.LaneIdAsm.contains(V) && FI.AsmWrites.lookup(V) == 1 &&
          !Facts.isModified(FI, V))
        return normalized(
            eachThread(Active, En, [](int64_t X) { return X % 32; }),
            V->getType());
    }
    if (V->getDeclContext() != Fr.F || !V->getInit() ||
        V->getType()->isReferenceType())
      return R;
    if (Facts.isModified(Facts.info(Fr.F), V))
      return straightLineValueW(V, DRE, Fr, En, Active, Depth + 1);
    return normalized(evalW(V->getInit(), Fr, En, Active, Depth + 1),
                      V->getType());
  }
  if (V->getType().isConstQualified() && V->getInit())
    if (auto C = constantOf(V->getInit()))
      return splat(Active, normalize(*C, V->getType()));
  return R;
}

Vals WarpValues::evalBinaryW(const BinaryOperator *BO, const Frame &Fr,
                             const Env &En, uint32_t Active, unsigned Depth) {
  Vals R;
  QualType T = BO->getType();
  BinaryOperatorKind Op = BO->getOpcode();
  if (Op == BO_LAnd || Op == BO_LOr) {
    Vals L = evalW(BO->getLHS(), Fr, En, Active, Depth + 1);
    // Lanes the left side decides, and the rest.
    uint32_t Decided = 0;
    const bool Stop = Op == BO_LAnd; // the value of L that decides
    allLanes([&](unsigned K) {
      Decided |= uint32_t((L.V[K] == 0) == Stop) << K;
    });
    Decided &= L.Valid;
    Vals Right = evalW(BO->getRHS(), Fr, En, L.Valid & ~Decided, Depth + 1);
    allLanes([&](unsigned K) {
      R.V[K] = (Decided >> K) & 1 ? int64_t(Op == BO_LOr)
                                  : int64_t(Right.V[K] != 0);
    });
    R.Valid = Decided | Right.Valid;
    return R;
  }
  if (BO->isAssignmentOp() || Op == BO_Comma || BO->isPtrMemOp())
    return R;
  if (!isEvaluatedBinary(Op))
    return R;
  // Which side read blockDim: a product with a side that is 0 without
  // reading it (`blockIdx.x * blockDim.x`, blockIdx being 0 in the model)
  // is 0 for every block size.
  bool *ReadsBlockDim = En.ReadBlockDim;
  const bool ReadBefore = ReadsBlockDim && *ReadsBlockDim;
  if (ReadsBlockDim)
    *ReadsBlockDim = false;
  Vals L = evalW(BO->getLHS(), Fr, En, Active, Depth + 1);
  const bool LRead = ReadsBlockDim && *ReadsBlockDim;
  if (ReadsBlockDim)
    *ReadsBlockDim = false;
  Vals Right = evalW(BO->getRHS(), Fr, En, L.Valid, Depth + 1);
  const bool RRead = ReadsBlockDim && *ReadsBlockDim;
  if (ReadsBlockDim) {
    auto Zero = [&](const Vals &X) {
      for (unsigned K = 0; K < 32; ++K)
        if ((Right.Valid >> K & 1) && X.V[K] != 0)
          return false;
      return true;
    };
    bool Read = LRead || RRead;
    if (Read && Op == BO_Mul && Right.Valid &&
        ((!LRead && Zero(L)) || (!RRead && Zero(Right))))
      Read = false;
    *ReadsBlockDim = ReadBefore || Read;
  }
  const bool Unsigned = BO->getLHS()->getType()->isUnsignedIntegerType();
  R.Valid = Right.Valid;
  const int64_t *A = L.V, *B = Right.V;
  int64_t *Out = R.V;
  switch (Op) {
  case BO_Add:
    allLanes([&](unsigned K) { Out[K] = int64_t(uint64_t(A[K]) + uint64_t(B[K])); });
    break;
  case BO_Sub:
    allLanes([&](unsigned K) { Out[K] = int64_t(uint64_t(A[K]) - uint64_t(B[K])); });
    break;
  case BO_Mul:
    allLanes([&](unsigned K) { Out[K] = int64_t(uint64_t(A[K]) * uint64_t(B[K])); });
    break;
  case BO_And: allLanes([&](unsigned K) { Out[K] = A[K] & B[K]; }); break;
  case BO_Or: allLanes([&](unsigned K) { Out[K] = A[K] | B[K]; }); break;
  case BO_Xor: allLanes([&](unsigned K) { Out[K] = A[K] ^ B[K]; }); break;
  case BO_LT: allLanes([&](unsigned K) { Out[K] = A[K] < B[K]; }); break;
  case BO_GT: allLanes([&](unsigned K) { Out[K] = A[K] > B[K]; }); break;
  case BO_LE: allLanes([&](unsigned K) { Out[K] = A[K] <= B[K]; }); break;
  case BO_GE: allLanes([&](unsigned K) { Out[K] = A[K] >= B[K]; }); break;
  case BO_EQ: allLanes([&](unsigned K) { Out[K] = A[K] == B[K]; }); break;
  case BO_NE: allLanes([&](unsigned K) { Out[K] = A[K] != B[K]; }); break;
  default:
    // Division and shifts: lane by lane, for the lanes they are defined in.
    forLanes(Right.Valid, [&](unsigned K) {
      int64_t X = A[K], Y = B[K];
      if (Op == BO_Div || Op == BO_Rem) {
        if (Y == 0 || (X == INT64_MIN && Y == -1)) {
          R.Valid &= ~(1u << K);
          return;
        }
        if (Unsigned)
          Out[K] = Op == BO_Div ? int64_t(uint64_t(X) / uint64_t(Y))
                                : int64_t(uint64_t(X) % uint64_t(Y));
        else
          Out[K] = Op == BO_Div ? X / Y : X % Y;
        return;
      }
      if (Y < 0 || Y >= 64) {
        R.Valid &= ~(1u << K);
        return;
      }
      if (Op == BO_Shl)
        Out[K] = int64_t(uint64_t(X) << Y);
      else
        Out[K] = Unsigned ? int64_t(uint64_t(X) >> Y) : X >> Y;
    });
    break;
  }
  if (!BO->isComparisonOp())
    normalizeAll(R, T);
  return R;
}

Vals WarpValues::strideValue(const VarDecl *V, int64_t Trip,
                                           const Frame &Fr, const Env &En,
                                           uint32_t Active, unsigned Depth) {
  Vals None;
  const StrideLoop *SL = Facts.info(Fr.F).StrideOfVar.lookup(V);
  if (!SL || V->getDeclContext() != Fr.F)
    return None;
  Vals Start = evalW(SL->Init, Fr, En, Active, Depth + 1);
  Vals Step = SL->Step ? evalW(SL->Step, Fr, En, Start.Valid, Depth + 1)
                       : splat(Start.Valid, 1);
  Step.Valid &= Start.Valid;
  const int64_t Times = SL->Down ? -Trip : Trip;
  allLanes([&](unsigned K) {
    Step.V[K] = int64_t(uint64_t(Start.V[K]) +
                        uint64_t(Times) * uint64_t(Step.V[K]));
  });
  normalizeAll(Step, V->getType());
  return Step;
}

Vals WarpValues::straightLineValueW(const VarDecl *V,
                                                  const DeclRefExpr *Use,
                                                  const Frame &Fr,
                                                  const Env &En,
                                                  uint32_t Active,
                                                  unsigned Depth) {
  Vals None;
  FunctionInfo &I = Facts.info(Fr.F);
  if (!I.PM || Depth > MaxDepth || !V->getType()->isIntegerType())
    return None;
  // The compound statement that declares V, and its child holding Use.
  const Stmt *Child = Use;
  const CompoundStmt *Scope = nullptr;
  while (const Stmt *Parent = I.PM->getParent(Child)) {
    if (const auto *CS = dyn_cast<CompoundStmt>(Parent)) {
      bool Declares = llvm::any_of(CS->body(), [&](const Stmt *S) {
        const auto *DS = dyn_cast<DeclStmt>(S);
        return DS && llvm::is_contained(DS->decls(), V);
      });
      if (Declares) {
        Scope = CS;
        break;
      }
    }
    Child = Parent;
  }
  if (!Scope)
    return None;
  auto IsChild = [&](const Stmt *M) {
    const Stmt *Top = M;
    while (const Stmt *P = I.PM->getParent(Top)) {
      if (P == Scope)
        return true;
      // `idx += 32;` as written: the write, through implicit nodes only.
      if (!isa<ExprWithCleanups, ImplicitCastExpr, ParenExpr>(P))
        return false;
      Top = P;
    }
    return false;
  };
  auto It = I.Mods.find(V);
  if (It == I.Mods.end() || !llvm::all_of(It->second, IsChild))
    return None;
  Vals Val;
  bool Declared = false;
  for (const Stmt *S : Scope->body()) {
    if (S == Child)
      break;
    if (const auto *DS = dyn_cast<DeclStmt>(S);
        DS && llvm::is_contained(DS->decls(), V)) {
      Declared = true;
      Val = evalW(V->getInit(), Fr, En, Active, Depth + 1);
      continue;
    }
    if (!Declared || !Val.Valid)
      continue;
    const Expr *W = dyn_cast<Expr>(S);
    W = W ? W->IgnoreImplicit()->IgnoreParens() : nullptr;
    if (!W || !llvm::is_contained(It->second, W))
      continue;
    if (const auto *UO = dyn_cast<UnaryOperator>(W)) {
      if (!UO->isIncrementDecrementOp())
        return None;
      const int64_t Step = UO->isIncrementOp() ? 1 : -1;
      forLanes(Val.Valid, [&](unsigned K) { Val.V[K] += Step; });
    } else if (const auto *BO = dyn_cast<BinaryOperator>(W)) {
      BinaryOperatorKind Op = BO->getOpcode();
      switch (Op) {
      case BO_Assign: case BO_AddAssign: case BO_SubAssign:
      case BO_MulAssign: case BO_AndAssign: case BO_OrAssign:
      case BO_XorAssign: case BO_ShlAssign:
        break;
      default:
        return None;
      }
      // The right side sees V's value before this write.
      Vals Right = evalW(BO->getRHS(), Fr, En, Val.Valid, Depth + 1);
      Val.Valid = Right.Valid;
      forLanes(Right.Valid, [&](unsigned K) {
        int64_t A = Val.V[K], B = Right.V[K];
        int64_t &Out = Val.V[K];
        switch (Op) {
        case BO_Assign: Out = B; break;
        case BO_AddAssign: Out = int64_t(uint64_t(A) + uint64_t(B)); break;
        case BO_SubAssign: Out = int64_t(uint64_t(A) - uint64_t(B)); break;
        case BO_MulAssign: Out = int64_t(uint64_t(A) * uint64_t(B)); break;
        case BO_AndAssign: Out = A & B; break;
        case BO_OrAssign: Out = A | B; break;
        case BO_XorAssign: Out = A ^ B; break;
        default:
          if (B < 0 || B >= 64)
            Val.Valid &= ~(1u << K);
          else
            Out = int64_t(uint64_t(A) << B);
          break;
        }
      });
    } else {
      return None;
    }
    normalizeAll(Val, V->getType());
  }
  if (!Declared)
    return None;
  return Val;
}

static bool inCooperativeGroups(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "cooperative_groups")
        return true;
  return false;
}

/// The class of the group Obj (a cooperative-groups object) stands for: its
/// type as written, or for a type-erased `thread_group` local that is never
/// written again, the type of what initialises it (`cg::thread_group g =
/// cg::this_thread_block();` is the block).
const CXXRecordDecl *WarpValues::groupRecord(const Expr *Obj) {
  QualType T = Obj->getType();
  if (T->isPointerType())
    T = T->getPointeeType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->getDeclName().isIdentifier() ||
      RD->getName() != "thread_group")
    return RD;
  const auto *DRE = dyn_cast<DeclRefExpr>(Obj);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  const auto *F = V ? dyn_cast_or_null<FunctionDecl>(
                          V->getParentFunctionOrMethod())
                    : nullptr;
  if (!V || !F || isa<ParmVarDecl>(V) || !V->getInit() ||
      V->getType()->isReferenceType() || Facts.isModified(Facts.info(F), V))
    return RD;
  // Through the conversion to the base: the constructor's argument.
  const Expr *Init = V->getInit()->IgnoreImplicit();
  for (unsigned Steps = 0; Steps < 8; ++Steps) {
    if (const auto *CCE = dyn_cast<CXXConstructExpr>(Init);
        CCE && CCE->getNumArgs() == 1)
      Init = CCE->getArg(0)->IgnoreImplicit();
    else if (const auto *ICE = dyn_cast<ImplicitCastExpr>(Init))
      Init = ICE->getSubExpr()->IgnoreImplicit();
    else
      break;
  }
  const CXXRecordDecl *From = Init->getType()->getAsCXXRecordDecl();
  if (From && From->getDeclName().isIdentifier() &&
      From->getName() == "thread_block")
    return From;
  return RD;
}

Vals WarpValues::evalCooperativeW(const CallExpr *CE,
                                                const Env &En,
                                                uint32_t Active) {
  Vals R;
  auto Each = [&](auto &&Fn) { return eachThread(Active, En, Fn); };
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
  if (!MD || !MD->getDeclName().isIdentifier() || !inCooperativeGroups(MD))
    return R;
  StringRef Name = MD->getName();
  // The group's type: the object's, as written (a tile's members may be
  // declared in a base class).
  const Expr *Obj = nullptr;
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE))
    Obj = MCE->getImplicitObjectArgument()->IgnoreParenImpCasts();
  else if (const auto *ME =
               dyn_cast<MemberExpr>(CE->getCallee()->IgnoreParenImpCasts()))
    Obj = ME->getBase()->IgnoreParenImpCasts();
  const CXXRecordDecl *RD = Obj ? groupRecord(Obj) : MD->getParent();
  if (!RD || !RD->getDeclName().isIdentifier())
    return R;
  // The grid: its rank is the block's rank plus the threads of the blocks
  // before it; the model's block stands for any block, and is the first
  // (as `blockIdx` is 0 in it).
  if (RD->getName() == "grid_group") {
    if (Name == "thread_rank")
      return Each([](int64_t X) { return X; });
    return R;
  }
  // The block: its rank is the linear thread index, which is what the
  // model's thread index stands for.
  if (RD->getName() == "thread_block") {
    if (Name == "thread_rank")
      return Each([](int64_t X) { return X; });
    if (Name == "thread_index") // .x of it
      return Each([&](int64_t X) {
        return En.ShapeKnown ? X % En.BlockDim : X;
      });
    if (Name == "num_threads" || Name == "size") {
      noteBlockDim(En);
      return splat(Active, En.BlockDim * En.DimY * En.DimZ);
    }
    return R;
  }
  // A tile of N threads of the block (N a power of two up to 32): lanes
  // Tid % N, tile Tid / N.
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || RD->getName() != "thread_block_tile" ||
      Spec->getTemplateArgs().size() < 1 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Integral)
    return R;
  int64_t N = Spec->getTemplateArgs()[0].getAsIntegral().getExtValue();
  if (N <= 0 || N > 32 || !llvm::isPowerOf2_64(uint64_t(N)))
    return R;
  if (Name == "thread_rank")
    return Each([&](int64_t X) { return X % N; });
  if (Name == "num_threads" || Name == "size")
    return splat(Active, N);
  if (Name == "meta_group_rank")
    return Each([&](int64_t X) { return X / N; });
  if (Name == "meta_group_size") {
    noteBlockDim(En);
    return splat(Active, En.BlockDim / N);
  }
  return R;
}

Vals WarpValues::evalCallW(const CallExpr *CE, const Frame &Fr,
                                         const Env &En, uint32_t Active,
                                         unsigned Depth) {
  Vals Result;
  if (Depth > MaxDepth || isa<CXXOperatorCallExpr>(CE))
    return Result;
  const FunctionDecl *Def = Calls.followable(resolveCallee(CE), Fr);
  if (!Def || !Def->getReturnType()->isIntegerType() || !Facts.info(Def).Ok)
    return Result;
  // Every return gives the same value: the call's value, whatever path the
  // callee takes.
  Frame Callee{Def, CE, &Fr};
  bool First = true;
  for (const Expr *R : Facts.returnsOf(Def)) {
    Vals V = evalW(R, Callee, En, First ? Active : Result.Valid, Depth + 1);
    normalizeAll(V, Def->getReturnType());
    if (First) {
      Result = V;
      First = false;
      continue;
    }
    uint32_t Agree = 0;
    forLanes(V.Valid & Result.Valid, [&](unsigned K) {
      if (V.V[K] == Result.V[K])
        Agree |= 1u << K;
    });
    Result.Valid = Agree;
  }
  return Result;
}

} // namespace cuda_tidy::lanes
