//===--- SharedMemoryRaceCheck.cpp - Races between warps ------------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "checks/SharedMemoryRaceCheck.h"
#include "lib/AnalysisContext.h"
#include "lib/ast/FixItHelpers.h"
#include "lib/asynccopy/AsyncCopyOrdering.h"
#include "lib/races/BarrierPoints.h"
#include "lib/races/MbarrierWaits.h"
#include "lib/races/SharedRaces.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecordLayout.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include <array>
#include <tuple>
#include <set>

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_tidy {

SharedMemoryRaceCheck::SharedMemoryRaceCheck(
    StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), LaneOptions(*Context),
      AsyncCopyChecked(Context->isCheckEnabled("cuda-async-copy-ordering")) {
  if (std::string E = LaneOptions.takeError(); !E.empty())
    configurationDiag(E);
}

void SharedMemoryRaceCheck::registerMatchers(MatchFinder *Finder) {
  // The analysis walks the whole translation unit once.
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

/// 'tile[0][1]': the element at Byte of V, through its arrays and
/// structs, when an element of Size bytes is what the access reads;
/// otherwise "'V' at byte N".
static std::string elementSpelling(const VarDecl *V, int64_t Byte,
                                   int64_t Size, ASTContext &Ctx) {
  std::string Name = V->getName().str();
  QualType T = V->getType();
  if (T->isDependentType())
    return "'" + Name + "'";
  int64_t Rest = Byte;
  while (true) {
    if (const ArrayType *AT = Ctx.getAsArrayType(T)) {
      QualType Elem = AT->getElementType();
      if (Elem->isIncompleteType())
        break;
      int64_t ESize = Ctx.getTypeSizeInChars(Elem).getQuantity();
      if (ESize <= 0)
        break;
      Name += "[" + std::to_string(Rest / ESize) + "]";
      Rest %= ESize;
      T = Elem;
      continue;
    }
    if (const auto *RD = T->getAsRecordDecl()) {
      if (RD->isInvalidDecl() || !RD->getDefinition())
        break;
      const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(RD);
      const FieldDecl *In = nullptr;
      for (const FieldDecl *FD : RD->fields()) {
        int64_t Off = int64_t(Layout.getFieldOffset(FD->getFieldIndex()) / 8);
        int64_t FSize = FD->getType()->isIncompleteType()
                            ? 0
                            : Ctx.getTypeSizeInChars(FD->getType()).getQuantity();
        if (Rest >= Off && Rest < Off + FSize)
          In = FD;
      }
      if (!In)
        break;
      Rest -= int64_t(Layout.getFieldOffset(In->getFieldIndex()) / 8);
      Name += "." + In->getName().str();
      T = In->getType();
      continue;
    }
    break;
  }
  if (Rest != 0 || T->isIncompleteType() ||
      Ctx.getTypeSizeInChars(T).getQuantity() != Size)
    return "'" + V->getName().str() + "' at byte " + std::to_string(Byte);
  return "'" + Name + "'";
}

/// "64 to 1024", "64 and 128", "256".
static std::string sizesSpelling(llvm::ArrayRef<unsigned> Sizes) {
  if (Sizes.size() == 1)
    return std::to_string(Sizes[0]);
  if (Sizes.size() == 2)
    return std::to_string(Sizes[0]) + " and " + std::to_string(Sizes[1]);
  return std::to_string(Sizes.front()) + " to " + std::to_string(Sizes.back());
}

/// Where an access is made in the function that races: at the call of the
/// helper that makes it, or its own place.
static SourceLocation accessAt(const Expr *Access, const CallExpr *Call) {
  return Call ? Call->getBeginLoc() : Access->getBeginLoc();
}

/// The verb of an access's role (a %select index).
static unsigned roleIndex(lanes::Role R) {
  switch (R) {
  case lanes::Role::Read:
    return 0;
  case lanes::Role::Write:
    return 1;
  case lanes::Role::ReadWrite:
    return 2;
  case lanes::Role::Atomic:
    return 3;
  }
  return 0;
}

std::vector<FixItHint> SharedMemoryRaceCheck::fixOf(const SharedRace &Race,
                                                    ASTContext &Ctx,
                                                    SourceLocation &Earlier) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  std::vector<FixItHint> Out;
  const BarrierFix &F = Race.Fix;
  const SourceLocation RaceLoc = SM.getFileLoc(Race.Second->getBeginLoc());
  // One barrier per point, however many races it orders.
  auto Once = [&](SourceLocation At) {
    auto [It, New] = Inserted.try_emplace(At, RaceLoc);
    if (!New)
      Earlier = It->second;
    return New;
  };
  if (F.Before) {
    SourceLocation At = F.Before->getBeginLoc();
    if (!Once(At))
      return {};
    LineIndent Line = lineIndentOf(At, SM);
    Out.push_back(FixItHint::CreateInsertion(
        At, Line.StartsLine ? "__syncthreads();\n" + Line.Indent.str()
                            : std::string("__syncthreads(); ")));
  }
  if (F.AtEndOf) {
    SourceLocation Brace = F.AtEndOf->getRBracLoc();
    if (!Once(Brace))
      return Out;
    LineIndent BraceLine = lineIndentOf(Brace, SM);
    LineIndent LastLine =
        lineIndentOf(F.AtEndOf->body_back()->getBeginLoc(), SM);
    if (BraceLine.StartsLine && LastLine.StartsLine) {
      SourceLocation LineStart =
          Brace.getLocWithOffset(-int(BraceLine.Indent.size()));
      Out.push_back(FixItHint::CreateInsertion(
          LineStart, LastLine.Indent.str() + "__syncthreads();\n"));
    } else {
      Out.push_back(FixItHint::CreateInsertion(Brace, "__syncthreads(); "));
    }
  }
  if (F.Split) {
    const BinaryOperator *BO = F.Split;
    const Stmt *S = Race.SecondStmt;
    SourceLocation Begin = S->getBeginLoc();
    SourceLocation AfterSemi =
        Lexer::findLocationAfterToken(S->getEndLoc(), tok::semi, SM, LO, false);
    std::optional<AssignmentSplit> Split =
        splitAssignment(BO, BO->getLHS(), SM, LO);
    if (AfterSemi.isInvalid() || !Split || !Once(Begin))
      return {};
    std::string Name = freshName("v", namesUsedIn(Race.Func));
    std::string Sep = "\n" + lineIndentOf(Begin, SM).Indent.str();
    Out.push_back(FixItHint::CreateReplacement(
        CharSourceRange::getCharRange(Begin, AfterSemi),
        Split->Type + " " + Name + " = " + Split->Value + ";" + Sep +
            "__syncthreads();" + Sep + Split->LHS + " = " + Name + ";"));
  }
  return Out;
}

void SharedMemoryRaceCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = Ctx.getSourceManager();
  Inserted.clear();
  AnalysisContext &AC = AnalysisContext::get(Ctx);
  SharedRaceFinder &Finder = AC.sharedRaces(LaneOptions.settings());
  Finder.run();
  LaneOptions.remarkCutShort(*this, SM, Finder.cutShort(), "races");
  // One report per spelling of the two accesses and of the calls that
  // make them (template instantiations share a spelling; one helper's
  // accesses called from two kernels are two races, each with its fix).
  std::set<std::array<unsigned, 4>> Seen;
  auto Spelled = [&](const Stmt *S) {
    return S ? SM.getFileLoc(S->getBeginLoc()).getRawEncoding() : 0u;
  };
  // Where the parse broke a barrier may be missing from the AST: no race
  // is reported in, or through a call from, such a function.
  auto ParseBroke = [&](const SharedRace &X) {
    return AC.parseBroke(X.Func) ||
           llvm::any_of(X.Callers, [&](const CallExpr *Up) {
             return AC.parseBroke(AC.callGraph().enclosingCallable(Up));
           });
  };
  // One warning per missing barrier: a race whose barrier is the one an
  // earlier race's fix inserts (two arrays, or two elements, behind one
  // missing '__syncthreads()') is a note of that race's warning.
  std::vector<RaceReport> Reports;
  llvm::DenseMap<SourceLocation, unsigned> ReportAt;
  BarrierPoints Points(SM);
  // A race that the missing mbarrier wait of a copy explains is
  // cuda-async-copy-ordering's report when that check runs.
  auto RepeatsCopyFinding = [&](const SharedRace &X) {
    return AsyncCopyChecked &&
           repeatsMissingWait(X, AC.asyncCopyFindings(X.Func), SM);
  };
  for (const SharedRace &X : Finder.races()) {
    if (ParseBroke(X) || RepeatsCopyFinding(X))
      continue;
    SourceLocation Second = SM.getFileLoc(X.Second->getBeginLoc());
    if (Second.isInvalid() || SM.isInSystemHeader(Second) || !X.Shared ||
        !Seen.insert({Spelled(X.First), Spelled(X.Second),
                      Spelled(X.FirstCall), Spelled(X.SecondCall)})
             .second)
      continue;
    // A race that the barriers of an earlier report's fix already order
    // goes away with that fix: a note of it. Through a loop's back edge the
    // two may meet in either order.
    if (std::optional<unsigned> Owner = Points.orders(
            accessAt(X.First, X.FirstCall), accessAt(X.Second, X.SecondCall),
            /*XReachesY=*/true, /*YReachesX=*/X.Loop != nullptr)) {
      Reports[*Owner].Same.push_back(&X);
      continue;
    }
    RaceReport R;
    R.Race = &X;
    if (X.Fix.WhyNot.empty())
      R.Fix = fixOf(X, Ctx, R.Earlier);
    if (R.Fix.empty() && R.Earlier.isValid())
      if (auto It = ReportAt.find(R.Earlier); It != ReportAt.end()) {
        Reports[It->second].Same.push_back(&X);
        continue;
      }
    if (!R.Fix.empty())
      Points.add(X.Fix, Reports.size());
    ReportAt.try_emplace(Second, Reports.size());
    Reports.push_back(std::move(R));
  }
  for (const RaceReport &R : Reports)
    report(R, Ctx);
}

