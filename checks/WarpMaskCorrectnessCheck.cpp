//===--- WarpMaskCorrectnessCheck.cpp - cuda-warp-mask-correctness --------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "checks/WarpMaskCorrectnessCheck.h"
#include "checks/CallMatchers.h"
#include "lib/AnalysisContext.h"
#include "lib/ast/CudaAST.h"
#include "lib/lanes/LaneModel.h"
#include "lib/uniformity/Uniformity.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_tidy {

WarpMaskCorrectnessCheck::WarpMaskCorrectnessCheck(
    StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), LaneOptions(*Context) {
  if (std::string E = LaneOptions.takeError(); !E.empty())
    configurationDiag(E);
}

WarpMaskCorrectnessCheck::~WarpMaskCorrectnessCheck() = default;

bool WarpMaskCorrectnessCheck::isLanguageVersionSupported(
    const LangOptions &LangOpts) const {
  return LangOpts.CUDA;
}

void WarpMaskCorrectnessCheck::registerMatchers(MatchFinder *Finder) {
  // The warp intrinsics that take a lane mask first; check() keeps the CUDA
  // headers' own.
  // Calls in system headers are skipped: thrust and cub make most of a real
  // translation unit.
  Finder->addMatcher(
      callExpr(
          calleeNamedAnyOf(
              {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync",
               "__shfl_xor_sync", "__ballot_sync", "__any_sync", "__all_sync",
               "__uni_sync", "__match_any_sync", "__match_all_sync",
               "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync",
               "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync",
               "__syncwarp"}),
          // After the name: asking where a call is written costs more than
          // reading its callee's name.
          unless(isExpansionInSystemHeader()))
          .bind("call"),
      this);
}

/// "lanes 0-15", "lanes 0, 2-5 and 31", "lane 3".
static std::string laneList(uint32_t Mask) {
  llvm::SmallVector<std::string, 4> Parts;
  for (unsigned L = 0; L < 32;) {
    if (!(Mask & (1u << L))) {
      ++L;
      continue;
    }
    unsigned E = L;
    while (E + 1 < 32 && (Mask & (1u << (E + 1))))
      ++E;
    Parts.push_back(E == L ? std::to_string(L)
                           : std::to_string(L) + "-" + std::to_string(E));
    L = E + 1;
  }
  if (Parts.empty())
    return "no lane";
  std::string Out = llvm::popcount(Mask) == 1 ? "lane " : "lanes ";
  for (size_t I = 0; I < Parts.size(); ++I) {
    if (I)
      Out += I + 1 == Parts.size() ? " and " : ", ";
    Out += Parts[I];
  }
  return Out;
}

static std::string hexMask(uint32_t Mask) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::format("0x%08x", Mask);
  return S;
}

/// The argument as written, without the implicit default-argument node.
static const Expr *writtenArg(const CallExpr *Call, unsigned I) {
  if (I >= Call->getNumArgs() || isa<CXXDefaultArgExpr>(Call->getArg(I)))
    return nullptr;
  return Call->getArg(I);
}

static std::optional<int64_t> constantOf(const Expr *E, ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

static const VarDecl *namedVar(const Expr *E) {
  if (const auto *DRE =
          dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

/// Whether E is built from what makes a legitimate run-time mask: a vote
/// or `__activemask()`, or the thread's index (a lane computation such as
/// `0xffu << (lane & ~7)`), following local variables to their
/// initialisers and assignments.
static bool builtFromMaskSource(const Expr *E, unsigned Depth = 0) {
  if (!E || Depth > 6)
    return true; // Too deep to tell: assume the best.
  E = E->IgnoreParenImpCasts();
  if (getBuiltinVarRef(E))
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *Callee = Call->getDirectCallee()) {
      StringRef N = Callee->getName();
      if (N == "__activemask" || N == "__ballot_sync" ||
          N == "__match_any_sync" || N == "__match_all_sync" ||
          N == "__lanemask_lt" || N == "__lanemask_le" ||
          N == "__lanemask_gt" || N == "__lanemask_ge" || N == "__lanemask_eq")
        return true;
    }
  // A value loaded from memory is data, whatever its address depends on.
  if (isa<ArraySubscriptExpr>(E))
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_Deref)
      return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
      if (V->hasLocalStorage() && !isa<ParmVarDecl>(V) && V->getInit())
        return builtFromMaskSource(V->getInit(), Depth + 1);
      // A parameter or a variable set elsewhere: not judged.
      return true;
    }
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (builtFromMaskSource(CE, Depth + 1))
        return true;
  return false;
}

void WarpMaskCorrectnessCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const auto *Fn =
      Call ? dyn_cast_or_null<FunctionDecl>(Call->getCalleeDecl()) : nullptr;
  ASTContext &Ctx = *Result.Context;
  // The function the call is in (a lambda's call operator for a call in a
  // lambda), from the call index rather than a `forCallable` matcher, which
  // would build a parent map of the whole translation unit.
  const FunctionDecl *Caller =
      AnalysisContext::get(Ctx).callGraph().enclosingCallable(Call);
  const SourceManager &SM = Ctx.getSourceManager();
  if (!Call || !Fn || !Caller || !isCudaHeaderDecl(Fn, SM) ||
      Caller->isDependentContext() || Call->getNumArgs() == 0)
    return;
  // Where the parse broke, what decides the mask may be missing.
  if (AnalysisContext::get(Ctx).parseBroke(Caller))
    return;
  SourceLocation Loc = SM.getExpansionLoc(Call->getBeginLoc());
  if (Loc.isInvalid() || SM.isInSystemHeader(Loc) ||
      Reported.contains(Loc.getRawEncoding()))
    return;
  StringRef Name = Fn->getName();
  unsigned Before = Reported.size();

  // The hand-migration bug: the value shuffled or voted on is also the mask.
  const Expr *MaskArg = Call->getArg(0);
  if (Call->getNumArgs() >= 2 && Name != "__syncwarp")
    if (const VarDecl *V = namedVar(MaskArg))
      if (V == namedVar(Call->getArg(1))) {
        diag(MaskArg->getBeginLoc(),
             "the mask of '%0' is the value it operates on, not a set of "
             "lanes")
            << Name;
        diag(Call->getArg(1)->getBeginLoc(),
             "'%0' is also the value; the mask names the lanes that take "
             "part (a constant such as 0xffffffff, '__activemask()' or a "
             "'__ballot_sync' result)",
             DiagnosticIDs::Note)
            << V->getName();
        Reported.insert(Loc.getRawEncoding());
        return;
      }

  // A mask that differs between lanes and comes from none of the sources of
  // a mask (a loaded value, a hash): the lanes do not agree on who takes
  // part.
  if (!constantOf(MaskArg, Ctx) && !builtFromMaskSource(MaskArg)) {
    UniformityOptions Opts;
    if (const FunctionUniformity *FU =
            AnalysisContext::get(Ctx).uniformity(Opts).analyze(Caller))
      if (FU->valueOf(MaskArg).Base == Uniformity::Thread) {
        Reported.insert(Loc.getRawEncoding());
        diag(SM.getExpansionLoc(MaskArg->getBeginLoc()),
             "the mask of '%0' may differ between lanes and is not built from "
             "'__activemask()', a vote or the lane index")
            << Name;
        return;
      }
  }

  checkWidth(Call, Name, Ctx);
  if (Reported.size() != Before)
    return;
  if (std::optional<int64_t> Mask = constantOf(MaskArg, Ctx))
    checkLanes(Call, Name, Caller, static_cast<uint32_t>(*Mask), Ctx);
}

void WarpMaskCorrectnessCheck::checkWidth(const CallExpr *Call, StringRef Name,
                                          ASTContext &Ctx) {
  if (!Name.starts_with("__shfl"))
    return;
  const Expr *Width = writtenArg(Call, 3);
  std::optional<int64_t> W = constantOf(Width, Ctx);
  if (!W)
    return;
  if (*W > 0 && *W <= 32 && llvm::isPowerOf2_64(*W))
    return;
  SourceLocation Loc =
      Ctx.getSourceManager().getExpansionLoc(Call->getBeginLoc());
  Reported.insert(Loc.getRawEncoding());
  diag(Width->getBeginLoc(), "width %0 of '%1' is %select{not a power of "
                             "two|over the warp size of 32}2; the result is "
                             "undefined")
      << static_cast<int>(*W) << Name << (*W > 32 ? 1 : 0);
}

/// The lanes that the calling lanes Reach read from, for a shuffle whose
/// lane argument (source lane, delta or xor mask) and width are constants;
/// std::nullopt when they are not known. A lane whose source falls outside
/// its segment keeps its own value (it reads itself).
static std::optional<uint32_t> shuffleSources(const CallExpr *Call,
                                              StringRef Name, uint32_t Reach,
                                              ASTContext &Ctx) {
  std::optional<int64_t> Arg = constantOf(writtenArg(Call, 2), Ctx);
  std::optional<int64_t> Width = int64_t(32);
  if (const Expr *W = writtenArg(Call, 3))
    Width = constantOf(W, Ctx);
  if (!Arg || !Width || *Width <= 0 || *Width > 32 ||
      !llvm::isPowerOf2_64(*Width))
    return std::nullopt;
  uint32_t Sources = 0;
  for (int64_t L = 0; L < 32; ++L) {
    if (!(Reach & (1u << L)))
      continue;
    int64_t Base = L / *Width * *Width;
    int64_t Src = L;
    if (Name == "__shfl_sync")
      Src = Base + (*Arg % *Width + *Width) % *Width;
    else if (Name == "__shfl_up_sync")
      Src = L - *Arg >= Base ? L - *Arg : L;
    else if (Name == "__shfl_down_sync")
      Src = L + *Arg < Base + *Width ? L + *Arg : L;
    else if (Name == "__shfl_xor_sync")
      Src = (L ^ *Arg) < Base + *Width ? (L ^ *Arg) : L;
    if (Src < 0 || Src > 31)
      return std::nullopt;
    Sources |= 1u << Src;
  }
  return Sources;
}

