//===--- TargetDispatch.cpp - CCCL's <nv/target> dispatch macros ----------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/target/TargetDispatch.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/Token.h"

using namespace clang;

namespace cuda_tidy {

/// Whether a compilation with \p Macros satisfies the query \p Query.
static Truth queryTruth(StringRef Query, const ArchMacros &Macros) {
  Query.consume_front("__");
  bool Device = Macros.CudaArch != 0;
  auto Of = [](bool B) { return B ? Truth::True : Truth::False; };
  if (Query == "NV_ANY_TARGET")
    return Truth::True;
  if (Query == "NV_NO_TARGET")
    return Truth::False;
  if (Query == "NV_IS_DEVICE")
    return Of(Device);
  if (Query == "NV_IS_HOST")
    return Of(!Device);
  unsigned SM = 0;
  if (Query.consume_front("NV_PROVIDES_SM_") && !Query.getAsInteger(10, SM))
    return Of(Device && Macros.CudaArch >= SM * 10);
  if (Query.consume_front("NV_IS_EXACTLY_SM_") && !Query.getAsInteger(10, SM))
    return Of(Macros.CudaArch == SM * 10);
  // nvcc defines `__CUDA_ARCH_FEAT_SM<N>_ALL` for the `a` target of N only.
  if (Query.consume_front("NV_HAS_FEATURE_SM_") && Query.consume_back("a") &&
      !Query.getAsInteger(10, SM))
    return Of(Device && Macros.ArchSpecific == SM * 10);
  return Truth::Unknown;
}

Truth armKept(const TargetDispatch &D, unsigned Arm, const ArchMacros &Macros,
              unsigned *Deciding) {
  for (unsigned I = 0; I <= Arm && I < D.Arms.size(); ++I) {
    Truth T = D.Arms[I].Query.empty() ? Truth::True
                                      : queryTruth(D.Arms[I].Query, Macros);
    if (I == Arm || T == Truth::True) {
      if (Deciding)
        *Deciding = I;
      return I == Arm ? T : Truth::False;
    }
    if (T == Truth::Unknown)
      return Truth::Unknown;
  }
  return Truth::Unknown;
}

StringRef armText(const TargetDispatchArm &Arm, const SourceManager &SM,
                  const LangOptions &LangOpts) {
  if (Arm.SpellingBegin.isInvalid() || Arm.SpellingEnd.isInvalid())
    return StringRef();
  auto [BeginFile, Begin] = SM.getDecomposedLoc(Arm.SpellingBegin);
  auto [EndFile, End] = SM.getDecomposedLoc(Arm.SpellingEnd);
  if (BeginFile != EndFile || End < Begin)
    return StringRef();
  End += Lexer::MeasureTokenLength(Arm.SpellingEnd, SM, LangOpts);
  return SM.getBufferData(BeginFile).substr(Begin, End - Begin);
}

namespace {
/// Records the dispatch macros' invocations outside system headers.
class DispatchCallbacks : public PPCallbacks {
public:
  DispatchCallbacks(TargetDispatches &Out, Preprocessor &PP)
      : Out(Out), SM(PP.getSourceManager()),
        IfTarget(PP.getIdentifierInfo("NV_IF_TARGET")),
        IfElseTarget(PP.getIdentifierInfo("NV_IF_ELSE_TARGET")),
        DispatchTarget(PP.getIdentifierInfo("NV_DISPATCH_TARGET")) {}

  void MacroExpands(const Token &Name, const MacroDefinition &,
                    SourceRange Range, const MacroArgs *Args) override {
    const IdentifierInfo *II = Name.getIdentifierInfo();
    if (!Args || (II != IfTarget && II != IfElseTarget && II != DispatchTarget))
      return;
    CharSourceRange Expansion = SM.getExpansionRange(Range);
    if (SM.isInSystemHeader(Expansion.getBegin()))
      return;
    TargetDispatch D;
    D.Macro = II->getName();
    D.Expansion = Expansion.getAsRange();
    llvm::SmallVector<llvm::SmallVector<const Token *, 8>, 4> Pieces =
        pieces(*Args);
    // NV_IF_TARGET(q, t[, f]) and NV_IF_ELSE_TARGET(q, t, f) are a query
    // and one or two arms; NV_DISPATCH_TARGET(q1, c1, q2, c2, ...) pairs.
    bool Pairs = II == DispatchTarget;
    for (size_t I = 0; I + 1 < Pieces.size(); I += 2) {
      TargetDispatchArm Arm = armOf(Pieces[I + 1]);
      Arm.Query = queryOf(Pieces[I]);
      D.Arms.push_back(std::move(Arm));
      if (!Pairs && I + 2 < Pieces.size()) {
        D.Arms.push_back(armOf(Pieces[I + 2]));
        break;
      }
    }
    if (!D.Arms.empty())
      Out.add(std::move(D));
  }

private:
  /// The invocation's arguments, the variadic one split at its top-level
  /// commas.
  static llvm::SmallVector<llvm::SmallVector<const Token *, 8>, 4>
  pieces(const MacroArgs &Args) {
    llvm::SmallVector<llvm::SmallVector<const Token *, 8>, 4> Out;
    for (unsigned I = 0, N = Args.getNumMacroArguments(); I < N; ++I) {
      Out.emplace_back();
      int Depth = 0;
      for (const Token *T = Args.getUnexpArgument(I); T->isNot(tok::eof); ++T) {
        if (T->is(tok::l_paren))
          ++Depth;
        else if (T->is(tok::r_paren))
          --Depth;
        else if (T->is(tok::comma) && Depth == 0) {
          Out.emplace_back();
          continue;
        }
        Out.back().push_back(T);
      }
    }
    return Out;
  }

  /// A query is one identifier; anything else is kept as "?" (unknown).
  static std::string queryOf(llvm::ArrayRef<const Token *> Tokens) {
    if (Tokens.size() == 1 && Tokens[0]->getIdentifierInfo())
      return Tokens[0]->getIdentifierInfo()->getName().str();
    return "?";
  }

  TargetDispatchArm armOf(llvm::ArrayRef<const Token *> Tokens) const {
    TargetDispatchArm Arm;
    if (!Tokens.empty()) {
      Arm.SpellingBegin = SM.getSpellingLoc(Tokens.front()->getLocation());
      Arm.SpellingEnd = SM.getSpellingLoc(Tokens.back()->getLocation());
    }
    return Arm;
  }

  TargetDispatches &Out;
  const SourceManager &SM;
  const IdentifierInfo *IfTarget, *IfElseTarget, *DispatchTarget;
};
} // namespace

std::unique_ptr<PPCallbacks> TargetDispatches::makeCallbacks(Preprocessor &PP) {
  return std::make_unique<DispatchCallbacks>(*this, PP);
}

llvm::SmallVector<const TargetDispatch *, 2>
TargetDispatches::within(SourceRange FileRange, const SourceManager &SM) const {
  llvm::SmallVector<const TargetDispatch *, 2> Out;
  auto [File, Begin] = SM.getDecomposedLoc(FileRange.getBegin());
  auto [EndFile, End] = SM.getDecomposedLoc(FileRange.getEnd());
  if (File != EndFile)
    return Out;
  for (const TargetDispatch &D : All) {
    auto [DFile, DOffset] = SM.getDecomposedLoc(D.Expansion.getBegin());
    if (DFile == File && DOffset >= Begin && DOffset <= End)
      Out.push_back(&D);
  }
  return Out;
}

} // namespace cuda_tidy
