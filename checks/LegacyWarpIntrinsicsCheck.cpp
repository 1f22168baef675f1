//===--- LegacyWarpIntrinsicsCheck.cpp - cuda-legacy-warp-intrinsics ------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "checks/LegacyWarpIntrinsicsCheck.h"
#include "checks/CallMatchers.h"
#include "lib/AnalysisContext.h"
#include "lib/OptionValues.h"
#include "lib/ast/CudaAST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_tidy {

static constexpr llvm::StringLiteral DefaultFullMask = "0xffffffff";
/// The full member mask in PTX: an immediate, whatever FullMask spells in C++.
static constexpr llvm::StringLiteral FullAsmMask = "0xffffffff";

LegacyWarpIntrinsicsCheck::LegacyWarpIntrinsicsCheck(
    StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      FullMask(Options.get("FullMask", DefaultFullMask).trim().str()),
      ArchOverride(*Context) {
  if (FullMask.empty()) {
    configurationDiag("%0") << invalidOptionMessage(
        Name + ".FullMask",
        "the mask spelling must not be empty; using '" + DefaultFullMask + "'");
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
  // The legacy intrinsics by name; check() tells the CUDA headers' own from
  // the project's functions of the same name.
  const std::vector<std::string> Names = {
      "__shfl", "__shfl_up", "__shfl_down", "__shfl_xor",
      "__ballot", "__any",   "__all"};
  const llvm::SmallVector<StringRef, 8> NameRefs(Names.begin(), Names.end());
  auto Legacy = functionDecl(hasAnyName(NameRefs)).bind("fn");
  // The function each is in comes from the analysis context's call index
  // (check()), not from a `forCallable` matcher, which would build a parent
  // map of the whole translation unit.
  // Resolved calls, in ordinary code and in template instantiations.
  Finder->addMatcher(callExpr(calleeNamedAnyOf(Names)).bind("call"), this);
  // Calls with dependent arguments in a template pattern.
  Finder->addMatcher(
      callExpr(callee(unresolvedLookupExpr(hasAnyDeclaration(Legacy))))
          .bind("call"),
      this);
  // Inline PTX, in ordinary code and in template instantiations.
  Finder->addMatcher(asmStmt().bind("asm"), this);
}

/// Whether D (a function or function template) is the CUDA headers' own.
/// The warp-convergence proofs of Ctx's translation unit: over its call
/// graph, with the uniformity analysis that counts opaque calls as varying.
static std::unique_ptr<WarpConvergence> makeConvergence(ASTContext &Ctx) {
  AnalysisContext &AC = AnalysisContext::get(Ctx);
  UniformityOptions Opts;
  Opts.OpaqueCallsVary = true;
  return std::make_unique<WarpConvergence>(AC.uniformity(Opts),
                                           AC.callGraph());
}

static bool isCudaHeaderFunction(const NamedDecl *D, const SourceManager &SM) {
  if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D))
    D = FT->getTemplatedDecl();
  return isCudaHeaderDecl(D, SM);
}

/// Whether Func is instantiated code (a template instantiation, or a member
/// of an implicitly instantiated class template specialisation).
static bool isInstantiated(const FunctionDecl *Func) {
  if (!Func)
    return false;
  if (Func->isTemplateInstantiation())
    return true;
  if (const auto *Parent = dyn_cast<CXXRecordDecl>(Func->getDeclContext()))
    return Parent->getTemplateSpecializationKind() == TSK_ImplicitInstantiation;
  return false;
}

LegacyWarpIntrinsicsCheck::Site &LegacyWarpIntrinsicsCheck::mergeSite(
    SourceLocation Key, bool &Inserted, bool Instantiated,
    std::optional<ConvergenceObstacle> Obstacle) {
  auto [It, New] = Sites.try_emplace(Key);
  Inserted = New;
  Site &S = It->second;
  if (New) {
    S.Loc = Key;
    S.SeenInstantiated = Instantiated;
    S.Obstacle = std::move(Obstacle);
    return S;
  }
  // Instantiated code is more precise than a dependent template pattern:
  // it replaces the pattern's answer, and instantiations combine with "and".
  if (Instantiated && !S.SeenInstantiated) {
    S.SeenInstantiated = true;
    S.Obstacle = std::move(Obstacle);
  } else if (Instantiated == S.SeenInstantiated && !S.Obstacle && Obstacle) {
    S.Obstacle = std::move(Obstacle);
  }
  return S;
}

