//===--- RemovedToolkitApiCheck.cpp - cuda-removed-toolkit-api ------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Two things happen before the file is parsed (registerPPCallbacks):
//  - the compatibility declarations (compatDeclarations()) are appended to
//    the preprocessor's predefines, after the CUDA wrapper headers clang
//    includes there, under a line marker that makes them a system header;
//  - a filter is put in front of the diagnostic client, as in
//    cuda-nvcc-only-construct: it takes "no member named 'F' in
//    'cudaDeviceProp'" for a removed field F and "use of undeclared
//    identifier 'f'" for a removed function f out of the client, logs
//    them, and the check reports each as its own warning. Every other
//    diagnostic passes through, other errors included.
//
// After the parse one walk collects the uses (RemovedApiUses.h); the plans
// of DevicePropFix.h and TextureObjectFix.h give the fixes of the field
// reads and texture references; the rest is decided here.
//
//===----------------------------------------------------------------------===//

#include "checks/RemovedToolkitApiCheck.h"
#include "lib/ast/CudaAST.h"
#include "lib/ast/TakeOverConsumer.h"
#include "lib/toolkit/DevicePropFix.h"
#include "lib/toolkit/RemovedApi.h"
#include "lib/toolkit/RemovedApiUses.h"
#include "lib/toolkit/SourceEdits.h"
#include "lib/toolkit/TextureObjectFix.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_tidy {

struct RemovedApiLog {
  /// False once the check is gone: the filter then changes nothing.
  bool Active = true;
  /// "no member named" errors for removed cudaDeviceProp fields.
  FieldErrorLocs FieldErrors;
  /// "undeclared identifier" errors for removed functions, in order.
  llvm::SmallVector<std::pair<SourceLocation, std::string>, 4> Undeclared;
};

namespace {

std::string declarationNameArg(const Diagnostic &Info, unsigned I) {
  if (Info.getNumArgs() <= I)
    return "";
  switch (Info.getArgKind(I)) {
  case DiagnosticsEngine::ak_declarationname:
    return DeclarationName::getFromOpaqueInteger(Info.getRawArg(I))
        .getAsString();
  case DiagnosticsEngine::ak_identifierinfo:
    if (const auto *II =
            reinterpret_cast<const IdentifierInfo *>(Info.getRawArg(I)))
      return II->getName().str();
    return "";
  default:
    return "";
  }
}

/// Whether Info, a deprecation warning, names a deprecated declaration of
/// the CUDA headers that the check reports itself (a vector type such as
/// `double4`, a function such as `cudaMemcpyToArray`). A user's own
/// declaration of the same name keeps the compiler's warning.
bool isReportedDeprecation(const Diagnostic &Info) {
  if (Info.getNumArgs() < 1 ||
      Info.getArgKind(0) != DiagnosticsEngine::ak_nameddecl)
    return false;
  const auto *D = reinterpret_cast<const NamedDecl *>(Info.getRawArg(0));
  // The user's own alias of a deprecated vector type (`typedef double4
  // Type;`): clang reports each use of the alias, the check the alias's
  // spelling of the type, where the fix goes.
  if (const auto *Alias = dyn_cast_or_null<TypedefNameDecl>(D))
    if (const TagDecl *Tag = Alias->getUnderlyingType()->getAsTagDecl())
      D = Tag;
  if (!D || !D->getIdentifier())
    return false;
  const RemovedApi *Api = isa<FunctionDecl>(D) ? findRemovedFunction(D->getName())
                          : isa<TypeDecl>(D)   ? findRemovedType(D->getName())
                                               : nullptr;
  if (!Api || Api->Change != ApiChange::Deprecated)
    return false;
  const SourceManager &SM = D->getASTContext().getSourceManager();
  return SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation()));
}

/// Whether argument I names the record cudaDeviceProp.
bool isDevicePropArg(const Diagnostic &Info, unsigned I) {
  if (Info.getNumArgs() <= I)
    return false;
  const RecordDecl *RD = nullptr;
  switch (Info.getArgKind(I)) {
  case DiagnosticsEngine::ak_declcontext:
    RD = dyn_cast_or_null<RecordDecl>(
        reinterpret_cast<const DeclContext *>(Info.getRawArg(I)));
    break;
  case DiagnosticsEngine::ak_qualtype:
    RD = QualType::getFromOpaquePtr(
             reinterpret_cast<void *>(Info.getRawArg(I)))
             ->getAsRecordDecl();
    break;
  default:
    break;
  }
  return RD && RD->getIdentifier() && RD->getName() == "cudaDeviceProp";
}

