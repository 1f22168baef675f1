//===--- GridDependency.cpp - What a kernel touches before its wait -------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/pdl/GridDependencyImpl.h"
#include "lib/ast/CudaAST.h"
#include "lib/target/ArchConditionals.h"
#include "lib/target/BinaryCompatibility.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include <vector>

using namespace clang;

namespace cuda_tidy {

bool isWaitAsm(const GCCAsmStmt *Asm) {
  return StringRef(Asm->getAsmString()).contains("griddepcontrol.wait");
}

bool hasMemoryClobber(const GCCAsmStmt *Asm) {
  for (unsigned I = 0, N = Asm->getNumClobbers(); I < N; ++I)
    if (Asm->getClobber(I) == "memory")
      return true;
  return false;
}

FunctionInfo *GridDependencyAnalysis::Impl::info(const FunctionDecl *F) {
  if (!F)
    return nullptr;
  const FunctionDecl *Def = nullptr;
  if (!F->hasBody(Def) || !Def)
    return nullptr;
  auto [It, New] = Infos.try_emplace(Def);
  if (!New)
    return It->second && !It->second->InProgress ? It->second.get() : nullptr;
  It->second = std::make_unique<FunctionInfo>();
  FunctionInfo *I = It->second.get();
  CFG::BuildOptions Opts;
  Opts.PruneTriviallyFalseEdges = true;
  Opts.AddInitializers = true;
  Opts.AddImplicitDtors = false;
  Opts.AddTemporaryDtors = false;
  Opts.setAllAlwaysAdd();
  I->Cfg = CFG::buildCFG(Def, Def->getBody(), &Ctx, Opts);
  if (!I->Cfg) {
    Infos[Def].reset();
    return nullptr;
  }
  solve(*I);
  I->InProgress = false;
  if (I->ExitReached && I->Exit.Must && !isInSystemHeader(Def))
    Wrappers.push_back(Def);
  return I;
}

const LocalFacts &
GridDependencyAnalysis::Impl::localFacts(const FunctionDecl *Def) {
  std::unique_ptr<LocalFacts> &Facts = Locals[Def];
  if (!Facts) {
    Facts = std::make_unique<LocalFacts>();
    scanValues(Def->getBody(), *Facts);
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->getInit())
          scanValues(Init->getInit(), *Facts);
  }
  return *Facts;
}

/// Records the values given to local variables and the locals whose
/// address is taken.
void GridDependencyAnalysis::Impl::scanValues(const Stmt *S, LocalFacts &I) {
  if (!S)
    return;
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        if (const Expr *Init = V->getInit())
          I.Values[V].push_back(Init);
  } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->getOpcode() == BO_Assign)
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
          I.Values[V].push_back(BO->getRHS());
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->getOpcode() == UO_AddrOf)
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
        if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
          I.Escaped.insert(V);
  }
  for (const Stmt *Child : S->children())
    scanValues(Child, I);
}

/// The forward dataflow of the wait state over I's CFG.
void GridDependencyAnalysis::Impl::solve(FunctionInfo &I) {
  CFG &G = *I.Cfg;
  unsigned N = G.getNumBlockIDs();
  I.In.assign(N, WaitState{true, false});
  I.Reached.assign(N, false);
  std::vector<WaitState> Out(N, WaitState{true, false});
  std::vector<bool> OutSet(N, false);
  unsigned Entry = G.getEntry().getBlockID();
  bool Changed = true;
  for (unsigned Round = 0; Changed && Round < 64; ++Round) {
    Changed = false;
    for (const CFGBlock *B : llvm::reverse(G)) {
      unsigned Id = B->getBlockID();
      WaitState S{true, false};
      bool Reached = Id == Entry;
      if (Id == Entry)
        S = WaitState{false, false};
      for (const CFGBlock::AdjacentBlock &P : B->preds()) {
        const CFGBlock *PB = P.getReachableBlock();
        if (!PB || !OutSet[PB->getBlockID()])
          continue;
        const WaitState &PS = Out[PB->getBlockID()];
        S.Must = Reached ? (S.Must && PS.Must) : PS.Must;
        S.May = Reached ? (S.May || PS.May) : PS.May;
        Reached = true;
      }
      if (!Reached)
        continue;
      I.In[Id] = S;
      I.Reached[Id] = true;
      for (const CFGElement &E : *B)
        if (std::optional<CFGStmt> CS = E.getAs<CFGStmt>())
          S = apply(S, effectOf(CS->getStmt()));
      if (!OutSet[Id] || !(Out[Id] == S)) {
        Out[Id] = S;
        OutSet[Id] = true;
        Changed = true;
      }
    }
  }
  unsigned Exit = G.getExit().getBlockID();
  I.ExitReached = I.Reached[Exit];
  I.Exit = I.In[Exit];
}

