//===--- ArchConditionals.cpp - Code only old architectures compile -------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/target/ArchConditionals.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Token.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include <bitset>

using namespace clang;

namespace cuda_tidy {

/// The `__CUDA_ARCH__` values of every architecture from Volta on.
static constexpr unsigned ModernArchs[] = {
    700, 720, 750, 800, 860, 870, 890, 900, 1000, 1010, 1030, 1100, 1200, 1210};

/// The toolkits that can build for Volta or later: CUDA 9 to 13, each at its
/// first and a late minor release (the minor is not known, so a condition
/// must hold for both to count as decided).
static constexpr unsigned ModernToolkitMajors[] = {9, 10, 11, 12, 13};
static constexpr unsigned ModernToolkitMinors[] = {0, 9};

/// The compilations a region is judged against: every modern architecture
/// with every modern toolkit.
static constexpr size_t NumWorlds = std::size(ModernArchs) *
                                    std::size(ModernToolkitMajors) *
                                    std::size(ModernToolkitMinors);

static void worldAt(size_t I, unsigned &Arch, ToolkitVersion &TK) {
  size_t NMinor = std::size(ModernToolkitMinors);
  size_t NMajor = std::size(ModernToolkitMajors);
  TK.Minor = ModernToolkitMinors[I % NMinor];
  TK.Major = ModernToolkitMajors[(I / NMinor) % NMajor];
  Arch = ModernArchs[I / (NMinor * NMajor)];
}

/// The macros whose value depends on the toolkit version.
static bool isToolkitVersionMacro(StringRef Name) {
  return Name == "__CUDACC_VER_MAJOR__" || Name == "__CUDACC_VER_MINOR__" ||
         Name == "CUDART_VERSION" || Name == "CUDA_VERSION" ||
         Name == "__CUDACC_VER_BUILD__";
}

namespace {
/// A value of the evaluator: an integer, or unknown.
using Value = std::optional<long long>;

/// Recursive-descent evaluator over raw tokens of one condition.
class ConditionParser {
public:
  ConditionParser(llvm::ArrayRef<Token> Toks, StringRef Text,
                  const ArchMacros &Macros, bool FeaturesKnown,
                  ToolkitVersion TK)
      : Toks(Toks), Text(Text), Arch(Macros.CudaArch), Macros(Macros),
        FeaturesKnown(FeaturesKnown), TK(TK) {}

  Value parse() {
    Value V = parseOr();
    if (Pos != Toks.size())
      return std::nullopt;
    return V;
  }

private:
  llvm::ArrayRef<Token> Toks;
  StringRef Text;
  unsigned Arch;
  ArchMacros Macros;
  /// Whether the feature macros of Macros are known.
  bool FeaturesKnown;
  ToolkitVersion TK;
  size_t Pos = 0;

  /// The value of a feature macro (0 when not defined), or unknown.
  Value featureMacro(StringRef Name) const {
    if (!FeaturesKnown || Arch == 0)
      return std::nullopt;
    if (Name == "__CUDA_ARCH_SPECIFIC__")
      return Macros.ArchSpecific;
    if (Name == "__CUDA_ARCH_FAMILY_SPECIFIC__")
      return Macros.FamilySpecific;
    // __CUDA_ARCH_FEAT_SM90_ALL: defined (as 1) for compute_90a.
    StringRef Num = Name;
    unsigned N;
    if (Num.consume_front("__CUDA_ARCH_FEAT_SM") && Num.consume_back("_ALL") &&
        !Num.getAsInteger(10, N))
      return Macros.ArchSpecific == N * 10 ? 1 : 0;
    return std::nullopt;
  }

