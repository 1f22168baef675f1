//===--- ImplicitWarpSynchronizationCheck.cpp - cuda-implicit-warp-sync ---===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "checks/ImplicitWarpSynchronizationCheck.h"
#include "lib/AnalysisContext.h"
#include "lib/ast/CudaAST.h"
#include "lib/ast/FixItHelpers.h"
#include "lib/exchanges/WarpExchanges.h"
#include "lib/races/BarrierPoints.h"
#include "lib/races/SharedRaces.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"
#include <map>

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_tidy {

void ImplicitWarpSynchronizationCheck::registerMatchers(MatchFinder *Finder) {
  // The analysis walks the whole translation unit once.
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

namespace {

/// How a statement is rewritten.
enum class Edit {
  /// `s[t] op= e;` becomes `T v = s[t] op e; __syncwarp(m); s[t] = v;
  /// __syncwarp(m);`.
  Split,
  /// `__syncwarp(m);` is added after the statement.
  SyncAfter,
};

struct StmtPlan {
  const Stmt *S = nullptr;
  const FunctionDecl *F = nullptr;
  Edit Kind = Edit::SyncAfter;
  /// The write a split stores (the assignment).
  const BinaryOperator *Assign = nullptr;
  /// Lanes of conflicts in other statements, which the mask must cover.
  uint32_t Lanes = 0;
  std::string WhyNot;
  bool LanesUnknown = false;
  /// Where it sits: a compound statement (multi-line edit) or a bare body.
  const CompoundStmt *Scope = nullptr;
  /// A statement that holds an access, after which the writer and its
  /// readers meet (WarpExchange::WriteMeet): any statement form.
  bool Meet = false;
  std::optional<uint32_t> Mask;
};

} // namespace

static std::string maskSpelling(uint32_t Mask) {
  if (Mask == FullLaneMask)
    return "0xffffffff";
  char Buf[16];
  snprintf(Buf, sizeof(Buf), "0x%08x", Mask);
  return Buf;
}

/// True when evaluating E has no effect other than reading.
static bool isSideEffectFree(const Stmt *S) {
  if (!S)
    return true;
  // `threadIdx.x` reads a register through a property's getter call.
  if (const auto *E = dyn_cast<Expr>(S); E && getBuiltinVarRef(E))
    return true;
  if (isa<CallExpr, CXXNewExpr, CXXDeleteExpr, StmtExpr, LambdaExpr,
          CXXThrowExpr, GCCAsmStmt>(S))
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma)
      return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    if (UO->isIncrementDecrementOp())
      return false;
  for (const Stmt *Child : S->children())
    if (!isSideEffectFree(Child))
      return false;
  return true;
}

static bool inTemplate(const FunctionDecl *F) {
  if (F->isTemplateInstantiation() || F->getDescribedFunctionTemplate())
    return true;
  for (const DeclContext *DC = F->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *RD = dyn_cast<CXXRecordDecl>(DC))
      if (RD->getTemplateSpecializationKind() != TSK_Undeclared ||
          RD->getDescribedClassTemplate())
        return true;
  return false;
}

/// The statements of function bodies by where they are spelled, so that the
/// same statement is found in another instantiation of a template (or in its
/// pattern) in constant time; and each body's parent map. Built once per
/// body on first use.
class SpellingIndex {
public:
  const Stmt *find(const FunctionDecl *F, const Stmt *S) {
    Entry &E = entry(F);
    return E.ByKey.lookup(key(S));
  }
  ParentMap &parents(const FunctionDecl *F) { return *entry(F).PM; }

private:
  using Key = std::pair<uint64_t, unsigned>;
  static Key key(const Stmt *S) {
    return {(uint64_t(S->getBeginLoc().getRawEncoding()) << 32) |
                S->getEndLoc().getRawEncoding(),
            unsigned(S->getStmtClass())};
  }
  struct Entry {
    llvm::DenseMap<Key, const Stmt *> ByKey;
    std::unique_ptr<ParentMap> PM;
  };
  Entry &entry(const FunctionDecl *F) {
    std::unique_ptr<Entry> &Slot = Entries[F];
    if (!Slot) {
      Slot = std::make_unique<Entry>();
      Stmt *Body = F->getBody();
      Slot->PM = std::make_unique<ParentMap>(Body);
      llvm::SmallVector<const Stmt *, 64> Work;
      if (Body)
        Work.push_back(Body);
      while (!Work.empty()) {
        const Stmt *S = Work.pop_back_val();
        Slot->ByKey.try_emplace(key(S), S);
        for (const Stmt *Child : S->children())
          if (Child)
            Work.push_back(Child);
      }
    }
    return *Slot;
  }
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<Entry>> Entries;
};

/// The instantiations of the template F belongs to that have a body, and
/// whether they could all be listed.
static bool instantiationsOf(const FunctionDecl *F,
                             llvm::SmallVectorImpl<const FunctionDecl *> &Out) {
  const FunctionDecl *Pattern = F->getTemplateInstantiationPattern();
  if (!Pattern)
    Pattern = F;
  auto Add = [&](const FunctionDecl *FD) {
    if (FD && FD->doesThisDeclarationHaveABody())
      Out.push_back(FD);
  };
  if (const FunctionTemplateDecl *FTD =
          Pattern->getDescribedFunctionTemplate()) {
    for (const FunctionDecl *Spec : FTD->specializations())
      Add(Spec);
    return true;
  }
  const auto *MD = dyn_cast<CXXMethodDecl>(Pattern);
  const ClassTemplateDecl *CTD =
      MD ? MD->getParent()->getDescribedClassTemplate() : nullptr;
  if (!CTD)
    return false;
  for (const ClassTemplateSpecializationDecl *Spec : CTD->specializations())
    for (const CXXMethodDecl *M : Spec->methods())
      if (M->getTemplateInstantiationPattern() == Pattern)
        Add(M);
  return true;
}

/// Whether S never runs in its instantiation F: it sits in the branch of an
/// `if` whose condition the instantiation makes a constant that skips it
/// (`if (BlockSize >= 64)` with BlockSize 32).
static bool isDeadIn(const Stmt *S, const FunctionDecl *F, ASTContext &Ctx,
                     SpellingIndex &Index) {
  ParentMap &PM = Index.parents(F);
  for (const Stmt *Child = S, *P = PM.getParent(S); P;
       Child = P, P = PM.getParent(P)) {
    const auto *If = dyn_cast<IfStmt>(P);
    if (!If || Child == If->getCond())
      continue;
    bool Value = false;
    if (If->getCond()->isValueDependent() ||
        !If->getCond()->EvaluateAsBooleanCondition(Value, Ctx))
      continue;
    if ((Child == If->getThen() && !Value) || (Child == If->getElse() && Value))
      return true;
  }
  return false;
}

/// Why a fix of S (in F, with Mask) could not be the same text for the
/// template's pattern and every instantiation, or std::nullopt when it is:
/// the statement runs on the same lanes in every instantiation that runs it.
static std::optional<std::string>
templateDisagreement(const Stmt *S, const FunctionDecl *F, uint32_t Mask,
                     const WarpExchangeFinder &Analysis, ASTContext &Ctx,
                     SpellingIndex &Index) {
  llvm::SmallVector<const FunctionDecl *, 4> Instances;
  if (!instantiationsOf(F, Instances))
    return std::string("the code is in a template whose instantiations "
                       "cannot all be seen");
  for (const FunctionDecl *Other : Instances) {
    if (Other == F)
      continue;
    const Stmt *Same = Index.find(Other, S);
    if (!Same || isDeadIn(Same, Other, Ctx, Index))
      continue;
    std::optional<uint32_t> M = Analysis.statementMask(Same);
    if (!M || *M != Mask)
      return std::string("the lanes that run it differ between the "
                         "template's instantiations, or are not known in "
                         "one of them");
  }
  return std::nullopt;
}

ImplicitWarpSynchronizationCheck::ImplicitWarpSynchronizationCheck(
    StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), LaneOptions(*Context),
      RaceCheckRuns(Context->isCheckEnabled("cuda-shared-memory-race")) {
  if (std::string E = LaneOptions.takeError(); !E.empty())
    configurationDiag(E);
}

/// The fixes of one translation unit's exchanges: a plan per statement to
/// edit, the components of statements that must be fixed together (a
/// component is fixed whole or not at all), and the edits.
class FixPlanner {
public:
  FixPlanner(const WarpExchangeFinder &Analysis, ASTContext &Ctx)
      : Analysis(Analysis), Ctx(Ctx), SM(Ctx.getSourceManager()),
        LO(Ctx.getLangOpts()) {}
  /// Where the `__syncwarp`s of each exchange go.
  void plan(llvm::ArrayRef<WarpExchange> Exchanges);
  /// Whether each statement can be rewritten, and why not.
  void checkRewritable();
  /// The first reason of each component that cannot be fixed.
  void settleComponents();
  /// The edits of the fixable statements.
  void makeEdits();

  /// What the planning found, for the report.
  struct Result {
    const llvm::MapVector<const Stmt *, StmtPlan> &Plans;
    const llvm::EquivalenceClasses<const Stmt *> &Components;
    const llvm::DenseMap<const Stmt *, std::string> &ComponentWhyNot;
    const llvm::DenseMap<const Stmt *, bool> &ComponentLanesUnknown;
    const llvm::DenseMap<const Stmt *, llvm::SmallVector<FixItHint, 2>>
        &StmtFixes;
  };
  Result result() const {
    return {Plans, Components, ComponentWhyNot, ComponentLanesUnknown,
            StmtFixes};
  }

private:
  llvm::MapVector<const Stmt *, StmtPlan> Plans;
  llvm::EquivalenceClasses<const Stmt *> Components;
  llvm::DenseMap<const Stmt *, std::string> ComponentWhyNot;
  llvm::DenseMap<const Stmt *, bool> ComponentLanesUnknown;
  llvm::DenseMap<const Stmt *, llvm::SmallVector<FixItHint, 2>> StmtFixes;

  /// The text that replaces P's assignment: the value into a temporary,
  /// `__syncwarp`, the store, `__syncwarp`; empty when the source text of
  /// a side cannot be read.
  std::string
  splitText(const StmtPlan &P, bool Bare, const std::string &Sep,
            const std::string &Sync,
            llvm::DenseMap<const FunctionDecl *, llvm::StringSet<>> &Names,
            std::map<std::pair<const CompoundStmt *, std::string>,
                     std::string> &Temps);

  const WarpExchangeFinder &Analysis;
  ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LO;
  SpellingIndex Spellings;
};

void FixPlanner::plan(llvm::ArrayRef<WarpExchange> Exchanges) {
  // Where the side a path starts from is ordered: after its own statement
  // when that runs on every lane of the exchange, otherwise after the
  // statement where it meets the other side (one lane writes under `if
  // (lane == 0)`, the warp reads after it).
  auto Covers = [&](const Stmt *S, uint32_t Lanes) {
    std::optional<uint32_t> M = S ? Analysis.statementMask(S) : std::nullopt;
    return M && *M && (Lanes & *M) == Lanes;
  };
  auto SideOf = [&](const Stmt *S, const Stmt *Meet, uint32_t Lanes) {
    if (Meet && !Covers(S, Lanes) && Covers(Meet, Lanes))
      return Meet;
    return S;
  };
  for (const WarpExchange &X : Exchanges) {
    const Stmt *WSide = X.WriteReachesRead
                            ? SideOf(X.WriteStmt, X.WriteMeet, X.Lanes)
                            : X.WriteStmt;
    const Stmt *RSide = X.ReadReachesWrite
                            ? SideOf(X.ReadStmt, X.ReadMeet, X.Lanes)
                            : X.ReadStmt;
    if (X.ReadStmt != X.WriteStmt &&
        (WSide != X.WriteStmt || RSide != X.ReadStmt)) {
      // A barrier after each side a path starts from orders the pair.
      Components.unionSets(X.ReadStmt, X.WriteStmt);
      for (auto [Side, Starts] : {std::pair(WSide, X.WriteReachesRead),
                                  std::pair(RSide, X.ReadReachesWrite)}) {
        if (!Starts)
          continue;
        StmtPlan &P = Plans[Side];
        P.S = Side;
        P.F = X.Func;
        P.Lanes |= X.Lanes;
        P.Meet |= Side == X.WriteMeet || Side == X.ReadMeet;
        Components.unionSets(X.ReadStmt, Side);
      }
      continue;
    }
    for (const Stmt *S : {X.ReadStmt, X.WriteStmt}) {
      StmtPlan &P = Plans[S];
      P.S = S;
      P.F = X.Func;
    }
    Components.unionSets(X.ReadStmt, X.WriteStmt);
    if (X.ReadStmt == X.WriteStmt) {
      StmtPlan &P = Plans[X.ReadStmt];
      P.Kind = Edit::Split;
    } else {
      // The barrier after the statement a path starts from orders the pair:
      // it must hold both lanes.
      if (X.WriteReachesRead)
        Plans[X.WriteStmt].Lanes |= X.Lanes;
      if (X.ReadReachesWrite)
        Plans[X.ReadStmt].Lanes |= X.Lanes;
      if (!X.WriteReachesRead && !X.ReadReachesWrite)
        Plans[X.ReadStmt].WhyNot = "the write and the read are on the two "
                                   "sides of a branch that splits the warp";
    }
  }

}

void FixPlanner::checkRewritable() {
  for (auto &Entry : Plans) {
    const auto &S = Entry.first;
    auto &P = Entry.second;
    ParentMap *PM = &Spellings.parents(P.F);
    auto Fail = [&](StringRef Why) {
      if (P.WhyNot.empty())
        P.WhyNot = Why.str();
    };
    if (P.F->hasAttr<CUDAHostAttr>())
      Fail("'__syncwarp' cannot be called from the host side of a "
           "'__host__ __device__' function");
    if (S->getBeginLoc().isMacroID() || S->getEndLoc().isMacroID())
      Fail("the statement comes from a macro");
    const Stmt *Parent = PM->getParent(S);
    if (const auto *CS = dyn_cast_or_null<CompoundStmt>(Parent)) {
      if (isa_and_nonnull<SwitchStmt>(PM->getParent(CS)))
        Fail("the statement is in a switch");
      P.Scope = CS;
    } else if (!Parent || !isa<IfStmt, ForStmt, WhileStmt, DoStmt>(Parent)) {
      Fail("the statement's form is not supported");
    }
    if (P.Kind == Edit::Split) {
      const auto *E = dyn_cast<Expr>(S);
      const auto *BO =
          E ? dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts()) : nullptr;
      if (BO && BO->getLHS()->getType()->isDependentType())
        Fail("the element's type depends on a template parameter that the "
             "translation unit does not instantiate");
      else if (!BO || !BO->isAssignmentOp() ||
               !isSideEffectFree(BO->getLHS()) ||
               !isSideEffectFree(BO->getRHS()) ||
               !BO->getLHS()->getType()->isArithmeticType())
        Fail("the statement is not a plain assignment");
      else
        P.Assign = BO;
    } else if (!isa<Expr, DeclStmt>(S) && !(P.Meet && P.Scope)) {
      Fail("the statement's form is not supported");
    }
    P.Mask = Analysis.statementMask(S);
    if (!P.Mask || *P.Mask == 0) {
      P.LanesUnknown = true;
      Fail("the lanes that run it are not known");
    } else if ((P.Lanes & *P.Mask) != P.Lanes) {
      P.LanesUnknown = true;
      Fail("lanes outside the ones that run it take part in the exchange");
    } else if (inTemplate(P.F)) {
      // One edit of the template's spelling serves every instantiation: it
      // must be right for each of them.
      if (std::optional<std::string> Why =
              templateDisagreement(S, P.F, *P.Mask, Analysis, Ctx, Spellings))
        Fail(*Why);
    }
  }

}