void SharedMemoryRaceCheck::report(const RaceReport &R, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const SharedRace &X = *R.Race;
  SourceLocation Second = SM.getFileLoc(X.Second->getBeginLoc());
  SourceLocation First = SM.getFileLoc(X.First->getBeginLoc());
  // The accesses of helpers: the warning at the call in the function where
  // they race (where the fix goes; one helper called from two kernels is
  // two races).
  const SourceLocation At =
      X.SecondCall ? SM.getFileLoc(X.SecondCall->getBeginLoc()) : Second;
  {
    auto D = diag(At, "threads of different warps race on shared "
                      "memory '%0' with no barrier between %select{a "
                      "read|a write|an update|an atomic update}1 and "
                      "%select{a read|a write|an update|an atomic "
                      "update}2%select{| in blocks of %4 threads}3")
             << X.Shared->getName() << roleIndex(X.FirstRole)
             << roleIndex(X.SecondRole) << !X.Sizes.empty()
             << sizesSpelling(X.Sizes);
    for (const FixItHint &H : R.Fix)
      D << H;
  }
  const int64_t Size =
      Ctx.getTypeSizeInChars(X.First->getType()).getQuantity();
  diag(First, "thread %0 %select{reads|writes|updates|atomically updates}1 "
              "%2 here",
       DiagnosticIDs::Note)
      << X.FirstThread << roleIndex(X.FirstRole)
      << elementSpelling(X.Shared, X.Byte, Size, Ctx);
  diag(Second,
       "thread %0, in another warp, %select{reads|writes|updates|atomically "
       "updates}1 it here in the same barrier interval",
       DiagnosticIDs::Note)
      << X.SecondThread << roleIndex(X.SecondRole);
  if (X.LoadedIndex)
    diag(X.LoadedFirst ? First : Second,
         "the element thread %0 accesses comes from a loaded value: some "
         "input makes it the one thread %1 writes",
         DiagnosticIDs::Note)
        << (X.LoadedFirst ? X.FirstThread : X.SecondThread)
        << (X.LoadedFirst ? X.SecondThread : X.FirstThread);
  if (X.ShapeAssumed && X.Kernel)
    diag(SM.getFileLoc(X.Kernel->getLocation()),
         "nothing in this translation unit launches '%0': blocks of %1 x "
         "%2 threads are assumed, the shape its indexing fills",
         DiagnosticIDs::Note)
        << X.Kernel->getName() << X.Shape.D.X << X.Shape.D.Y;
  if (X.Branch)
    diag(SM.getFileLoc(X.Branch->getBeginLoc()),
         "this branch sends threads of the block down both arms",
         DiagnosticIDs::Note);
  else if (X.Loop)
    diag(SM.getFileLoc(X.Loop->getBeginLoc()),
         "the next iteration of this loop reaches the second access before "
         "any barrier",
         DiagnosticIDs::Note);
  for (auto [Call, Which, Side] :
       {std::tuple(X.FirstCall, 0, X.FirstSide),
        std::tuple(X.SecondCall, 1, X.SecondSide)})
    if (Call)
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        diag(SM.getFileLoc(Call->getBeginLoc()),
             "the %select{first|second}0 access is made "
             "%select{in|before the first barrier of|after the last barrier "
             "of}2 this call to '%1'",
             DiagnosticIDs::Note)
            << Which << Callee->getName() << unsigned(Side);
  for (const CallExpr *Up : X.Callers)
    if (const FunctionDecl *Callee = Up->getDirectCallee())
      diag(SM.getFileLoc(Up->getBeginLoc()), "'%0' is called here",
           DiagnosticIDs::Note)
          << Callee->getName();
  if (!X.Fix.WhyNot.empty())
    diag(At, "no automatic fix: %0", DiagnosticIDs::Note) << X.Fix.WhyNot;
  else if (R.Earlier.isValid())
    diag(R.Earlier,
         "the '__syncthreads()' inserted for this race orders it too",
         DiagnosticIDs::Note);
  // The other races behind the same missing barrier: each one's accesses,
  // the first few of them (a derived-pointer pass races on every element
  // it touches).
  constexpr unsigned MaxSameNoted = 3;
  for (const SharedRace *Also :
       llvm::ArrayRef(R.Same).take_front(MaxSameNoted)) {
    const int64_t AlsoSize =
        Ctx.getTypeSizeInChars(Also->First->getType()).getQuantity();
    diag(SM.getFileLoc(Also->First->getBeginLoc()),
         "the same missing barrier: thread %0 %select{reads|writes|updates|"
         "atomically updates}1 %2 here",
         DiagnosticIDs::Note)
        << Also->FirstThread << roleIndex(Also->FirstRole)
        << elementSpelling(Also->Shared, Also->Byte, AlsoSize, Ctx);
    diag(SM.getFileLoc(Also->Second->getBeginLoc()),
         "and thread %0, in another warp, %select{reads|writes|updates|"
         "atomically updates}1 it here; the same '__syncthreads()' orders "
         "the two",
         DiagnosticIDs::Note)
        << Also->SecondThread << roleIndex(Also->SecondRole);
  }
  if (R.Same.size() > MaxSameNoted)
    diag(At, "and %0 more races that the same '__syncthreads()' orders",
         DiagnosticIDs::Note)
        << unsigned(R.Same.size() - MaxSameNoted);
}

} // namespace cuda_tidy
