//===--- AccessTable.cpp - One context's accesses and their threads -------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/lanes/AccessTable.h"
#include "lib/ast/CudaAST.h"
#include "lib/lanes/LaneModel.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cuda_tidy::lanes {

llvm::ArrayRef<std::pair<unsigned, Address>>
AccessThreads::warp(unsigned WarpIndex) {
  if (WarpStart.empty()) {
    unsigned Warps = Threads.empty() ? 0 : Threads.back().first / 32 + 1;
    WarpStart.assign(Warps + 1, 0);
    for (const auto &T : Threads)
      ++WarpStart[T.first / 32 + 1];
    for (unsigned K = 1; K <= Warps; ++K)
      WarpStart[K] += WarpStart[K - 1];
  }
  if (WarpIndex + 1 >= WarpStart.size())
    return {};
  return llvm::ArrayRef(Threads).slice(
      WarpStart[WarpIndex], WarpStart[WarpIndex + 1] - WarpStart[WarpIndex]);
}

AccessTable::AccessTable(FunctionFacts &Facts, CallContexts &Calls,
                         WarpAddresses &Addresses, GuardModel &Guards,
                         BlockEvaluator &Block, const Frame &Fr,
                         const CallChain &Chain)
    : Facts(Facts), Calls(Calls), Addresses(Addresses), Guards(Guards),
      Block(Block), Fr(Fr), Chain(Chain) {}

AccessTable::AccessTable(LaneModel &Model, const Frame &Fr,
                         const CallChain &Chain)
    : AccessTable(Model.Facts, Model.Calls, Model.Addresses, Model.Guards,
                  Model.Block, Fr, Chain) {}

void AccessTable::add(FrameAccess FA) {
  Access &A = *FA.A;
  if (A.DependentElement && !Opts.DependentElements)
    return;
  const Frame &AF = FA.frame(Fr);
  // Does its base reach shared memory? (Indices are not needed.)
  const Expr *Base = A.E->IgnoreParens();
  while (true) {
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Base))
      Base = ASE->getBase()->IgnoreParenCasts();
    else if (const auto *ME = dyn_cast<MemberExpr>(Base))
      Base = ME->getBase()->IgnoreParenCasts();
    else if (const auto *UO = dyn_cast<UnaryOperator>(Base);
             UO &&
             (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf))
      Base = UO->getSubExpr()->IgnoreParenCasts();
    else if (const auto *BO = dyn_cast<BinaryOperator>(Base);
             BO && BO->isAdditiveOp())
      Base = (BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                       : BO->getRHS())
                 ->IgnoreParenCasts();
    else
      break;
  }
  bool Global = false;
  // The object does not depend on the thread, but the pointer's offset may
  // read threadIdx.y or .z (`float *p = blk + threadIdx.z * 8 * W +
  // threadIdx.x`): they are evaluated in the context's first block shape,
  // which gives them values where a launch gives one.
  Env En;
  setShape(En, Calls.blockShapes(Fr).front());
  if (const VarDecl *V = refVar(Base)) {
    if (V->hasAttr<CUDASharedAttr>()) {
      FA.Key = sharedKey(V);
    } else {
      if (auto Ad = Addresses.evalPtrVar(V, AF, En)) {
        FA.Key = Ad->Key;
        Global = isa_and_nonnull<ParmVarDecl>(Ad->Var);
      }
    }
  }
  // Global memory: only accesses indexed by the thread's position (every
  // lane reading `out[0]` while lane 0 writes it is a data race across the
  // block, not a warp exchange a `__syncwarp` orders).
  if (FA.Key && Global) {
    Env E0 = En, E1 = En;
    E0.Tid = 0;
    E1.Tid = 1;
    auto A0 = Addresses.evalObj(A.E, AF, E0),
         A1 = Addresses.evalObj(A.E, AF, E1);
    if (A0 && A1 && A0->Byte == A1->Byte)
      FA.Key = nullptr;
  }
  FA.Global = Global;
  if (FA.Key)
    Acc.push_back(std::move(FA));
}

