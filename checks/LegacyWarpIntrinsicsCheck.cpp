//===--- LegacyWarpIntrinsicsCheck.cpp - cuda-legacy-warp-intrinsics ------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "checks/LegacyWarpIntrinsicsCheck.h"
#include "lib/CudaAST.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_tidy {

static constexpr llvm::StringLiteral DefaultFullMask = "0xffffffff";

LegacyWarpIntrinsicsCheck::LegacyWarpIntrinsicsCheck(
    StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      FullMask(Options.get("FullMask", DefaultFullMask).trim().str()),
      ArchOverride(*Context) {
  if (FullMask.empty()) {
    configurationDiag("invalid value for option '%0.FullMask': the mask "
                      "spelling must not be empty; using '%1'")
        << Name << DefaultFullMask;
    FullMask = DefaultFullMask.str();
  }
  if (ArchOverride.shouldReportError())
    configurationDiag("%0") << ArchOverride.error();
}

void LegacyWarpIntrinsicsCheck::storeOptions(
    clang::tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "FullMask", FullMask);
}

bool LegacyWarpIntrinsicsCheck::isLanguageVersionSupported(
    const LangOptions &LangOpts) const {
  return LangOpts.CUDA;
}

void LegacyWarpIntrinsicsCheck::registerPPCallbacks(const SourceManager &SM,
                                                    Preprocessor *PP,
                                                    Preprocessor *) {
  PP->addPPCallbacks(ArchRegions.makeCallbacks(SM, getLangOpts()));
}

void LegacyWarpIntrinsicsCheck::registerMatchers(MatchFinder *Finder) {
  // The legacy intrinsics by name; check() keeps only the CUDA headers' own.
  auto Legacy =
      functionDecl(hasAnyName("__shfl", "__shfl_up", "__shfl_down",
                              "__shfl_xor", "__ballot", "__any", "__all"))
          .bind("fn");
  auto InFunction = forCallable(functionDecl().bind("func"));
  // Resolved calls, in ordinary code and in template instantiations.
  Finder->addMatcher(callExpr(callee(Legacy), InFunction).bind("call"), this);
  // Calls with dependent arguments in a template that is never instantiated.
  Finder->addMatcher(
      callExpr(callee(unresolvedLookupExpr(hasAnyDeclaration(Legacy))),
               InFunction)
          .bind("call"),
      this);
}

void LegacyWarpIntrinsicsCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const auto *Fn = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  const auto *Func = Result.Nodes.getNodeAs<FunctionDecl>("func");
  SM = Result.SourceManager;
  if (!Call || !Fn || !isCudaHeaderDecl(Fn, *SM))
    return;

  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  SourceLocation NameLoc;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee))
    NameLoc = DRE->getLocation();
  else if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(Callee))
    NameLoc = ULE->getNameLoc();
  if (NameLoc.isInvalid())
    return;

  SourceLocation ExpansionLoc = SM->getExpansionLoc(NameLoc);
  SourceLocation SpellingLoc = SM->getSpellingLoc(NameLoc);
  // Calls in system headers are not the user's to fix. A system macro that
  // expands to a legacy call in the user's code is still reported there.
  if (SM->isInSystemHeader(ExpansionLoc))
    return;
  // Code that only pre-Volta compilations see is deliberate.
  if (ArchRegions.contains(ExpansionLoc, *SM) ||
      ArchRegions.contains(SpellingLoc, *SM))
    return;

  if (!Convergence)
    Convergence = std::make_unique<WarpConvergence>(*Result.Context);

  bool Instantiated = Func && Func->isTemplateInstantiation();
  if (Func && !Instantiated) {
    // Member functions of class template specialisations are instantiated
    // too.
    if (const auto *Parent = dyn_cast<CXXRecordDecl>(Func->getDeclContext()))
      Instantiated =
          Parent->getTemplateSpecializationKind() == TSK_ImplicitInstantiation;
  }
  std::optional<ConvergenceObstacle> Obstacle =
      Func ? Convergence->obstacle(Call, Func)
           : std::optional<ConvergenceObstacle>(
                 ConvergenceObstacle{NameLoc, "the call is not in a function"});

  // Sites are keyed by where the name is spelled: one report and one fix per
  // spelling, whatever the number of instantiations or expansions.
  SourceLocation Key = NameLoc.isMacroID() &&
                               !SM->isMacroArgExpansion(NameLoc) &&
                               !SM->isInSystemHeader(SpellingLoc)
                           ? SpellingLoc
                           : SM->getFileLoc(NameLoc);
  auto [It, Inserted] = Sites.try_emplace(Key);
  Site &S = It->second;
  if (Inserted) {
    S.Legacy = Fn->getName().str();
    S.Loc = Key;
    S.Edit = locateCallEdit(NameLoc, *SM, getLangOpts());
    if (S.Edit.Points && S.Edit.Points->InMacroDefinition) {
      S.ExpansionLoc = ExpansionLoc;
      S.MacroName =
          Lexer::getImmediateMacroName(NameLoc, *SM, getLangOpts()).str();
    }
    S.SeenInstantiated = Instantiated;
    S.Obstacle = Obstacle;
    return;
  }
  // Instantiated code is more precise than a dependent template pattern:
  // it replaces the pattern's answer, and instantiations combine with "and".
  if (Instantiated && !S.SeenInstantiated) {
    S.SeenInstantiated = true;
    S.Obstacle = Obstacle;
  } else if (Instantiated == S.SeenInstantiated && !S.Obstacle && Obstacle) {
    S.Obstacle = Obstacle;
  }
}

void LegacyWarpIntrinsicsCheck::onEndOfTranslationUnit() {
  for (auto &[Key, S] : Sites) {
    std::string Sync = S.Legacy + "_sync";
    bool Proven = !S.Obstacle.has_value();
    {
      auto Warning = diag(S.Loc, "'%0' is not available on sm_70 and later; "
                                 "use '%1'")
                     << S.Legacy << Sync;
      if (S.Edit.Points && Proven)
        Warning << FixItHint::CreateReplacement(S.Edit.Points->Name, Sync)
                << FixItHint::CreateInsertion(S.Edit.Points->AfterLParen,
                                              FullMask + ", ");
    }
    if (!S.MacroName.empty())
      diag(S.ExpansionLoc,
           "the call comes from this expansion of macro '%0'; "
           "the fix edits its definition",
           DiagnosticIDs::Note)
          << S.MacroName;
    if (!S.Edit.Points) {
      diag(S.Loc, "no automatic fix: %0", DiagnosticIDs::Note) << S.Edit.WhyNot;
      continue;
    }
    if (Proven)
      continue;
    diag(S.Obstacle->Loc,
         "the whole warp is not proven to reach the call, so a full mask "
         "could hang or read lanes that are absent: %0",
         DiagnosticIDs::Note)
        << S.Obstacle->Reason;
    diag(S.Loc,
         "use '__activemask()' to keep the lanes that are active "
         "here, as '%0' did",
         DiagnosticIDs::Note)
        << S.Legacy << FixItHint::CreateReplacement(S.Edit.Points->Name, Sync)
        << FixItHint::CreateInsertion(S.Edit.Points->AfterLParen,
                                      "__activemask(), ");
  }
  Sites.clear();
  Convergence.reset();
}

} // namespace cuda_tidy