class RemovedApiFilter : public TakeOverConsumer {
public:
  RemovedApiFilter(DiagnosticConsumer *Inner,
                   std::unique_ptr<DiagnosticConsumer> OwnedInner,
                   std::shared_ptr<RemovedApiLog> Log)
      : TakeOverConsumer(Inner, std::move(OwnedInner)), Log(std::move(Log)) {}

private:
  bool active() const override { return Log->Active; }
  bool takeOver(const Diagnostic &Info) override {
    return recognise(Info);
  }
  bool recognise(const Diagnostic &Info) {
    SourceLocation Loc = Info.getLocation();
    if (Loc.isInvalid())
      return false;
    unsigned ID = Info.getID();
    if (ID == diag::err_no_member && isDevicePropArg(Info, 1)) {
      std::string Name = declarationNameArg(Info, 0);
      if (!findRemovedDevicePropField(Name))
        return false;
      Log->FieldErrors.try_emplace(Loc, Name);
      return true;
    }
    if (ID == diag::err_undeclared_var_use ||
        ID == diag::err_undeclared_var_use_suggest) {
      std::string Name = declarationNameArg(Info, 0);
      if (!findRemovedFunction(Name))
        return false;
      bool Seen = llvm::any_of(Log->Undeclared,
                               [&](const auto &U) { return U.first == Loc; });
      if (!Seen)
        Log->Undeclared.push_back({Loc, Name});
      return true;
    }
    // The compiler's own "'double4' is deprecated" for a declaration the
    // check reports with its replacement: one warning per use, not two.
    if (ID == diag::warn_deprecated || ID == diag::warn_deprecated_message)
      return isReportedDeprecation(Info);
    return false;
  }

  std::shared_ptr<RemovedApiLog> Log;
};

/// Where a use is reported: where a macro argument is written, in a user
/// macro's definition for a name written there, else at the expansion.
SourceLocation reportLoc(SourceLocation Loc, const SourceManager &SM) {
  if (Loc.isFileID())
    return Loc;
  if (SM.isMacroArgExpansion(Loc))
    return SM.getFileLoc(Loc);
  SourceLocation Spelling = SM.getSpellingLoc(Loc);
  if (!SM.isInSystemHeader(Spelling) && !SM.isWrittenInScratchSpace(Spelling))
    return Spelling;
  return SM.getExpansionLoc(Loc);
}

/// The token of a name to rename: where it is written in the file or in a
/// macro argument, or in the definition of the user's macro whose body
/// holds it (every expansion is a use of the same removed name).
CharSourceRange nameRange(SourceLocation Loc, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (Loc.isMacroID() && !SM.isMacroArgExpansion(Loc)) {
    SourceLocation Spelling = SM.getSpellingLoc(Loc);
    if (SM.isInSystemHeader(Spelling) || SM.isWrittenInScratchSpace(Spelling))
      return {};
    return CharSourceRange::getTokenRange(Spelling);
  }
  return writtenRange(SourceRange(Loc), Ctx);
}

std::string message(const RemovedApi &Api, StringRef Written) {
  std::string M = "'" + Written.str() + "' ";
  switch (Api.Change) {
  case ApiChange::Removed:
    M += "was removed in CUDA " + Api.In.str();
    break;
  case ApiChange::Deprecated:
    M += "is deprecated since CUDA " + Api.In.str();
    break;
  case ApiChange::Changed:
    M += "takes other parameters since CUDA " + Api.In.str();
    return M;
  }
  if (!Api.Replacement.empty())
    M += "; use '" + Api.Replacement.str() + "'";
  return M;
}

/// The argument a changed function's old form has where the new one has
/// another type: whether Decl is the old form.
bool isOldForm(const RemovedApi &Api, const FunctionDecl *Decl) {
  if (!Decl)
    return false;
  if (isCompatDeclaration(Decl))
    return true;
  auto ParamType = [&](unsigned I) -> QualType {
    return I < Decl->getNumParams() ? Decl->getParamDecl(I)->getType()
                                    : QualType();
  };
  switch (Api.Fix) {
  case ApiFix::InsertNullArgument: {
    QualType T = ParamType(Api.InsertAt);
    return T.isNull() ||
           !StringRef(T.getAsString()).contains("cudaGraphEdgeData");
  }
  case ApiFix::MemLocation: {
    QualType T = ParamType(Api.Name == "cudaMemAdvise" ? 3 : 2);
    return !T.isNull() && T->isIntegerType() && !T->isEnumeralType();
  }
  case ApiFix::GraphInstantiateFlags:
    return Decl->getNumParams() == 5;
  default:
    return true;
  }
}

} // namespace

