//===--- ArchDependence.cpp - Does user code vary by GPU arch? ------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "tools/common/ArchDependence.h"
#include "lib/target/ArchConditionals.h"
#include "tools/common/NvccArgs.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Options/OptionUtils.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace clang;
using namespace llvm;

namespace cuda_tidy {

unsigned cudaArchValue(StringRef Arch) {
  std::optional<std::string> Norm = normalizeGpuArch(Arch);
  if (!Norm)
    return 0;
  StringRef Digits = StringRef(*Norm).drop_front(3); // "sm_"
  Digits = Digits.take_while([](char C) { return isDigit(C); });
  unsigned Value = 0;
  if (Digits.getAsInteger(10, Value))
    return 0;
  return Value * 10;
}

/// `__CUDA_ARCH__` and its relatives (`__CUDA_ARCH_FEAT_SM90_ALL`,
/// `__CUDA_ARCH_SPECIFIC__`, `__CUDA_ARCH_FAMILY_SPECIFIC__`).
static bool isArchMacro(StringRef Name) {
  return Name.starts_with("__CUDA_ARCH");
}

namespace {
class ScanCallbacks : public PPCallbacks {
public:
  ScanCallbacks(Preprocessor &PP, ArrayRef<unsigned> ArchValues,
                ArchDependence &Out)
      : PP(PP), SM(PP.getSourceManager()), LangOpts(PP.getLangOpts()),
        ArchValues(ArchValues), Out(Out) {}

  void MacroExpands(const Token &NameTok, const MacroDefinition &,
                    SourceRange Range, const MacroArgs *) override {
    StringRef Name = NameTok.getIdentifierInfo()->getName();
    if (!readsArch(Name))
      return;
    if (PP.isParsingIfOrElifDirective()) {
      // Decided when the directive's callback comes.
      if (Name == "__CUDA_ARCH__")
        PendingArchValue = true;
      else if (PendingOther.empty())
        PendingOther = Name.str();
      return;
    }
    SourceLocation At = SM.getExpansionLoc(Range.getBegin());
    if (isUserLocation(At))
      varies(At, "code expands '" + Name + "'");
  }

  void Defined(const Token &NameTok, const MacroDefinition &,
               SourceRange) override {
    StringRef Name = NameTok.getIdentifierInfo()->getName();
    // Every device architecture defines __CUDA_ARCH__.
    if (Name != "__CUDA_ARCH__" && readsArch(Name) && PendingOther.empty())
      PendingOther = Name.str();
  }

  void If(SourceLocation Loc, SourceRange Cond, ConditionValueKind) override {
    JustClosedVarying = false;
    open(Loc, "#if", conditionVaries(Cond));
  }

  void Elif(SourceLocation Loc, SourceRange Cond, ConditionValueKind Value,
            SourceLocation) override {
    JustClosedVarying = false;
    // Not evaluated: an earlier branch is taken, and it is taken for every
    // architecture unless an earlier condition varies (then already noted).
    bool Varies = Value != CVK_NotEvaluated && conditionVaries(Cond);
    next(Loc, "#elif", Varies);
  }

  void Ifdef(SourceLocation Loc, const Token &NameTok,
             const MacroDefinition &) override {
    JustClosedVarying = false;
    open(Loc, "#ifdef", definedVaries(NameTok));
  }
  void Ifndef(SourceLocation Loc, const Token &NameTok,
              const MacroDefinition &) override {
    JustClosedVarying = false;
    open(Loc, "#ifndef", definedVaries(NameTok));
  }
  void Elifdef(SourceLocation Loc, const Token &NameTok,
               const MacroDefinition &) override {
    JustClosedVarying = false;
    next(Loc, "#elifdef", definedVaries(NameTok));
  }
  void Elifndef(SourceLocation Loc, const Token &NameTok,
                const MacroDefinition &) override {
    JustClosedVarying = false;
    next(Loc, "#elifndef", definedVaries(NameTok));
  }
  void Else(SourceLocation, SourceLocation) override {
    JustClosedVarying = false;
  }
  void Endif(SourceLocation, SourceLocation) override {
    if (Regions.empty())
      return;
    // The skipped block this #endif ends is reported after this callback.
    JustClosedVarying = Regions.back().Varies;
    Regions.pop_back();
  }

