//===--- NvccOnlyConstructCheck.cpp - cuda-nvcc-only-construct ------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The compiler's errors reach clang-tidy through the DiagnosticsEngine's
// client. registerPPCallbacks runs before the file is parsed, so the check
// puts a filter in front of that client: it keeps the two errors it
// recognises (and their notes) from it and logs them; every other
// diagnostic passes through unchanged. The DiagnosticsEngine owns the filter
// (it is used until the compiler instance goes away, after the check), so
// the log is shared, and the filter lets everything through once the check
// is gone.
//
//===----------------------------------------------------------------------===//

#include "checks/NvccOnlyConstructCheck.h"
#include "lib/ast/TakeOverConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/DiagnosticAST.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_tidy {

namespace {
enum class ConstructKind { SharedConstructor, PtxRegisterEscape };

struct Construct {
  ConstructKind Kind;
  SourceLocation Loc;
  /// PtxRegisterEscape: the register's name without '%'; the offsets of
  /// every such single '%' in the same string token, the first included.
  std::string Register;
  std::vector<SourceLocation> Percents;
};
} // namespace

struct NvccConstructLog {
  /// False once the check is gone: the filter then changes nothing.
  bool Active = true;
  LangOptions LangOpts;
  std::vector<Construct> Constructs;
  /// Source ranges of macro definitions, where no fix is offered.
  std::vector<SourceRange> MacroBodies;
};