void AccessTable::collect(FunctionInfo &I, bool CallOpaque,
                          TableOptions Options) {
  Opts = Options;
  const bool OwnWithHelpers = Opts.OwnWithHelpers;
  for (Access &A : I.Accesses) {
    FrameAccess FA(&A, {}, CallOpaque);
    FA.Where = A.Where;
    FA.Statement = A.Statement;
    Guards.guardOf(A.E, Fr.F->getBody(), I, Fr, FA.Guard, FA.Loops, FA.Opaque);
    add(std::move(FA));
  }
  // The accesses of the helpers this context calls, each at its call: a
  // write made in one call and a read made in another, with no barrier
  // between the calls, are an exchange too (`f(&s[t], 32); f(&s[(2 * t) &
  // 63], 1);`). A helper that reaches a barrier is a barrier itself;
  // accesses under a loop of the helper are left out.
  // Only pairs from two different calls are looked at, unless the client
  // pairs them with this function's own accesses: with fewer than two such
  // calls (or one and no access of its own) there is nothing to add.
  struct HelperCall {
    const CallExpr *Call;
    Pos Where;
    const FunctionDecl *Def;
    FunctionInfo *CI;
  };
  llvm::SmallVector<HelperCall, 4> Helpers;
  for (const auto &[Call, Where] : Facts.callsOf(I)) {
    const FunctionDecl *Def = Calls.followable(resolveCallee(Call), Fr);
    if (!Def || Facts.reachesBarrier(Def, 0))
      continue;
    FunctionInfo &CI = Facts.info(Def);
    if (!CI.Ok)
      continue;
    // A helper with no access of its own may still call one that has
    // (deeper calls are followed for OwnWithHelpers only).
    if (!Facts.accessesOf(CI).empty() ||
        (OwnWithHelpers && !Facts.callsOf(CI).empty()))
      Helpers.push_back({Call, Where, Def, &CI});
  }
  if (Helpers.size() < 2 && !(OwnWithHelpers && !Acc.empty()))
    Helpers.clear();
  for (const HelperCall &H : Helpers) {
    const Frame *In = Calls.callFrame(H.Def, H.Call, Fr);
    llvm::SmallVector<const ForStmt *, 2> CallLoops;
    bool Opaque = CallOpaque;
    FrameAccess Outer(nullptr, {}, false);
    Guards.guardOf(H.Call, Fr.F->getBody(), I, Fr, Outer.CallGuard, CallLoops,
                   Opaque);
    Outer.Loops.assign(CallLoops.begin(), CallLoops.end());
    Outer.Opaque = Opaque;
    Outer.Where = H.Where;
    Outer.Statement = Facts.statementOf(H.Call, I);
    Outer.Site = H.Call;
    placeHelper(H.Def, *H.CI, *In, Outer, OwnWithHelpers, 0);
  }
}

void AccessTable::placeAroundBarriers(
    FunctionInfo &I, const CallExpr *Call, Pos Where, Pos After,
    const FunctionDecl *Def, const Frame &In,
    llvm::function_ref<unsigned(const Access &)> Side) {
  FunctionInfo &CI = Facts.info(Def);
  FrameAccess Outer(nullptr, {}, false);
  llvm::SmallVector<const ForStmt *, 2> CallLoops;
  bool Opaque = llvm::any_of(Chain, [](const CallLevel &L) { return L.Opaque; });
  Guards.guardOf(Call, Fr.F->getBody(), I, Fr, Outer.CallGuard, CallLoops,
                 Opaque);
  Outer.Loops.assign(CallLoops.begin(), CallLoops.end());
  Outer.Opaque = Opaque;
  Outer.Statement = Facts.statementOf(Call, I);
  Outer.Site = Call;
  Outer.In = &In;
  for (Access &A : Facts.accessesOf(CI)) {
    const unsigned Sides = Side(A);
    if (!Sides)
      continue;
    FrameAccess FA = Outer;
    FA.A = &A;
    llvm::SmallVector<const ForStmt *, 2> Inner;
    Guards.guardOf(A.E, Def->getBody(), CI, In, FA.Guard, Inner, FA.Opaque);
    if (!Inner.empty())
      continue;
    if (Sides & 1) {
      FrameAccess B = FA;
      B.Side = FrameAccess::Part::Before;
      B.Where = Where;
      add(std::move(B));
    }
    if (Sides & 2) {
      FA.Side = FrameAccess::Part::After;
      FA.Where = After;
      add(std::move(FA));
    }
  }
}