void LegacyWarpIntrinsicsCheck::check(const MatchFinder::MatchResult &Result) {
  SM = Result.SourceManager;
  const CallGraphIndex &Calls =
      AnalysisContext::get(*Result.Context).callGraph();
  if (const auto *Asm = Result.Nodes.getNodeAs<GCCAsmStmt>("asm")) {
    if (const FunctionDecl *Func = Calls.enclosingCallable(Asm))
      checkAsm(Asm, Func, *Result.Context);
    return;
  }
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  // Bound by the dependent-call matcher; a resolved call's is its callee.
  const auto *Fn = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (!Fn && Call)
    Fn = dyn_cast_or_null<FunctionDecl>(Call->getCalleeDecl());
  const FunctionDecl *Func = Calls.enclosingCallable(Call);
  if (!Call || !Fn || !Func)
    return;

  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  SourceLocation NameLoc;
  // For a resolved call: whether it goes to the CUDA headers' function. For a
  // dependent one: whether its lookup set holds it, and a project function
  // it holds.
  bool Builtin = false;
  const NamedDecl *User = nullptr;
  const auto *ULE = dyn_cast<UnresolvedLookupExpr>(Callee);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee)) {
    NameLoc = DRE->getLocation();
    Builtin = isCudaHeaderDecl(Fn, *SM);
    if (!Builtin)
      User = Fn;
  } else if (ULE) {
    NameLoc = ULE->getNameLoc();
    for (const NamedDecl *D : ULE->decls()) {
      D = D->getUnderlyingDecl();
      if (isCudaHeaderFunction(D, *SM))
        Builtin = true;
      else if (!User)
        User = D;
    }
  }
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

  bool Instantiated = isInstantiated(Func);
  // The convergence proof is only needed for calls that reach the builtin.
  std::optional<ConvergenceObstacle> Obstacle;
  if (Builtin) {
    if (!Convergence)
      Convergence = makeConvergence(*Result.Context);
    Obstacle = Func ? Convergence->obstacle(Call, Func)
                    : std::optional<ConvergenceObstacle>(ConvergenceObstacle{
                          NameLoc, "the call is not in a function"});
  }

  // Sites are keyed by where the name is spelled: one report and one fix per
  // spelling, whatever the number of instantiations or expansions.
  SourceLocation Key = NameLoc.isMacroID() &&
                               !SM->isMacroArgExpansion(NameLoc) &&
                               !SM->isInSystemHeader(SpellingLoc)
                           ? SpellingLoc
                           : SM->getFileLoc(NameLoc);
  bool Inserted = false;
  Site *SP = nullptr;
  if (Builtin) {
    SP = &mergeSite(Key, Inserted, Instantiated, std::move(Obstacle));
  } else {
    // A call to the project's function does not take part in the proof.
    auto [It, New] = Sites.try_emplace(Key);
    Inserted = New;
    SP = &It->second;
    SP->Loc = Key;
  }
  Site &S = *SP;
  if (Inserted) {
    S.Legacy = Fn->getName().str();
    S.Edit = locateCallEdit(NameLoc, *SM, getLangOpts());
    if (S.Edit.Points && S.Edit.Points->InMacroDefinition) {
      S.ExpansionLoc = ExpansionLoc;
      S.MacroName =
          Lexer::getImmediateMacroName(NameLoc, *SM, getLangOpts()).str();
    }
  }
  if (ULE) {
    S.PatternBuiltin |= Builtin;
    if (User && !S.PatternUserCallee)
      S.PatternUserCallee = User;
    return;
  }
  S.Resolved = true;
  S.Builtin |= Builtin;
  if (User && !S.UserCallee)
    S.UserCallee = User;
}