RemovedToolkitApiCheck::RemovedToolkitApiCheck(
    StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), Log(std::make_shared<RemovedApiLog>()) {}

RemovedToolkitApiCheck::~RemovedToolkitApiCheck() { Log->Active = false; }

bool RemovedToolkitApiCheck::isLanguageVersionSupported(
    const LangOptions &LangOpts) const {
  return LangOpts.CUDA;
}

void RemovedToolkitApiCheck::registerPPCallbacks(const SourceManager &,
                                                 Preprocessor *PP,
                                                 Preprocessor *) {
  // The compatibility declarations, after everything clang predefines and
  // force-includes (the CUDA wrapper headers among it).
  std::string Predefines = PP->getPredefines();
  // The compiler invocation's options, which the PCH reader reads (the
  // preprocessor hands them out const only).
  auto &PPOpts = const_cast<PreprocessorOptions &>(PP->getPreprocessorOpts());
  if (!PPOpts.ImplicitPCHInclude.empty() &&
      PPOpts.PrecompiledPreambleBytes.first == 0) {
    // With a precompiled header (`-include-pch`, not clangd's preamble)
    // clang sets the predefines after this, when it loads the PCH: to what
    // the command line adds to the PCH's, which includes the force-included
    // files the PCH does not have. The declarations go in as such a file,
    // kept in memory.
    const StringRef File = "/<cuda-tidy>/removed-toolkit-api.h";
    if (!llvm::is_contained(PPOpts.Includes, File)) {
      std::string Text = "# 1 \"";
      Text += CompatDeclarationsName;
      Text += "\" 3\n";
      Text += compatDeclarations();
      FileEntryRef FE =
          PP->getFileManager().getVirtualFileRef(File, Text.size(), 0);
      PP->getSourceManager().overrideFileContents(
          FE, llvm::MemoryBuffer::getMemBufferCopy(Text, File));
      PPOpts.Includes.push_back(File.str());
    }
  } else if (!StringRef(Predefines).contains(CompatDeclarationsName)) {
    Predefines += "\n# 1 \"";
    Predefines += CompatDeclarationsName;
    Predefines += "\" 3\n";
    Predefines += compatDeclarations();
    PP->setPredefines(std::move(Predefines));
  }

  DiagnosticsEngine &Diags = PP->getDiagnostics();
  DiagnosticConsumer *Inner = Diags.getClient();
  if (!Inner)
    return;
  std::unique_ptr<DiagnosticConsumer> Owned;
  if (Diags.ownsClient())
    Owned = Diags.takeClient();
  Diags.setClient(new RemovedApiFilter(Inner, std::move(Owned), Log),
                  /*ShouldOwnClient=*/true);
}

void RemovedToolkitApiCheck::registerMatchers(MatchFinder *Finder) {
  // One walk of the user's code per translation unit (RemovedApiUses.h).
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

void RemovedToolkitApiCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  RemovedApiUses Uses = collectRemovedApiUses(Ctx, Log->FieldErrors);
  Reported.clear();
  reportTextures(Uses, Ctx);
  reportFunctions(Uses, Ctx);
  reportFields(Uses, Ctx);
  reportVectorTypes(Uses, Ctx);
  reportOtherTypes(Uses, Ctx);
  reportUndeclared(Ctx);
  Log->FieldErrors.clear();
  Log->Undeclared.clear();
  HandledFunctionUses.clear();
  HandledTypeLocs.clear();
}

bool RemovedToolkitApiCheck::firstReport(SourceLocation Loc) {
  return Reported.insert(Loc.getRawEncoding()).second;
}