  void MacroDefined(const Token &NameTok, const MacroDirective *MD) override {
    JustClosedVarying = false;
    StringRef Name = NameTok.getIdentifierInfo()->getName();
    if (insideVaryingRegion(NameTok.getLocation())) {
      Derived.insert(Name);
      return;
    }
    const MacroInfo *MI = MD ? MD->getMacroInfo() : nullptr;
    if (!MI)
      return;
    for (const Token &T : MI->tokens())
      if (const IdentifierInfo *II = T.getIdentifierInfo())
        if (readsArch(II->getName())) {
          Derived.insert(Name);
          return;
        }
  }

  void MacroUndefined(const Token &NameTok, const MacroDefinition &,
                      const MacroDirective *) override {
    JustClosedVarying = false;
    if (insideVaryingRegion(NameTok.getLocation()))
      Derived.insert(NameTok.getIdentifierInfo()->getName());
  }

  void SourceRangeSkipped(SourceRange Range, SourceLocation) override {
    if (!insideVaryingRegion(Range.getBegin()) && !JustClosedVarying)
      return;
    JustClosedVarying = false;
    // Macros that only other architectures define or undefine.
    bool Invalid = false;
    StringRef Text = Lexer::getSourceText(CharSourceRange::getCharRange(Range),
                                          SM, LangOpts, &Invalid);
    if (Invalid)
      return;
    SmallVector<StringRef, 64> Lines;
    Text.split(Lines, '\n');
    for (StringRef Line : Lines) {
      Line = Line.ltrim();
      if (!Line.consume_front("#"))
        continue;
      Line = Line.ltrim();
      if (!Line.consume_front("define") && !Line.consume_front("undef"))
        continue;
      if (Line.empty() || !isHorizontalWhitespace(Line.front()))
        continue;
      Line = Line.ltrim();
      StringRef Name =
          Line.take_while([](char C) { return isAlnum(C) || C == '_'; });
      if (!Name.empty())
        Derived.insert(Name);
    }
  }

private:
  Preprocessor &PP;
  const SourceManager &SM;
  const LangOptions &LangOpts;
  ArrayRef<unsigned> ArchValues;
  ArchDependence &Out;
  /// Architecture-derived macros.
  StringSet<> Derived;
  /// What the directive being evaluated has read.
  bool PendingArchValue = false;
  std::string PendingOther;
  /// One entry per open conditional: its file, and whether a condition of
  /// its chain so far varies by architecture.
  struct Region {
    FileID File;
    bool Varies;
  };
  SmallVector<Region, 16> Regions;
  bool JustClosedVarying = false;

  bool readsArch(StringRef Name) const {
    return isArchMacro(Name) || Derived.contains(Name);
  }

  /// Whether \p Loc lies in a varying region of its own file. What such a
  /// region includes (a whole header) is a difference of declarations, not
  /// of the macros written in it; see the file comment.
  bool insideVaryingRegion(SourceLocation Loc) const {
    FileID File = SM.getFileID(SM.getExpansionLoc(Loc));
    return llvm::any_of(
        Regions, [&](const Region &R) { return R.Varies && R.File == File; });
  }

  bool isUserLocation(SourceLocation Loc) const {
    return Loc.isValid() && Loc.isFileID() && !SM.isInSystemHeader(Loc) &&
           !SM.isWrittenInBuiltinFile(Loc) &&
           !SM.isWrittenInCommandLineFile(Loc) &&
           !SM.isWrittenInScratchSpace(Loc);
  }

  void varies(SourceLocation Loc, const Twine &What) {
    if (Out.Varies)
      return;
    Out.Varies = true;
    PresumedLoc P = SM.getPresumedLoc(Loc);
    Out.Reason = (P.isValid() ? sys::path::filename(P.getFilename()).str() +
                                    ":" + Twine(P.getLine()).str() + ": "
                              : std::string()) +
                 What.str();
  }

  /// Whether the condition just evaluated may differ between the
  /// architectures; forgets what it read.
  bool conditionVaries(SourceRange Cond) {
    bool ArchValue = PendingArchValue;
    std::string Other = std::move(PendingOther);
    PendingArchValue = false;
    PendingOther.clear();
    LastReason.clear();
    if (!Other.empty()) {
      LastReason = "reads '" + Other + "'";
      return true;
    }
    if (!ArchValue)
      return false;
    LastReason = "reads '__CUDA_ARCH__'";
    StringRef Text = Lexer::getSourceText(CharSourceRange::getTokenRange(Cond),
                                          SM, LangOpts);
    if (Text.empty())
      return true;
    std::optional<Truth> First;
    for (unsigned V : ArchValues) {
      Truth T = evaluateArchCondition(Text, V, LangOpts);
      if (T == Truth::Unknown || (First && T != *First))
        return true;
      First = T;
    }
    return false;
  }