/// A function in a system header waits when a statement of its body, at
/// the top level, is a wait (the toolkit's and CCCL's small wrappers).
bool GridDependencyAnalysis::Impl::shallowWait(const FunctionDecl *F) {
  const FunctionDecl *Def = nullptr;
  if (!F->hasBody(Def) || !Def)
    return false;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body || Body->size() > 8)
    return false;
  for (const Stmt *S : Body->body()) {
    if (const auto *A = dyn_cast<GCCAsmStmt>(S); A && isWaitAsm(A))
      return true;
    if (const auto *CE = dyn_cast<CallExpr>(S))
      if (calleeName(CE->getDirectCallee()) == "cudaGridDependencySynchronize")
        return true;
  }
  return false;
}

/// Whether S, or a function it calls, may wait: a syntactic scan, so that
/// the CFG is built only for the functions where the wait state changes.
bool GridDependencyAnalysis::Impl::stmtMayWait(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *A = dyn_cast<GCCAsmStmt>(S); A && isWaitAsm(A))
    return true;
  const FunctionDecl *Callee = nullptr;
  if (const auto *CE = dyn_cast<CallExpr>(S))
    Callee = CE->getDirectCallee();
  else if (const auto *CC = dyn_cast<CXXConstructExpr>(S))
    Callee = CC->getConstructor();
  if (Callee) {
    StringRef Name = calleeName(Callee);
    if (Name == "cudaGridDependencySynchronize")
      return true;
    if (isInSystemHeader(Callee) ? shallowWait(Callee) : mayWait(Callee))
      return true;
  }
  for (const Stmt *Child : S->children())
    if (stmtMayWait(Child))
      return true;
  return false;
}

bool GridDependencyAnalysis::Impl::mayWait(const FunctionDecl *F) {
  const FunctionDecl *Def = nullptr;
  if (!F->hasBody(Def) || !Def)
    return false;
  auto [It, New] = MayWaitCache.try_emplace(Def, false);
  if (!New)
    return It->second;
  bool Result = stmtMayWait(Def->getBody());
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      Result = Result || stmtMayWait(Init->getInit());
  MayWaitCache[Def] = Result;
  return Result;
}

Effect GridDependencyAnalysis::Impl::callEffect(const FunctionDecl *Callee) {
  if (!Callee)
    return Effect::None;
  StringRef Name = calleeName(Callee);
  if (Name == "cudaGridDependencySynchronize")
    return Effect::Wait;
  if (isBarrierName(Name))
    return Effect::Barrier;
  if (isInSystemHeader(Callee))
    return shallowWait(Callee) ? Effect::Wait : Effect::None;
  if (!mayWait(Callee))
    return Effect::None;
  FunctionInfo *I = info(Callee);
  if (!I)
    return Effect::None;
  if (I->ExitReached && I->Exit.Must)
    return Effect::Wait;
  if (I->ExitReached && I->Exit.May)
    return Effect::MayWait;
  return Effect::None;
}

