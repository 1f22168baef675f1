//===--- LastBlockTickets.cpp - Last-block reductions without a fence -----===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/ordering/MemoryOrderingImpl.h"
#include "lib/ast/FixItHelpers.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace cuda_tidy {

StringRef calleeName(const CallExpr &Call) {
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD || !FD->getDeclName().isIdentifier())
    return "";
  return FD->getName();
}

bool isRelaxedOrder(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return DRE->getDecl()->getName() == "memory_order_relaxed" ||
           DRE->getDecl()->getName() == "relaxed";
  return false;
}

bool isDeviceFence(const Stmt &S) {
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(&S)) {
    std::string Instr = firstOrderingInstruction(Asm->getAsmString());
    return (StringRef(Instr).starts_with("fence") ||
            StringRef(Instr).starts_with("membar")) &&
           !StringRef(Instr).contains(".cta");
  }
  const auto *Call = dyn_cast<CallExpr>(&S);
  if (!Call)
    return false;
  StringRef Name = calleeName(*Call);
  if (Name == "__threadfence" || Name == "__threadfence_system")
    return true;
  if (Name == "atomic_thread_fence" && Call->getNumArgs() >= 1)
    return !isRelaxedOrder(Call->getArg(0));
  return false;
}

/// The lvalue a `cuda::atomic_ref` object refers to: the argument of the
/// constructor of the variable or temporary Object names.
static const Expr *atomicRefTarget(const Expr *Object) {
  Object = Object->IgnoreParenImpCasts();
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(Object))
    Object = MTE->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Object))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      if (V->getInit())
        Object = V->getInit()->IgnoreParenImpCasts();
  if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Object))
    Object = Cast->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Object))
    if (CE->getNumArgs() >= 1)
      return CE->getArg(0);
  return nullptr;
}

namespace {
/// How a read-modify-write orders: relaxed (a ticket without a fence),
/// ordered (release or stronger: it is its own fence), or not an atomic.
enum class RmwKind { None, Relaxed, Ordered };

/// One event of the body, in source order.
struct Event {
  enum Kind { Store, Load, Fence, Ticket } What;
  const Stmt *Node;
  const ValueDecl *Base;
  /// The ancestors of Node, from the body down to Node itself.
  SmallVector<const Stmt *, 12> Path;
};

class EventCollector : public RecursiveASTVisitor<EventCollector> {
public:
  explicit EventCollector(const FunctionDecl &F) : Func(F) {}
  SmallVector<Event, 16> Events;
  SmallVector<const BinaryOperator *, 8> Comparisons;
  llvm::SmallPtrSet<const Stmt *, 8> Discarded;