void FixPlanner::settleComponents() {
  for (auto &[S, P] : Plans) {
    const Stmt *Leader = Components.getLeaderValue(S);
    if (!P.WhyNot.empty() && !ComponentWhyNot.count(Leader)) {
      ComponentWhyNot[Leader] = P.WhyNot;
      ComponentLanesUnknown[Leader] = P.LanesUnknown;
    }
  }

}

void FixPlanner::makeEdits() {
  // The text of each fixable statement's edit, in source order so that a
  // temporary declared in a block is reused by later splits there.
  llvm::SmallVector<StmtPlan *, 16> Order;
  for (auto &[S, P] : Plans)
    if (!ComponentWhyNot.count(Components.getLeaderValue(S)))
      Order.push_back(&P);
  llvm::sort(Order, [&](const StmtPlan *A, const StmtPlan *B) {
    return SM.isBeforeInTranslationUnit(A->S->getBeginLoc(),
                                        B->S->getBeginLoc());
  });
  llvm::DenseMap<const FunctionDecl *, llvm::StringSet<>> Names;
  std::map<std::pair<const CompoundStmt *, std::string>, std::string> Temps;
  for (StmtPlan *P : Order) {
    const Stmt *S = P->S;
    SourceLocation Begin = S->getBeginLoc();
    SourceLocation AfterSemi;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      AfterSemi = Lexer::getLocForEndOfToken(DS->getEndLoc(), 0, SM, LO);
    else
      AfterSemi = Lexer::findLocationAfterToken(S->getEndLoc(), tok::semi, SM,
                                                LO, false);
    // A statement that ends with a block (`if (c) { ... }`).
    if (AfterSemi.isInvalid() && !isa<Expr, DeclStmt>(S))
      AfterSemi = Lexer::getLocForEndOfToken(S->getEndLoc(), 0, SM, LO);
    if (AfterSemi.isInvalid())
      continue;
    bool Bare = P->Scope == nullptr;
    std::string Indent = lineIndentOf(Begin, SM).Indent.str();
    std::string Sep = Bare ? " " : "\n" + Indent;
    std::string Sync = "__syncwarp(" + maskSpelling(*P->Mask) + ");";
    auto &Fixes = StmtFixes[S];
    if (P->Kind == Edit::SyncAfter) {
      if (Bare) {
        Fixes.push_back(FixItHint::CreateInsertion(Begin, "{ "));
        Fixes.push_back(
            FixItHint::CreateInsertion(AfterSemi, " " + Sync + " }"));
      } else {
        Fixes.push_back(FixItHint::CreateInsertion(AfterSemi, Sep + Sync));
      }
      continue;
    }
    std::string New = splitText(*P, Bare, Sep, Sync, Names, Temps);
    if (New.empty())
      continue;
    Fixes.push_back(FixItHint::CreateReplacement(
        CharSourceRange::getCharRange(Begin, AfterSemi), New));
  }

}

