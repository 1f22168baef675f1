//===--- EarlierKernels.cpp - Which earlier kernel writes a buffer --------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/pdl/EarlierKernels.h"
#include "lib/pdl/EarlierKernelsImpl.h"
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

} // namespace

namespace pdl_detail {

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

} // namespace pdl_detail


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