  bool TraverseStmt(Stmt *S) {
    if (!S)
      return true;
    Stack.push_back(S);
    bool Result = RecursiveASTVisitor::TraverseStmt(S);
    Stack.pop_back();
    return Result;
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

  bool VisitCompoundStmt(CompoundStmt *CS) {
    addDiscardedValues(*CS, Discarded);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isEqualityOp())
      Comparisons.push_back(BO);
    if (BO->isAssignmentOp() && isPlainMemoryLValue(BO->getLHS()))
      addMemoryEvent(Event::Store, BO, BO->getLHS());
    return true;
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *ICE) {
    if (ICE->getCastKind() == CK_LValueToRValue &&
        isPlainMemoryLValue(ICE->getSubExpr()))
      addMemoryEvent(Event::Load, ICE, ICE->getSubExpr());
    return true;
  }
  bool VisitGCCAsmStmt(GCCAsmStmt *Asm) {
    if (isDeviceFence(*Asm))
      add(Event::Fence, Asm, nullptr);
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (isDeviceFence(*Call)) {
      add(Event::Fence, Call, nullptr);
      return true;
    }
    const Expr *Counter = nullptr;
    RmwKind Kind = classifyRmw(*Call, Counter);
    if (Kind == RmwKind::None) {
      addCalleeStores(*Call);
      return true;
    }
    if (!Counter)
      return true;
    MemoryBase Base = memoryBaseOf(Counter, &Func);
    if (Base.Space != MemorySpace::Global)
      return true;
    add(Kind == RmwKind::Ordered ? Event::Fence : Event::Ticket, Call,
        Base.Decl);
    return true;
  }

private:
  RmwKind classifyRmw(const CallExpr &Call, const Expr *&Counter) {
    StringRef Name = calleeName(Call);
    if (Name.consume_front("atomic")) {
      Name.consume_back("_system");
      if ((Name == "Add" || Name == "Inc" || Name == "Sub" || Name == "Dec") &&
          Call.getNumArgs() == 2) {
        Counter = Call.getArg(0);
        return RmwKind::Relaxed;
      }
      return RmwKind::None;
    }
    const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call);
    if (!Member || (Name != "fetch_add" && Name != "fetch_sub"))
      return RmwKind::None;
    // The object's own class: libcu++ declares the members in a base.
    const Expr *Object = Member->getImplicitObjectArgument();
    if (!Object)
      return RmwKind::None;
    Object = Object->IgnoreParenImpCasts();
    const CXXRecordDecl *Class =
        Object->getType().getNonReferenceType()->getAsCXXRecordDecl();
    if (!Class ||
        (Class->getName() != "atomic_ref" && Class->getName() != "atomic"))
      return RmwKind::None;
    Counter =
        Class->getName() == "atomic_ref" ? atomicRefTarget(Object) : Object;
    if (Call.getNumArgs() >= 2 && !isa<CXXDefaultArgExpr>(Call.getArg(1)) &&
        isRelaxedOrder(Call.getArg(1)))
      return RmwKind::Relaxed;
    return RmwKind::Ordered;
  }
  /// A call of a function of the translation unit that is passed a pointer
  /// to global memory reads through it, and stores through it when the
  /// pointee is not const, as far as the events go (the CUDA samples'
  /// reduceBlocks(g_idata, g_odata, ...), llm.c's load128 / store128).
  void addCalleeStores(const CallExpr &Call) {
    const FunctionDecl *Callee = Call.getDirectCallee();
    if (!Callee || !Callee->hasBody() || isa<CXXMemberCallExpr>(Call))
      return;
    for (const Expr *Arg : Call.arguments()) {
      QualType T = Arg->getType();
      if (!T->isPointerType())
        continue;
      MemoryBase Base = memoryBaseOf(Arg, &Func);
      if (Base.Space != MemorySpace::Global || !Base.Decl)
        continue;
      add(Event::Load, &Call, Base.Decl);
      if (!T->getPointeeType().isConstQualified())
        add(Event::Store, &Call, Base.Decl);
    }
  }
  void addMemoryEvent(Event::Kind What, const Stmt *Node, const Expr *LValue) {
    MemoryBase Base = memoryBaseOf(LValue, &Func);
    if (Base.Space == MemorySpace::Global && Base.Decl)
      add(What, Node, Base.Decl);
  }
  void add(Event::Kind What, const Stmt *Node, const ValueDecl *Base) {
    Event E{What, Node, Base, {}};
    E.Path.append(Stack.begin(), Stack.end());
    Events.push_back(std::move(E));
  }
  const FunctionDecl &Func;
  SmallVector<const Stmt *, 16> Stack;
};
} // namespace

static bool contains(const Stmt *Root, const Stmt *Node) {
  if (Root == Node)
    return true;
  for (const Stmt *Child : Root->children())
    if (Child && contains(Child, Node))
      return true;
  return false;
}

static bool refersTo(const Stmt *Root, const ValueDecl *Var) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Root))
    return DRE->getDecl() == Var;
  for (const Stmt *Child : Root->children())
    if (Child && refersTo(Child, Var))
      return true;
  return false;
}