void RemovedToolkitApiCheck::reportTextures(const RemovedApiUses &Uses,
                                            ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<TexturePlan> Plans = planTextureObjectFixes(Uses, Ctx);
  for (const TexturePlan &P : Plans) {
    const VarDecl *Var = P.Var;
    SourceLocation Loc = reportLoc(Var->getLocation(), SM);
    HandledTypeLocs.insert(
        Var->getTypeSourceInfo()
            ? Var->getTypeSourceInfo()->getTypeLoc().getBeginLoc().getRawEncoding()
            : 0);
    for (size_t I : P.FunctionUses)
      HandledFunctionUses.insert(I);
    if (!firstReport(Loc))
      continue;
    // The edits go with the reference's warning, or, when it is declared in
    // an included file (whose warnings clang-tidy shows only under
    // --header-filter), with the binding's in the main file.
    std::optional<size_t> EditsOnUse;
    if (P.Fix.ok() && !SM.isInMainFile(SM.getExpansionLoc(Loc)) &&
        P.BindUse &&
        SM.isInMainFile(SM.getExpansionLoc(Uses.Functions[*P.BindUse].NameLoc)))
      EditsOnUse = P.BindUse;
    {
      auto D = diag(Loc, P.IsSurface
                             ? "surface reference '%0' needs the surface "
                               "reference API, removed in CUDA 12.0; use a "
                               "surface object"
                             : "texture reference '%0' needs the texture "
                               "reference API, removed in CUDA 12.0; use a "
                               "texture object")
               << Var->getName();
      if (P.Fix.ok() && !EditsOnUse)
        for (const FixItHint &H : P.Fix.Edits)
          D << H;
    }
    // The reference whose diagnostic carries the edits.
    const VarDecl *Carrier = P.FixedWith ? P.FixedWith : Var;
    SourceLocation CarrierLoc = reportLoc(Carrier->getLocation(), SM);
    if (!P.Fix.ok()) {
      SourceLocation WhyNotLoc =
          P.Fix.WhyNotLoc.isValid() ? reportLoc(P.Fix.WhyNotLoc, SM) : Loc;
      diag(WhyNotLoc, "no automatic fix: %0", DiagnosticIDs::Note)
          << P.Fix.WhyNot;
      if (!P.Fix.NoteEdits.empty()) {
        // An unproven rewrite, on a note of its own that says what it
        // assumes (applied by --fix-notes).
        auto D = diag(WhyNotLoc, P.Fix.NoteText, DiagnosticIDs::Note);
        for (const FixItHint &H : P.Fix.NoteEdits)
          D << H;
      }
    } else if (Carrier != Var)
      diag(CarrierLoc,
           "rewritten by the fix of texture reference '%0' declared here, "
           "which is read by the same kernel",
           DiagnosticIDs::Note)
          << Carrier->getName();
    for (size_t I : P.FunctionUses) {
      const FunctionUse &U = Uses.Functions[I];
      SourceLocation UseLoc = reportLoc(U.NameLoc, SM);
      if (!firstReport(UseLoc))
        continue;
      StringRef Name = U.Api->Name;
      if (U.Api->Kind == ApiKind::DeviceFunction) {
        diag(UseLoc, P.IsSurface
                         ? "'%0' of a surface reference was removed in CUDA "
                           "%1; use a surface object"
                         : "'%0' of a texture reference was removed in CUDA "
                           "%1; read through a texture object")
            << Name << U.Api->In.str();
      } else {
        auto D = diag(UseLoc, message(*U.Api, Name));
        if (EditsOnUse && *EditsOnUse == I)
          for (const FixItHint &H : P.Fix.Edits)
            D << H;
      }
      if (P.Fix.ok())
        diag(CarrierLoc,
             "the fix of texture reference '%0' declared here rewrites it",
             DiagnosticIDs::Note)
            << Carrier->getName();
      else
        diag(Loc, "%select{texture|surface}1 reference '%0' declared here",
             DiagnosticIDs::Note)
            << Var->getName() << (P.IsSurface ? 1 : 0);
    }
  }
}

/// Where argument I of Call is written (invalid in a macro's body).
static CharSourceRange argRange(const CallExpr *Call, unsigned I,
                                ASTContext &Ctx) {
  return writtenRange(Call->getArg(I)->getSourceRange(), Ctx);
}

/// The new name in place of the old, also where a macro pastes it together.
static Rewrite planRename(const FunctionUse &U, ASTContext &Ctx) {
  Rewrite R;
  const RemovedApi &Api = *U.Api;
  const CallExpr *Call = U.Call;
  CharSourceRange Name = nameRange(U.NameLoc, Ctx);
  if (Name.isValid()) {
    R.Edits.push_back(FixItHint::CreateReplacement(Name, Api.Replacement));
    return R;
  }
  // A name a macro pastes together: `cuda(ThreadSynchronize())`.
  std::optional<PastedCall> Pasted =
      Call ? pastedCall(Call, Api.Name, Ctx) : std::nullopt;
  if (!Pasted || !Api.Replacement.starts_with(Pasted->Prefix)) {
    R.fail("the name is written in a macro");
    return R;
  }
  R.Edits.push_back(FixItHint::CreateReplacement(
      Pasted->Suffix, Api.Replacement.drop_front(Pasted->Prefix.size())));
  return R;
}

