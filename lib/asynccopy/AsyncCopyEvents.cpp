//===--- AsyncCopyEvents.cpp - What a statement does to async copies ------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/asynccopy/AsyncCopyEvents.h"
#include "lib/ast/CudaAST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace cuda_tidy {
namespace asynccopy {

/// E without its parentheses and casts, implicit and explicit.
static const Expr *strip(const Expr *E) {
  return E ? E->IgnoreParenCasts() : nullptr;
}

static std::optional<int64_t> constantOf(const Expr *E, ASTContext &Ctx) {
  return constantValue(E, Ctx);
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

static StringRef nameOf(const NamedDecl *D) {
  return D && D->getDeclName().isIdentifier() ? D->getName() : StringRef();
}

/// The class a member function belongs to, or the type of a member call's
/// object.
static StringRef recordName(const CallExpr *CE, const FunctionDecl *FD) {
  if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD))
    if (const CXXRecordDecl *RD = MD->getParent())
      return nameOf(RD);
  if (const Expr *Base = memberCallBase(CE)) {
    QualType T = Base->getType();
    if (T->isPointerType())
      T = T->getPointeeType();
    if (const auto *RD = T->getAsCXXRecordDecl())
      return nameOf(RD);
  }
  return {};
}

/// The first template argument of a call to a function template, as a
/// number (`cg::wait_prior<1>`, `cute::cp_async_wait<0>`).
static std::optional<unsigned> templateCount(const FunctionDecl *FD) {
  if (const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs())
    if (Args->size() > 0 && Args->get(0).getKind() == TemplateArgument::Integral)
      return unsigned(Args->get(0).getAsIntegral().getZExtValue());
  return std::nullopt;
}

static bool inNamespace(const FunctionDecl *FD, StringRef Outer) {
  const DeclContext *DC = FD->getDeclContext();
  const NamespaceDecl *Last = nullptr;
  for (; DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      Last = NS;
  return Last && nameOf(Last) == Outer;
}

static bool containsInsensitive(StringRef S, StringRef Part) {
  return S.lower().find(Part) != std::string::npos;
}

static Event issue(Family F, Spelling Sp, const Expr *Dest, ASTContext &Ctx,
                   const ArgScope *Scope) {
  Event E = makeEvent(EventKind::Issue);
  E.Fam = F;
  E.Spell = Sp;
  E.Where = locate(Dest, Ctx, Scope);
  return E;
}

/// The pipeline object E names (`pipe`, `*pipe`), read through Scope's
/// arguments where it is a helper's parameter.
static const ValueDecl *pipelineObject(const Expr *E, const ArgScope *Scope) {
  for (int Depth = 0; Depth < 4 && E; ++Depth) {
    E = strip(E);
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      E = U->getSubExpr();
      continue;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    if (!DRE)
      return nullptr;
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()); P && Scope) {
      auto It = Scope->Args.find(P);
      if (It == Scope->Args.end())
        return P;
      E = It->second;
      Scope = Scope->Outer;
      continue;
    }
    return DRE->getDecl();
  }
  return nullptr;
}

/// A pipeline shared by a group: any scope but `thread_scope_thread` (the
/// pipeline's first template argument).
static bool isBlockScopePipeline(QualType T) {
  if (T.isNull())
    return false;
  if (T->isPointerType() || T->isReferenceType())
    T = T->getPointeeType();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  if (!Spec || Spec->getTemplateArgs().size() == 0)
    return false;
  const TemplateArgument &A = Spec->getTemplateArgs()[0];
  if (A.getKind() != TemplateArgument::Integral)
    return false;
  if (const auto *ET = A.getIntegralType()->getAs<EnumType>())
    for (const EnumConstantDecl *C : ET->getDecl()->enumerators())
      if (C->getName() == "thread_scope_thread")
        return C->getInitVal() != A.getAsIntegral();
  return false;
}

static Event waitFor(Family F, unsigned Prior, bool All, bool Publishes) {
  Event E = makeEvent(EventKind::Wait);
  E.Fam = F;
  E.Prior = Prior;
  E.AllGroups = All;
  E.Publishes = Publishes;
  return E;
}

/// The first pointer argument from Begin on.
static const Expr *firstPointerArg(const CallExpr *CE, unsigned Begin = 0) {
  for (unsigned I = Begin; I < CE->getNumArgs(); ++I)
    if (CE->getArg(I)->IgnoreParenImpCasts()->getType()->isPointerType() ||
        CE->getArg(I)->getType()->isPointerType())
      return CE->getArg(I);
  return nullptr;
}