/// Whether the ticket's result decides something: it is compared with `==`
/// or `!=`, directly or through the variable it initialises or is assigned.
static bool isComparedTicket(const Event &Ticket,
                             const EventCollector &Collected) {
  if (Collected.Discarded.count(Ticket.Node))
    return false;
  const ValueDecl *Holder = nullptr;
  for (auto It = Ticket.Path.rbegin(); It != Ticket.Path.rend(); ++It) {
    if (const auto *DS = dyn_cast<DeclStmt>(*It)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          if (V->getInit() && contains(V->getInit(), Ticket.Node))
            Holder = V;
      break;
    }
    // `t = ticket`, or `*flag = ticket` / `flag[0] = ticket` (llm.c keeps
    // the ticket in shared memory for the block): the variable that holds
    // it, or the pointer to where it is kept.
    if (const auto *BO = dyn_cast<BinaryOperator>(*It))
      if (BO->getOpcode() == BO_Assign) {
        const Expr *LHS = BO->getLHS()->IgnoreParenImpCasts();
        if (const auto *DRE = dyn_cast<DeclRefExpr>(LHS))
          Holder = DRE->getDecl();
        else if (isPlainMemoryLValue(LHS))
          Holder = memoryBaseOf(LHS, nullptr).Decl;
        break;
      }
    if (isa<CompoundStmt>(*It))
      break;
  }
  for (const BinaryOperator *Cmp : Collected.Comparisons)
    if (contains(Cmp, Ticket.Node) || (Holder && refersTo(Cmp, Holder)))
      return true;
  return false;
}

static bool hasJump(const Stmt *S) {
  if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<BreakStmt>(S) ||
      isa<ContinueStmt>(S) || isa<CoreturnStmt>(S))
    return true;
  for (const Stmt *Child : S->children())
    if (Child && hasJump(Child))
      return true;
  return false;
}

/// The statement holding the ticket in its innermost compound statement.
static const Stmt *ticketStatement(const Event &Ticket) {
  for (size_t I = Ticket.Path.size(); I-- > 1;)
    if (isa<CompoundStmt>(Ticket.Path[I - 1]))
      return Ticket.Path[I];
  return nullptr;
}

/// Whether the ticket runs whenever Path[From] runs: no branch, loop or
/// short-circuit operand between them (the condition of an `if` and the
/// left operand of `&&` run unconditionally).
static bool runsUnconditionally(ArrayRef<const Stmt *> Path, size_t From) {
  for (size_t I = From; I + 1 < Path.size(); ++I) {
    const Stmt *Node = Path[I], *Next = Path[I + 1];
    if (const auto *If = dyn_cast<IfStmt>(Node)) {
      if (If->getCond() != Next && If->getInit() != Next)
        return false;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(Node)) {
      if (BO->isLogicalOp() && BO->getLHS() != Next)
        return false;
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(Node)) {
      if (CO->getCond() != Next)
        return false;
    } else if (isa<ForStmt>(Node) || isa<WhileStmt>(Node) ||
               isa<DoStmt>(Node) || isa<SwitchStmt>(Node) ||
               isa<CXXForRangeStmt>(Node)) {
      return false;
    }
  }
  return true;
}

/// Whether S holds a block or warp barrier (`__syncthreads()` and its
/// reductions, `__syncwarp()`, a cooperative group's `sync()`, asm
/// `bar.sync` / `barrier.sync`).
static bool hasBarrier(const Stmt *S) {
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    StringRef Name = calleeName(*Call);
    if (Name.starts_with("__syncthreads") || Name == "__syncwarp" ||
        (Name == "sync" && isa<CXXMemberCallExpr>(Call)))
      return true;
  }
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
    std::string Instr = firstOrderingInstruction(Asm->getAsmString());
    if (StringRef(Instr).starts_with("bar.sync") ||
        StringRef(Instr).starts_with("barrier.sync"))
      return true;
  }
  for (const Stmt *Child : S->children())
    if (Child && hasBarrier(Child))
      return true;
  return false;
}