  /// The toolkit's feature queries (crt/host_defines.h, CUDA 12.9 and 13):
  /// `__CUDA_ARCH_HAS_FEATURE__(SM90_ALL)` is `__CUDA_ARCH_FEAT_SM90_ALL`,
  /// `__CUDA_HAS_ARCH_SPECIFIC(90)` is `__CUDA_ARCH_SPECIFIC__ == 900`,
  /// `__CUDA_HAS_ARCH_FAMILY_SPECIFIC(100)` holds for a family-specific
  /// value in [1000, 1100) (1010 alone for 101). Consumes the call when
  /// \p Name is one of them with a plain argument; std::nullopt otherwise.
  std::optional<Value> featureQuery(StringRef Name) {
    bool Feature = Name == "__CUDA_ARCH_HAS_FEATURE__";
    bool Specific = Name == "__CUDA_HAS_ARCH_SPECIFIC";
    bool Family = Name == "__CUDA_HAS_ARCH_FAMILY_SPECIFIC";
    if ((!Feature && !Specific && !Family) || Pos + 2 >= Toks.size() ||
        !Toks[Pos].is(tok::l_paren) || !Toks[Pos + 2].is(tok::r_paren))
      return std::nullopt;
    const Token &Arg = Toks[Pos + 1];
    StringRef ArgText = spelling(Arg);
    Pos += 3;
    if (Feature)
      return Arg.is(tok::raw_identifier)
                 ? featureMacro(("__CUDA_ARCH_FEAT_" + ArgText).str())
                 : Value();
    unsigned N;
    if (!Arg.is(tok::numeric_constant) || ArgText.getAsInteger(10, N))
      return Value();
    Value Known = featureMacro(Specific ? "__CUDA_ARCH_SPECIFIC__"
                                        : "__CUDA_ARCH_FAMILY_SPECIFIC__");
    if (!Known)
      return Value();
    long long V = *Known, Base = 10LL * N;
    if (Specific || V == 1010 || N == 101)
      return Value(V != 0 && V == Base ? 1 : 0);
    return Value(V >= Base && V < Base + 100 ? 1 : 0);
  }

  /// The value of a toolkit version macro, unknown when TK is.
  Value toolkitMacro(StringRef Name) const {
    if (TK.Major == 0 || Name == "__CUDACC_VER_BUILD__")
      return std::nullopt;
    if (Name == "__CUDACC_VER_MAJOR__")
      return TK.Major;
    if (Name == "__CUDACC_VER_MINOR__")
      return TK.Minor;
    return 1000LL * TK.Major + 10LL * TK.Minor;
  }

  const Token *peek() const { return Pos < Toks.size() ? &Toks[Pos] : nullptr; }
  bool consume(tok::TokenKind K) {
    if (peek() && peek()->is(K)) {
      ++Pos;
      return true;
    }
    return false;
  }
  StringRef spelling(const Token &T) const {
    return Text.substr(T.getLocation().getRawEncoding(), T.getLength());
  }

  static Value truthValue(Value V) {
    if (!V)
      return std::nullopt;
    return *V != 0 ? 1 : 0;
  }