Effect GridDependencyAnalysis::Impl::effectOf(const Stmt *S) {
  if (const auto *CE = dyn_cast<CallExpr>(S))
    return callEffect(CE->getDirectCallee());
  if (const auto *CC = dyn_cast<CXXConstructExpr>(S))
    return callEffect(CC->getConstructor());
  if (const auto *A = dyn_cast<GCCAsmStmt>(S)) {
    if (isWaitAsm(A))
      return Effect::Wait;
    std::string AsmText = A->getAsmString();
    StringRef Text(AsmText);
    if (Text.contains("bar.sync") || Text.contains("barrier.sync") ||
        Text.contains("barrier.cta.sync"))
      return Effect::Barrier;
  }
  return Effect::None;
}

//===----------------------------------------------------------------------===//
// The walk for accesses before the wait.
//===----------------------------------------------------------------------===//

void GridDependencyAnalysis::Impl::add(const Stmt *Access, const Expr *Through,
                                       bool Write, ArrayRef<const Expr *> Calls,
                                       KernelDependency &Out) {
  if (Out.Early.size() >= 32)
    return;
  EarlyAccess A;
  A.Access = Access;
  A.Through = Through;
  A.Write = Write;
  A.Calls.assign(Calls.begin(), Calls.end());
  Out.Early.push_back(std::move(A));
}

/// The pointer or object an lvalue goes through, for messages.
static const Expr *throughOf(const Expr *L) {
  L = L->IgnoreParenImpCasts();
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(L))
    return AS->getBase()->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(L);
      UO && UO->getOpcode() == UO_Deref)
    return UO->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(L); ME && ME->isArrow())
    return ME->getBase()->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(L))
    return throughOf(ME->getBase());
  return L;
}

void GridDependencyAnalysis::Impl::inspectOpaqueArgs(
    const Stmt *Call, const FunctionDecl *Callee, ArrayRef<const Expr *> Args,
    const Frame &F, SmallVectorImpl<const Expr *> &Calls,
    KernelDependency &Out) {
  if (isAddressOnly(calleeName(Callee)))
    return;
  for (unsigned I = 0; I < Args.size(); ++I) {
    const Expr *Arg = Args[I];
    const ParmVarDecl *P = Callee && I < Callee->getNumParams()
                               ? Callee->getParamDecl(I)
                               : nullptr;
    QualType T = P ? P->getType() : Arg->getType();
    if (T->isPointerType() && pointee(Arg, F) == Space::Global) {
      bool Write = !T->getPointeeType().isConstQualified();
      add(Call, throughOf(Arg), Write, Calls, Out);
      return;
    }
    if (T->isReferenceType() && objectInfo(Arg, F).Where == Space::Global) {
      add(Call, throughOf(Arg), !T.getNonReferenceType().isConstQualified(),
          Calls, Out);
      return;
    }
  }
}

void GridDependencyAnalysis::Impl::inspectCall(
    const CallExpr *CE, const Frame &F, unsigned Depth,
    SmallVectorImpl<const Expr *> &Calls, KernelDependency &Out) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee || isBarrierName(calleeName(Callee)) ||
      calleeName(Callee) == "cudaGridDependencySynchronize")
    return;
  Frame Child;
  Child.Fn = Callee;
  Child.Parent = &F;
  Child.Call = CE;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    Child.Object = MC->getImplicitObjectArgument();
    if (const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens()))
      Child.ObjectIsPointer = ME->isArrow();
  } else if (isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(Callee)) {
    Child.Object = CE->getArg(0);
    Child.ArgOffset = 1;
  }
  const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
  // An implicit or trivial assignment of a whole object.
  if (Method && Method->isTrivial() && Child.Object) {
    if (objectInfo(Child.Object, F).Where == Space::Global)
      add(CE, throughOf(Child.Object), true, Calls, Out);
    else if (CE->getNumArgs() > 1 &&
             objectInfo(CE->getArg(1), F).Where == Space::Global)
      add(CE, throughOf(CE->getArg(1)), false, Calls, Out);
    return;
  }
  const FunctionDecl *Def = nullptr;
  bool Followed = Callee->hasBody(Def) && Def && !isInSystemHeader(Def) &&
                  isDeviceCode(Def) && Depth < 5 && !frameOf(Def, F);
  if (Followed) {
    Child.Fn = Def;
    Calls.push_back(CE);
    walkFunction(Child, Depth + 1, Calls, Out);
    Calls.pop_back();
    return;
  }
  // Only the toolkit's functions (atomics, __ldg, cub's loads) are known
  // to access what they are given; a user function without a body may
  // only compute an address.
  if (!isInSystemHeader(Callee) && !Callee->getBuiltinID())
    return;
  llvm::SmallVector<const Expr *, 4> Args(CE->arg_begin() + Child.ArgOffset,
                                          CE->arg_end());
  inspectOpaqueArgs(CE, Callee, Args, F, Calls, Out);
  if (Child.Object && !Child.ObjectIsPointer &&
      objectInfo(Child.Object, F).Where == Space::Global)
    add(CE, throughOf(Child.Object), false, Calls, Out);
}