void AccessTable::placeHelper(const FunctionDecl *Def, FunctionInfo &CI,
                              const Frame &In, const FrameAccess &Outer,
                              bool Nested, unsigned Depth) {
  for (Access &A : Facts.accessesOf(CI)) {
    FrameAccess FA = Outer;
    FA.A = &A;
    llvm::SmallVector<const ForStmt *, 2> Inner;
    Guards.guardOf(A.E, Def->getBody(), CI, In, FA.Guard, Inner, FA.Opaque);
    if (!Inner.empty())
      continue;
    FA.In = &In;
    add(std::move(FA));
  }
  // The helpers it calls, at the same call of this frame (none reaches a
  // barrier: Def would). A call under a loop of Def is left out, as an
  // access is.
  constexpr unsigned MaxNesting = 8;
  if (!Nested || Depth >= MaxNesting)
    return;
  for (const auto &[Call, Where] : Facts.callsOf(CI)) {
    const FunctionDecl *Inner = Calls.followable(resolveCallee(Call), In);
    if (!Inner)
      continue;
    FunctionInfo &II = Facts.info(Inner);
    if (!II.Ok || (Facts.accessesOf(II).empty() && Facts.callsOf(II).empty()))
      continue;
    FrameAccess Next = Outer;
    llvm::SmallVector<Cond, 2> Guard;
    llvm::SmallVector<const ForStmt *, 2> Loops;
    Guards.guardOf(Call, Def->getBody(), CI, In, Guard, Loops, Next.Opaque);
    if (!Loops.empty())
      continue;
    Next.MidGuards.push_back({std::move(Guard), &In});
    placeHelper(Inner, II, *Calls.callFrame(Inner, Call, In), Next, Nested,
                Depth + 1);
  }
}

AccessTable::Key AccessTable::keyOf(unsigned K, const Env &E,
                                    unsigned ShapeIdx) const {
  Key Out{int64_t(K), int64_t(ShapeIdx)};
  llvm::SmallVector<std::pair<intptr_t, int64_t>, 4> Loops;
  for (const auto &[V, X] : E.Loop)
    Loops.push_back({intptr_t(V), X});
  // A stride loop's iteration: its variable's address plus one
  // (declarations are aligned), apart from a loop value.
  for (const auto &[V, X] : E.Trips)
    Loops.push_back({intptr_t(V) + 1, X});
  llvm::sort(Loops);
  for (const auto &[V, X] : Loops) {
    Out.push_back(int64_t(V));
    Out.push_back(X);
  }
  return Out;
}

AccessThreads &AccessTable::entry(unsigned K, unsigned ShapeIdx,
                                  const Env &E) {
  return Cache[keyOf(K, E, ShapeIdx)];
}

const AccessThreads *AccessTable::larger(unsigned K, unsigned ShapeIdx,
                                         const Env &E) {
  const unsigned Largest = unsigned(Shapes.size() - 1);
  if (Shapes[ShapeIdx].Known || ShapeIdx == Largest)
    return nullptr;
  auto It = Cache.find(keyOf(K, E, Largest));
  if (It == Cache.end() || !It->second.Filled || It->second.ReadsBlockDim ||
      !It->second.Unknown.empty())
    return nullptr;
  return &It->second;
}

bool AccessTable::blockLanes(const FrameAccess &A, unsigned NumThreads,
                             const Env &E,
                             llvm::SmallVectorImpl<uint32_t> &Pass) {
  // The caller's guards, those of the helpers between, and the access's own.
  llvm::SmallVector<std::pair<llvm::ArrayRef<Cond>, const Frame *>, 3> Rest = {
      {A.CallGuard, &Fr}};
  for (const auto &[G, GF] : A.MidGuards)
    Rest.push_back({G, GF});
  Rest.push_back({A.Guard, &A.frame(Fr)});
  return Block.blockLanes(Chain, Rest, E, NumThreads, Pass);
}