  Value parseOr() {
    Value L = parseAnd();
    while (consume(tok::pipepipe)) {
      Value R = parseAnd();
      if ((L && *L) || (R && *R))
        L = 1;
      else if (L && R)
        L = 0;
      else
        L = std::nullopt;
    }
    return L;
  }
  Value parseAnd() {
    Value L = parseCompare();
    while (consume(tok::ampamp)) {
      Value R = parseCompare();
      if ((L && !*L) || (R && !*R))
        L = 0;
      else if (L && R)
        L = 1;
      else
        L = std::nullopt;
    }
    return L;
  }
  Value parseCompare() {
    Value L = parseAdditive();
    while (const Token *T = peek()) {
      tok::TokenKind K = T->getKind();
      if (K != tok::less && K != tok::lessequal && K != tok::greater &&
          K != tok::greaterequal && K != tok::equalequal &&
          K != tok::exclaimequal)
        break;
      ++Pos;
      Value R = parseAdditive();
      if (!L || !R) {
        L = std::nullopt;
        continue;
      }
      switch (K) {
      case tok::less:
        L = *L < *R;
        break;
      case tok::lessequal:
        L = *L <= *R;
        break;
      case tok::greater:
        L = *L > *R;
        break;
      case tok::greaterequal:
        L = *L >= *R;
        break;
      case tok::equalequal:
        L = *L == *R;
        break;
      default:
        L = *L != *R;
        break;
      }
    }
    return L;
  }
  Value parseAdditive() {
    Value L = parseMultiplicative();
    while (const Token *T = peek()) {
      if (!T->isOneOf(tok::plus, tok::minus))
        break;
      bool Plus = T->is(tok::plus);
      ++Pos;
      Value R = parseMultiplicative();
      L = (L && R) ? Value(Plus ? *L + *R : *L - *R) : std::nullopt;
    }
    return L;
  }
  Value parseMultiplicative() {
    Value L = parseUnary();
    while (const Token *T = peek()) {
      if (!T->isOneOf(tok::star, tok::slash))
        break;
      bool Mul = T->is(tok::star);
      ++Pos;
      Value R = parseUnary();
      if (!L || !R || (!Mul && *R == 0))
        L = std::nullopt;
      else
        L = Mul ? *L * *R : *L / *R;
    }
    return L;
  }
  Value parseUnary() {
    if (consume(tok::exclaim)) {
      Value V = truthValue(parseUnary());
      return V ? Value(!*V) : std::nullopt;
    }
    if (consume(tok::minus)) {
      Value V = parseUnary();
      return V ? Value(-*V) : std::nullopt;
    }
    return parsePrimary();
  }
  Value parsePrimary() {
    const Token *T = peek();
    if (!T) {
      Pos = Toks.size() + 1; // Force a parse failure.
      return std::nullopt;
    }
    if (consume(tok::l_paren)) {
      Value V = parseOr();
      if (!consume(tok::r_paren))
        Pos = Toks.size() + 1;
      return V;
    }
    if (T->is(tok::numeric_constant)) {
      ++Pos;
      StringRef Digits = spelling(*T).rtrim("uUlL");
      unsigned long long N;
      if (Digits.getAsInteger(0, N))
        return std::nullopt;
      return static_cast<long long>(N);
    }
    if (T->is(tok::raw_identifier)) {
      ++Pos;
      StringRef Name = spelling(*T);
      if (Name == "defined") {
        bool Paren = consume(tok::l_paren);
        const Token *Id = peek();
        if (!Id || !Id->is(tok::raw_identifier)) {
          Pos = Toks.size() + 1;
          return std::nullopt;
        }
        ++Pos;
        if (Paren && !consume(tok::r_paren)) {
          Pos = Toks.size() + 1;
          return std::nullopt;
        }
        if (spelling(*Id) == "__CUDA_ARCH__")
          return Arch != 0 ? 1 : 0;
        if (Value F = featureMacro(spelling(*Id)))
          return *F != 0 ? 1 : 0;
        if (TK.Major != 0 && isToolkitVersionMacro(spelling(*Id)))
          return 1;
        return std::nullopt;
      }
      if (Name == "__CUDA_ARCH__")
        return Arch != 0 ? Value(Arch) : Value(0);
      if (Value F = featureMacro(Name))
        return F;
      if (isToolkitVersionMacro(Name))
        return toolkitMacro(Name);
      if (std::optional<Value> V = featureQuery(Name))
        return *V;
      // A function-like macro call: unknown, but consume its arguments.
      if (consume(tok::l_paren)) {
        int Depth = 1;
        while (Depth > 0 && peek()) {
          if (peek()->is(tok::l_paren))
            ++Depth;
          else if (peek()->is(tok::r_paren))
            --Depth;
          ++Pos;
        }
      }
      return std::nullopt;
    }
    Pos = Toks.size() + 1;
    return std::nullopt;
  }
};
} // namespace

static Truth evaluate(StringRef Condition, const ArchMacros &Macros,
                      bool FeaturesKnown, const LangOptions &LangOpts,
                      ToolkitVersion TK);

Truth evaluateArchCondition(StringRef Condition, unsigned CudaArch,
                            const LangOptions &LangOpts, ToolkitVersion TK) {
  ArchMacros Macros;
  Macros.CudaArch = CudaArch;
  return evaluate(Condition, Macros, /*FeaturesKnown=*/false, LangOpts, TK);
}

Truth evaluateArchCondition(StringRef Condition, const ArchMacros &Macros,
                            const LangOptions &LangOpts, ToolkitVersion TK) {
  return evaluate(Condition, Macros, /*FeaturesKnown=*/true, LangOpts, TK);
}

static Truth evaluate(StringRef Condition, const ArchMacros &Macros,
                      bool FeaturesKnown, const LangOptions &LangOpts,
                      ToolkitVersion TK) {
  // Lex the text on its own. Offsets are stored in the token locations so
  // that the parser can find each token's spelling.
  // The raw lexer needs a null-terminated buffer.
  std::string Buffer = Condition.str();
  llvm::SmallVector<Token, 16> Toks;
  Lexer Lex(SourceLocation::getFromRawEncoding(0), LangOpts, Buffer.c_str(),
            Buffer.c_str(), Buffer.c_str() + Buffer.size());
  Lex.SetCommentRetentionState(false);
  Token T;
  while (true) {
    Lex.LexFromRawLexer(T);
    if (T.is(tok::eof))
      break;
    Toks.push_back(T);
  }
  ConditionParser Parser(Toks, Buffer, Macros, FeaturesKnown, TK);
  Value V = Parser.parse();
  if (!V)
    return Truth::Unknown;
  return *V ? Truth::True : Truth::False;
}

namespace {
/// One `#if` chain being read.
struct Frame {
  /// For each modern compilation: an earlier condition is definitely true.
  std::bitset<NumWorlds> EarlierTrue;
  /// Where the current region's text begins.
  SourceLocation RegionBegin;
  /// The current region is legacy-only.
  bool RegionLegacy = false;
  /// The whole chain sits in a legacy-only region.
  bool InsideLegacy = false;
};

class Callbacks : public PPCallbacks {
public:
  Callbacks(LegacyArchRegions &Out, const SourceManager &SM,
            const LangOptions &LangOpts)
      : Out(Out), SM(SM), LangOpts(LangOpts) {}

