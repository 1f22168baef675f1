//===--- AsyncCopyOrderingCheck.cpp - Async copies out of order -----------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "checks/AsyncCopyOrderingCheck.h"
#include "lib/AnalysisContext.h"
#include "lib/ast/CudaAST.h"
#include "lib/ast/FixItHelpers.h"
#include "lib/asynccopy/AsyncCopyOrdering.h"
#include "lib/uniformity/Uniformity.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_tidy {

using asynccopy::Family;
using asynccopy::Finding;
using asynccopy::FindingKind;
using asynccopy::Spelling;

void AsyncCopyOrderingCheck::registerMatchers(MatchFinder *Finder) {
  // Device functions with a body; the analysis returns at once for a body
  // with no asynchronous copy.
  Finder->addMatcher(
      functionDecl(isDefinition(),
                   anyOf(hasAttr(attr::CUDAGlobal), hasAttr(attr::CUDADevice)))
          .bind("fn"),
      this);
}

void AsyncCopyOrderingCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  const SourceManager &SM = *Result.SourceManager;
  if (!FD || !isAnalysedBody(FD) || FD->isInvalidDecl() ||
      SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
    return;
  const auto &Findings =
      Module->analysis(*Result.Context).asyncCopyFindings(FD);
  for (const Finding &F : Findings)
    diagnose(F, FD, *Result.Context);
}

/// The whitespace before Loc when only whitespace precedes it on its line.
static std::optional<std::string> indentBefore(SourceLocation Loc,
                                               const SourceManager &SM) {
  LineIndent Line = lineIndentOf(Loc, SM);
  if (!Line.StartsLine)
    return std::nullopt;
  return Line.Indent.str();
}

/// `cg::wait(block);` spelled with the qualifier the user wrote on
/// `memcpy_async`, for a group named by a variable declared at the top of
/// the function or a parameter (so that it is in scope where the wait
/// goes).
static std::string groupWait(const Finding &F, const FunctionDecl *FD,
                             ASTContext &Ctx) {
  const auto *CE = dyn_cast<CallExpr>(F.Source);
  const auto *G = F.Group ? dyn_cast<DeclRefExpr>(F.Group->IgnoreParenImpCasts())
                          : nullptr;
  if (!CE || !G)
    return {};
  const auto *V = dyn_cast<VarDecl>(G->getDecl());
  if (!V)
    return {};
  bool InScope = isa<ParmVarDecl>(V);
  if (const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody()))
    for (const Stmt *S : Body->body())
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        for (const Decl *D : DS->decls())
          InScope |= D == V;
  if (!InScope)
    return {};
  const Expr *Callee = CE->getCallee()->IgnoreImpCasts();
  SourceLocation NameLoc;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee))
    NameLoc = DRE->getNameInfo().getLoc();
  else if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(Callee))
    NameLoc = ULE->getNameLoc();
  if (NameLoc.isInvalid() || NameLoc.isMacroID() ||
      Callee->getBeginLoc().isMacroID())
    return {};
  StringRef Qualifier = Lexer::getSourceText(
      CharSourceRange::getCharRange(Callee->getBeginLoc(), NameLoc),
      Ctx.getSourceManager(), Ctx.getLangOpts());
  return (Qualifier + "wait(" + V->getName() + ");").str();
}

std::string AsyncCopyOrderingCheck::fixText(const Finding &F,
                                            const FunctionDecl *FD,
                                            ASTContext &Ctx) {
  if (F.Kind == FindingKind::BulkStoreNoFence)
    return "asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\");";
  if (F.Fam != Family::CpAsync)
    return {};
  switch (F.Spell) {
  case Spelling::Primitive:
    return F.Committed ? "__pipeline_wait_prior(0);"
                       : "__pipeline_commit();\n__pipeline_wait_prior(0);";
  case Spelling::Asm:
    return "asm volatile(\"cp.async.wait_all;\" ::: \"memory\");";
  case Spelling::CooperativeGroup:
    return groupWait(F, FD, Ctx);
  case Spelling::Cute:
  case Spelling::Cutlass:
  case Spelling::Other:
    break;
  }
  return {};
}

/// The barrier's name for a note ("__syncthreads").
static std::string barrierName(const Stmt *B, ASTContext &Ctx) {
  if (auto Site = recognizeBarrier(B, Ctx))
    return Site->Name;
  return "the barrier";
}

static StringRef waitAdvice(const Finding &F) {
  switch (F.Fam) {
  case Family::CpAsync:
    if (F.Spell == Spelling::Cute)
      return "'cute::cp_async_wait<0>()'";
    if (F.Spell == Spelling::Cutlass)
      return "'cutlass::arch::cp_async_fence()' and "
             "'cutlass::arch::cp_async_wait<0>()'";
    return "'__pipeline_wait_prior(0)', 'cp.async.wait_all' or 'cg::wait'";
  case Family::Pipeline:
    return "the pipeline's 'consumer_wait()'";
  case Family::Barrier:
    return "the barrier's wait";
  }
  return "";
}

