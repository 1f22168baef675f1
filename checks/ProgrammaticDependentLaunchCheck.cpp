//===--- ProgrammaticDependentLaunchCheck.cpp - PDL ordering --------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "checks/ProgrammaticDependentLaunchCheck.h"
#include "checks/CallMatchers.h"
#include "lib/ast/Macros.h"
#include "lib/AnalysisContext.h"
#include "lib/ast/CudaAST.h"
#include "lib/ast/FixItHelpers.h"
#include "lib/ordering/MemoryOrdering.h"
#include "lib/pdl/EarlierKernels.h"
#include "lib/pdl/EarlyLaunch.h"
#include "lib/pdl/GridDependency.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_tidy {

ProgrammaticDependentLaunchCheck::ProgrammaticDependentLaunchCheck(
    StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), ArchOverride(*Context),
      EarlyReadable(Options.get("EarlyReadable", "").str()) {
  if (ArchOverride.shouldReportError())
    configurationDiag("%0") << ArchOverride.error();
  if (!EarlyReadable.empty()) {
    llvm::Regex R(EarlyReadable);
    std::string Error;
    if (R.isValid(Error))
      EarlyReadableRegex.emplace(std::move(R));
    else
      configurationDiag("invalid EarlyReadable regular expression '%0': %1")
          << EarlyReadable << Error;
  }
}

void ProgrammaticDependentLaunchCheck::storeOptions(
    clang::tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "EarlyReadable", EarlyReadable);
}

void ProgrammaticDependentLaunchCheck::registerPPCallbacks(
    const SourceManager &, Preprocessor *PP, Preprocessor *) {
  this->PP = PP;
  PP->addPPCallbacks(Dispatches.makeCallbacks(*PP));
}

void ProgrammaticDependentLaunchCheck::registerMatchers(MatchFinder *Finder) {
  // Kernel definitions, instantiations included; analysed at the end of the
  // translation unit, and only when one of the matchers below says it uses
  // Programmatic Dependent Launch.
  Finder->addMatcher(functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal),
                                  unless(isExpansionInSystemHeader()))
                         .bind("kernel"),
                     this);
  // The attribute, set anywhere: asked of the enumerators at the end of the
  // translation unit (attributeReferenced), not of every name in it.
  Finder->addMatcher(
      callExpr(calleeNamedAnyOf({"cudaGridDependencySynchronize",
                                 "wait_on_dependent_grids"}),
               unless(isExpansionInSystemHeader()))
          .bind("wait"),
      this);
  Finder->addMatcher(asmStmt(unless(isExpansionInSystemHeader())).bind("asm"),
                     this);
}

void ProgrammaticDependentLaunchCheck::check(
    const MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
  if (const auto *K = Result.Nodes.getNodeAs<FunctionDecl>("kernel")) {
    // Instantiations, and templates the translation unit never
    // instantiates (a header's kernels), read as written.
    if (isAnalysedBody(K) && SeenKernels.insert(K).second)
      Kernels.push_back(K);
    return;
  }
  if (const auto *AS = Result.Nodes.getNodeAs<AsmStmt>("asm")) {
    const auto *A = dyn_cast<GCCAsmStmt>(AS);
    if (!A || !isWaitAsm(A))
      return;
    Relevant = true;
    checkAsmClobber(A);
    return;
  }
  Relevant = true;
}

/// The compilations of the build: the driver's list, else the one-parse
/// list, else the analysed compilation (or cuda.TargetArch).
SmallVector<CompileTarget, 4>
ProgrammaticDependentLaunchCheck::buildTargets() const {
  SmallVector<CompileTarget, 4> Targets;
  auto Add = [&](std::optional<CompileTarget> T) {
    if (T && !llvm::is_contained(Targets, *T))
      Targets.push_back(*T);
  };
  for (StringRef Macro : {BuildArchsMacroName, GpuArchListMacroName}) {
    if (!Targets.empty() || !PP)
      break;
    if (const MacroInfo *MI = macroNamed(*PP, Macro))
      for (const Token &T : MI->tokens())
        if (const IdentifierInfo *II = T.getIdentifierInfo())
          Add(parseCompileTarget(II->getName()));
  }
  if (Targets.empty()) {
    if (ArchOverride.arch())
      Add(parseCompileTarget(ArchOverride.arch()->Name));
    else if (Ctx && Ctx->getTargetInfo().getTriple().isNVPTX())
      Add(parseCompileTarget(Ctx->getTargetInfo().getTargetOpts().CPU));
  }
  return Targets;
}

