//===--- MemoryOrderingCheck.cpp - cuda-memory-ordering -------------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "checks/MemoryOrderingCheck.h"
#include "lib/AnalysisContext.h"
#include "lib/ast/CudaAST.h"
#include "lib/ordering/MemoryOrdering.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_tidy {

MemoryOrderingCheck::MemoryOrderingCheck(StringRef Name,
                                         clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      Module(ModuleOptions::of(*Context, ModuleOptions::ReadsNone)),
      PdlCheckRuns(
          Context->isCheckEnabled("cuda-programmatic-dependent-launch")) {}

bool MemoryOrderingCheck::isLanguageVersionSupported(
    const LangOptions &LangOpts) const {
  return LangOpts.CUDA;
}

void MemoryOrderingCheck::registerMatchers(MatchFinder *Finder) {
  // One matcher, on the device functions: each rule's construct (inline asm,
  // a ticket, a block-scope atomic, a loop) is found in the one walk of the
  // body, so that the statements of the translation unit pay for no
  // matcher of this check.
  Finder->addMatcher(
      functionDecl(isDefinition(),
                   anyOf(hasAttr(attr::CUDADevice), hasAttr(attr::CUDAGlobal)))
          .bind("func"),
      this);
}

void MemoryOrderingCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const auto *Func = Result.Nodes.getNodeAs<FunctionDecl>("func");
  if (Func && !Ctx.getSourceManager().isInSystemHeader(Func->getLocation()) &&
      isAnalysedBody(Func))
    checkBody(*Func, Ctx);
}

namespace {
/// The tickets of a last-block reduction: relaxed read-modify-writes.
bool isTicketCall(const CallExpr &Call) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || !Callee->getIdentifier())
    return false;
  return llvm::StringSwitch<bool>(Callee->getName())
      .Cases({"atomicAdd", "atomicInc", "atomicSub", "atomicDec"}, true)
      .Cases({"atomicAdd_system", "atomicInc_system", "atomicSub_system",
              "atomicDec_system"},
             true)
      .Cases({"fetch_add", "fetch_sub"}, true)
      .Default(false);
}

/// The block-scope atomic functions.
bool isBlockScopeCall(const CallExpr &Call) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || !Callee->getIdentifier())
    return false;
  StringRef Name = Callee->getName();
  return Name.starts_with("atomic") && Name.ends_with("_block") &&
         llvm::StringSwitch<bool>(Name.drop_back(strlen("_block")))
             .Cases({"atomicAdd", "atomicSub", "atomicExch", "atomicMin",
                     "atomicMax", "atomicInc", "atomicDec", "atomicCAS",
                     "atomicAnd", "atomicOr", "atomicXor"},
                    true)
             .Default(false);
}

/// The constructs of a body each rule starts from: loops, inline asm,
/// tickets, and the member calls, constructions and calls that may be
/// block-scope atomics. Lambdas are left out (their call operators are
/// functions of their own); a device lambda's call operator is kept so that
/// its body is walked as one.
class SiteCollector : public RecursiveASTVisitor<SiteCollector> {
public:
  SmallVector<const Stmt *, 8> Loops, Objects;
  SmallVector<const GCCAsmStmt *, 4> Asms;
  SmallVector<const FunctionDecl *, 2> Lambdas;
  /// A ticket whose value is not thrown away, and an `==` or `!=` that may
  /// compare it: a last-block reduction needs both (lib/ordering's
  /// isComparedTicket), and most atomics are histogram counts that have
  /// neither.
  bool HasTicket = false, HasEquality = false;

  bool TraverseLambdaExpr(LambdaExpr *E) {
    if (const CXXMethodDecl *Op = E->getCallOperator())
      Lambdas.push_back(Op);
    return true;
  }
  bool VisitWhileStmt(WhileStmt *S) { return add(Loops, S); }
  bool VisitDoStmt(DoStmt *S) { return add(Loops, S); }
  bool VisitForStmt(ForStmt *S) { return add(Loops, S); }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) { return add(Objects, E); }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *E) { return add(Objects, E); }
  bool VisitCompoundStmt(CompoundStmt *CS) {
    addDiscardedValues(*CS, Discarded);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    HasEquality |= BO->isEqualityOp();
    return true;
  }
  bool VisitGCCAsmStmt(GCCAsmStmt *S) {
    Asms.push_back(S);
    return true;
  }
  bool VisitCallExpr(CallExpr *E) {
    if (isTicketCall(*E))
      HasTicket |= !Discarded.contains(E);
    else if (!isa<CXXMemberCallExpr>(E) && isBlockScopeCall(*E))
      Objects.push_back(E);
    return true;
  }