/// The call removed, or `cudaSuccess` in place of a no-op whose result is
/// used.
static Rewrite planRemoveCall(const FunctionUse &U, ASTContext &Ctx) {
  Rewrite R;
  const RemovedApi &Api = *U.Api;
  const CallExpr *Call = U.Call;
  if (!Call) {
    R.fail("it is not called here");
    return R;
  }
  for (const Expr *Arg : Call->arguments())
    if (Arg->HasSideEffects(Ctx)) {
      R.fail("its arguments have side effects");
      return R;
    }
  auto [S, Block] = U.Context.statementInBlock(Call);
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E || E->IgnoreImplicit()->IgnoreParens() != Call) {
    // cudaSetDoubleFor* returned cudaSuccess and did nothing else.
    CharSourceRange Range = writtenRange(Call->getSourceRange(), Ctx);
    if (!Api.Name.starts_with("cudaSetDoubleFor") || Range.isInvalid()) {
      R.fail("its result is used");
      return R;
    }
    R.Edits.push_back(FixItHint::CreateReplacement(Range, "cudaSuccess"));
    return R;
  }
  std::optional<FixItHint> Removal = removeStatement(S, Ctx);
  if (!Removal) {
    R.fail("the call is written in a macro");
    return R;
  }
  R.Edits.push_back(*Removal);
  return R;
}

/// `nullptr, ` before the argument the new form takes there.
static Rewrite planInsertNullArgument(const FunctionUse &U, ASTContext &Ctx) {
  Rewrite R;
  const RemovedApi &Api = *U.Api;
  const CallExpr *Call = U.Call;
  if (!Call || Call->getNumArgs() <= Api.InsertAt) {
    R.fail(Api.Advice);
    return R;
  }
  CharSourceRange At = argRange(Call, Api.InsertAt, Ctx);
  if (At.isInvalid()) {
    R.fail("the arguments are written in a macro");
    return R;
  }
  R.Edits.push_back(FixItHint::CreateInsertion(At.getBegin(), "nullptr, "));
  return R;
}

/// The five-argument `cudaGraphInstantiate` with flags 0 in place of the
/// error node, the log and its size.
static Rewrite planGraphInstantiateFlags(const FunctionUse &U,
                                         ASTContext &Ctx) {
  Rewrite R;
  const RemovedApi &Api = *U.Api;
  const CallExpr *Call = U.Call;
  if (!Call || Call->getNumArgs() != 5) {
    R.fail(Api.Advice);
    return R;
  }
  for (unsigned I = 2; I != 5; ++I)
    if (Call->getArg(I)->HasSideEffects(Ctx)) {
      R.fail("its arguments have side effects");
      return R;
    }
  CharSourceRange Graph = argRange(Call, 1, Ctx);
  CharSourceRange Size = argRange(Call, 4, Ctx);
  if (Graph.isInvalid() || Size.isInvalid()) {
    R.fail("the arguments are written in a macro");
    return R;
  }
  FixItHint Flags = FixItHint::CreateReplacement(
      CharSourceRange::getCharRange(Graph.getEnd(), Size.getEnd()), ", 0");
  if (!isNullPointerConstant(Call->getArg(2), Ctx) ||
      !isNullPointerConstant(Call->getArg(3), Ctx)) {
    R.fail("the error node or the log is asked for");
    R.NoteText = "without the error node and the log, which "
                 "'cudaGraphInstantiate' no longer returns "
                 "('cudaGraphInstantiateWithParams' returns the error node)";
    R.NoteEdits.push_back(Flags);
    return R;
  }
  R.Edits.push_back(Flags);
  return R;
}

/// The array copies as one-row 2D copies, on a note: the copy may span
/// rows.
static Rewrite planArrayCopy2D(const FunctionUse &U, ASTContext &Ctx) {
  Rewrite R;
  const RemovedApi &Api = *U.Api;
  const CallExpr *Call = U.Call;
  // The one-row 2D copy: (count) wide, 1 high; the source or destination
  // pitch is the count too.
  R.fail("the copy may span several rows of the array");
  StringRef Name = Api.Name;
  bool FromArray = Name.starts_with("cudaMemcpyFromArray");
  unsigned CountArg = Name == "cudaMemcpyArrayToArray" ? 6 : 4;
  if (!Call || Call->getNumArgs() <= CountArg ||
      Call->getArg(CountArg)->HasSideEffects(Ctx))
    return R;
  CharSourceRange Callee = nameRange(U.NameLoc, Ctx);
  CharSourceRange Count = argRange(Call, CountArg, Ctx);
  std::optional<std::string> CountText =
      writtenText(Call->getArg(CountArg)->getSourceRange(), Ctx);
  CharSourceRange Src = argRange(Call, 1, Ctx);
  if (Callee.isInvalid() || Count.isInvalid() || !CountText ||
      (FromArray && Src.isInvalid()))
    return R;
  R.NoteText = "if the copy stays within one row of the array, it is a "
               "2D copy '" +
               *CountText + "' bytes wide and 1 high";
  R.NoteEdits.push_back(
      FixItHint::CreateReplacement(Callee, Api.Replacement));
  if (FromArray)
    R.NoteEdits.push_back(
        FixItHint::CreateInsertion(Src.getBegin(), *CountText + ", "));
  else if (Name != "cudaMemcpyArrayToArray")
    R.NoteEdits.push_back(
        FixItHint::CreateInsertion(Count.getBegin(), *CountText + ", "));
  R.NoteEdits.push_back(FixItHint::CreateInsertion(Count.getEnd(), ", 1"));
  return R;
}