/// The last argument that points into a shared variable.
static std::optional<Location> lastSharedArg(const CallExpr *CE,
                                             ASTContext &Ctx,
                                             const ArgScope *Scope) {
  for (unsigned I = CE->getNumArgs(); I-- > 0;)
    if (auto L = locate(CE->getArg(I), Ctx, Scope))
      return L;
  return std::nullopt;
}

static void cudaPtxEvents(const CallExpr *CE, StringRef Name, ASTContext &Ctx,
                          const ArgScope *Scope,
                          llvm::SmallVectorImpl<Event> &Out) {
  if (Name == "fence_proxy_async") {
    Out.push_back(makeEvent(EventKind::ProxyFence));
  } else if (Name == "cp_async_bulk_wait_group_read" ||
             Name == "cp_async_bulk_wait_group") {
    Out.push_back(makeEvent(EventKind::BulkWaitRead));
  } else if (Name.starts_with("mbarrier_try_wait") ||
             Name.starts_with("mbarrier_test_wait")) {
    Out.push_back(waitFor(Family::Barrier, 0, true, true));
  } else if ((Name == "cp_async_bulk" || Name == "cp_async_bulk_tensor") &&
             CE->getNumArgs() >= 3) {
    QualType T = CE->getArg(0)->getType();
    const auto *RD = T->getAsCXXRecordDecl();
    if (RD && nameOf(RD).contains("space_global")) {
      Event E = makeEvent(EventKind::BulkStore);
      E.Where = lastSharedArg(CE, Ctx, Scope);
      Out.push_back(E);
    } else {
      Out.push_back(issue(Family::Barrier, Spelling::Other, CE->getArg(2), Ctx, Scope));
    }
  }
}

/// The name of the CuTe copy operation (`SM80_CP_ASYNC_CACHEGLOBAL`,
/// `SM90_TMA_LOAD`, `SM75_U32x4_LDSM_N`) in a copy atom's or tiled copy's
/// type, found in its template arguments and bases.
static StringRef copyOperation(QualType T, unsigned Depth = 6) {
  if (T.isNull() || Depth == 0)
    return {};
  T = T.getNonReferenceType();
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return {};
  StringRef Name = nameOf(RD);
  if (Name.starts_with("SM80_CP_ASYNC") || Name.starts_with("SM90_TMA_") ||
      Name.starts_with("SM90_BULK") || Name.contains("LDSM"))
    return Name;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    for (const TemplateArgument &A : Spec->getTemplateArgs().asArray())
      if (A.getKind() == TemplateArgument::Type)
        if (StringRef Op = copyOperation(A.getAsType(), Depth - 1); !Op.empty())
          return Op;
  if (RD->hasDefinition())
    for (const CXXBaseSpecifier &B : RD->bases())
      if (StringRef Op = copyOperation(B.getType(), Depth - 1); !Op.empty())
        return Op;
  return {};
}

/// CuTe's generic `copy(atom_or_tiled_copy, src, dst)` where the copy
/// operation's name makes what it does certain; `gemm(mma, a, b, c)` reads
/// its shared operands.
static bool cuteGenericEvents(const CallExpr *CE, StringRef Name,
                              ASTContext &Ctx, const ArgScope *Scope,
                              llvm::SmallVectorImpl<Event> &Out) {
  if (Name == "gemm" && CE->getNumArgs() >= 4) {
    for (unsigned I : {1u, 2u}) {
      Event E = makeEvent(EventKind::SharedRead);
      E.Where = locate(CE->getArg(I), Ctx, Scope);
      if (E.Where)
        Out.push_back(E);
    }
    return true;
  }
  if (Name != "copy" || CE->getNumArgs() < 3)
    return false;
  StringRef Op = copyOperation(CE->getArg(0)->getType());
  if (Op.starts_with("SM80_CP_ASYNC")) {
    Out.push_back(issue(Family::CpAsync, Spelling::Cute, CE->getArg(2), Ctx,
                        Scope));
  } else if (Op.starts_with("SM90_TMA_LOAD") ||
             Op.starts_with("SM90_BULK_COPY_G2S")) {
    Out.push_back(issue(Family::Barrier, Spelling::Other, CE->getArg(2), Ctx,
                        Scope));
  } else if (Op.starts_with("SM90_TMA_STORE") ||
             Op.starts_with("SM90_TMA_REDUCE") ||
             Op.starts_with("SM90_BULK_COPY_S2G")) {
    Event E = makeEvent(EventKind::BulkStore);
    E.Where = locate(CE->getArg(1), Ctx, Scope);
    Out.push_back(E);
  } else {
    // Any other copy out of a shared view reads it (`ldmatrix`, a plain
    // shared-to-register copy).
    Event E = makeEvent(EventKind::SharedRead);
    E.Where = locate(CE->getArg(1), Ctx, Scope);
    if (E.Where)
      Out.push_back(E);
  }
  return true;
}