private:
  /// The expression statements of the compound statements visited so far
  /// (a compound statement is visited before its statements).
  llvm::SmallPtrSet<const Stmt *, 16> Discarded;
  static bool add(SmallVector<const Stmt *, 8> &To, const Stmt *S) {
    To.push_back(S);
    return true;
  }
};
} // namespace

void MemoryOrderingCheck::checkBody(const FunctionDecl &Func, ASTContext &Ctx) {
  if (!Walked.insert(&Func).second)
    return;
  SiteCollector Sites;
  Sites.TraverseStmt(Func.getBody());
  const SourceManager &SM = Ctx.getSourceManager();
  auto FromSystem = [&](const Stmt *S) {
    return SM.isInSystemHeader(SM.getSpellingLoc(S->getBeginLoc()));
  };
  for (const GCCAsmStmt *Asm : Sites.Asms)
    if (!FromSystem(Asm))
      checkAsm(*Asm, Func, Ctx);
  if (Sites.HasTicket && Sites.HasEquality)
    checkTickets(Func, Ctx);
  for (const Stmt *Loop : Sites.Loops)
    checkLoop(*Loop, Func);
  for (const Stmt *Object : Sites.Objects)
    if (!FromSystem(Object))
      checkBlockScope(*Object, Func, Ctx);
  for (const FunctionDecl *Lambda : Sites.Lambdas)
    if (Lambda->hasBody() && isDeviceCode(Lambda) && isAnalysedBody(Lambda))
      checkBody(*Lambda, Ctx);
}

bool MemoryOrderingCheck::memoryAround(const FunctionDecl &Func,
                                       ASTContext &Ctx) {
  auto Touches = [&](const FunctionDecl *F) {
    auto [It, New] = TouchesMemory.try_emplace(F, false);
    if (New)
      It->second = touchesMemory(F->getBody());
    return It->second;
  };
  if (Touches(&Func))
    return true;
  const CallGraphIndex &Calls = Module->analysis(Ctx).callGraph();
  llvm::ArrayRef<CallSite> Callers = Calls.callersOf(&Func);
  if (Callers.empty() || Calls.isAddressTaken(&Func))
    return true;
  for (const CallSite &Site : Callers)
    if (Site.Caller && Touches(Site.Caller))
      return true;
  return false;
}

void MemoryOrderingCheck::checkAsm(const GCCAsmStmt &Asm,
                                   const FunctionDecl &Func, ASTContext &Ctx) {
  std::optional<AsmClobberFinding> Found =
      findAsmWithoutMemoryClobber(Asm, Ctx);
  if (!Found || !memoryAround(Func, Ctx))
    return;
  if (PdlCheckRuns && StringRef(Found->Instruction).starts_with("griddepcontrol"))
    return;
  SourceLocation Loc =
      Ctx.getSourceManager().getFileLoc(Asm.getAsmStringExpr()->getBeginLoc());
  if (!Reported.insert(Loc).second)
    return;
  {
    auto Diag = diag(Loc, "inline asm '%0' has no \"memory\" clobber; the "
                          "compiler may move memory accesses across it")
                << Found->Instruction;
    if (Found->InsertAt.isValid())
      Diag << FixItHint::CreateInsertion(Found->InsertAt, Found->Text);
  }
  if (Found->InsertAt.isInvalid())
    diag(Loc, "add \"memory\" to the clobber list (no automatic fix: %0)",
         DiagnosticIDs::Note)
        << Found->WhyNoFix;
}