void GridDependencyAnalysis::Impl::inspectConstruct(
    const CXXConstructExpr *CE, const Frame &F, unsigned Depth,
    SmallVectorImpl<const Expr *> &Calls, KernelDependency &Out) {
  const CXXConstructorDecl *Ctor = CE->getConstructor();
  if (Ctor->isTrivial() ||
      (Ctor->isCopyOrMoveConstructor() && Ctor->isImplicit())) {
    if (CE->getNumArgs() >= 1 &&
        objectInfo(CE->getArg(0), F).Where == Space::Global)
      add(CE, throughOf(CE->getArg(0)), false, Calls, Out);
    return;
  }
  const FunctionDecl *Def = nullptr;
  if (Ctor->hasBody(Def) && Def && !isInSystemHeader(Def) && Depth < 5 &&
      !frameOf(Def, F)) {
    Frame Child;
    Child.Fn = Def;
    Child.Parent = &F;
    Child.Call = CE;
    Calls.push_back(CE);
    walkFunction(Child, Depth + 1, Calls, Out);
    Calls.pop_back();
    return;
  }
  llvm::SmallVector<const Expr *, 4> Args(CE->arg_begin(), CE->arg_end());
  inspectOpaqueArgs(CE, Ctor, Args, F, Calls, Out);
}

void GridDependencyAnalysis::Impl::inspect(const Stmt *S, const Frame &F,
                                           unsigned Depth,
                                           SmallVectorImpl<const Expr *> &Calls,
                                           KernelDependency &Out) {
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(S)) {
    if (IC->getCastKind() != CK_LValueToRValue)
      return;
    // A conditional lvalue (`p ? *p : n`) reads one of its arms.
    llvm::SmallVector<const Expr *, 2> Arms = {IC->getSubExpr()};
    for (size_t I = 0; I < Arms.size() && I < 8; ++I) {
      const Expr *Arm = Arms[I]->IgnoreParens();
      if (const auto *CO = dyn_cast<AbstractConditionalOperator>(Arm)) {
        Arms.push_back(CO->getTrueExpr());
        Arms.push_back(CO->getFalseExpr());
        continue;
      }
      if (objectInfo(Arm, F).Where == Space::Global) {
        add(Arm, throughOf(Arm), false, Calls, Out);
        return;
      }
    }
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp() &&
        objectInfo(BO->getLHS(), F).Where == Space::Global)
      add(BO->getLHS(), throughOf(BO->getLHS()), true, Calls, Out);
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp() &&
        objectInfo(UO->getSubExpr(), F).Where == Space::Global)
      add(UO->getSubExpr(), throughOf(UO->getSubExpr()), true, Calls, Out);
    return;
  }
  if (const auto *CE = dyn_cast<CallExpr>(S))
    return inspectCall(CE, F, Depth, Calls, Out);
  if (const auto *CC = dyn_cast<CXXConstructExpr>(S))
    return inspectConstruct(CC, F, Depth, Calls, Out);
  if (const auto *A = dyn_cast<GCCAsmStmt>(S)) {
    std::string AsmText = A->getAsmString();
    StringRef Text(AsmText);
    if (isWaitAsm(A) || Text.contains("prefetch") || Text.contains("cvta"))
      return;
    bool Write =
        Text.contains("st.") || Text.contains("red.") || Text.contains("atom.");
    for (unsigned I = 0, N = A->getNumInputs(); I < N; ++I) {
      const Expr *In = A->getInputExpr(I);
      if (In->getType()->isPointerType() && pointee(In, F) == Space::Global) {
        add(A, throughOf(In), Write, Calls, Out);
        return;
      }
    }
  }
}