/// The statement of the innermost compound holding both the store and the
/// ticket that the ticket is in, when a fence there orders every partial
/// store before the ticket: no jump out between, and either the ticket runs
/// in every thread that reaches the statement (each thread orders its own
/// store) or a barrier lies between the store and the statement (the
/// barrier orders the other threads' stores before the fence, which is
/// cumulative). Null otherwise, with the reason.
static const Stmt *fenceAnchor(const Event &Store, const Event &Ticket,
                               std::string &WhyNot, const Stmt *&Unproven) {
  size_t Common = 0;
  while (Common < Store.Path.size() && Common < Ticket.Path.size() &&
         Store.Path[Common] == Ticket.Path[Common])
    ++Common;
  for (size_t I = Common; I-- > 0;) {
    const auto *Block = dyn_cast<CompoundStmt>(Ticket.Path[I]);
    if (!Block)
      continue;
    if (I + 1 >= Ticket.Path.size() || I + 1 >= Store.Path.size())
      break;
    const Stmt *Anchor = Ticket.Path[I + 1], *StoreStmt = Store.Path[I + 1];
    // Both in one statement (the branches of one if): a fence before it
    // would come before the store.
    if (Anchor == StoreStmt)
      break;
    bool Between = false, Unconditional = false;
    for (const Stmt *Child : Block->body()) {
      if (Child == StoreStmt)
        Between = true;
      if (Child == Anchor) {
        if (Unconditional || runsUnconditionally(Ticket.Path, I + 1))
          return Anchor;
        WhyNot = "the ticket is taken by some threads only, with no barrier "
                 "after the partial stores; add '__syncthreads()' before the "
                 "fence";
        Unproven = Anchor;
        return nullptr;
      }
      if (Between && Child != StoreStmt && hasBarrier(Child)) {
        // Past a barrier: the fence before the ticket's statement orders the
        // stores of every thread (the jump test still applies below).
        Unconditional = true;
      }
      if (Between && hasJump(Child)) {
        WhyNot = "a jump between the store and the ticket may skip the fence";
        return nullptr;
      }
    }
    break;
  }
  WhyNot = "no statement before the ticket is reached by every thread that "
           "stored a partial result";
  return nullptr;
}

static void placeFence(UnfencedTicket &Found, const Stmt *Anchor,
                       const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Begin = Anchor->getBeginLoc();
  if (Begin.isInvalid() || Begin.isMacroID()) {
    Found.WhyNoFix = "the ticket's statement is written in a macro";
    return;
  }
  LineIndent Line = lineIndentOf(Begin, SM);
  Found.InsertAt = Begin;
  Found.Text = Line.StartsLine ? ("__threadfence();\n" + Line.Indent).str()
                               : "__threadfence(); ";
}

SmallVector<UnfencedTicket, 1> findUnfencedTickets(const FunctionDecl &Func,
                                                   const ASTContext &Ctx) {
  SmallVector<UnfencedTicket, 1> Result;
  if (!Func.getBody())
    return Result;
  EventCollector Collector(Func);
  Collector.TraverseStmt(Func.getBody());
  const auto &Events = Collector.Events;
  for (size_t T = 0; T < Events.size(); ++T) {
    if (Events[T].What != Event::Ticket ||
        !isComparedTicket(Events[T], Collector))
      continue;
    // The partials: stores before the ticket whose base is loaded after it.
    std::optional<size_t> LastStore, FirstLoad, LateFence;
    for (size_t L = T + 1; L < Events.size(); ++L) {
      if (Events[L].What == Event::Fence && !FirstLoad && !LateFence)
        LateFence = L;
      if (Events[L].What != Event::Load || FirstLoad)
        continue;
      for (size_t S = 0; S < T; ++S)
        if (Events[S].What == Event::Store && Events[S].Base == Events[L].Base)
          LastStore = S, FirstLoad = L;
    }
    if (!LastStore)
      continue;
    bool Fenced = false;
    for (size_t F = *LastStore + 1; F < T; ++F)
      Fenced |= Events[F].What == Event::Fence;
    if (Fenced)
      continue;
    UnfencedTicket Found;
    Found.Ticket = cast<CallExpr>(Events[T].Node);
    Found.PartialStore = cast<Expr>(Events[*LastStore].Node);
    Found.PartialLoad = cast<Expr>(Events[*FirstLoad].Node);
    if (LateFence)
      Found.LateFence = Events[*LateFence].Node->getBeginLoc();
    const Stmt *Unproven = nullptr;
    const Stmt *Anchor =
        fenceAnchor(Events[*LastStore], Events[T], Found.WhyNoFix, Unproven);
    Found.FixProven = Anchor != nullptr;
    if (!Anchor)
      Anchor = Unproven ? Unproven : ticketStatement(Events[T]);
    if (Anchor)
      placeFence(Found, Anchor, Ctx);
    if (Found.InsertAt.isInvalid())
      Found.FixProven = false;
    Result.push_back(std::move(Found));
  }
  return Result;
}

} // namespace cuda_tidy