void ProgrammaticDependentLaunchCheck::checkAsmClobber(const GCCAsmStmt *A) {
  // The clobber and its fix are cuda-memory-ordering's model of every
  // waiting asm (lib/ordering); this check words the wait's report.
  std::optional<AsmClobberFinding> Found =
      findAsmWithoutMemoryClobber(*A, *Ctx);
  if (!Found)
    return;
  SourceLocation Loc = Ctx->getSourceManager().getExpansionLoc(A->getAsmLoc());
  if (!Reported.insert(Loc).second)
    return;
  {
    auto D = diag(Loc, "'griddepcontrol.wait' has no \"memory\" clobber; the "
                       "compiler may move memory accesses above the wait");
    if (Found->InsertAt.isValid())
      D << FixItHint::CreateInsertion(Found->InsertAt, Found->Text);
  }
  if (Found->InsertAt.isInvalid())
    diag(Loc, "add \"memory\" to the clobber list (no automatic fix: %0)",
         DiagnosticIDs::Note)
        << Found->WhyNoFix;
}

std::string ProgrammaticDependentLaunchCheck::spell(const Expr *E) const {
  if (!E)
    return "global memory";
  const SourceManager &SM = Ctx->getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
  if (E->getBeginLoc().isMacroID() || E->getEndLoc().isMacroID())
    return "global memory";
  StringRef Text = Lexer::getSourceText(R, SM, Ctx->getLangOpts());
  if (Text.empty() || Text.size() > 40 || Text.contains('\n'))
    return "global memory";
  return "'" + Text.str() + "'";
}

void ProgrammaticDependentLaunchCheck::noteWhyEarly(
    const FunctionDecl *Kernel, ArrayRef<ProgrammaticLaunch> Launches,
    bool ForAccess) {
  if (!Launches.empty()) {
    const ProgrammaticLaunch &L = Launches.front();
    SourceLocation At =
        L.Launcher     ? L.Launcher->Call->getBeginLoc()
        : L.Binding   ? L.Binding->Through.front()->getBeginLoc()
        : L.Attribute ? L.Attribute->getBeginLoc()
                      : L.Site->Call->getBeginLoc();
    diag(At,
         "%0 is launched with programmatic stream serialization here, so it "
         "may start before the previous kernel in the stream finishes",
         DiagnosticIDs::Note)
        << Kernel->getDeclName();
    return;
  }
  diag(Kernel->getLocation(),
       "no launch of %0 is visible; as it waits for the previous kernel, it "
       "is taken to be launched with programmatic stream serialization"
       "%select{| after a kernel that may write what it reads and read what "
       "it writes}1",
       DiagnosticIDs::Note)
      << Kernel->getDeclName() << ForAccess;
}

/// Whether the translation unit names the launch attribute anywhere: Sema
/// marks an enumerator referenced where any expression names it, so one
/// lookup at the end of the translation unit replaces a matcher on every
/// name. A reference from a system header only makes the analysis run.
static bool attributeReferenced(ASTContext &Ctx) {
  for (StringRef Name : {"cudaLaunchAttributeProgrammaticStreamSerialization",
                         "CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION"}) {
    const IdentifierInfo *II = lookupIdentifier(Ctx.Idents, Name);
    if (!II)
      continue;
    for (const NamedDecl *D : Ctx.getTranslationUnitDecl()->lookup(
             DeclarationName(const_cast<IdentifierInfo *>(II))))
      if (D->isReferenced())
        return true;
  }
  return false;
}

/// Whether an arm of a dispatch spells a wait: the analysed compilation
/// may have dropped it (`NV_IF_TARGET`), leaving no call to match.
bool ProgrammaticDependentLaunchCheck::dispatchesWait() const {
  if (!Ctx)
    return false;
  for (const TargetDispatch &D : Dispatches.all())
    for (const TargetDispatchArm &Arm : D.Arms) {
      StringRef Text =
          armText(Arm, Ctx->getSourceManager(), Ctx->getLangOpts());
      if (Text.contains("GridDependencySynchronize") ||
          Text.contains("griddepcontrol.wait") ||
          Text.contains("wait_on_dependent_grids"))
        return true;
    }
  return false;
}