/// Inspects every evaluated statement under S, none of which waits.
void GridDependencyAnalysis::Impl::walkAll(const Stmt *S, const Frame &F,
                                           unsigned Depth,
                                           SmallVectorImpl<const Expr *> &Calls,
                                           KernelDependency &Out) {
  if (!S || isa<LambdaExpr>(S) || isa<UnaryExprOrTypeTraitExpr>(S))
    return;
  for (const Stmt *Child : S->children())
    walkAll(Child, F, Depth, Calls, Out);
  inspect(S, F, Depth, Calls, Out);
}

void GridDependencyAnalysis::Impl::walkFunction(
    const Frame &F, unsigned Depth, SmallVectorImpl<const Expr *> &Calls,
    KernelDependency &Out) {
  // A helper that never waits: every access in it comes before the wait,
  // and no CFG is needed.
  if (F.Parent && !mayWait(F.Fn)) {
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(F.Fn))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        walkAll(Init->getInit(), F, Depth, Calls, Out);
    walkAll(F.Fn->getBody(), F, Depth, Calls, Out);
    return;
  }
  FunctionInfo *I = info(F.Fn);
  if (!I)
    return;
  for (const CFGBlock *B : llvm::reverse(*I->Cfg)) {
    unsigned Id = B->getBlockID();
    if (!I->Reached[Id])
      continue;
    WaitState S = I->In[Id];
    for (const CFGElement &E : *B) {
      std::optional<CFGStmt> CS = E.getAs<CFGStmt>();
      if (!CS)
        continue;
      if (!S.Must)
        inspect(CS->getStmt(), F, Depth, Calls, Out);
      S = apply(S, effectOf(CS->getStmt()));
    }
  }
}

void GridDependencyAnalysis::Impl::collectWaits(const FunctionDecl *Kernel,
                                                KernelDependency &Out) {
  FunctionInfo *I = info(Kernel);
  if (!I)
    return;
  for (const CFGBlock *B : *I->Cfg) {
    if (!I->Reached[B->getBlockID()])
      continue;
    for (const CFGElement &E : *B)
      if (std::optional<CFGStmt> CS = E.getAs<CFGStmt>()) {
        Effect Eff = effectOf(CS->getStmt());
        if (Eff == Effect::Wait || Eff == Effect::MayWait) {
          Out.MayWait = true;
          Out.Waits.push_back(CS->getStmt());
        }
      }
  }
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::sort(Out.Waits, [&](const Stmt *A, const Stmt *B) {
    return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
  });
  Out.Waits.erase(std::unique(Out.Waits.begin(), Out.Waits.end()),
                  Out.Waits.end());
  Out.WaitsOnEveryPath = !I->ExitReached || I->Exit.Must;
}

//===----------------------------------------------------------------------===//
// The public interface.
//===----------------------------------------------------------------------===//

GridDependencyAnalysis::GridDependencyAnalysis(ASTContext &Ctx)
    : P(std::make_unique<Impl>(Ctx)) {}
GridDependencyAnalysis::~GridDependencyAnalysis() = default;