  void If(SourceLocation Loc, SourceRange ConditionRange,
          ConditionValueKind) override {
    Stack.emplace_back();
    Stack.back().InsideLegacy = insideLegacy();
    startRegion(Loc, conditionTruths(ConditionRange));
  }
  void Ifdef(SourceLocation Loc, const Token &Name,
             const MacroDefinition &) override {
    Stack.emplace_back();
    Stack.back().InsideLegacy = insideLegacy();
    startRegion(Loc, definedTruths(Name, /*Negate=*/false));
  }
  void Ifndef(SourceLocation Loc, const Token &Name,
              const MacroDefinition &) override {
    Stack.emplace_back();
    Stack.back().InsideLegacy = insideLegacy();
    startRegion(Loc, definedTruths(Name, /*Negate=*/true));
  }
  void Elif(SourceLocation Loc, SourceRange ConditionRange, ConditionValueKind,
            SourceLocation) override {
    nextRegion(Loc, conditionTruths(ConditionRange));
  }
  void Elifdef(SourceLocation Loc, const Token &Name,
               const MacroDefinition &) override {
    nextRegion(Loc, definedTruths(Name, false));
  }
  void Elifdef(SourceLocation Loc, SourceRange, SourceLocation) override {
    nextRegion(Loc, unknownTruths());
  }
  void Elifndef(SourceLocation Loc, const Token &Name,
                const MacroDefinition &) override {
    nextRegion(Loc, definedTruths(Name, true));
  }
  void Elifndef(SourceLocation Loc, SourceRange, SourceLocation) override {
    nextRegion(Loc, unknownTruths());
  }
  void Else(SourceLocation Loc, SourceLocation) override {
    Truths AllTrue;
    AllTrue.True.set();
    nextRegion(Loc, AllTrue);
  }
  void Endif(SourceLocation Loc, SourceLocation) override {
    if (Stack.empty())
      return;
    closeRegion(Loc);
    Stack.pop_back();
  }

private:
  /// Per compilation: the condition is definitely true, definitely false
  /// (neither: unknown).
  struct Truths {
    std::bitset<NumWorlds> True, False;
    void set(size_t I, Truth T) {
      True[I] = T == Truth::True;
      False[I] = T == Truth::False;
    }
    void setAll(Truth T) {
      for (size_t I = 0; I < NumWorlds; ++I)
        set(I, T);
    }
  };

  LegacyArchRegions &Out;
  const SourceManager &SM;
  const LangOptions &LangOpts;
  llvm::SmallVector<Frame, 8> Stack;

  bool insideLegacy() const {
    return !Stack.empty() &&
           (Stack.back().InsideLegacy || Stack.back().RegionLegacy);
  }

  Truths unknownTruths() const { return Truths(); }