void ProgrammaticDependentLaunchCheck::onEndOfTranslationUnit() {
  if (Ctx && !Relevant && !Kernels.empty())
    Relevant = attributeReferenced(*Ctx) || dispatchesWait();
  if (Relevant && Ctx && !Kernels.empty()) {
    AnalysisContext &Shared = AnalysisContext::get(*Ctx);
    EarlyLaunches Launches(Shared.launches(), Shared.constants());
    GridDependencyAnalysis Deps(*Ctx);
    EarlierKernels Earlier(*Ctx, Shared.launches(), Launches, Deps);
    SmallVector<CompileTarget, 4> Targets = buildTargets();
    for (const FunctionDecl *K : Kernels)
      checkKernel(K, Launches, Deps, Earlier, Targets);
  }
  Relevant = false;
  Ctx = nullptr;
  Dispatches = TargetDispatches();
  Kernels.clear();
  SeenKernels.clear();
  Reported.clear();
}

/// "sm_90", "sm_90 and sm_100", "sm_90, sm_100 and sm_120".
static std::string targetList(ArrayRef<CompiledOutWait> Waits) {
  std::string Out;
  for (size_t I = 0; I < Waits.size(); ++I) {
    if (I)
      Out += I + 1 == Waits.size() ? " and " : ", ";
    Out += Waits[I].Target.name();
  }
  return Out;
}

void ProgrammaticDependentLaunchCheck::checkKernel(
    const FunctionDecl *Kernel, EarlyLaunches &Launches,
    GridDependencyAnalysis &Deps, EarlierKernels &Earlier,
    ArrayRef<CompileTarget> Targets) {
  if (!isAnalysedBody(Kernel))
    return;
  SmallVector<ProgrammaticLaunch, 2> Programmatic;
  EarlyStart Start = Launches.classify(Kernel, &Programmatic);
  if (Start == EarlyStart::InOrder)
    return;
  KernelDependency D = Deps.analyzeKernel(Kernel);
  bool OlderCodeLaunchedEarly =
      llvm::any_of(Programmatic,
                   [](const ProgrammaticLaunch &L) { return L.Unconditional; });
  SmallVector<CompiledOutWait, 1> Off =
      Deps.compiledOutWaits(Kernel, Targets, Deps.wrapperNames(), &Dispatches,
                            OlderCodeLaunchedEarly);
  if (!Off.empty())
    reportCompiledOut(Kernel, Off, Programmatic);
  if (!D.MayWait) {
    // A wait the analysed compilation left out under a condition that
    // cannot be decided here (`#if __CUDACC_VER_MAJOR__ >= 12` when the
    // analysing compiler does not define it): nothing is claimed.
    if (Start == EarlyStart::Programmatic && Off.empty() &&
        !Deps.mentionsWait(Kernel, Deps.wrapperNames(), &Dispatches))
      reportNoWait(Kernel, D, Programmatic, Deps);
    return;
  }
  reportEarlyAccesses(Kernel, D, Programmatic, Deps, Earlier);
}

void ProgrammaticDependentLaunchCheck::reportCompiledOut(
    const FunctionDecl *Kernel, ArrayRef<CompiledOutWait> Off,
    ArrayRef<ProgrammaticLaunch> Launches) {
  const CompiledOutWait &First = Off.front();
  if (!Reported.insert(First.Wait).second)
    return;
  diag(First.Wait, "the wait for the previous kernel is compiled out for %0, "
                   "where %1 may still start early")
      << targetList(Off) << Kernel->getDeclName();
  if (!First.Dispatch)
    diag(First.Directive, "this branch is not compiled for %0",
         DiagnosticIDs::Note)
        << First.Target.name();
  else
    diag(First.Directive,
         "'%0' does not compile the wait for %1, where '%2' %select{does not "
         "hold|holds}3",
         DiagnosticIDs::Note)
        << First.Dispatch->Macro << First.Target.name() << First.Query
        << First.QueryHolds;
  if (First.Target.CudaArch < 900)
    diag(First.Directive,
         "a GPU of compute capability 9.0 or later runs the %0 code of this "
         "build (its PTX, compiled when the program loads) and launches the "
         "kernel early",
         DiagnosticIDs::Note)
        << First.Target.name();
  noteWhyEarly(Kernel, Launches);
}