std::string FixPlanner::splitText(
    const StmtPlan &P, bool Bare, const std::string &Sep,
    const std::string &Sync,
    llvm::DenseMap<const FunctionDecl *, llvm::StringSet<>> &Names,
    std::map<std::pair<const CompoundStmt *, std::string>, std::string>
        &Temps) {
  const BinaryOperator *BO = P.Assign;
  // The temporary keeps the element's type; in a template, the type as the
  // pattern spells it (`T`, not `float`).
  const Expr *TypedLHS = BO->getLHS();
  if (const FunctionDecl *Pattern = P.F->getTemplateInstantiationPattern())
    if (const auto *PB = dyn_cast_or_null<BinaryOperator>(
            Spellings.find(Pattern, BO)))
      TypedLHS = PB->getLHS();
  std::optional<AssignmentSplit> Split = splitAssignment(BO, TypedLHS, SM, LO);
  if (!Split)
    return "";
  const std::string &LHS = Split->LHS, &Type = Split->Type;
  std::string Value = Split->Value;
  llvm::StringSet<> &Used = Names[P.F];
  if (Used.empty()) {
    Used = namesUsedIn(P.F);
    Used.insert("");
  }
  std::string Decl;
  std::string &Temp = Temps[{P.Scope, Type}];
  if (Bare || Temp.empty()) {
    std::string Name = freshName("v", Used);
    // A bare body becomes a block of its own: its temporary is local.
    if (!Bare) {
      Used.insert(Name);
      Temp = Name;
    }
    Decl = Type + " " + Name + " = " + Value + ";";
    Value = Name;
  } else {
    Decl = Temp + " = " + Value + ";";
    Value = Temp;
  }
  std::string New =
      Decl + Sep + Sync + Sep + LHS + " = " + Value + ";" + Sep + Sync;
  if (Bare)
    New = "{ " + New + " }";
  return New;
}