  Truths conditionTruths(SourceRange Range) const {
    // Nothing is reported in system headers, and they hold most of the
    // conditionals of a real translation unit: do not evaluate theirs.
    if (Range.isInvalid() || SM.isInSystemHeader(Range.getBegin()))
      return unknownTruths();
    StringRef Text = Lexer::getSourceText(CharSourceRange::getTokenRange(Range),
                                          SM, LangOpts);
    if (Text.empty())
      return unknownTruths();
    Truths T;
    // A condition that names neither __CUDA_ARCH__ nor a toolkit version
    // has one value for all.
    bool NamesToolkit = Text.contains("__CUDACC_VER_") ||
                        Text.contains("CUDART_VERSION") ||
                        Text.contains("CUDA_VERSION");
    if (!Text.contains("__CUDA_ARCH__") && !NamesToolkit) {
      T.setAll(evaluateArchCondition(Text, ModernArchs[0], LangOpts));
      return T;
    }
    for (size_t I = 0; I < NumWorlds; ++I) {
      unsigned Arch;
      ToolkitVersion TK;
      worldAt(I, Arch, TK);
      T.set(I, evaluateArchCondition(Text, Arch, LangOpts, TK));
    }
    return T;
  }

  Truths definedTruths(const Token &Name, bool Negate) const {
    const IdentifierInfo *II = Name.getIdentifierInfo();
    if (!II || (II->getName() != "__CUDA_ARCH__" &&
                !isToolkitVersionMacro(II->getName()) &&
                II->getName() != "__CUDACC_VER_BUILD__"))
      return unknownTruths();
    Truths T;
    (Negate ? T.False : T.True).set();
    return T;
  }

  void startRegion(SourceLocation Loc, const Truths &Cond) {
    Frame &F = Stack.back();
    F.RegionBegin = Loc;
    // Legacy: no compilation takes the region (an earlier condition of the
    // chain or its own decides it away).
    const bool Legacy = (F.EarlierTrue | Cond.False).all();
    F.EarlierTrue |= Cond.True;
    F.RegionLegacy = Legacy && !F.InsideLegacy;
  }

  void closeRegion(SourceLocation End) {
    Frame &F = Stack.back();
    if (F.RegionLegacy && F.RegionBegin.isValid() && End.isValid())
      Out.add(SourceRange(F.RegionBegin, End));
  }

  void nextRegion(SourceLocation Loc, const Truths &Cond) {
    if (Stack.empty())
      return;
    closeRegion(Loc);
    startRegion(Loc, Cond);
  }
};
} // namespace

std::unique_ptr<PPCallbacks>
LegacyArchRegions::makeCallbacks(const SourceManager &SM,
                                 const LangOptions &LangOpts) {
  return std::make_unique<Callbacks>(*this, SM, LangOpts);
}

bool LegacyArchRegions::contains(SourceLocation Loc,
                                 const SourceManager &SM) const {
  if (Loc.isInvalid())
    return false;
  for (SourceRange R : Regions) {
    if (SM.getFileID(R.getBegin()) != SM.getFileID(Loc))
      continue;
    if (!SM.isBeforeInTranslationUnit(Loc, R.getBegin()) &&
        SM.isBeforeInTranslationUnit(Loc, R.getEnd()))
      return true;
  }
  return false;
}

} // namespace cuda_tidy