static void cuteEvents(const CallExpr *CE, const FunctionDecl *FD,
                       StringRef Name, StringRef Record, ASTContext &Ctx,
                       const ArgScope *Scope,
                       llvm::SmallVectorImpl<Event> &Out) {
  if (Name == "copy" && Record.starts_with("SM80_CP_ASYNC") &&
      CE->getNumArgs() >= 2) {
    Out.push_back(issue(Family::CpAsync, Spelling::Cute, CE->getArg(1), Ctx, Scope));
  } else if (Name == "copy" && Record.starts_with("SM90_TMA_LOAD")) {
    for (const Expr *A : CE->arguments()) {
      QualType T = A->IgnoreParenImpCasts()->getType();
      if (T->isPointerType() && T->getPointeeType()->isVoidType() &&
          !T->getPointeeType().isConstQualified()) {
        Out.push_back(issue(Family::Barrier, Spelling::Other, A, Ctx, Scope));
        return;
      }
    }
  } else if (Name == "copy" && Record.starts_with("SM90_TMA_STORE") &&
             CE->getNumArgs() >= 2) {
    Event E = makeEvent(EventKind::BulkStore);
    E.Where = locate(CE->getArg(1), Ctx, Scope);
    Out.push_back(E);
  } else if (Record.empty() && inNamespace(FD, "cute") &&
             cuteGenericEvents(CE, Name, Ctx, Scope, Out)) {
    return;
  } else if (Name == "cp_async_fence") {
    Out.push_back(makeEvent(EventKind::Commit));
  } else if (Name == "cp_async_wait") {
    if (auto N = templateCount(FD))
      Out.push_back(waitFor(Family::CpAsync, *N, false, false));
  } else if (Name == "tma_store_fence" || Name == "fence_view_async_shared") {
    Out.push_back(makeEvent(EventKind::ProxyFence));
  } else if (Name == "tma_store_wait") {
    Out.push_back(makeEvent(EventKind::BulkWaitRead));
  }
}