/// The kernel body's top-level statement that is exactly the wait W, or
/// null.
static const Stmt *topLevelWait(const CompoundStmt *Body, const Stmt *W) {
  for (const Stmt *S : Body->body()) {
    const Stmt *Inner = S;
    if (const auto *EW = dyn_cast<ExprWithCleanups>(S))
      Inner = EW->getSubExpr();
    if (Inner == W)
      return S;
  }
  return nullptr;
}

/// Whether W is a wait statement that can be written anywhere: the
/// runtime call or a wrapper that waits, with no arguments, or a wait asm
/// with no operands and its "memory" clobber.
static bool isPlainWait(const Stmt *W, GridDependencyAnalysis &Deps) {
  if (const auto *A = dyn_cast<GCCAsmStmt>(W))
    return !A->getNumOutputs() && !A->getNumInputs() && hasMemoryClobber(A);
  if (const auto *CE = dyn_cast<CallExpr>(W)) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    return !CE->getNumArgs() && Callee && Callee->getIdentifier() &&
           (Callee->getName() == "cudaGridDependencySynchronize" ||
            Deps.waitsOnEveryPath(Callee));
  }
  return false;
}

/// The edits that put Kernel's first wait W at the top of its body: moved
/// there when W is a statement of the body itself, else a copy inserted
/// (the waits left in place then return at once). Exact, since every
/// thread reaches the top and nothing runs before it. Empty when W is not a
/// plain wait, or the edit would cross a preprocessor directive (a wait
/// under `#if`) or a macro.
static std::vector<FixItHint> waitAtTop(const FunctionDecl *Kernel,
                                        const Stmt *W,
                                        GridDependencyAnalysis &Deps,
                                        ASTContext &Ctx) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel->getBody());
  if (!Body || Body->body_empty() || !isPlainWait(W, Deps))
    return {};
  const Stmt *S = topLevelWait(Body, W);
  const Stmt *First = Body->body_front();
  if (S == First)
    return {};
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  SourceLocation TopLoc = statementBegin(First, Ctx);
  if (W->getBeginLoc().isMacroID() || W->getEndLoc().isMacroID() ||
      TopLoc.isInvalid())
    return {};
  SourceLocation AfterEnd =
      Lexer::getLocForEndOfToken(W->getEndLoc(), 0, SM, LO);
  FileID File = SM.getFileID(TopLoc);
  if (AfterEnd.isInvalid() || SM.getFileID(W->getBeginLoc()) != File ||
      SM.getFileID(AfterEnd) != File)
    return {};
  StringRef Buffer = SM.getBufferData(File);
  unsigned Top = SM.getFileOffset(TopLoc);
  unsigned Begin = SM.getFileOffset(W->getBeginLoc());
  // The statement ends at its semicolon.
  unsigned End = SM.getFileOffset(AfterEnd);
  while (End < Buffer.size() && (Buffer[End] == ' ' || Buffer[End] == '\t'))
    ++End;
  if (End >= Buffer.size() || Buffer[End] != ';')
    return {};
  ++End;
  if (Begin <= Top || Buffer.substr(Top, End - Top).contains('#'))
    return {};
  // The first statement must start its line, for the indentation.
  LineIndent TopLine = lineIndentOf(TopLoc, SM);
  if (!TopLine.StartsLine)
    return {};
  std::string Text =
      Buffer.substr(Begin, End - Begin).str() + "\n" + TopLine.Indent.str();
  std::vector<FixItHint> Edits = {FixItHint::CreateInsertion(TopLoc, Text)};
  if (!S)
    return Edits;
  // Moved: the wait leaves with its line when it is alone on it.
  size_t Line = Buffer.rfind('\n', Begin) + 1;
  size_t LineEnd = Buffer.find('\n', End);
  unsigned RemoveFrom = Begin, RemoveTo = End;
  if (Buffer.substr(Line, Begin - Line).trim().empty() &&
      LineEnd != StringRef::npos &&
      Buffer.substr(End, LineEnd - End).trim().empty()) {
    RemoveFrom = Line - 1;
    RemoveTo = LineEnd;
  }
  SourceLocation FileStart = SM.getLocForStartOfFile(File);
  Edits.push_back(FixItHint::CreateRemoval(
      CharSourceRange::getCharRange(FileStart.getLocWithOffset(RemoveFrom),
                                    FileStart.getLocWithOffset(RemoveTo))));
  return Edits;
}