bool AsyncCopyOrderingCheck::diagnose(const Finding &F, const FunctionDecl *FD,
                                      ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc =
      F.Place ? F.Place->getBeginLoc() : F.Access->getBeginLoc();
  if (SM.isInSystemHeader(SM.getExpansionLoc(Loc)) ||
      !Reported.insert(SM.getSpellingLoc(Loc)).second)
    return false;
  const std::string Name = F.Buffer->getName().str();

  // The fix, and whether it is exact.
  std::string Text = fixText(F, FD, Ctx);
  std::optional<FixItHint> Fix;
  if (!Text.empty() && F.InsertBefore &&
      F.InsertBefore->getBeginLoc().isFileID()) {
    SourceLocation At = F.InsertBefore->getBeginLoc();
    if (auto Indent = indentBefore(At, SM)) {
      std::string Lines;
      for (StringRef Line : llvm::split(StringRef(Text), '\n'))
        Lines += Line.str() + "\n" + *Indent;
      Fix = FixItHint::CreateInsertion(At, Lines);
    }
  }

  switch (F.Kind) {
  case FindingKind::ReadInFlight:
  case FindingKind::WriteInFlight: {
    auto D = diag(Loc, "'%0' is %select{read before the asynchronous copy "
                       "into it completes|written while an asynchronous "
                       "copy into it is in flight}1")
             << Name << (F.Kind == FindingKind::WriteInFlight ? 1 : 0);
    if (Fix)
      D << *Fix;
    break;
  }
  case FindingKind::WrongGroup:
    diag(Loc, "'%0' is read while the group of its asynchronous copy may "
              "still be in flight")
        << Name;
    break;
  case FindingKind::NotPublished:
    diag(Loc, "'%0' is read after a wait that completes only this thread's "
              "copies, with no block barrier between")
        << Name;
    break;
  case FindingKind::BulkStoreNoFence: {
    auto D = diag(Loc, "bulk store reads '%0' through the async proxy after "
                       "generic writes with no "
                       "'fence.proxy.async.shared::cta' between")
             << Name;
    if (Fix)
      D << *Fix;
    break;
  }
  case FindingKind::BulkSourceRefill:
    diag(Loc, "'%0' is written while a bulk store may still be reading it")
        << Name;
    break;
  case FindingKind::CopyOverRead:
    diag(Loc, "asynchronous copy into '%0' may overwrite data other threads "
              "are still reading")
        << Name;
    diag(F.Read->getBeginLoc(),
         "'%0' is read here, by threads other than the copying one, with no "
         "block barrier between the read and the copy",
         DiagnosticIDs::Note)
        << Name;
    return true;
  }

  switch (F.Kind) {
  case FindingKind::BulkStoreNoFence:
    diag(F.Source->getBeginLoc(), "'%0' is written here by generic stores",
         DiagnosticIDs::Note)
        << Name;
    break;
  case FindingKind::BulkSourceRefill:
    diag(F.Source->getBeginLoc(),
         "the bulk store reading it is issued here; wait for it with "
         "'cp.async.bulk.wait_group.read' before the refill",
         DiagnosticIDs::Note);
    break;
  default:
    diag(F.Source->getBeginLoc(), "the asynchronous copy into '%0' is "
                                  "issued here",
         DiagnosticIDs::Note)
        << Name;
    break;
  }
  if (F.Kind == FindingKind::WrongGroup && F.Wait && F.OldestOnly)
    diag(F.Wait->getBeginLoc(),
         "'consumer_wait' completes only the oldest stage not yet consumed; "
         "the copy's stage is newer",
         DiagnosticIDs::Note);
  else if (F.Kind == FindingKind::WrongGroup && F.Wait)
    diag(F.Wait->getBeginLoc(),
         "this wait leaves the most recent groups in flight, the copy's "
         "among them",
         DiagnosticIDs::Note);
  if (F.NeverWaited)
    diag(F.Source->getBeginLoc(),
         "no wait in this kernel completes copies of this kind",
         DiagnosticIDs::Note);
  if (F.Kind == FindingKind::NotPublished && F.Wait)
    diag(F.Wait->getBeginLoc(),
         "the wait is here; a block barrier after it lets other threads "
         "read the data",
         DiagnosticIDs::Note);
  if (F.Barrier && F.Kind != FindingKind::NotPublished)
    diag(F.Barrier->getBeginLoc(),
         "'%0' orders the threads, not the %select{copy|async proxy|store}1",
         DiagnosticIDs::Note)
        << barrierName(F.Barrier, Ctx)
        << (F.Kind == FindingKind::BulkStoreNoFence  ? 1
            : F.Kind == FindingKind::BulkSourceRefill ? 2
                                                      : 0);
  if ((F.Kind == FindingKind::ReadInFlight ||
       F.Kind == FindingKind::WriteInFlight) &&
      !Fix)
    diag(F.Source->getBeginLoc(),
         "wait for the copy with %0 %select{before the access|in every "
         "issuing thread before the block barrier that precedes the access}1",
         DiagnosticIDs::Note)
        << waitAdvice(F) << (F.Barrier ? 1 : 0);
  // The same defect seen through another buffer: of the statement, or
  // read after the same wait.
  for (const Finding::SameCause &A : F.Also) {
    Reported.insert(SM.getSpellingLoc(A.At->getBeginLoc()));
    if (A.SameStatement)
      diag(A.At->getBeginLoc(),
           "'%0' is %select{read|written}1 in the same statement, with its "
           "asynchronous copy in flight for the same reason",
           DiagnosticIDs::Note)
          << A.Buffer->getName() << (F.Kind == FindingKind::WriteInFlight);
    else
      diag(A.At->getBeginLoc(),
           "'%0' is read here too, its copy left in flight by the same wait",
           DiagnosticIDs::Note)
          << A.Buffer->getName();
    diag(A.Source->getBeginLoc(),
         "the asynchronous copy into '%0' is issued here",
         DiagnosticIDs::Note)
        << A.Buffer->getName();
  }
  return true;
}

} // namespace cuda_tidy