static void callEvents(const CallExpr *CE, ASTContext &Ctx,
                       const ArgScope *Scope,
                       llvm::SmallVectorImpl<Event> &Out) {
  const FunctionDecl *FD = resolveCallee(CE);
  StringRef Name = nameOf(FD);
  if (Name.empty())
    return;
  if (Name == "__pipeline_memcpy_async" && CE->getNumArgs() >= 1) {
    Out.push_back(issue(Family::CpAsync, Spelling::Primitive, CE->getArg(0), Ctx, Scope));
    return;
  }
  if (Name == "__pipeline_commit") {
    Out.push_back(makeEvent(EventKind::Commit));
    return;
  }
  if (Name == "__pipeline_wait_prior" && CE->getNumArgs() == 1) {
    auto N = constantOf(CE->getArg(0), Ctx);
    // An unknown count is taken as a wait for everything: no report.
    Out.push_back(waitFor(Family::CpAsync, N ? unsigned(*N) : 0, false, false));
    return;
  }
  StringRef Record = recordName(CE, FD);
  if (inNamespace(FD, "cooperative_groups")) {
    if (Name == "memcpy_async" && CE->getNumArgs() >= 3) {
      Event E = issue(Family::CpAsync, Spelling::CooperativeGroup,
                      CE->getArg(1), Ctx, Scope);
      E.CommitsItself = true;
      E.Group = CE->getArg(0);
      Out.push_back(E);
    } else if (Name == "wait" && CE->getNumArgs() == 1) {
      Out.push_back(waitFor(Family::CpAsync, 0, false, true));
    } else if (Name == "wait_prior" && CE->getNumArgs() == 1) {
      if (auto N = templateCount(FD))
        Out.push_back(waitFor(Family::CpAsync, *N, false, true));
    }
    return;
  }
  if (inNamespace(FD, "cuda")) {
    if (Name == "memcpy_async" && CE->getNumArgs() >= 4) {
      QualType Last = CE->getArg(CE->getNumArgs() - 1)->getType();
      const auto *RD = Last->getAsCXXRecordDecl();
      const Expr *Dest = firstPointerArg(CE);
      if (RD && containsInsensitive(nameOf(RD), "pipeline")) {
        Event E = issue(Family::Pipeline, Spelling::Other, Dest, Ctx, Scope);
        E.Pipe = pipelineObject(CE->getArg(CE->getNumArgs() - 1), Scope);
        Out.push_back(E);
      }
      else if (RD && containsInsensitive(nameOf(RD), "barrier"))
        Out.push_back(issue(Family::Barrier, Spelling::Other, Dest, Ctx, Scope));
      return;
    }
    if (Name == "memcpy_async_tx" && CE->getNumArgs() >= 1) {
      Out.push_back(issue(Family::Barrier, Spelling::Other, CE->getArg(0), Ctx, Scope));
      return;
    }
    if (Name == "pipeline_consumer_wait_prior") {
      if (auto N = templateCount(FD)) {
        Event E = waitFor(Family::Pipeline, *N, false, true);
        if (CE->getNumArgs() >= 1)
          E.Pipe = pipelineObject(CE->getArg(0), Scope);
        Out.push_back(E);
      }
      return;
    }
    if (Name == "barrier_wait") {
      Out.push_back(waitFor(Family::Barrier, 0, true, true));
      return;
    }
    cudaPtxEvents(CE, Name, Ctx, Scope, Out);
    if (!Out.empty())
      return;
  }
  if (containsInsensitive(Record, "pipeline")) {
    const Expr *Base = memberCallBase(CE);
    Event E = makeEvent(EventKind::Commit, Family::Pipeline);
    if (Name == "consumer_wait") {
      E = waitFor(Family::Pipeline, 0, false, true);
      E.Oldest = true;
    } else if (Name.starts_with("consumer_wait")) {
      // consumer_wait_for / _until: whether the stage landed is the
      // returned value, which the analysis does not follow.
      E = waitFor(Family::Pipeline, 0, false, true);
    } else if (Name == "consumer_release") {
      E = makeEvent(EventKind::Release, Family::Pipeline);
    } else if (Name == "producer_acquire") {
      E = makeEvent(EventKind::Acquire, Family::Pipeline);
    } else if (Name != "producer_commit") {
      return;
    }
    E.Pipe = Base ? pipelineObject(Base, Scope) : nullptr;
    E.BlockScope = Base && isBlockScopePipeline(Base->getType());
    Out.push_back(E);
    return;
  }
  if (containsInsensitive(Record, "barrier")) {
    if (Name == "wait" || Name == "arrive_and_wait" ||
        Name.starts_with("wait_parity") || Name.starts_with("try_wait"))
      Out.push_back(waitFor(Family::Barrier, 0, true, true));
    return;
  }
  if ((Name == "load_matrix_sync" || Name == "store_matrix_sync") &&
      inNamespace(FD, "nvcuda") && CE->getNumArgs() >= 2) {
    const bool Load = Name == "load_matrix_sync";
    Event E = makeEvent(Load ? EventKind::SharedRead : EventKind::SharedWrite);
    E.Where = locate(CE->getArg(Load ? 1 : 0), Ctx, Scope);
    if (E.Where)
      Out.push_back(E);
    return;
  }
  cuteEvents(CE, FD, Name, Record, Ctx, Scope, Out);
}

//===----------------------------------------------------------------------===//
// Inline PTX
//===----------------------------------------------------------------------===//

/// The expression of asm operand `%N`.
static const Expr *operandExpr(const GCCAsmStmt *Asm, unsigned N) {
  if (N < Asm->getNumOutputs())
    return Asm->getOutputExpr(N);
  N -= Asm->getNumOutputs();
  return N < Asm->getNumInputs() ? Asm->getInputExpr(N) : nullptr;
}