namespace cuda_tidy {

ConditionalText readConditionals(StringRef Text, const LangOptions &LangOpts) {
  ConditionalText Out;
  // The raw lexer needs a null-terminated buffer; token locations carry
  // offsets into it.
  std::string Buffer = Text.str();
  Lexer Lex(SourceLocation::getFromRawEncoding(0), LangOpts, Buffer.c_str(),
            Buffer.c_str(), Buffer.c_str() + Buffer.size());
  Lex.SetCommentRetentionState(false);
  llvm::SmallVector<Token, 256> Toks;
  Token T;
  while (true) {
    Lex.LexFromRawLexer(T);
    if (T.is(tok::eof))
      break;
    Toks.push_back(T);
  }
  auto Offset = [](const Token &T) { return T.getLocation().getRawEncoding(); };
  llvm::SmallVector<int, 8> Open;
  for (size_t I = 0; I < Toks.size(); ++I) {
    if (!Toks[I].is(tok::hash) || !Toks[I].isAtStartOfLine())
      continue;
    unsigned Begin = Offset(Toks[I]);
    size_t Last = I;
    while (Last + 1 < Toks.size() && !Toks[Last + 1].isAtStartOfLine())
      ++Last;
    unsigned End = Offset(Toks[Last]) + Toks[Last].getLength();
    Out.DirectiveLines.emplace_back(Begin, End);
    StringRef Name;
    if (I + 1 <= Last && Toks[I + 1].is(tok::raw_identifier))
      Name = StringRef(Buffer).substr(Offset(Toks[I + 1]),
                                      Toks[I + 1].getLength());
    StringRef Condition;
    if (I + 2 <= Last) {
      unsigned CondBegin = Offset(Toks[I + 2]);
      Condition = StringRef(Buffer).slice(CondBegin, End);
    }
    I = Last;

    using BK = ConditionalBranch;
    std::optional<BK::BranchKind> Kind =
        llvm::StringSwitch<std::optional<BK::BranchKind>>(Name)
            .Case("if", BK::If)
            .Case("ifdef", BK::Ifdef)
            .Case("ifndef", BK::Ifndef)
            .Case("elif", BK::Elif)
            .Case("elifdef", BK::Elifdef)
            .Case("elifndef", BK::Elifndef)
            .Case("else", BK::Else)
            .Default(std::nullopt);
    ConditionalBranch B;
    B.Begin = Begin;
    B.End = End;
    B.BodyEnd = End;
    if (Kind && *Kind != BK::Else)
      B.Condition = Condition.trim().str();
    if (Kind && (*Kind == BK::If || *Kind == BK::Ifdef || *Kind == BK::Ifndef)) {
      B.Kind = *Kind;
      ConditionalChain C;
      if (!Open.empty()) {
        C.Parent = Open.back();
        C.ParentBranch =
            static_cast<int>(Out.Chains[Open.back()].Branches.size()) - 1;
      }
      C.ReadsArch = namesArchMacro(B.Condition);
      C.Branches.push_back(std::move(B));
      Out.Chains.push_back(std::move(C));
      Open.push_back(static_cast<int>(Out.Chains.size()) - 1);
      continue;
    }
    if (Kind) {
      if (Open.empty()) {
        Out.Balanced = false;
        continue;
      }
      ConditionalChain &C = Out.Chains[Open.back()];
      C.Branches.back().BodyEnd = Begin;
      B.Kind = *Kind;
      C.ReadsArch |= namesArchMacro(B.Condition);
      C.Branches.push_back(std::move(B));
      continue;
    }
    if (Name == "endif") {
      if (Open.empty()) {
        Out.Balanced = false;
        continue;
      }
      ConditionalChain &C = Out.Chains[Open.back()];
      C.Branches.back().BodyEnd = Begin;
      C.EndifBegin = Begin;
      C.EndifEnd = End;
      Open.pop_back();
    }
  }
  if (!Open.empty())
    Out.Balanced = false;
  return Out;
}

llvm::SmallVector<Truth, 4> branchTruths(const ConditionalChain &Chain,
                                         const ArchMacros &Macros,
                                         const LangOptions &LangOpts,
                                         ToolkitVersion TK) {
  llvm::SmallVector<Truth, 4> Out;
  bool EarlierTrue = false, EarlierUnknown = false;
  for (const ConditionalBranch &B : Chain.Branches) {
    Truth Own = Truth::True;
    switch (B.Kind) {
    case ConditionalBranch::If:
    case ConditionalBranch::Elif:
      Own = evaluateArchCondition(B.Condition, Macros, LangOpts, TK);
      break;
    case ConditionalBranch::Ifdef:
    case ConditionalBranch::Elifdef:
    case ConditionalBranch::Ifndef:
    case ConditionalBranch::Elifndef: {
      bool Negate = B.Kind == ConditionalBranch::Ifndef ||
                    B.Kind == ConditionalBranch::Elifndef;
      Own = evaluateArchCondition((Negate ? "!defined(" : "defined(") +
                                      B.Condition + ")",
                                  Macros, LangOpts, TK);
      break;
    }
    case ConditionalBranch::Else:
      break;
    }
    if (EarlierTrue || Own == Truth::False)
      Out.push_back(Truth::False);
    else if (Own == Truth::True && !EarlierUnknown)
      Out.push_back(Truth::True);
    else
      Out.push_back(Truth::Unknown);
    EarlierTrue |= Own == Truth::True;
    EarlierUnknown |= Own == Truth::Unknown;
  }
  return Out;
}

} // namespace cuda_tidy