/// The device argument as a `cudaMemLocation`.
static Rewrite planMemLocation(const FunctionUse &U, ASTContext &Ctx) {
  Rewrite R;
  const RemovedApi &Api = *U.Api;
  const CallExpr *Call = U.Call;
  bool Advise = Api.Name == "cudaMemAdvise";
  unsigned DevArg = Advise ? 3 : 2;
  if (!Call || Call->getNumArgs() <= DevArg) {
    R.fail(Api.Advice);
    return R;
  }
  const Expr *Dev = Call->getArg(DevArg);
  CharSourceRange DevRange = argRange(Call, DevArg, Ctx);
  std::optional<std::string> DevText =
      writtenText(Dev->getSourceRange(), Ctx);
  if (DevRange.isInvalid() || !DevText) {
    R.fail("the device argument is written in a macro");
    return R;
  }
  std::string Location;
  if (std::optional<llvm::APSInt> V = Dev->getIntegerConstantExpr(Ctx)) {
    Location = V->getSExtValue() == -1
                   ? "cudaMemLocation{cudaMemLocationTypeHost, 0}"
                   : "cudaMemLocation{cudaMemLocationTypeDevice, " +
                         *DevText + "}";
  } else if (!Dev->HasSideEffects(Ctx)) {
    Location = "cudaMemLocation{" + *DevText +
               " == cudaCpuDeviceId ? cudaMemLocationTypeHost : "
               "cudaMemLocationTypeDevice, " +
               *DevText + "}";
  } else {
    R.fail("the device argument has side effects");
    return R;
  }
  if (!Advise)
    Location += ", 0";
  R.Edits.push_back(FixItHint::CreateReplacement(DevRange, Location));
  return R;
}

/// The fix of a use of a removed or changed function, or why there is none.
static Rewrite planFunctionFix(const FunctionUse &U, ASTContext &Ctx) {
  switch (U.Api->Fix) {
  case ApiFix::None:
  case ApiFix::TextureObject:
  case ApiFix::VectorType16a:
  case ApiFix::DeviceAttribute: {
    Rewrite R;
    R.fail(U.Api->Advice);
    return R;
  }
  case ApiFix::Rename:
    return planRename(U, Ctx);
  case ApiFix::RemoveCall:
    return planRemoveCall(U, Ctx);
  case ApiFix::InsertNullArgument:
    return planInsertNullArgument(U, Ctx);
  case ApiFix::GraphInstantiateFlags:
    return planGraphInstantiateFlags(U, Ctx);
  case ApiFix::ArrayCopy2D:
    return planArrayCopy2D(U, Ctx);
  case ApiFix::MemLocation:
    return planMemLocation(U, Ctx);
  }
  return Rewrite();
}

void RemovedToolkitApiCheck::reportFunctions(const RemovedApiUses &Uses,
                                             ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (size_t I = 0; I != Uses.Functions.size(); ++I) {
    if (HandledFunctionUses.contains(I))
      continue;
    const FunctionUse &U = Uses.Functions[I];
    const RemovedApi &Api = *U.Api;
    if (Api.Change == ApiChange::Changed && !isOldForm(Api, U.Decl))
      continue;
    SourceLocation Loc = reportLoc(U.NameLoc, SM);
    if (SM.isInSystemHeader(SM.getExpansionLoc(Loc)) || !firstReport(Loc))
      continue;
    if (Api.Fix == ApiFix::GraphInstantiateFlags &&
        isDeclaredByToolkit(U.Decl)) {
      reportKeptGraphInstantiate(U, Loc, Ctx);
      continue;
    }
    Rewrite Fix = planFunctionFix(U, Ctx);
    {
      auto D = diag(Loc, message(Api, Api.Name));
      if (Fix.ok())
        for (const FixItHint &H : Fix.Edits)
          D << H;
    }
    if (!Fix.ok() && !Fix.NoteEdits.empty()) {
      // An unproven fix, on a note of its own that says what it assumes.
      auto D = diag(Loc, Fix.NoteText, DiagnosticIDs::Note);
      for (const FixItHint &H : Fix.NoteEdits)
        D << H;
      continue;
    }
    if (Api.Fix != ApiFix::Rename && !Api.Advice.empty())
      diag(Loc, Api.Advice, DiagnosticIDs::Note);
    if (!Fix.ok() && Api.Fix != ApiFix::None)
      diag(Fix.WhyNotLoc.isValid() ? Fix.WhyNotLoc : Loc,
           "no automatic fix: %0", DiagnosticIDs::Note)
          << Fix.WhyNot;
  }
}