namespace {

/// The PTX special registers (PTX ISA, "Special Registers"), by the name
/// written after '%' up to a '.' or the end of the identifier.
bool isPtxSpecialRegister(StringRef Name) {
  static const char *const Fixed[] = {
      "tid",
      "ntid",
      "laneid",
      "warpid",
      "nwarpid",
      "ctaid",
      "nctaid",
      "smid",
      "nsmid",
      "gridid",
      "is_explicit_cluster",
      "clusterid",
      "nclusterid",
      "cluster_ctaid",
      "cluster_nctaid",
      "cluster_ctarank",
      "cluster_nctarank",
      "lanemask_eq",
      "lanemask_le",
      "lanemask_lt",
      "lanemask_ge",
      "lanemask_gt",
      "clock",
      "clock_hi",
      "clock64",
      "globaltimer",
      "globaltimer_lo",
      "globaltimer_hi",
      "total_smem_size",
      "aggr_smem_size",
      "dynamic_smem_size",
      "reserved_smem_offset_begin",
      "reserved_smem_offset_end",
      "reserved_smem_offset_cap",
      "current_graph_exec",
  };
  if (llvm::any_of(Fixed, [&](const char *F) { return Name == F; }))
    return true;
  // %pm0..%pm7, %pm0_64..%pm7_64, %envreg0..%envreg31,
  // %reserved_smem_offset_<2>.
  auto Numbered = [&](StringRef Prefix, unsigned Max, StringRef Suffix) {
    StringRef Rest = Name;
    if (!Rest.consume_front(Prefix) || !Rest.consume_back(Suffix))
      return false;
    unsigned N;
    return !Rest.empty() && !Rest.getAsInteger(10, N) && N <= Max;
  };
  return Numbered("pm", 7, "") || Numbered("pm", 7, "_64") ||
         Numbered("envreg", 31, "") || Numbered("reserved_smem_offset_", 9, "");
}

bool isIdentChar(char C) { return isAlphanumeric(C) || C == '_'; }

/// The register a single '%' escape names, when clang's invalid-escape error
/// points into it: clang reads "%g" as an operand modifier and stops at the
/// next letter, so the '%' is one or two characters before \p Loc.
std::optional<Construct> ptxRegisterEscape(SourceLocation Loc,
                                           const SourceManager &SM) {
  if (!Loc.isFileID())
    return std::nullopt;
  auto [FID, Offset] = SM.getDecomposedLoc(Loc);
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(FID, &Invalid);
  if (Invalid || Offset >= Buffer.size())
    return std::nullopt;
  for (unsigned Back : {1u, 2u}) {
    if (Offset < Back + 1)
      break;
    unsigned Percent = Offset - Back;
    if (Buffer[Percent] != '%' || Buffer[Percent - 1] == '%')
      continue;
    unsigned End = Percent + 1;
    while (End < Buffer.size() && isIdentChar(Buffer[End]))
      ++End;
    StringRef Name = Buffer.slice(Percent + 1, End);
    if (!isPtxSpecialRegister(Name))
      return std::nullopt;
    Construct C{ConstructKind::PtxRegisterEscape,
                Loc.getLocWithOffset(-static_cast<int>(Back)), Name.str(),
                {}};
    // Every single '%' before a register name up to the end of this string
    // token: clang stops at the first, a fix for that one alone would leave
    // the next as the new error.
    for (unsigned I = Percent; I < Buffer.size() && Buffer[I] != '"' &&
                               Buffer[I] != '\n';
         ++I) {
      if (Buffer[I] == '\\') {
        ++I;
        continue;
      }
      if (Buffer[I] != '%')
        continue;
      if (I + 1 < Buffer.size() && Buffer[I + 1] == '%') {
        ++I;
        continue;
      }
      unsigned E = I + 1;
      while (E < Buffer.size() && isIdentChar(Buffer[E]))
        ++E;
      if (isPtxSpecialRegister(Buffer.slice(I + 1, E)))
        C.Percents.push_back(
            Loc.getLocWithOffset(static_cast<int>(I) -
                                 static_cast<int>(Offset)));
    }
    return C;
  }
  return std::nullopt;
}

/// Whether the `__shared__` variable named at \p Loc is declared with no
/// initialiser (`T v;`, `T v[2];`): the error then comes from a default
/// constructor that is not empty, which nvcc accepts with a warning. An
/// explicit initialiser is rejected by nvcc as well.
bool isDefaultInitialised(SourceLocation Loc, const SourceManager &SM,
                          const LangOptions &LangOpts) {
  if (!Loc.isFileID())
    return false;
  std::optional<Token> Tok = Lexer::findNextToken(Loc, SM, LangOpts);
  unsigned Depth = 0;
  while (Tok) {
    if (Tok->is(tok::l_square))
      ++Depth;
    else if (Tok->is(tok::r_square)) {
      if (Depth == 0)
        return false;
      --Depth;
    } else if (Depth == 0)
      return Tok->isOneOf(tok::semi, tok::comma);
    else if (Tok->is(tok::eof))
      return false;
    Tok = Lexer::findNextToken(Tok->getLocation(), SM, LangOpts);
  }
  return false;
}

class NvccConstructFilter : public TakeOverConsumer {
public:
  NvccConstructFilter(DiagnosticConsumer *Inner,
                      std::unique_ptr<DiagnosticConsumer> OwnedInner,
                      std::shared_ptr<NvccConstructLog> Log)
      : TakeOverConsumer(Inner, std::move(OwnedInner)), Log(std::move(Log)) {}

private:
  bool active() const override { return Log->Active; }
  bool takeOver(const Diagnostic &Info) override {
    return Info.hasSourceManager() && recognise(Info);
  }
  bool recognise(const Diagnostic &Info) {
    const SourceManager &SM = Info.getSourceManager();
    SourceLocation Loc = Info.getLocation();
    std::optional<Construct> C;
    if (Info.getID() == diag::err_shared_var_init &&
        isDefaultInitialised(Loc, SM, Log->LangOpts))
      C = Construct{ConstructKind::SharedConstructor, Loc, {}, {}};
    else if (Info.getID() == diag::err_asm_invalid_escape)
      C = ptxRegisterEscape(Loc, SM);
    if (!C)
      return false;
    // Template instantiations and both sides report the same place.
    bool Seen = llvm::any_of(Log->Constructs, [&](const Construct &Old) {
      return Old.Kind == C->Kind && Old.Loc == C->Loc;
    });
    if (!Seen)
      Log->Constructs.push_back(std::move(*C));
    return true;
  }

  std::shared_ptr<NvccConstructLog> Log;
};

/// Records where macros are defined: a fix inside a macro's body would
/// change every expansion, including ones this parse does not see.
class MacroBodies : public PPCallbacks {
public:
  explicit MacroBodies(std::shared_ptr<NvccConstructLog> Log)
      : Log(std::move(Log)) {}
  void MacroDefined(const Token &, const MacroDirective *MD) override {
    const MacroInfo *MI = MD->getMacroInfo();
    if (MI && !MI->tokens_empty())
      Log->MacroBodies.emplace_back(MI->getDefinitionLoc(),
                                    MI->getDefinitionEndLoc());
  }

private:
  std::shared_ptr<NvccConstructLog> Log;
};

bool inRange(SourceRange R, SourceLocation L, const SourceManager &SM) {
  return !SM.isBeforeInTranslationUnit(L, R.getBegin()) &&
         !SM.isBeforeInTranslationUnit(R.getEnd(), L);
}

} // namespace