/// The function a call or construction runs.
static const FunctionDecl *calleeOf(const Expr *Call) {
  if (const auto *CE = dyn_cast<CallExpr>(Call))
    return CE->getDirectCallee();
  if (const auto *CC = dyn_cast<CXXConstructExpr>(Call))
    return CC->getConstructor();
  return nullptr;
}

void ProgrammaticDependentLaunchCheck::reportEarlyAccesses(
    const FunctionDecl *Kernel, const KernelDependency &D,
    ArrayRef<ProgrammaticLaunch> Launches, GridDependencyAnalysis &Deps,
    EarlierKernels &Earlier) {
  const SourceManager &SM = Ctx->getSourceManager();
  bool First = true;
  for (const EarlyAccess &A : D.Early) {
    const Stmt *At = A.Calls.empty() ? A.Access : A.Calls.front();
    SourceLocation Loc = SM.getExpansionLoc(At->getBeginLoc());
    if (isInSystemHeader(Kernel) || SM.isInSystemHeader(Loc) ||
        Reported.contains(Loc))
      continue;
    // The host code shows which kernels may still run: a buffer none of
    // them writes (or, for a write, touches) is no hazard.
    EarlierWriter Writer = Earlier.judge(Kernel, A);
    if (Writer.K == EarlierWriter::None)
      continue;
    Reported.insert(Loc);
    std::string What = spell(A.Through);
    if (!A.Write && EarlyReadableRegex &&
        EarlyReadableRegex->match(StringRef(What).trim('\'')))
      continue;
    {
      auto Diag = A.Calls.empty()
                      ? diag(Loc, "%0 is %select{read|written}1 before this "
                                  "thread waits for the previous kernel")
                            << What << A.Write
                      : diag(Loc, "this call to %2 %select{reads|writes}1 "
                                  "global memory before this thread waits for "
                                  "the previous kernel")
                            << What << A.Write << calleeOf(A.Calls.front());
      if (First && !D.Waits.empty())
        for (const FixItHint &H :
             waitAtTop(Kernel, D.Waits.front(), Deps, *Ctx))
          Diag << H;
    }
    if (!A.Calls.empty())
      diag(A.Access->getBeginLoc(), "%0 is %select{read|written}1 here",
           DiagnosticIDs::Note)
          << What << A.Write;
    if (!D.Waits.empty())
      diag(D.Waits.front()->getBeginLoc(),
           "%0 waits for the previous kernel here%select{|; some paths "
           "through it never wait}1",
           DiagnosticIDs::Note)
          << Kernel->getDeclName() << !D.WaitsOnEveryPath;
    if (Writer.K == EarlierWriter::Found && Writer.At)
      noteEarlierWriter(Kernel, A, Writer);
    // With no launch in sight, the note on the launch says what is assumed.
    if (Writer.K == EarlierWriter::Untraceable &&
        !(Writer.Why == EarlierWriter::LaunchesNotSeen && Launches.empty()))
      noteUntraceable(Kernel, A, Writer);
    if (First)
      noteWhyEarly(Kernel, Launches, /*ForAccess=*/true);
    First = false;
  }
}

void ProgrammaticDependentLaunchCheck::noteEarlierWriter(
    const FunctionDecl *Kernel, const EarlyAccess &A,
    const EarlierWriter &W) {
  if (isa<CUDAKernelCallExpr>(W.At) || !W.Writer) {
    if (const auto *Call = dyn_cast<CallExpr>(W.At);
        Call && !W.Writer && !isa<CUDAKernelCallExpr>(Call) &&
        Call->getDirectCallee() &&
        !Call->getDirectCallee()->getName().starts_with("cu")) {
      diag(W.At->getBeginLoc(),
           "this call launches kernels earlier in the stream that may still "
           "run when %0 starts",
           DiagnosticIDs::Note)
          << Kernel->getDeclName();
      return;
    }
  }
  if (W.Writer)
    diag(W.At->getBeginLoc(),
         "%0, launched here earlier in the stream, may still run when %1 "
         "starts, and %select{write|access}2 what %1 %select{reads|writes}2 "
         "through %3",
         DiagnosticIDs::Note)
        << W.Writer->getDeclName() << Kernel->getDeclName() << A.Write
        << spell(A.Through);
  else
    diag(W.At->getBeginLoc(),
         "a kernel launched here earlier in the stream may still run when %0 "
         "starts; which buffers it writes is not known",
         DiagnosticIDs::Note)
        << Kernel->getDeclName();
}