void ImplicitWarpSynchronizationCheck::check(
    const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  WarpExchangeFinder &Analysis =
      AnalysisContext::get(Ctx).warpExchanges(LaneOptions.settings());
  Analysis.run();
  // Where the work budget cut an analysis short, say so: what lies past the
  // cut is neither reported nor known to be safe.
  LaneOptions.remarkCutShort(*this, SM, Analysis.cutShort(), "warp exchanges");
  llvm::ArrayRef<WarpExchange> Exchanges = Analysis.exchanges();
  if (Exchanges.empty())
    return;
  // Where the parse broke a barrier may be missing from the AST: nothing
  // is reported in such a function.
  AnalysisContext &AC = AnalysisContext::get(Ctx);
  std::vector<WarpExchange> Parsed;
  if (llvm::any_of(Exchanges, [&](const WarpExchange &X) {
        return AC.parseBroke(X.Func);
      })) {
    for (const WarpExchange &X : Exchanges)
      if (!AC.parseBroke(X.Func))
        Parsed.push_back(X);
    Exchanges = Parsed;
    if (Exchanges.empty())
      return;
  }
  // A pair that also races between warps is cuda-shared-memory-race's when
  // that check runs: its __syncthreads() orders the lanes of each warp too
  // (one report and one fix for the pair). So is a pair that the barriers
  // its fixes insert order (the same write read again further on). Pairs
  // are compared by where their accesses are spelled: the two checks may
  // report different instantiations of a template.
  std::vector<WarpExchange> Kept;
  if (RaceCheckRuns) {
    SharedRaceFinder &Races =
        AnalysisContext::get(Ctx).sharedRaces(LaneOptions.settings());
    Races.run();
    auto At = [&](const Expr *Access, const CallExpr *Call) {
      return SM.getFileLoc(Call ? Call->getBeginLoc() : Access->getBeginLoc());
    };
    llvm::DenseSet<std::pair<SourceLocation, SourceLocation>> Raced;
    BarrierPoints Points(SM);
    for (const SharedRace &R : Races.races()) {
      SourceLocation First = At(R.First, R.FirstCall),
                     Second = At(R.Second, R.SecondCall);
      Raced.insert({First, Second});
      Raced.insert({Second, First});
      if (R.Fix.WhyNot.empty())
        Points.add(R.Fix, 0);
    }
    if (!Raced.empty()) {
      for (const WarpExchange &X : Exchanges) {
        SourceLocation Write = At(X.Write, X.WriteCall),
                       Read = At(X.Read, X.ReadCall);
        if (!Raced.contains({Write, Read}) &&
            !Points.orders(Write, Read, X.WriteReachesRead,
                           X.ReadReachesWrite))
          Kept.push_back(X);
      }
      Exchanges = Kept;
      if (Exchanges.empty())
        return;
    }
  }

  // One report per read, keyed by where it is spelled (template
  // instantiations share a spelling).
  llvm::MapVector<SourceLocation, const WarpExchange *> Sites;
  for (const WarpExchange &X : Exchanges) {
    SourceLocation Loc = SM.getFileLoc(X.Read->getBeginLoc());
    if (Loc.isInvalid() || SM.isInSystemHeader(Loc))
      continue;
    Sites.try_emplace(Loc, &X);
  }

  FixPlanner Fixes(Analysis, Ctx);
  Fixes.plan(Exchanges);
  Fixes.checkRewritable();
  Fixes.settleComponents();
  Fixes.makeEdits();
  report(Sites, Fixes, SM);
}