/// The operand `%N` inside the I-th (or, with Last, the last) bracketed
/// address of an instruction's operand text.
static const Expr *bracketOperand(const GCCAsmStmt *Asm, StringRef Operands,
                                  bool Last) {
  size_t Open = Last ? Operands.rfind('[') : Operands.find('[');
  if (Open == StringRef::npos)
    return nullptr;
  StringRef Rest = Operands.drop_front(Open + 1).ltrim();
  if (!Rest.consume_front("%"))
    return nullptr;
  unsigned N = 0;
  StringRef Digits = Rest.take_while([](char C) { return isdigit(C); });
  if (Digits.empty() || Digits.getAsInteger(10, N))
    return nullptr;
  return operandExpr(Asm, N);
}

/// `N` or `%K` (a constant operand) as a count.
static std::optional<unsigned> countOperand(const GCCAsmStmt *Asm,
                                            StringRef Text, ASTContext &Ctx) {
  Text = Text.trim();
  unsigned N = 0;
  if (!Text.getAsInteger(10, N))
    return N;
  if (Text.consume_front("%") && !Text.getAsInteger(10, N))
    if (auto V = constantOf(operandExpr(Asm, N), Ctx))
      return unsigned(*V);
  return std::nullopt;
}

static void asmEvents(const GCCAsmStmt *Asm, ASTContext &Ctx,
                      const ArgScope *Scope,
                      llvm::SmallVectorImpl<Event> &Out) {
  std::string Text = Asm->getAsmString();
  llvm::SmallVector<StringRef, 4> Parts;
  StringRef(Text).split(Parts, ';');
  for (StringRef Part : Parts) {
    // Drop labels, braces and a guard predicate.
    Part = Part.trim(" \t\n\r{}");
    if (Part.starts_with("@"))
      Part = Part.drop_until([](char C) { return C == ' ' || C == '\t'; });
    Part = Part.trim();
    StringRef Op = Part.take_until([](char C) { return isspace(C); });
    while (Op.ends_with(":")) { // A label.
      Part = Part.drop_front(Op.size()).trim();
      Op = Part.take_until([](char C) { return isspace(C); });
    }
    StringRef Operands = Part.drop_front(Op.size());
    if (Op.starts_with("cp.async.ca.shared") ||
        Op.starts_with("cp.async.cg.shared")) {
      Out.push_back(issue(Family::CpAsync, Spelling::Asm,
                          bracketOperand(Asm, Operands, false), Ctx, Scope));
    } else if (Op == "cp.async.commit_group") {
      Out.push_back(makeEvent(EventKind::Commit));
    } else if (Op == "cp.async.wait_group") {
      auto N = countOperand(Asm, Operands, Ctx);
      Out.push_back(waitFor(Family::CpAsync, N ? *N : 0, false, false));
    } else if (Op == "cp.async.wait_all") {
      Out.push_back(waitFor(Family::CpAsync, 0, true, false));
    } else if (Op.starts_with("cp.async.bulk.wait_group")) {
      Out.push_back(makeEvent(EventKind::BulkWaitRead));
    } else if ((Op.starts_with("cp.async.bulk.global.shared") ||
                Op.starts_with("cp.reduce.async.bulk.global.shared") ||
                (Op.starts_with("cp.async.bulk.tensor") &&
                 Op.contains(".global.shared")) ||
                (Op.starts_with("cp.reduce.async.bulk.tensor") &&
                 Op.contains(".global.shared")))) {
      Event E = makeEvent(EventKind::BulkStore);
      E.Where = locate(bracketOperand(Asm, Operands, true), Ctx, Scope);
      Out.push_back(E);
    } else if (Op.starts_with("cp.async.bulk.shared") ||
               (Op.starts_with("cp.async.bulk.tensor") &&
                Op.contains(".shared::") && Op.contains(".global"))) {
      Out.push_back(issue(Family::Barrier, Spelling::Asm,
                          bracketOperand(Asm, Operands, false), Ctx, Scope));
    } else if (Op == "fence.proxy.async" ||
               Op.starts_with("fence.proxy.async.shared")) {
      Out.push_back(makeEvent(EventKind::ProxyFence));
    } else if (Op.starts_with("ldmatrix") || Op.starts_with("ld.shared") ||
               Op.starts_with("st.shared") || Op.starts_with("stmatrix")) {
      Event E = makeEvent(Op.starts_with("ld") ? EventKind::SharedRead
                                               : EventKind::SharedWrite);
      E.Where = locate(bracketOperand(Asm, Operands, false), Ctx, Scope);
      if (E.Where)
        Out.push_back(E);
    } else if (Op.starts_with("mbarrier.try_wait") ||
               Op.starts_with("mbarrier.test_wait")) {
      Out.push_back(waitFor(Family::Barrier, 0, true, true));
    }
  }
}