/// Says why the host code could not decide whether a kernel that may still
/// run writes what A reads (or touches what it writes), and what is
/// assumed instead.
void ProgrammaticDependentLaunchCheck::noteUntraceable(
    const FunctionDecl *Kernel, const EarlyAccess &A, const EarlierWriter &W) {
  std::string What = spell(A.Through);
  switch (W.Why) {
  case EarlierWriter::ArgumentUnfollowed:
    if (W.At) {
      diag(W.At->getBeginLoc(),
           "this argument cannot be followed to a buffer of the host code, "
           "so %0 is taken to be %select{written|read or written}1 by the "
           "kernel before %2",
           DiagnosticIDs::Note)
          << What << A.Write << Kernel->getDeclName();
      return;
    }
    [[fallthrough]];
  case EarlierWriter::LaunchesNotSeen:
    diag(A.Access->getBeginLoc(),
         "not every launch of %2 is visible and read, so the host code "
         "cannot show which kernel runs before it: %0 is taken to be "
         "%select{written|read or written}1 by that kernel",
         DiagnosticIDs::Note)
        << What << A.Write << Kernel->getDeclName();
    return;
  case EarlierWriter::NotFromParameter:
    diag(A.Access->getBeginLoc(),
         "%0 does not come from a parameter of %2, so the host code cannot "
         "show which kernel %select{writes|accesses}1 it: it is taken to be "
         "%select{written|read or written}1 by the kernel before %2",
         DiagnosticIDs::Note)
        << What << A.Write << Kernel->getDeclName();
    return;
  }
}

/// The first call in S of a function whose text spells a wait that its
/// body, as compiled here, does not make (a wrapper whose `#if` is off).
static const CallExpr *wrapperCompiledOut(const Stmt *S,
                                          GridDependencyAnalysis &Deps) {
  if (!S)
    return nullptr;
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *Callee = CE->getDirectCallee())
      if (Callee->hasBody() && !Deps.waitsOnEveryPath(Callee) &&
          Deps.mentionsWait(Callee, {}))
        return CE;
  for (const Stmt *Child : S->children())
    if (const CallExpr *Found = wrapperCompiledOut(Child, Deps))
      return Found;
  return nullptr;
}

void ProgrammaticDependentLaunchCheck::reportNoWait(
    const FunctionDecl *Kernel, const KernelDependency &D,
    ArrayRef<ProgrammaticLaunch> Launches, GridDependencyAnalysis &Deps) {
  SourceLocation Loc = Kernel->getLocation();
  if (Loc.isMacroID() || !Reported.insert(Loc).second)
    return;
  diag(Loc, "kernel %0 is launched with programmatic stream serialization "
            "but never waits for the previous kernel")
      << Kernel->getDeclName();
  noteWhyEarly(Kernel, Launches);
  if (const CallExpr *Wrapper = wrapperCompiledOut(Kernel->getBody(), Deps))
    diag(Wrapper->getBeginLoc(),
         "%0 does not wait in this compilation: its wait is compiled out",
         DiagnosticIDs::Note)
        << Wrapper->getDirectCallee();
  if (!D.Early.empty()) {
    const EarlyAccess &A = D.Early.front();
    const Stmt *At = A.Calls.empty() ? A.Access : A.Calls.front();
    diag(At->getBeginLoc(),
         "%0 is %select{read|written}1 here with no wait before it",
         DiagnosticIDs::Note)
        << spell(A.Through) << A.Write;
  }
  diag(Loc,
       "a later kernel's wait orders it only after %0, not after the kernels "
       "before %0",
       DiagnosticIDs::Note)
      << Kernel->getDeclName();
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel->getBody());
  if (!Body || Body->body_empty())
    return;
  const SourceManager &SM = Ctx->getSourceManager();
  SourceLocation Top = statementBegin(Body->body_front(), *Ctx);
  if (Top.isInvalid())
    return;
  LineIndent TopLine = lineIndentOf(Top, SM);
  if (!TopLine.StartsLine)
    return;
  diag(Top,
       "call 'cudaGridDependencySynchronize()' before the kernel reads "
       "what the previous kernel writes (sm_90 and later)",
       DiagnosticIDs::Note)
      << FixItHint::CreateInsertion(Top, "cudaGridDependencySynchronize();\n" +
                                             TopLine.Indent.str());
}

} // namespace cuda_tidy