KernelDependency
GridDependencyAnalysis::analyzeKernel(const FunctionDecl *Kernel) {
  KernelDependency Out;
  const FunctionDecl *Def = nullptr;
  if (!Kernel->hasBody(Def) || !Def)
    return Out;
  P->collectWaits(Def, Out);
  Frame Top;
  Top.Fn = Def;
  llvm::SmallVector<const Expr *, 4> Calls;
  P->walkFunction(Top, 0, Calls, Out);
  const SourceManager &SM = P->Ctx.getSourceManager();
  auto Where = [](const EarlyAccess &A) {
    return A.Calls.empty() ? A.Access->getBeginLoc()
                           : A.Calls.front()->getBeginLoc();
  };
  llvm::stable_sort(Out.Early, [&](const EarlyAccess &A, const EarlyAccess &B) {
    return SM.isBeforeInTranslationUnit(Where(A), Where(B));
  });
  return Out;
}

/// The offsets in Text where a wait is written: `griddepcontrol.wait`, or
/// one of Names as a whole identifier.
static llvm::SmallVector<size_t, 2> waitOffsets(StringRef Text,
                                                ArrayRef<StringRef> Names) {
  llvm::SmallVector<size_t, 2> Offsets;
  auto IsIdent = [](char C) { return isAlphanumeric(C) || C == '_'; };
  for (size_t Pos = Text.find("griddepcontrol.wait"); Pos != StringRef::npos;
       Pos = Text.find("griddepcontrol.wait", Pos + 1))
    Offsets.push_back(Pos);
  for (StringRef Name : Names)
    for (size_t Pos = Text.find(Name); Pos != StringRef::npos;
         Pos = Text.find(Name, Pos + 1))
      if ((Pos == 0 || !IsIdent(Text[Pos - 1])) &&
          (Pos + Name.size() >= Text.size() ||
           !IsIdent(Text[Pos + Name.size()])))
        Offsets.push_back(Pos);
  llvm::sort(Offsets);
  return Offsets;
}

/// The text of F's body as written in one file, with its file and offset;
/// empty when the body comes from a macro or spans files.
static StringRef bodyText(const FunctionDecl *F, const SourceManager &SM,
                          FileID &File, unsigned &Begin) {
  const FunctionDecl *Def = nullptr;
  if (!F->hasBody(Def) || !Def || !Def->getBody())
    return StringRef();
  SourceRange R = Def->getBody()->getSourceRange();
  if (R.getBegin().isMacroID() || R.getEnd().isMacroID())
    return StringRef();
  auto [BeginFile, BeginOffset] = SM.getDecomposedLoc(R.getBegin());
  auto [EndFile, End] = SM.getDecomposedLoc(R.getEnd());
  if (BeginFile != EndFile || End < BeginOffset)
    return StringRef();
  File = BeginFile;
  Begin = BeginOffset;
  return SM.getBufferData(File).substr(Begin, End - Begin + 1);
}

/// The names whose call waits: the runtime's and those of WrapperNames.
static llvm::SmallVector<StringRef, 4> waitNames(ArrayRef<StringRef> Wrappers) {
  llvm::SmallVector<StringRef, 4> Names(Wrappers.begin(), Wrappers.end());
  Names.push_back("cudaGridDependencySynchronize");
  return Names;
}

namespace {
/// A wait written in an arm of a target dispatch.
struct ArmWait {
  const TargetDispatch *Dispatch = nullptr;
  unsigned Arm = 0;
  SourceLocation Wait;
  /// The arm's extent in the body text, when it is spelled there.
  size_t TextBegin = 0, TextEnd = 0;
};
} // namespace