NvccOnlyConstructCheck::NvccOnlyConstructCheck(
    StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      Log(std::make_shared<NvccConstructLog>()) {}

NvccOnlyConstructCheck::~NvccOnlyConstructCheck() { Log->Active = false; }

bool NvccOnlyConstructCheck::isLanguageVersionSupported(
    const LangOptions &LangOpts) const {
  return LangOpts.CUDA;
}

void NvccOnlyConstructCheck::registerPPCallbacks(const SourceManager &SM,
                                                 Preprocessor *PP,
                                                 Preprocessor *) {
  this->SM = &SM;
  Log->LangOpts = PP->getLangOpts();
  PP->addPPCallbacks(std::make_unique<MacroBodies>(Log));
  DiagnosticsEngine &Diags = PP->getDiagnostics();
  DiagnosticConsumer *Inner = Diags.getClient();
  if (!Inner)
    return;
  std::unique_ptr<DiagnosticConsumer> Owned;
  if (Diags.ownsClient())
    Owned = Diags.takeClient();
  Diags.setClient(new NvccConstructFilter(Inner, std::move(Owned), Log),
                  /*ShouldOwnClient=*/true);
}

void NvccOnlyConstructCheck::registerMatchers(MatchFinder *Finder) {
  // The declarations clang gave up on, for the remark's names and types.
  Finder->addMatcher(varDecl(hasAttr(attr::CUDAShared)).bind("shared"), this);
}

void NvccOnlyConstructCheck::check(const MatchFinder::MatchResult &Result) {
  // The declaration clang rejected, or in a template the pattern it was
  // instantiated from (as the template spells its type): clang rejects the
  // instantiation, which the AST does not keep, so the pattern is the one
  // at the rejected location, whether its type depends on the template's
  // parameters or not.
  const auto *VD = Result.Nodes.getNodeAs<VarDecl>("shared");
  if (!VD || !(VD->isInvalidDecl() || VD->isTemplated()))
    return;
  for (Construct &C : Log->Constructs)
    if (C.Kind == ConstructKind::SharedConstructor &&
        C.Loc == VD->getLocation() && C.Register.empty())
      C.Register =
          VD->getName().str() + "\n" +
          VD->getType().getAsString(Result.Context->getPrintingPolicy());
}

void NvccOnlyConstructCheck::onEndOfTranslationUnit() {
  for (const Construct &C : Log->Constructs) {
    if (C.Kind == ConstructKind::SharedConstructor) {
      StringRef Name, Type;
      std::tie(Name, Type) = StringRef(C.Register).split('\n');
      if (Name.empty())
        diag(C.Loc,
             "'__shared__' variable whose default constructor is not empty: "
             "an nvcc extension clang rejects; the file is analysed without "
             "its declaration",
             DiagnosticIDs::Remark);
      else
        diag(C.Loc,
             "'__shared__' variable '%0' of type '%1' has a default constructor "
             "that is not empty: an nvcc extension clang rejects; the file is "
             "analysed without its declaration",
             DiagnosticIDs::Remark)
            << Name << Type;
      diag(C.Loc,
           "nvcc accepts it with a warning (20054-D) and does not run the "
           "constructor; the kernel sets the object up itself ('init' for a "
           "'cuda::barrier', 'cuda::make_pipeline' for a pipeline's shared "
           "state)",
           DiagnosticIDs::Note);
      continue;
    }
    bool InMacro = llvm::any_of(Log->MacroBodies, [&](SourceRange R) {
      return inRange(R, C.Loc, *SM);
    });
    auto D = diag(C.Loc,
                  "PTX register '%%%0' is written with one '%%' in an asm "
                  "statement with operands: an nvcc extension clang rejects; "
                  "write '%%%%%0'",
                  DiagnosticIDs::Remark)
             << C.Register;
    if (!InMacro)
      for (SourceLocation P : C.Percents)
        D << FixItHint::CreateInsertion(P, "%");
  }
  Log->Constructs.clear();
}

} // namespace cuda_tidy