/// CUTLASS 2.x's copy objects, constructed for their effect:
/// `cutlass::arch::cp_async<Bytes, Op>(smem, gmem, guard)` and its
/// `_zfill` and `_nan` forms issue one cp.async into their first argument.
static bool isCutlassCpAsync(const CXXConstructExpr *CC) {
  const CXXRecordDecl *RD = CC->getConstructor()->getParent();
  StringRef Name = nameOf(RD);
  if (Name != "cp_async" && Name != "cp_async_zfill" && Name != "cp_async_nan")
    return false;
  const DeclContext *DC = RD->getDeclContext();
  const auto *Arch = dyn_cast<NamespaceDecl>(DC);
  const auto *Cutlass =
      Arch ? dyn_cast<NamespaceDecl>(Arch->getDeclContext()) : nullptr;
  return Cutlass && nameOf(Arch) == "arch" && nameOf(Cutlass) == "cutlass";
}

llvm::SmallVector<Event, 1> eventsOf(const Stmt *S, ASTContext &Ctx,
                                     const ArgScope *Scope) {
  llvm::SmallVector<Event, 1> Out;
  if (const auto *CE = dyn_cast<CallExpr>(S))
    callEvents(CE, Ctx, Scope, Out);
  else if (const auto *Asm = dyn_cast<GCCAsmStmt>(S))
    asmEvents(Asm, Ctx, Scope, Out);
  else if (const auto *CC = dyn_cast<CXXConstructExpr>(S);
           CC && CC->getNumArgs() >= 2 && isCutlassCpAsync(CC))
    Out.push_back(issue(Family::CpAsync, Spelling::Cutlass, CC->getArg(0),
                        Ctx, Scope));
  return Out;
}

//===----------------------------------------------------------------------===//
// The quick test
//===----------------------------------------------------------------------===//

static bool namesAsyncCopy(StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases({"__pipeline_memcpy_async", "memcpy_async", "memcpy_async_tx",
              "cp_async_bulk", "cp_async_bulk_tensor", "fence_proxy_async",
              "cp_async_bulk_wait_group_read", "tma_store_fence",
              "fence_view_async_shared", "cp_async_fence", "copy"},
             true)
      .Default(false);
}

bool mentionsAsyncCopies(const Stmt *Body, bool Waits, unsigned CalleeDepth) {
  if (!Body)
    return false;
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(Body)) {
    std::string Text = Asm->getAsmString();
    StringRef T(Text);
    if (T.contains("cp.async") || T.contains("fence.proxy.async") ||
        T.contains("cp.reduce.async.bulk") ||
        (Waits && (T.contains("mbarrier.try_wait") ||
                   T.contains("mbarrier.test_wait"))))
      return true;
  } else if (const auto *CC = dyn_cast<CXXConstructExpr>(Body)) {
    if (isCutlassCpAsync(CC))
      return true;
  } else if (const auto *CE = dyn_cast<CallExpr>(Body)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD)
      FD = resolveCallee(CE);
    if (Waits && FD && FD->getDeclName().isIdentifier() &&
        (FD->getName().contains("wait") || FD->getName().contains("commit")))
      return true;
    // A user's helper that issues a copy (or, with Waits, waits).
    if (CalleeDepth > 0 && FD && FD->hasBody() && !isInSystemHeader(FD) &&
        mentionsAsyncCopies(FD->getBody(), Waits, CalleeDepth - 1))
      return true;
    if (namesAsyncCopy(nameOf(FD))) {
      // `copy` only from CuTe's copy atoms, or given one whose operation
      // is asynchronous.
      if (nameOf(FD) != "copy" ||
          recordName(CE, FD).starts_with("SM80_CP_ASYNC") ||
          recordName(CE, FD).starts_with("SM90_TMA"))
        return true;
      if (CE->getNumArgs() >= 3) {
        StringRef Op = copyOperation(CE->getArg(0)->getType());
        if (Op.starts_with("SM80_CP_ASYNC") || Op.starts_with("SM90_TMA") ||
            Op.starts_with("SM90_BULK"))
          return true;
      }
    }
  }
  for (const Stmt *Child : Body->children())
    if (mentionsAsyncCopies(Child, Waits, CalleeDepth))
      return true;
  return false;
}

} // namespace asynccopy
} // namespace cuda_tidy