  bool definedVaries(const Token &NameTok) {
    PendingArchValue = false;
    PendingOther.clear();
    StringRef Name = NameTok.getIdentifierInfo()
                         ? NameTok.getIdentifierInfo()->getName()
                         : StringRef();
    LastReason = ("reads '" + Name + "'").str();
    return Name != "__CUDA_ARCH__" && readsArch(Name);
  }

  void open(SourceLocation Loc, StringRef Directive, bool Varies) {
    Regions.push_back({SM.getFileID(Loc), Varies});
    if (Varies && isUserLocation(Loc))
      varies(Loc, "'" + Directive + "' " + LastReason);
  }

  void next(SourceLocation Loc, StringRef Directive, bool Varies) {
    if (!Regions.empty())
      Regions.back().Varies = Regions.back().Varies || Varies;
    if (Varies && isUserLocation(Loc))
      varies(Loc, "'" + Directive + "' " + LastReason);
  }

  std::string LastReason;
};

class ScanAction : public PreprocessOnlyAction {
public:
  ScanAction(ArrayRef<unsigned> ArchValues, ArchDependence &Out)
      : ArchValues(ArchValues), Out(Out) {}

protected:
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    Preprocessor &PP = CI.getPreprocessor();
    PP.addPPCallbacks(std::make_unique<ScanCallbacks>(PP, ArchValues, Out));
    return true;
  }

private:
  ArrayRef<unsigned> ArchValues;
  ArchDependence &Out;
};

/// Counts the errors, so that a file that does not preprocess is not
/// answered for.
class ErrorCounter : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    if (Level >= DiagnosticsEngine::Error)
      ++Errors;
  }
  unsigned Errors = 0;
};
} // namespace

ArchDependence findArchDependence(ArrayRef<std::string> DeviceArgs,
                                  ArrayRef<std::string> Archs,
                                  StringRef Directory, StringRef ResourceDir,
                                  IntrusiveRefCntPtr<vfs::FileSystem> FS) {
  ArchDependence Result;
  SmallVector<unsigned, 8> Values;
  for (const std::string &A : Archs) {
    unsigned V = cudaArchValue(A);
    if (!V) {
      Result.Reason = "'" + A + "' is not a CUDA architecture";
      return Result;
    }
    Values.push_back(V);
  }
  if (DeviceArgs.empty()) {
    Result.Reason = "no command";
    return Result;
  }

  std::vector<std::string> Args = DeviceArgs.vec();
  Args = tooling::getClangStripOutputAdjuster()(Args, "");
  Args = tooling::getClangStripDependencyFileAdjuster()(Args, "");
  Args = tooling::getClangSyntaxOnlyAdjuster()(Args, "");
  bool HasResourceDir = llvm::any_of(
      Args, [](StringRef A) { return A.starts_with("-resource-dir"); });
  if (!HasResourceDir) {
    std::string Dir = ResourceDir.str();
    if (Dir.empty()) {
      std::string Clang = Args.front();
      if (!sys::path::has_parent_path(Clang))
        if (ErrorOr<std::string> Found = sys::findProgramByName(Clang))
          Clang = *Found;
      SmallString<256> Real;
      if (!sys::fs::real_path(Clang, Real))
        Clang = Real.str().str();
      Dir = clang::GetResourcesPath(Clang);
    }
    Args.insert(Args.begin() + 1, "-resource-dir=" + Dir);
  }

  if (!FS)
    FS = vfs::createPhysicalFileSystem();
  if (!Directory.empty())
    FS->setCurrentWorkingDirectory(Directory);
  auto Files = makeIntrusiveRefCnt<FileManager>(FileSystemOptions(), FS);
  ArchDependence Scan;
  Scan.Varies = false;
  tooling::ToolInvocation Invocation(
      Args, std::make_unique<ScanAction>(Values, Scan), Files.get());
  ErrorCounter Errors;
  Invocation.setDiagnosticConsumer(&Errors);
  if (!Invocation.run() || Errors.Errors) {
    Result.Reason = "the device side does not preprocess";
    return Result;
  }
  return Scan;
}

} // namespace cuda_tidy