void ImplicitWarpSynchronizationCheck::report(
    const llvm::MapVector<SourceLocation, const WarpExchange *> &Sites,
    const FixPlanner &Fixes, const SourceManager &SM) {
  const auto &[Plans, Components, ComponentWhyNot, ComponentLanesUnknown,
               StmtFixes] = Fixes.result();
  // One warning per component (the exchanges whose fixes go together: the
  // steps of one unrolled reduction), at its first read in source order,
  // with the component's edits; its other exchanges are notes of it.
  llvm::MapVector<const Stmt *, llvm::SmallVector<SourceLocation, 4>> Groups;
  for (const auto &[Loc, XP] : Sites)
    Groups[Components.getLeaderValue(XP->ReadStmt)].push_back(Loc);
  for (const auto &[Leader, Locs] : Groups) {
    const WarpExchange &X = *Sites.lookup(Locs.front());
    const SourceLocation Loc = Locs.front();
    auto Why = ComponentWhyNot.find(Leader);
    bool LanesUnknown =
        Why != ComponentWhyNot.end() && ComponentLanesUnknown.lookup(Leader);
    StringRef Name = X.Shared ? X.Shared->getName() : "";
    {
      unsigned Space = X.AssumedHelper ? 2 : X.Global ? 1 : 0;
      auto D = diag(Loc, "lanes of a warp exchange data through "
                         "%select{shared memory|global memory|memory}2 '%0' "
                         "with no '__syncwarp' between the write and the "
                         "read%select{|; no fix: the lanes that run it "
                         "are not known}1")
               << Name << LanesUnknown << Space;
      if (Why == ComponentWhyNot.end() && !X.AssumedHelper)
        for (auto &[S, P] : Plans)
          if (Components.getLeaderValue(S) == Leader)
            for (const FixItHint &H : StmtFixes.lookup(S))
              D << H;
    }
    noteExchange(X, Loc, SM);
    for (SourceLocation Also : llvm::drop_begin(Locs)) {
      const WarpExchange &Y = *Sites.lookup(Also);
      diag(SM.getFileLoc(Y.Write->getBeginLoc()),
           "the same exchange again: lane %0 writes the element here",
           DiagnosticIDs::Note)
          << Y.WriterLane;
      diag(Also, "and lane %0 reads it here with no barrier between",
           DiagnosticIDs::Note)
          << Y.ReaderLane;
    }
    if (X.AssumedHelper)
      noteAssumedHelper(X, Name);
    diag(Loc,
         "since Volta (sm_70), independent thread scheduling lets the lanes "
         "of a warp run in any order: they are not in lockstep, and "
         "'volatile' does not order them",
         DiagnosticIDs::Note);
    if (Why != ComponentWhyNot.end() && !LanesUnknown)
      diag(Loc, "no automatic fix: %0", DiagnosticIDs::Note)
          << Why->second;
  }
}