void WarpMaskCorrectnessCheck::checkLanes(const CallExpr *Call, StringRef Name,
                                          const FunctionDecl *Caller,
                                          uint32_t Mask, ASTContext &Ctx) {
  lanes::LaneModel &Lanes =
      AnalysisContext::get(Ctx).lanes(LaneOptions.settings());
  const Stmt *S = Lanes.statementOf(Call, Caller);
  if (!S)
    return;
  std::optional<uint32_t> Reach = Lanes.guardMask(S, Caller);
  // Unknown lanes, or no lane (unreachable code): silent.
  if (!Reach || !*Reach)
    return;
  uint32_t Absent = Mask & ~*Reach;
  uint32_t Outside = *Reach & ~Mask;
  const SourceManager &SM = Ctx.getSourceManager();
  if (!Absent && !Outside) {
    // The mask is right; a shuffle may still read a lane outside it.
    if (!Name.starts_with("__shfl"))
      return;
    std::optional<uint32_t> Sources = shuffleSources(Call, Name, Mask, Ctx);
    if (!Sources || !(*Sources & ~Mask))
      return;
    Reported.insert(SM.getExpansionLoc(Call->getBeginLoc()).getRawEncoding());
    const Expr *LaneArg = Call->getArg(2);
    diag(SM.getExpansionLoc(LaneArg->getBeginLoc()),
         "'%0' reads %1, which %select{is|are}2 not in its mask %3; the "
         "value read is undefined")
        << Name << laneList(*Sources & ~Mask)
        << (llvm::popcount(*Sources & ~Mask) == 1 ? 0 : 1) << hexMask(Mask);
    return;
  }
  SourceLocation Loc = SM.getExpansionLoc(Call->getBeginLoc());
  Reported.insert(Loc.getRawEncoding());
  // For a shuffle: the lanes read that are not among the callers. Unknown
  // sources (a variable delta) make the fix unproven too.
  uint32_t SourcesOutside = 0;
  if (Name.starts_with("__shfl")) {
    std::optional<uint32_t> Sources = shuffleSources(Call, Name, *Reach, Ctx);
    SourcesOutside = Sources ? *Sources & ~*Reach : ~*Reach;
  }
  const Expr *MaskArg = Call->getArg(0);
  // Reported where the mask is written; a mask spelled as one macro
  // (`FULL_WARP`) is reported, and replaced, at its use.
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(MaskArg->getSourceRange()), SM,
      Ctx.getLangOpts());
  SourceLocation At = Range.isValid()
                          ? Range.getBegin()
                          : SM.getExpansionLoc(MaskArg->getBeginLoc());
  {
    auto D =
        Outside ? diag(At, "%0 %select{calls|call}1 '%2' but %select{is|are}3 "
                           "not in its mask %4")
                      << laneList(Outside)
                      << (llvm::popcount(Outside) == 1 ? 0 : 1) << Name
                      << (llvm::popcount(Outside) == 1 ? 0 : 1) << hexMask(Mask)
                : diag(At, "the mask %0 of '%1' names %2, which never "
                           "%select{reaches|reach}3 the call")
                      << hexMask(Mask) << Name << laneList(Absent)
                      << (llvm::popcount(Absent) == 1 ? 0 : 1);
    // The fix: the lanes that reach the call, where the mask is written in
    // the user's file (not inside a macro's body), and, for a shuffle, only
    // when every lane it reads from is one of them: a shuffle that reads a
    // lane outside its mask is undefined whatever the mask says.
    if (Range.isValid() && !SM.isInSystemHeader(Range.getBegin()) &&
        !SourcesOutside)
      D << FixItHint::CreateReplacement(Range, hexMask(*Reach));
  }
  diag(At, "%0 of each warp reach%select{es|}1 this call", DiagnosticIDs::Note)
      << laneList(*Reach) << (llvm::popcount(*Reach) == 1 ? 0 : 1);
  if (SourcesOutside)
    diag(At,
         "no fix: the call reads %0, which %select{does|do}1 not reach it; "
         "a mask of the calling lanes would still leave the result undefined",
         DiagnosticIDs::Note)
        << laneList(SourcesOutside)
        << (llvm::popcount(SourcesOutside) == 1 ? 0 : 1);
}

void WarpMaskCorrectnessCheck::onEndOfTranslationUnit() {
  Reported.clear();
}

} // namespace cuda_tidy