void LegacyWarpIntrinsicsCheck::checkAsm(const GCCAsmStmt *Asm,
                                         const FunctionDecl *Func,
                                         ASTContext &Ctx) {
  const auto *Str = dyn_cast_or_null<StringLiteral>(Asm->getAsmStringExpr());
  if (!Str || !Str->isOrdinary())
    return;
  llvm::SmallVector<LegacyPtxInstruction, 2> Found =
      findLegacyWarpPtx(Str->getString());
  if (Found.empty())
    return;
  SourceLocation AsmLoc = Asm->getAsmLoc();
  SourceLocation ExpansionLoc = SM->getExpansionLoc(AsmLoc);
  if (SM->isInSystemHeader(ExpansionLoc) ||
      ArchRegions.contains(ExpansionLoc, *SM))
    return;
  // Edits are made only in string literals written in the user's file: not in
  // a macro's body or argument.
  bool FromMacro = AsmLoc.isMacroID();
  for (unsigned I = 0, E = Str->getNumConcatenated(); I != E; ++I)
    if (Str->getStrTokenLoc(I).isMacroID())
      FromMacro = true;

  if (!Convergence)
    Convergence = makeConvergence(Ctx);
  std::optional<ConvergenceObstacle> Obstacle =
      Func ? Convergence->obstacle(Asm, Func)
           : std::optional<ConvergenceObstacle>(ConvergenceObstacle{
                 AsmLoc, "the asm statement is not in a function"});
  bool Instantiated = isInstantiated(Func);
  const TargetInfo &Target = Ctx.getTargetInfo();
  auto ByteLoc = [&](size_t Offset) {
    return Str->getLocationOfByte(Offset, *SM, getLangOpts(), Target);
  };

  for (const LegacyPtxInstruction &L : Found) {
    SourceLocation Key = FromMacro ? SM->getSpellingLoc(ByteLoc(L.Begin))
                                   : SM->getFileLoc(ByteLoc(L.Begin));
    bool Inserted = false;
    Site &S = mergeSite(Key, Inserted, Instantiated, Obstacle);
    if (!Inserted)
      continue;
    S.IsAsm = true;
    S.Legacy = L.Opcode;
    S.SyncOpcode = L.SyncOpcode;
    if (FromMacro) {
      S.AsmWhyNot = "the asm string is spelled in a macro";
      S.ExpansionLoc = ExpansionLoc;
    } else if (!L.MaskAt) {
      S.AsmWhyNot = "its operands are not followed by a ';' in this asm string";
    } else {
      S.SyncAt = ByteLoc(L.SyncAt);
      S.MaskAt = ByteLoc(*L.MaskAt);
    }
  }
}

void LegacyWarpIntrinsicsCheck::onEndOfTranslationUnit() {
  for (auto &[Key, S] : Sites) {
    if (S.IsAsm) {
      bool Proven = !S.Obstacle.has_value();
      bool CanEdit = S.SyncAt.isValid() && S.MaskAt.isValid();
      {
        auto Warning = diag(S.Loc, "'%0' without '.sync' is not supported on "
                                   "sm_70 and later; use '%1' with a member "
                                   "mask")
                       << S.Legacy << S.SyncOpcode;
        if (CanEdit && Proven)
          Warning << FixItHint::CreateInsertion(S.SyncAt, ".sync")
                  << FixItHint::CreateInsertion(S.MaskAt,
                                                (", " + FullAsmMask).str());
      }
      if (!CanEdit) {
        diag(S.Loc, "no automatic fix: %0", DiagnosticIDs::Note) << S.AsmWhyNot;
        if (S.ExpansionLoc.isValid())
          diag(S.ExpansionLoc, "the asm statement that uses it",
               DiagnosticIDs::Note);
        continue;
      }
      if (Proven)
        continue;
      diag(S.Obstacle->Loc,
           "the whole warp is not proven to reach the asm statement, so a "
           "full member mask could hang or read lanes that are absent: %0",
           DiagnosticIDs::Note)
          << S.Obstacle->Reason;
      diag(S.Loc,
           "add the mask of the lanes that execute it as the last operand of "
           "'%0' (for example from 'activemask.b32')",
           DiagnosticIDs::Note)
          << S.SyncOpcode;
      continue;
    }

    // Where overload resolution never picks the CUDA headers' function, the
    // call is the project's own: nothing to report. A dependent call that is
    // never instantiated counts as the builtin when its lookup holds it.
    bool Builtin = S.Builtin || (!S.Resolved && S.PatternBuiltin);
    if (!Builtin)
      continue;
    const NamedDecl *User = S.Resolved ? S.UserCallee : S.PatternUserCallee;
    std::string Sync = S.Legacy + "_sync";
    bool Proven = !S.Obstacle.has_value();
    bool CanEdit = S.Edit.Points && !User;
    {
      auto Warning = diag(S.Loc, "'%0' is not available on sm_70 and later; "
                                 "use '%1'")
                     << S.Legacy << Sync;
      if (CanEdit && Proven)
        Warning << FixItHint::CreateReplacement(S.Edit.Points->Name, Sync)
                << FixItHint::CreateInsertion(S.Edit.Points->AfterLParen,
                                              FullMask + ", ");
    }
    if (User) {
      diag(User->getLocation(),
           S.Resolved
               ? "no automatic fix: in other instantiations or expansions the "
                 "call goes to the project's own '%0' declared here"
               : "no automatic fix: the template is not instantiated, and the "
                 "call may go to the project's own '%0' declared here",
           DiagnosticIDs::Note)
          << S.Legacy;
      continue;
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