void MemoryOrderingCheck::checkTickets(const FunctionDecl &Func,
                                       ASTContext &Ctx) {
  if (!TicketsDone.insert(&Func).second)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  for (const UnfencedTicket &Found : findUnfencedTickets(Func, Ctx)) {
    SourceLocation Loc = SM.getSpellingLoc(Found.Ticket->getBeginLoc());
    if (!Reported.insert(Loc).second)
      continue;
    const FunctionDecl *Callee = Found.Ticket->getDirectCallee();
    {
      auto Diag = diag(Loc, "the ticket '%0' is not ordered after the partial "
                            "results; the last block may read stale values")
                  << (Callee ? Callee->getName() : StringRef("atomic"));
      if (Found.FixProven)
        Diag << FixItHint::CreateInsertion(Found.InsertAt, Found.Text);
    }
    diag(Found.PartialStore->getBeginLoc(),
         isa<CallExpr>(Found.PartialStore)
             ? "partial results stored by this call with no "
               "'__threadfence()' before the ticket"
             : "partial result stored here with no '__threadfence()' before "
               "the ticket",
         DiagnosticIDs::Note);
    diag(Found.PartialLoad->getBeginLoc(),
         "read here by the block that draws the last ticket",
         DiagnosticIDs::Note);
    if (Found.LateFence.isValid())
      diag(Found.LateFence,
           "this fence comes after the ticket and orders nothing for the "
           "stores before it",
           DiagnosticIDs::Note);
    if (!Found.FixProven && Found.InsertAt.isValid())
      diag(Found.InsertAt,
           "insert '__threadfence();' before the ticket where every thread "
           "that stored a partial reaches it (%0)",
           DiagnosticIDs::Note)
          << Found.WhyNoFix
          << FixItHint::CreateInsertion(Found.InsertAt, Found.Text);
  }
}

void MemoryOrderingCheck::checkLoop(const Stmt &Loop,
                                    const FunctionDecl &Func) {
  std::optional<PlainSpinWait> Found = findPlainSpinWait(Loop, Func);
  if (!Found)
    return;
  SourceLocation Loc = Found->FlagLoad->getBeginLoc();
  if (!Reported.insert(Loc).second)
    return;
  diag(Loc, "loop spins on a plain load of '%0' in global memory; the "
            "compiler may load it once and spin forever")
      << Found->Flag->getName();
  diag(Loc,
       "load the flag with 'cuda::atomic_ref<T, cuda::thread_scope_device>"
       "(...).load(cuda::memory_order_acquire)', or through a volatile "
       "pointer with '__threadfence()' after the loop",
       DiagnosticIDs::Note);
}

void MemoryOrderingCheck::checkBlockScope(const Stmt &Site,
                                          const FunctionDecl &Func,
                                          ASTContext &Ctx) {
  std::optional<BlockScopeAtomic> Found;
  const auto *Call = dyn_cast<CallExpr>(&Site);
  bool IsFunction = false;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(&Site)) {
    Found = classifyBlockScopeAtomicRef(*Construct, Func);
  } else if (Call && (Found = classifyBlockScopeAtomicCall(*Call, Func))) {
    IsFunction = true;
  } else if (Call) {
    Found = classifyBlockScopeAtomicObject(*Call, Func);
  }
  if (!Found || !Found->SharedBetweenBlocks || !Found->Base)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = SM.getSpellingLoc(Site.getBeginLoc());
  if (!Reported.insert(Loc).second)
    return;
  auto Diag = diag(Loc, "block-scope atomic on '%0', which threads of every "
                        "block update; it is atomic only within one block")
              << Found->Base->getName();
  if (!IsFunction)
    return;
  // atomicAdd_block(...) -> atomicAdd(...): device scope is stronger.
  const auto *Name =
      dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts());
  if (!Name || Name->getLocation().isMacroID())
    return;
  StringRef Spelled = Name->getDecl()->getName();
  Diag << FixItHint::CreateReplacement(
      CharSourceRange::getTokenRange(Name->getLocation()),
      Spelled.drop_back(strlen("_block")));
}

void MemoryOrderingCheck::onEndOfTranslationUnit() {
  Reported.clear();
  TicketsDone.clear();
  TouchesMemory.clear();
  Walked.clear();
}

} // namespace cuda_tidy