void AccessTable::fill(AccessThreads &C, const FrameAccess &A,
                       unsigned NumThreads, Env &E2) {
  C.Filled = true;
  bool *Outer = E2.ReadBlockDim;
  E2.ReadBlockDim = &C.ReadsBlockDim;
  auto Record = [&](unsigned Tid, const Address &Ad) {
    C.Threads.push_back({Tid, Ad});
  };
  // Threads of the batch at Base that run the access (Lanes) on an object
  // the model knows at an element it does not.
  const Frame &AF = A.frame(Fr);
  auto Unplaced = [&](unsigned Base, uint32_t Lanes, const Addrs &Ad) {
    if (!Ad.Key || !Lanes)
      return;
    C.UnplacedKey = Ad.Key;
    C.UnplacedVar = Ad.Var;
    // The place within a row, where a row index is what is not known.
    Env Loose = E2;
    Loose.Tid = Base;
    Loose.LooseRows = &C.UnplacedModulus;
    const Addrs InRow = Addresses.evalObjW(A.A->E, AF, Loose, Lanes);
    forLanes(Lanes, [&](unsigned L) {
      C.Unplaced.push_back(Base + L);
      C.UnplacedBytes.push_back(InRow.Valid >> L & 1 && InRow.Key == Ad.Key
                                    ? InRow.Byte[L]
                                    : AccessThreads::NoPlace);
    });
  };
  // The guards of the whole block at once where they allow, then the
  // elements of the warps that run the access.
  llvm::SmallVector<uint32_t, 32> Pass;
  if (blockLanes(A, NumThreads, E2, Pass)) {
    // `base[index]` with a base every thread shares: the index for the
    // whole block at once too.
    BlockAddress BA;
    const bool Whole =
        llvm::any_of(Pass, [](uint32_t Lanes) { return Lanes != 0; }) &&
        Block.blockAddress(A.A->E, AF, E2, unsigned(Pass.size()), BA);
    for (unsigned WarpIndex = 0; WarpIndex < Pass.size(); ++WarpIndex) {
      if (!Pass[WarpIndex])
        continue;
      if (Whole) {
        forLanes(Pass[WarpIndex], [&](unsigned L) {
          Record(WarpIndex * 32 + L,
                 Address{BA.Key, BA.Var, BA.byteAt(WarpIndex, L)});
        });
        continue;
      }
      E2.Tid = WarpIndex * 32;
      Addrs Ad = Addresses.evalObjW(A.A->E, AF, E2, Pass[WarpIndex]);
      forLanes(Ad.Valid, [&](unsigned L) {
        Record(WarpIndex * 32 + L, Address{Ad.Key, Ad.Var, Ad.Byte[L]});
      });
      Unplaced(WarpIndex * 32, Pass[WarpIndex] & ~Ad.Valid, Ad);
    }
  } else {
    // Warp by warp: the threads of each batch that pass the caller's and
    // the access's guards.
    for (unsigned Base = 0; Base < NumThreads; Base += 32) {
      E2.Tid = Base;
      uint32_t Unknown = 0;
      uint32_t Lanes = Guards.passesChain(Chain, E2, batchOf(Base, NumThreads),
                                          Unknown, &C.Unknown);
      if (!A.CallGuard.empty())
        Lanes =
            Guards.evalGuard(A.CallGuard, Fr, E2, Lanes, Unknown, &C.Unknown);
      for (const auto &[G, GF] : A.MidGuards)
        Lanes = Guards.evalGuard(G, *GF, E2, Lanes, Unknown, &C.Unknown);
      Lanes = Guards.evalGuard(A.Guard, AF, E2, Lanes, Unknown, &C.Unknown);
      Addrs Ad = Addresses.evalObjW(A.A->E, AF, E2, Lanes);
      forLanes(Ad.Valid, [&](unsigned L) {
        Record(Base + L, Address{Ad.Key, Ad.Var, Ad.Byte[L]});
      });
      // Lanes a stride loop's test could not be evaluated for run the
      // iteration, sampled (Guards.h); a lane another condition left unknown
      // marks the entry unknown (C.Unknown), so no client reads it.
      Unplaced(Base, Lanes & ~Ad.Valid, Ad);
    }
  }
  E2.ReadBlockDim = Outer;
}

std::optional<bool> AccessTable::warpsAlike(unsigned K, unsigned ShapeIdx,
                                            Env &E2) {
  // A filled entry answers as cheaply (the caller asks threads()).
  if (auto It = Cache.find(keyOf(K, E2, ShapeIdx));
      It != Cache.end() && It->second.Filled)
    return std::nullopt;
  std::optional<WarpLayout> L = warpLayout(K, ShapeIdx, E2);
  if (!L)
    return std::nullopt;
  return L->SameLanes && (!L->Lanes || L->Stride == 0);
}