void RemovedToolkitApiCheck::reportKeptGraphInstantiate(const FunctionUse &U,
                                                        SourceLocation Loc,
                                                        ASTContext &Ctx) {
  // The headers' inline overload calls the new form with flags 0 and
  // ignores the error node and the log: a call that asks for neither
  // builds and behaves as before, and is left alone.
  const CallExpr *Call = U.Call;
  if (!Call || Call->getNumArgs() != 5 ||
      (isNullPointerConstant(Call->getArg(2), Ctx) &&
       isNullPointerConstant(Call->getArg(3), Ctx)))
    return;
  Rewrite Fix = planFunctionFix(U, Ctx);
  diag(Loc, "'%0' no longer returns the error node or the log since CUDA "
            "%1; they are left as they were")
      << U.Api->Name << U.Api->In.str();
  if (!Fix.NoteEdits.empty()) {
    auto D = diag(Loc, Fix.NoteText, DiagnosticIDs::Note);
    for (const FixItHint &H : Fix.NoteEdits)
      D << H;
    return;
  }
  diag(Fix.WhyNotLoc.isValid() ? Fix.WhyNotLoc : Loc, "no automatic fix: %0",
       DiagnosticIDs::Note)
      << Fix.WhyNot;
}

void RemovedToolkitApiCheck::reportFields(const RemovedApiUses &Uses,
                                          ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<Rewrite> Fixes = planDevicePropFixes(Uses, Ctx);
  for (size_t I = 0; I != Uses.Fields.size(); ++I) {
    const FieldUse &U = Uses.Fields[I];
    SourceLocation Loc = reportLoc(U.FieldLoc, SM);
    if (!firstReport(Loc))
      continue;
    const Rewrite &Fix = Fixes[I];
    {
      auto D = U.Api->Replacement.empty()
                   ? diag(Loc, "'cudaDeviceProp::%0' was removed in CUDA %1")
                         << U.Api->Name << U.Api->In.str()
                   : diag(Loc, "'cudaDeviceProp::%0' was removed in CUDA %1; "
                               "use 'cudaDeviceGetAttribute' with '%2'")
                         << U.Api->Name << U.Api->In.str()
                         << U.Api->Replacement;
      if (Fix.ok())
        for (const FixItHint &H : Fix.Edits)
          D << H;
    }
    if (Fix.ok())
      continue;
    diag(Loc, "no automatic fix: %0", DiagnosticIDs::Note) << Fix.WhyNot;
    if (!Fix.NoteEdits.empty()) {
      auto D = diag(Loc, Fix.NoteText, DiagnosticIDs::Note);
      for (const FixItHint &H : Fix.NoteEdits)
        D << H;
    }
  }
}