/// The waits in the arms of the dispatches written in a body (the file
/// text Body at Begin of File), the first of each arm.
static llvm::SmallVector<ArmWait, 1>
armWaits(const TargetDispatches &Dispatches, FileID File, unsigned Begin,
         StringRef Body, ArrayRef<StringRef> Names, const ASTContext &Ctx) {
  llvm::SmallVector<ArmWait, 1> Out;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation BodyBegin = SM.getComposedLoc(File, Begin);
  SourceRange Range(BodyBegin, BodyBegin.getLocWithOffset(Body.size() - 1));
  for (const TargetDispatch *D : Dispatches.within(Range, SM))
    for (unsigned A = 0; A < D->Arms.size(); ++A) {
      const TargetDispatchArm &Arm = D->Arms[A];
      llvm::SmallVector<size_t, 2> Offsets =
          waitOffsets(armText(Arm, SM, Ctx.getLangOpts()), Names);
      if (Offsets.empty())
        continue;
      // Spelled in the body: the wait itself; else (the arms come from a
      // macro's definition) the invocation.
      auto [ArmFile, ArmBegin] = SM.getDecomposedLoc(Arm.SpellingBegin);
      ArmWait W{D, A, D->Expansion.getBegin()};
      if (ArmFile == File && ArmBegin >= Begin &&
          ArmBegin < Begin + Body.size()) {
        W.Wait = Arm.SpellingBegin.getLocWithOffset(Offsets[0]);
        W.TextBegin = ArmBegin - Begin;
        W.TextEnd = W.TextBegin + armText(Arm, SM, Ctx.getLangOpts()).size();
      }
      Out.push_back(W);
    }
  return Out;
}

bool GridDependencyAnalysis::mentionsWait(const FunctionDecl *Kernel,
                                          ArrayRef<StringRef> WrapperNames,
                                          const TargetDispatches *Dispatches) {
  FileID File;
  unsigned Begin = 0;
  StringRef Text = bodyText(Kernel, P->Ctx.getSourceManager(), File, Begin);
  if (Text.empty())
    return false;
  llvm::SmallVector<StringRef, 4> Names = waitNames(WrapperNames);
  return !waitOffsets(Text, Names).empty() ||
         (Dispatches && !Dispatches->empty() &&
          !armWaits(*Dispatches, File, Begin, Text, Names, P->Ctx).empty());
}

/// Whether a GPU that launches kernels early (compute capability 9.0 and
/// later) runs the code of compilation T in a build of Build: T is 9.0 or
/// later, or T's PTX is the newest code of the build that such a GPU runs.
static bool runsWhereLaunchesAreEarly(const CompileTarget &T,
                                      ArrayRef<CompileTarget> Build) {
  if (T.CudaArch >= 900)
    return true;
  auto PtxOf = [](const CompileTarget &C) {
    CodeImage Image;
    Image.Kind = ImageKind::Ptx;
    Image.Major = C.CudaArch / 100;
    Image.Minor = C.CudaArch % 100 / 10;
    Image.Features = C.Features;
    return Image;
  };
  for (const ArchLimits *Device : knownDevices()) {
    unsigned Major = Device->Major, Minor = Device->Minor;
    if (Major < 9 || !runsOn(PtxOf(T), Major, Minor))
      continue;
    if (llvm::none_of(Build, [&](const CompileTarget &C) {
          return C.CudaArch > T.CudaArch && runsOn(PtxOf(C), Major, Minor);
        }))
      return true;
  }
  return false;
}

/// The outermost branch of Chains holding the text offset Offset that the
/// compilation T does not take, or null.
static const ConditionalBranch *branchNotTaken(const ConditionalText &Chains,
                                               size_t Offset,
                                               const CompileTarget &T,
                                               const LangOptions &LO) {
  for (const ConditionalChain &C : Chains.Chains) {
    llvm::SmallVector<Truth, 4> Truths =
        branchTruths(C, T.macros(), LO, ToolkitVersion{});
    for (unsigned B = 0; B < C.Branches.size(); ++B)
      if (Offset >= C.Branches[B].End && Offset < C.Branches[B].BodyEnd &&
          Truths[B] == Truth::False)
        return &C.Branches[B];
  }
  return nullptr;
}