std::optional<AccessTable::WarpLayout>
AccessTable::warpLayout(unsigned K, unsigned ShapeIdx, Env &E2) {
  auto [It, New] = Layouts.try_emplace(keyOf(K, E2, ShapeIdx));
  LayoutEntry &L = It->second;
  if (New) {
    bool *Outer = E2.ReadBlockDim;
    E2.ReadBlockDim = &L.ReadsBlockDim;
    L.Layout = computeLayout(K, ShapeIdx, E2, L);
    E2.ReadBlockDim = Outer;
  }
  if (L.ReadsBlockDim && E2.ReadBlockDim)
    *E2.ReadBlockDim = true;
  return L.Layout;
}

std::optional<AccessTable::WarpLayout>
AccessTable::computeLayout(unsigned K, unsigned ShapeIdx, Env &E2,
                           LayoutEntry &Entry) {
  const FrameAccess &A = Acc[K];
  const unsigned NumThreads = unsigned(Shapes[ShapeIdx].D.product());
  const Frame &AF = A.frame(Fr);
  llvm::SmallVector<uint32_t, 32> Pass;
  if (!blockLanes(A, NumThreads, E2, Pass))
    return std::nullopt;
  WarpLayout Out;
  Out.Lanes = Pass.front();
  Out.SameLanes =
      llvm::all_of(Pass, [&](uint32_t L) { return L == Pass.front(); });
  if (!Out.SameLanes || !Out.Lanes || Pass.size() < 2)
    return Out;
  // Lane L of warp W is at Byte + (A[L] + C W) Size.
  BlockAddress BA;
  if (!Block.blockAddress(A.A->E, AF, E2, unsigned(Pass.size()), BA))
    return std::nullopt;
  Out.Stride = BA.Index.C * BA.Size;
  Entry.HasAddress = true;
  Entry.BA = BA;
  return Out;
}

bool AccessTable::fromLayout(AccessThreads &C, unsigned K, const Env &E) {
  const unsigned Largest = unsigned(Shapes.size() - 1);
  if (Largest == 0 || Shapes[Largest].Known)
    return false;
  auto It = Layouts.find(keyOf(K, E, Largest));
  if (It == Layouts.end() || It->second.ReadsBlockDim || !It->second.Layout ||
      !It->second.Layout->SameLanes)
    return false;
  const LayoutEntry &L = It->second;
  if (L.Layout->Lanes && !L.HasAddress)
    return false;
  C.Filled = true;
  forLanes(L.Layout->Lanes, [&](unsigned Lane) {
    C.Threads.push_back(
        {Lane, Address{L.BA.Key, L.BA.Var, L.BA.byteAt(0, Lane)}});
  });
  return true;
}

AccessThreads &
AccessTable::threads(unsigned K, unsigned ShapeIdx, Env &E2,
                     llvm::SmallPtrSetImpl<const Expr *> &Unknown) {
  AccessThreads *C = &entry(K, ShapeIdx, E2);
  const unsigned NumThreads = unsigned(Shapes[ShapeIdx].D.product());
  if (!C->Filled)
    if (const AccessThreads *L = larger(K, ShapeIdx, E2)) {
      C->Filled = true;
      for (const auto &T : L->Threads)
        if (T.first < NumThreads)
          C->Threads.push_back(T);
      for (unsigned K = 0; K < L->Unplaced.size(); ++K)
        if (L->Unplaced[K] < NumThreads) {
          C->Unplaced.push_back(L->Unplaced[K]);
          C->UnplacedBytes.push_back(L->UnplacedBytes[K]);
        }
      C->UnplacedModulus = L->UnplacedModulus;
      C->UnplacedKey = L->UnplacedKey;
      C->UnplacedVar = L->UnplacedVar;
    }
  if (!C->Filled && NumThreads == 32 && !Shapes[ShapeIdx].Known)
    fromLayout(*C, K, E2);
  if (!C->Filled)
    fill(*C, Acc[K], NumThreads, E2);
  if (C->ReadsBlockDim && E2.ReadBlockDim)
    *E2.ReadBlockDim = true;
  Unknown.insert(C->Unknown.begin(), C->Unknown.end());
  return *C;
}

} // namespace cuda_tidy::lanes