void RemovedToolkitApiCheck::reportVectorTypes(const RemovedApiUses &Uses,
                                               ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  // Per type: the edits of every spelling, or why the type is left as is
  // (the rename is all or nothing, so that the user's code stays
  // consistent).
  struct TypePlan {
    std::string WhyNot;
    SourceLocation WhyNotLoc;
  };
  llvm::DenseMap<const RemovedApi *, TypePlan> Plans;
  auto Fail = [&](const RemovedApi *Api, const Twine &Why,
                  SourceLocation At) {
    TypePlan &P = Plans[Api];
    if (P.WhyNot.empty()) {
      P.WhyNot = Why.str();
      P.WhyNotLoc = At;
    }
  };
  FileID Main = SM.getMainFileID();
  auto NameRange = [&](SourceLocation L) {
    CharSourceRange R = nameRange(L, Ctx);
    if (R.isValid() && SM.getFileID(R.getBegin()) != Main)
      return CharSourceRange();
    return R;
  };
  for (const TypeUse &T : Uses.Types) {
    if (T.Api->Fix != ApiFix::VectorType16a)
      continue;
    Plans.try_emplace(T.Api);
    if (NameRange(T.Loc.getBeginLoc()).isInvalid())
      Fail(T.Api,
           "'" + T.Api->Name.str() +
               "' is also written in a macro or another file, which the fix "
               "would have to change as well",
           T.Loc.getBeginLoc());
  }
  for (const FunctionUse &U : Uses.VectorMakers) {
    Plans.try_emplace(U.Api);
    if (NameRange(U.NameLoc).isInvalid())
      Fail(U.Api,
           "'make_" + U.Api->Name.str() +
               "' is called in a macro or another file, which the fix would "
               "have to change as well",
           U.NameLoc);
  }
  for (const FunctionUse &U : Uses.VectorBlockers)
    if (Plans.count(U.Api))
      Fail(U.Api,
           "'" + U.Decl->getNameAsString() + "' takes or returns '" +
               U.Api->Name.str() + "', which does not convert to '" +
               U.Api->Replacement.str() + "'",
           U.NameLoc);

  auto Report = [&](const RemovedApi *Api, SourceLocation NameLoc,
                    StringRef Written, StringRef Replacement) {
    SourceLocation Loc = reportLoc(NameLoc, SM);
    if (SM.isInSystemHeader(SM.getExpansionLoc(Loc)) || !firstReport(Loc))
      return;
    const TypePlan &P = Plans[Api];
    CharSourceRange Range = NameRange(NameLoc);
    {
      auto D = diag(Loc, "'%0' is deprecated since CUDA %1; use '%2'")
               << Written << Api->In.str() << Replacement;
      if (P.WhyNot.empty())
        D << FixItHint::CreateReplacement(Range, Replacement);
    }
    std::string Wide = (Replacement.drop_back(3) + "32a").str();
    if (P.WhyNot.empty()) {
      diag(Loc,
           "'%0' (32-byte aligned) would change the layout of arrays and "
           "structures that hold it; '%1' keeps it",
           DiagnosticIDs::Note)
          << Wide << Replacement
          << (Range.isValid() ? FixItHint::CreateReplacement(Range, Wide)
                              : FixItHint());
      return;
    }
    SourceLocation At = P.WhyNotLoc.isValid() ? reportLoc(P.WhyNotLoc, SM)
                                              : SourceLocation();
    if (At.isInvalid() || SM.getFileID(SM.getExpansionLoc(At)) !=
                              SM.getFileID(SM.getExpansionLoc(Loc)))
      At = Loc;
    diag(At, "no automatic fix: %0", DiagnosticIDs::Note) << P.WhyNot;
  };
  for (const TypeUse &T : Uses.Types)
    if (T.Api->Fix == ApiFix::VectorType16a)
      Report(T.Api, T.Loc.getBeginLoc(), T.Api->Name, T.Api->Replacement);
  for (const FunctionUse &U : Uses.VectorMakers)
    Report(U.Api, U.NameLoc, ("make_" + U.Api->Name).str(),
           ("make_" + U.Api->Replacement).str());
}

void RemovedToolkitApiCheck::reportOtherTypes(const RemovedApiUses &Uses,
                                              ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const TypeUse &T : Uses.Types) {
    if (T.Api->Fix == ApiFix::VectorType16a ||
        HandledTypeLocs.contains(T.Loc.getBeginLoc().getRawEncoding()))
      continue;
    SourceLocation Loc = reportLoc(T.Loc.getBeginLoc(), SM);
    if (SM.isInSystemHeader(SM.getExpansionLoc(Loc)) || !firstReport(Loc))
      continue;
    diag(Loc, "'%0' was removed in CUDA %1") << T.Api->Name << T.Api->In.str();
    diag(Loc, T.Api->Advice, DiagnosticIDs::Note);
  }
}

void RemovedToolkitApiCheck::reportUndeclared(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const auto &[At, Name] : Log->Undeclared) {
    const RemovedApi *Api = findRemovedFunction(Name);
    SourceLocation Loc = reportLoc(At, SM);
    if (!Api || !firstReport(Loc))
      continue;
    CharSourceRange Range = nameRange(At, Ctx);
    {
      auto D = diag(Loc, message(*Api, Name));
      if (Api->Fix == ApiFix::Rename && Range.isValid())
        D << FixItHint::CreateReplacement(Range, Api->Replacement);
    }
    if (Api->Fix != ApiFix::Rename && !Api->Advice.empty())
      diag(Loc, Api->Advice, DiagnosticIDs::Note);
  }
}

} // namespace cuda_tidy