void ImplicitWarpSynchronizationCheck::noteExchange(const WarpExchange &X,
                                                    SourceLocation Loc,
                                                    const SourceManager &SM) {
  StringRef Name = X.Shared ? X.Shared->getName() : "";
  diag(SM.getFileLoc(X.Write->getBeginLoc()), "lane %0 writes the element here",
       DiagnosticIDs::Note)
      << X.WriterLane;
  diag(Loc, "lane %0 reads it here, and no barrier orders the two",
       DiagnosticIDs::Note)
      << X.ReaderLane;
  // An exchange split over two calls: where each side is made.
  for (auto [Call, Side] :
       {std::pair(X.WriteCall, 0), std::pair(X.ReadCall, 1)})
    if (Call)
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        diag(SM.getFileLoc(Call->getBeginLoc()),
             "the %select{write|read}0 is made in this call to '%1'",
             DiagnosticIDs::Note)
            << Side << Callee->getName();
  if (X.Via)
    diag(SM.getFileLoc(X.Via->getBeginLoc()),
         "%select{shared|global}2 memory '%0' is passed to '%1' here",
         DiagnosticIDs::Note)
        << Name << X.Func->getName() << X.Global;
  for (const CallExpr *Up : X.Callers)
    if (const FunctionDecl *Callee = Up->getDirectCallee())
      diag(SM.getFileLoc(Up->getBeginLoc()), "'%0' is called here",
           DiagnosticIDs::Note)
          << Callee->getName();
}

void ImplicitWarpSynchronizationCheck::noteAssumedHelper(const WarpExchange &X,
                                                         StringRef Pointer) {
  const ParmVarDecl *Index = X.AssumedIndex;
  diag(X.AssumedHelper->getLocation(),
       "'%0' is called nowhere in this translation unit: it is analysed as "
       "run by one whole warp of 32 threads, with '%1' one array the lanes "
       "share%select{|, and '%3' each lane's thread index}2",
       DiagnosticIDs::Note)
      << X.AssumedHelper->getName() << Pointer << (Index != nullptr)
      << (Index ? Index->getName() : StringRef());
}

} // namespace cuda_tidy