/// Whether T compiles out every wait of InArms's dispatches at or after
/// index I that belongs to InArms[I]'s dispatch; sets W's dispatch fields
/// from the first, and advances I past that dispatch.
static bool dispatchLeavesOut(ArrayRef<ArmWait> InArms, size_t &I,
                              const CompileTarget &T, CompiledOutWait &W) {
  const TargetDispatch *D = InArms[I].Dispatch;
  bool AllOff = true;
  for (; I < InArms.size() && InArms[I].Dispatch == D; ++I) {
    unsigned Deciding = InArms[I].Arm;
    if (armKept(*D, InArms[I].Arm, T.macros(), &Deciding) != Truth::False) {
      AllOff = false;
      continue;
    }
    if (W.Wait.isValid())
      continue;
    W.Directive = D->Expansion.getBegin();
    W.Wait = InArms[I].Wait;
    W.Dispatch = D;
    W.Query = D->Arms[Deciding].Query;
    W.QueryHolds = Deciding != InArms[I].Arm;
  }
  return AllOff;
}

llvm::SmallVector<CompiledOutWait, 1> GridDependencyAnalysis::compiledOutWaits(
    const FunctionDecl *Kernel, ArrayRef<CompileTarget> Targets,
    ArrayRef<StringRef> WrapperNames, const TargetDispatches *Dispatches,
    bool OlderCodeLaunchedEarly) {
  llvm::SmallVector<CompiledOutWait, 1> Out;
  const SourceManager &SM = P->Ctx.getSourceManager();
  const LangOptions &LO = P->Ctx.getLangOpts();
  FileID File;
  unsigned Begin = 0;
  StringRef Text = bodyText(Kernel, SM, File, Begin);
  if (Text.empty())
    return Out;
  llvm::SmallVector<StringRef, 4> Names = waitNames(WrapperNames);
  // Waits in the arms of `NV_IF_TARGET` and its kin.
  llvm::SmallVector<ArmWait, 1> InArms;
  if (Dispatches && !Dispatches->empty())
    InArms = armWaits(*Dispatches, File, Begin, Text, Names, P->Ctx);
  // Waits under `#if`; those in a dispatch's arm are judged with it.
  bool HasConditionals = Text.contains("#");
  if (!HasConditionals && InArms.empty())
    return Out;
  llvm::SmallVector<size_t, 2> Offsets = waitOffsets(Text, Names);
  llvm::erase_if(Offsets, [&](size_t Offset) {
    return llvm::any_of(InArms, [&](const ArmWait &A) {
      return Offset >= A.TextBegin && Offset < A.TextEnd;
    });
  });
  ConditionalText Chains;
  if (HasConditionals && !Offsets.empty())
    Chains = readConditionals(Text, LO);
  if (!Chains.Balanced)
    return Out;
  for (const CompileTarget &T : Targets) {
    if (T.CudaArch < 900 &&
        (!OlderCodeLaunchedEarly || !runsWhereLaunchesAreEarly(T, Targets)))
      continue;
    // Every wait must be left out for T: one that T keeps is enough.
    CompiledOutWait W;
    W.Target = T;
    bool AllOff = true;
    for (size_t Offset : Offsets) {
      const ConditionalBranch *Off =
          HasConditionals ? branchNotTaken(Chains, Offset, T, LO) : nullptr;
      if (!Off) {
        AllOff = false;
        break;
      }
      if (W.Wait.isInvalid()) {
        W.Directive = SM.getComposedLoc(File, Begin + Off->Begin);
        W.Wait = SM.getComposedLoc(File, Begin + Offset);
      }
    }
    for (size_t I = 0; AllOff && I < InArms.size();)
      AllOff = dispatchLeavesOut(InArms, I, T, W);
    if (AllOff && W.Wait.isValid())
      Out.push_back(W);
  }
  return Out;
}

bool GridDependencyAnalysis::waitsOnEveryPath(const FunctionDecl *F) {
  FunctionInfo *I = P->info(F);
  return I && I->ExitReached && I->Exit.Must;
}

llvm::SmallVector<StringRef, 2> GridDependencyAnalysis::wrapperNames() const {
  llvm::SmallVector<StringRef, 2> Names;
  for (const FunctionDecl *F : P->Wrappers)
    if (F->getIdentifier() && !llvm::is_contained(Names, F->getName()))
      Names.push_back(F->getName());
  return Names;
}

} // namespace cuda_tidy
