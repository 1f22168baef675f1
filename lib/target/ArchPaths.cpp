//===--- ArchPaths.cpp - What each architecture compiles of a function ----===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/target/ArchPaths.h"
#include "lib/ast/Macros.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace cuda_tidy {

ArchMacros CompileTarget::macros() const {
  ArchMacros M;
  M.CudaArch = CudaArch;
  if (Features == FeatureSet::ArchSpecific) {
    M.ArchSpecific = CudaArch;
    M.FamilySpecific = CudaArch;
  } else if (Features == FeatureSet::FamilySpecific) {
    M.FamilySpecific = CudaArch;
  }
  return M;
}

std::string CompileTarget::name() const {
  std::string Out = "sm_" + std::to_string(CudaArch / 10);
  if (Features == FeatureSet::ArchSpecific)
    Out += "a";
  else if (Features == FeatureSet::FamilySpecific)
    Out += "f";
  return Out;
}

std::optional<CompileTarget> parseCompileTarget(llvm::StringRef Name) {
  std::optional<CodeImage> I = parseCodeImage(Name);
  if (!I)
    return std::nullopt;
  return CompileTarget{I->Major * 100 + I->Minor * 10, I->Features};
}

llvm::ArrayRef<CompileTarget> modernCompileTargets() {
  static const llvm::SmallVector<CompileTarget, 32> Targets = [] {
    llvm::SmallVector<CompileTarget, 32> T;
    for (unsigned A : {700u, 720u, 750u, 800u, 860u, 870u, 880u, 890u, 900u,
                       1000u, 1030u, 1100u, 1200u, 1210u}) {
      T.push_back({A, FeatureSet::Generic});
      if (A >= 900)
        T.push_back({A, FeatureSet::ArchSpecific});
      if (A >= 1000)
        T.push_back({A, FeatureSet::FamilySpecific});
    }
    return T;
  }();
  return Targets;
}

namespace {
/// A token of the body, by offset in the body's text.
struct BodyToken {
  tok::TokenKind Kind;
  unsigned Offset;
  llvm::StringRef Text;
};

/// What one statement of kept code is.
enum class StatementKind { Nothing, Trap, Message, Code };

/// Whether the statement \p S is an asm whose instructions only reallocate
/// registers (`setmaxnreg`): a hint with no result, which a target without
/// it may skip.
static bool isHintAsm(llvm::ArrayRef<const BodyToken *> S) {
  if (S.empty() || S.front()->Kind != tok::kw_asm)
    return false;
  std::string Text;
  for (const BodyToken *T : S)
    if (T->Kind == tok::string_literal)
      Text += T->Text.drop_front().drop_back().str();
    else if (T->Kind == tok::colon)
      break;
  llvm::SmallVector<llvm::StringRef, 4> Instructions;
  llvm::StringRef(Text).split(Instructions, ';', -1, false);
  bool Any = false;
  for (llvm::StringRef I : Instructions) {
    I = I.trim();
    while (I.consume_front("\\n") || I.consume_front("\\t"))
      I = I.trim();
    if (I.empty())
      continue;
    if (!I.starts_with("setmaxnreg."))
      return false;
    Any = true;
  }
  return Any;
}

/// The body of one function, read once.
class Body {
public:
  Body(llvm::StringRef Text, const LangOptions &LangOpts)
      : Buffer(Text.str()), LangOpts(LangOpts) {}

  bool read() {
    Conditionals = readConditionals(Buffer, LangOpts);
    if (!Conditionals.Balanced ||
        llvm::none_of(Conditionals.Chains,
                      [](const ConditionalChain &C) { return C.ReadsArch; }))
      return false;
    Lexer Lex(SourceLocation::getFromRawEncoding(0), LangOpts, Buffer.c_str(),
              Buffer.c_str(), Buffer.c_str() + Buffer.size());
    Lex.SetCommentRetentionState(false);
    Token T;
    size_t Line = 0;
    const auto &Lines = Conditionals.DirectiveLines;
    while (true) {
      Lex.LexFromRawLexer(T);
      if (T.is(tok::eof))
        break;
      unsigned Off = T.getLocation().getRawEncoding();
      while (Line < Lines.size() && Lines[Line].second <= Off)
        ++Line;
      if (Line < Lines.size() && Lines[Line].first <= Off)
        continue; // A directive's token.
      llvm::StringRef Text = llvm::StringRef(Buffer).substr(Off, T.getLength());
      tok::TokenKind K = T.getKind();
      if (K == tok::raw_identifier) {
        // Keywords the classification needs.
        K = llvm::StringSwitch<tok::TokenKind>(Text)
                .Case("void", tok::kw_void)
                .Case("return", tok::kw_return)
                .Case("asm", tok::kw_asm)
                .Case("__asm__", tok::kw_asm)
                .Case("__asm", tok::kw_asm)
                .Case("this", tok::kw_this)
                .Case("false", tok::kw_false)
                .Default(tok::raw_identifier);
      }
      Tokens.push_back({K, Off, Text});
    }
    return true;
  }

  /// The tokens a compilation keeps.
  llvm::SmallVector<const BodyToken *, 64>
  kept(const ArchMacros &Macros, ToolkitVersion TK) const {
    llvm::SmallVector<std::pair<unsigned, unsigned>, 8> Dead;
    for (const ConditionalChain &C : Conditionals.Chains) {
      llvm::SmallVector<Truth, 4> Truths =
          branchTruths(C, Macros, LangOpts, TK);
      for (size_t B = 0; B < C.Branches.size(); ++B)
        if (Truths[B] == Truth::False)
          Dead.emplace_back(C.Branches[B].End, C.Branches[B].BodyEnd);
    }
    llvm::SmallVector<const BodyToken *, 64> Out;
    for (const BodyToken &T : Tokens)
      if (llvm::none_of(Dead, [&](const std::pair<unsigned, unsigned> &D) {
            return D.first <= T.Offset && T.Offset < D.second;
          }))
        Out.push_back(&T);
    truncateAfterReturn(Out);
    return Out;
  }

  /// Drops what follows a `return` statement of the body's outer block
  /// (not the statement of an `if`, a loop or an `else`): no compilation
  /// reaches it (`#if !defined(__CUDA_ARCH_FEAT_SM90_ALL) return; #endif`).
  static void truncateAfterReturn(llvm::SmallVectorImpl<const BodyToken *> &Toks) {
    int Braces = 0;
    for (size_t I = 0; I < Toks.size(); ++I) {
      tok::TokenKind K = Toks[I]->Kind;
      if (K == tok::l_brace)
        ++Braces;
      else if (K == tok::r_brace)
        --Braces;
      if (K != tok::kw_return || Braces != 0)
        continue;
      if (I > 0) {
        const BodyToken *Prev = Toks[I - 1];
        if (Prev->Kind == tok::r_paren ||
            (Prev->Kind == tok::raw_identifier && Prev->Text == "else"))
          continue; // `if (c) return;`
      }
      int Parens = 0;
      for (size_t J = I + 1; J < Toks.size(); ++J) {
        K = Toks[J]->Kind;
        if (K == tok::l_paren)
          ++Parens;
        else if (K == tok::r_paren)
          --Parens;
        else if (K == tok::semi && Parens == 0) {
          Toks.truncate(J + 1);
          return;
        }
      }
      return;
    }
  }

  /// Whether the branch [Begin, End) of the text holds one of \p Toks.
  static bool holds(llvm::ArrayRef<const BodyToken *> Toks, unsigned Begin,
                    unsigned End) {
    return llvm::any_of(Toks, [&](const BodyToken *T) {
      return Begin <= T->Offset && T->Offset < End;
    });
  }

  const ConditionalText &conditionals() const { return Conditionals; }
  const LangOptions &langOpts() const { return LangOpts; }
  llvm::StringRef text() const { return Buffer; }

private:
  std::string Buffer;
  const LangOptions &LangOpts;
  ConditionalText Conditionals;
  llvm::SmallVector<BodyToken, 256> Tokens;
};
} // namespace

ArchPathAnalysis::ArchPathAnalysis(const ASTContext &Ctx,
                                   const Preprocessor *PP, ToolkitVersion TK)
    : Ctx(Ctx), PP(PP), TK(TK) {}

static bool isNonConstPointee(QualType T) {
  if (T->isPointerType() || T->isReferenceType())
    return !T->getPointeeType().isConstQualified();
  return false;
}

void ArchPathAnalysis::collectTranslationUnitFacts() {
  Collected = true;
  const SourceManager &SM = Ctx.getSourceManager();
  // Namespace-scope declarations (namespaces and extern "C" blocks opened).
  llvm::SmallVector<const DeclContext *, 8> Work{Ctx.getTranslationUnitDecl()};
  while (!Work.empty()) {
    const DeclContext *DC = Work.pop_back_val();
    for (const Decl *D : DC->decls()) {
      if (SM.isInSystemHeader(D->getLocation()))
        continue;
      if (const auto *NS = dyn_cast<NamespaceDecl>(D)) {
        Work.push_back(NS);
      } else if (const auto *LS = dyn_cast<LinkageSpecDecl>(D)) {
        Work.push_back(LS);
      } else if (const auto *V = dyn_cast<VarDecl>(D)) {
        if ((V->hasAttr<CUDADeviceAttr>() || V->hasAttr<HIPManagedAttr>()) &&
            !V->getType().isConstQualified() && !V->hasAttr<CUDAConstantAttr>())
          DeviceVariables.insert(V->getName());
      } else if (const auto *F = D->getAsFunction()) {
        if (!F->getIdentifier())
          continue;
        bool Effectful = F->getReturnType()->isVoidType() ||
                         llvm::any_of(F->parameters(), [](const ParmVarDecl *P) {
                           return isNonConstPointee(P->getType());
                         });
        if (Effectful)
          EffectfulFunctions.insert(F->getName());
      }
    }
  }
}

namespace {
/// The names through which a function's code may store, from its AST.
struct ResultNames {
  llvm::StringSet<> Bases;
  llvm::StringSet<> RecordParams;
  llvm::StringSet<> Fields;
  /// Text ranges (body offsets) of the declarations of derived pointers:
  /// their initialisers read a base, they do not store.
  llvm::SmallVector<std::pair<unsigned, unsigned>, 4> Declarations;
  bool NonVoid = false;
  bool Method = false;
};

} // namespace

/// Whether \p S reads one of \p Names.
static bool readsAny(const Stmt *S, const llvm::StringSet<> &Names) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (DRE->getDecl()->getIdentifier() &&
        Names.contains(DRE->getDecl()->getName()))
      return true;
  for (const Stmt *C : S->children())
    if (readsAny(C, Names))
      return true;
  return false;
}

static void collectPointerLocals(const Stmt *S,
                                 llvm::SmallVectorImpl<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        if (V->getInit() && isNonConstPointee(V->getType()))
          Out.push_back(V);
  for (const Stmt *C : S->children())
    collectPointerLocals(C, Out);
}

/// The statements of kept code, each classified.
static llvm::SmallVector<StatementKind, 16>
classify(llvm::ArrayRef<const BodyToken *> Toks,
         llvm::function_ref<bool(llvm::StringRef)> IsTrapMacro) {
  llvm::SmallVector<StatementKind, 16> Out;
  size_t I = 0;
  while (I < Toks.size()) {
    if (Toks[I]->Kind == tok::l_brace || Toks[I]->Kind == tok::r_brace ||
        Toks[I]->Kind == tok::semi) {
      ++I;
      continue;
    }
    // A statement: up to ';' outside parentheses, or a brace.
    size_t J = I;
    int Depth = 0;
    while (J < Toks.size()) {
      tok::TokenKind K = Toks[J]->Kind;
      if (K == tok::l_paren || K == tok::l_square)
        ++Depth;
      else if (K == tok::r_paren || K == tok::r_square)
        --Depth;
      else if (Depth <= 0 &&
               (K == tok::semi || K == tok::l_brace || K == tok::r_brace))
        break;
      ++J;
    }
    llvm::ArrayRef<const BodyToken *> S = Toks.slice(I, J - I);
    I = J;
    // `if (c)` with a condition that calls nothing, before a statement or a
    // block: the statement (or the block's own statements) decides.
    if (S.size() >= 3 && S[0]->Kind == tok::raw_identifier &&
        S[0]->Text == "if" && S[1]->Kind == tok::l_paren) {
      size_t P = 2;
      while (P < S.size() && S[P]->Kind != tok::r_paren &&
             S[P]->Kind != tok::l_paren)
        ++P;
      if (P < S.size() && S[P]->Kind == tok::r_paren) {
        S = S.drop_front(P + 1);
        if (S.empty()) {
          Out.push_back(StatementKind::Nothing);
          continue;
        }
      }
    }
    // (void)x;  return;  a register-allocation hint.
    if ((S.size() >= 3 && S[0]->Kind == tok::l_paren &&
         S[1]->Kind == tok::kw_void && S[2]->Kind == tok::r_paren) ||
        (S.size() == 1 && S[0]->Kind == tok::kw_return) || isHintAsm(S)) {
      Out.push_back(StatementKind::Nothing);
      continue;
    }
    bool Trap = false;
    for (size_t K = 0; K < S.size() && !Trap; ++K) {
      const BodyToken *T = S[K];
      if (T->Kind == tok::raw_identifier &&
          (T->Text == "__trap" || T->Text == "__brkpt" ||
           T->Text == "__builtin_trap" || IsTrapMacro(T->Text)))
        Trap = true;
      else if (T->Kind == tok::kw_asm) {
        for (size_t L = K + 1; L < S.size(); ++L)
          if (S[L]->Kind == tok::string_literal && S[L]->Text.contains("trap"))
            Trap = true;
      } else if (T->Kind == tok::raw_identifier && T->Text == "assert" &&
                 K + 2 < S.size() && S[K + 1]->Kind == tok::l_paren) {
        const BodyToken *A = S[K + 2];
        Trap = A->Kind == tok::kw_false ||
               (A->Kind == tok::numeric_constant && A->Text == "0") ||
               (A->Kind == tok::exclaim && K + 3 < S.size() &&
                S[K + 3]->Kind == tok::string_literal);
      }
    }
    if (Trap)
      Out.push_back(StatementKind::Trap);
    else if (S[0]->Kind == tok::raw_identifier && S[0]->Text == "printf")
      Out.push_back(StatementKind::Message);
    else
      Out.push_back(StatementKind::Code);
  }
  return Out;
}

static PathKind pathKind(llvm::ArrayRef<StatementKind> Statements) {
  bool AnyTrap = false;
  for (StatementKind K : Statements) {
    if (K == StatementKind::Code)
      return PathKind::Working;
    AnyTrap |= K == StatementKind::Trap;
  }
  // Messages alone still tell the user something: work, not emptiness,
  // unless the work is compiled for a feature set the target lacks.
  if (!AnyTrap && llvm::is_contained(Statements, StatementKind::Message))
    return PathKind::MessageOnly;
  return AnyTrap ? PathKind::TrapOnly : PathKind::Empty;
}

static bool isAssignment(tok::TokenKind K) {
  switch (K) {
  case tok::equal:
  case tok::plusequal:
  case tok::minusequal:
  case tok::starequal:
  case tok::slashequal:
  case tok::percentequal:
  case tok::ampequal:
  case tok::pipeequal:
  case tok::caretequal:
  case tok::lesslessequal:
  case tok::greatergreaterequal:
  case tok::plusplus:
  case tok::minusminus:
    return true;
  default:
    return false;
  }
}

/// Whether the tokens [\p Begin, \p End) are a constant: literals, `true`,
/// `false`, `nullptr`, signs and parentheses (`0.0f`, `-1`, `(0)`).
static bool isConstantTokens(llvm::ArrayRef<const BodyToken *> Toks,
                             size_t Begin, size_t End) {
  if (Begin >= End)
    return false;
  for (size_t I = Begin; I < End; ++I) {
    const BodyToken *T = Toks[I];
    switch (T->Kind) {
    case tok::numeric_constant:
    case tok::char_constant:
    case tok::kw_false:
    case tok::minus:
    case tok::plus:
    case tok::l_paren:
    case tok::r_paren:
      continue;
    case tok::raw_identifier:
      if (T->Text == "true" || T->Text == "nullptr")
        continue;
      return false;
    default:
      return false;
    }
  }
  return true;
}

/// The end of the statement starting at \p I: its `;` at parenthesis depth
/// 0, or Toks.size().
static size_t statementEnd(llvm::ArrayRef<const BodyToken *> Toks, size_t I) {
  int Parens = 0;
  for (size_t J = I; J < Toks.size(); ++J) {
    if (Toks[J]->Kind == tok::l_paren)
      ++Parens;
    else if (Toks[J]->Kind == tok::r_paren)
      --Parens;
    else if (Toks[J]->Kind == tok::semi && Parens == 0)
      return J;
  }
  return Toks.size();
}

/// Whether the `return` at \p I of the kept tokens returns a constant: a
/// literal (`return 0.0f;`), or a local whose every kept mention is an
/// initialisation or assignment of a constant (`float y = 0.0f; ...
/// return y;` where the compilation dropped `y = x * 2.0f;`). The value then
/// depends on nothing the function is given.
static bool returnsConstant(llvm::ArrayRef<const BodyToken *> Toks, size_t I) {
  size_t End = statementEnd(Toks, I + 1);
  if (End == Toks.size())
    return false;
  if (isConstantTokens(Toks, I + 1, End))
    return true;
  if (End != I + 2 || Toks[I + 1]->Kind != tok::raw_identifier)
    return false;
  llvm::StringRef Name = Toks[I + 1]->Text;
  bool Assigned = false;
  for (size_t J = 0; J < Toks.size(); ++J) {
    if (J == I + 1 || Toks[J]->Kind != tok::raw_identifier ||
        Toks[J]->Text != Name)
      continue;
    // `y = <constant>;` (a declaration's initialiser too).
    if (J + 1 >= Toks.size() || Toks[J + 1]->Kind != tok::equal)
      return false;
    size_t AssignEnd = statementEnd(Toks, J + 2);
    if (AssignEnd == Toks.size() || !isConstantTokens(Toks, J + 2, AssignEnd))
      return false;
    Assigned = true;
  }
  return Assigned;
}

/// The position of the first kept token from \p From on that stores, or may
/// store, a result. An asm that only hints (isHintAsm()) is none.
static std::optional<size_t>
findResult(llvm::ArrayRef<const BodyToken *> Toks, size_t From,
           const ResultNames &Names, const llvm::StringSet<> &DeviceVariables,
           const llvm::StringSet<> &EffectfulFunctions) {
  for (size_t I = From; I < Toks.size(); ++I) {
    const BodyToken *T = Toks[I];
    bool Call = I + 1 < Toks.size() && Toks[I + 1]->Kind == tok::l_paren;
    switch (T->Kind) {
    case tok::kw_asm: {
      size_t End = I;
      while (End < Toks.size() && Toks[End]->Kind != tok::semi)
        ++End;
      if (isHintAsm(Toks.slice(I, End - I)))
        continue;
      return I;
    }
    case tok::kw_this:
      return I;
    case tok::kw_return:
      // A constant returned is no result: the value depends on nothing.
      if (Names.NonVoid && I + 1 < Toks.size() &&
          Toks[I + 1]->Kind != tok::semi && !returnsConstant(Toks, I))
        return I;
      continue;
    case tok::raw_identifier:
      break;
    default:
      continue;
    }
    llvm::StringRef Name = T->Text;
    if (Names.Bases.contains(Name) || DeviceVariables.contains(Name) ||
        Names.Fields.contains(Name)) {
      bool InDeclaration =
          llvm::any_of(Names.Declarations, [&](const auto &D) {
            return D.first <= T->Offset && T->Offset < D.second;
          });
      if (!InDeclaration)
        return I;
      continue;
    }
    if (Names.RecordParams.contains(Name)) {
      // p.out[i] = v;  p.count += 1;
      size_t J = I + 1;
      while (J + 1 < Toks.size() &&
             (Toks[J]->Kind == tok::period || Toks[J]->Kind == tok::arrow) &&
             Toks[J + 1]->Kind == tok::raw_identifier)
        J += 2;
      while (J < Toks.size() && Toks[J]->Kind == tok::l_square) {
        int Depth = 0;
        for (; J < Toks.size(); ++J) {
          if (Toks[J]->Kind == tok::l_square)
            ++Depth;
          else if (Toks[J]->Kind == tok::r_square && --Depth == 0) {
            ++J;
            break;
          }
        }
      }
      if (J > I + 1 && J < Toks.size() && isAssignment(Toks[J]->Kind))
        return I;
      // Passed whole to a call: the callee may store through it.
      if (I > 0 && (Toks[I - 1]->Kind == tok::l_paren ||
                    Toks[I - 1]->Kind == tok::comma) &&
          J == I + 1)
        return I;
      continue;
    }
    if (!Call)
      continue;
    if (Name == "printf" || Name == "memcpy" || Name == "memset" ||
        Name.starts_with("atomic") || Name.starts_with("__st") ||
        EffectfulFunctions.contains(Name))
      return I;
  }
  return std::nullopt;
}

/// Whether \p W is an older compilation than \p T (a lower
/// `__CUDA_ARCH__`), or the architecture- or family-specific compilation of
/// the same architecture as a generic \p T: code that only \p W keeps is
/// code \p T's build lost.
static bool olderOrMoreSpecific(const CompileTarget &W,
                                const CompileTarget &T) {
  return W.CudaArch < T.CudaArch ||
         (W.CudaArch == T.CudaArch && T.Features == FeatureSet::Generic &&
          W.Features != FeatureSet::Generic);
}

/// Whether macro Name expands, within four levels, to a trap.
static bool isTrapMacro(const Preprocessor *PP, llvm::StringRef Name) {
  if (!PP)
    return false;
  llvm::SmallVector<const MacroInfo *, 4> Work;
  auto Lookup = [&](llvm::StringRef N) { return macroNamed(*PP, N); };
  if (const MacroInfo *MI = Lookup(Name))
    Work.push_back(MI);
  for (int Depth = 0; Depth < 4 && !Work.empty(); ++Depth) {
    llvm::SmallVector<const MacroInfo *, 4> Next;
    for (const MacroInfo *MI : Work)
      for (const Token &T : MI->tokens()) {
        const IdentifierInfo *II = T.getIdentifierInfo();
        if (!II)
          continue;
        llvm::StringRef N = II->getName();
        if (N == "__trap" || N == "__brkpt" || N == "__builtin_trap")
          return true;
        if (const MacroInfo *Inner = Lookup(N))
          Next.push_back(Inner);
      }
    Work = std::move(Next);
  }
  return false;
}

/// What the AST tells about the stores of F, whose body CS is the text
/// [Begin, End) of File.
static ResultNames resultNames(const FunctionDecl *F, const CompoundStmt *CS,
                               FileID File, unsigned Begin, unsigned End,
                               const SourceManager &SM) {
  ResultNames Names;
  Names.NonVoid = !F->getReturnType()->isVoidType();
  for (const ParmVarDecl *P : F->parameters()) {
    if (!P->getIdentifier())
      continue;
    QualType T = P->getType();
    if (isNonConstPointee(T) ||
        (T->isDependentType() && !T->isPointerType() && !T->isReferenceType()))
      Names.Bases.insert(P->getName());
    else if (T->isRecordType())
      Names.RecordParams.insert(P->getName());
  }
  if (const auto *M = dyn_cast<CXXMethodDecl>(F); M && !M->isStatic()) {
    Names.Method = true;
    for (const FieldDecl *FD : M->getParent()->fields())
      if (FD->getIdentifier())
        Names.Fields.insert(FD->getName());
  }
  llvm::SmallVector<const VarDecl *, 8> Locals;
  collectPointerLocals(CS, Locals);
  for (int Pass = 0; Pass < 2; ++Pass)
    for (const VarDecl *V : Locals)
      if (!Names.Bases.contains(V->getName()) &&
          readsAny(V->getInit(), Names.Bases)) {
        Names.Bases.insert(V->getName());
        SourceRange R = V->getSourceRange();
        if (R.getBegin().isFileID() && R.getEnd().isFileID() &&
            SM.getFileID(R.getBegin()) == File) {
          unsigned DB = SM.getFileOffset(R.getBegin());
          unsigned DE = SM.getFileOffset(R.getEnd());
          if (DB >= Begin && DE <= End)
            Names.Declarations.emplace_back(DB - Begin, DE - Begin + 1);
        }
      }
  return Names;
}

namespace {
/// What one compilation keeps of a body, how that path ends, and whether
/// it stores a result.
struct PathSummary {
  PathKind Kind;
  bool Result;
  llvm::SmallVector<const BodyToken *, 64> Kept;
};
using TargetPath = std::pair<CompileTarget, PathSummary>;

/// One body's paths under the targets and under every modern compilation,
/// and the findings their comparison gives.
class PathComparison {
public:
  PathComparison(const Body &B, const ResultNames &Names,
                 const llvm::StringSet<> &DeviceVariables,
                 const llvm::StringSet<> &EffectfulFunctions,
                 const Preprocessor *PP, ToolkitVersion TK, SourceLocation LB)
      : B(B), Names(Names), DeviceVariables(DeviceVariables),
        EffectfulFunctions(EffectfulFunctions), PP(PP), TK(TK), LB(LB) {}

  llvm::SmallVector<ArchPathFinding, 2>
  findings(llvm::ArrayRef<CompileTarget> Targets);

private:
  PathSummary summarize(const CompileTarget &T) const;
  /// The newest older compilation that works (and stores, for NoResult):
  /// one the file is built for if there is one, else any modern one.
  const TargetPath *olderWorking(const CompileTarget &T,
                                 bool NeedResult) const;
  /// The outermost branch that the older compilation keeps and the targets
  /// do not, holding what the targets miss (the stores, with
  /// ResultTokens).
  void locate(ArchPathFinding &Out, const PathSummary &TS,
              const PathSummary &WS, bool ResultTokens) const;

  const Body &B;
  const ResultNames &Names;
  const llvm::StringSet<> &DeviceVariables;
  const llvm::StringSet<> &EffectfulFunctions;
  const Preprocessor *PP;
  ToolkitVersion TK;
  /// The body's '{', which offsets into its text count from.
  SourceLocation LB;
  llvm::SmallVector<TargetPath, 32> Modern;
  llvm::SmallVector<TargetPath, 8> Own;
};
} // namespace

PathSummary PathComparison::summarize(const CompileTarget &T) const {
  PathSummary S;
  S.Kept = B.kept(T.macros(), TK);
  S.Kind = pathKind(classify(
      S.Kept, [&](llvm::StringRef Name) { return isTrapMacro(PP, Name); }));
  S.Result =
      findResult(S.Kept, 0, Names, DeviceVariables, EffectfulFunctions)
          .has_value();
  return S;
}

const TargetPath *PathComparison::olderWorking(const CompileTarget &T,
                                               bool NeedResult) const {
  auto Newest = [&](llvm::ArrayRef<TargetPath> List) -> const TargetPath * {
    const TargetPath *Found = nullptr;
    for (const TargetPath &E : List)
      if (olderOrMoreSpecific(E.first, T) &&
          E.second.Kind == PathKind::Working &&
          (!NeedResult || E.second.Result))
        Found = &E;
    return Found;
  };
  if (const TargetPath *E = Newest(Own))
    return E;
  return Newest(Modern);
}

void PathComparison::locate(ArchPathFinding &Out, const PathSummary &TS,
                            const PathSummary &WS, bool ResultTokens) const {
  const ConditionalText &CT = B.conditionals();
  llvm::SmallVector<const BodyToken *, 64> Missing;
  if (ResultTokens) {
    for (std::optional<size_t> R = findResult(WS.Kept, 0, Names,
                                              DeviceVariables,
                                              EffectfulFunctions);
         R; R = findResult(WS.Kept, *R + 1, Names, DeviceVariables,
                           EffectfulFunctions))
      if (!llvm::is_contained(TS.Kept, WS.Kept[*R]))
        Missing.push_back(WS.Kept[*R]);
  }
  // A `return` both keep, whose value only the older compilation computes:
  // the code that computes it is what is missing.
  if (Missing.empty()) {
    for (const BodyToken *T : WS.Kept)
      if (!llvm::is_contained(TS.Kept, T))
        Missing.push_back(T);
  }
  for (const ConditionalChain &C : CT.Chains) {
    if (!C.ReadsArch)
      continue;
    llvm::SmallVector<Truth, 4> TT =
        branchTruths(C, Out.Targets.front().macros(), B.langOpts(), TK);
    llvm::SmallVector<Truth, 4> WT =
        branchTruths(C, Out.Working.macros(), B.langOpts(), TK);
    for (size_t I = 0; I < C.Branches.size(); ++I) {
      const ConditionalBranch &Br = C.Branches[I];
      if (TT[I] != Truth::False || WT[I] == Truth::False ||
          !Body::holds(Missing, Br.End, Br.BodyEnd))
        continue;
      Out.Guard = LB.getLocWithOffset(static_cast<int>(1 + Br.Begin));
      Out.GuardKind = Br.Kind;
      Out.GuardCondition = Br.Condition;
      Out.ChainCondition = C.Branches.front().Condition;
      for (size_t K = 0; K < C.Branches.size(); ++K)
        if (TT[K] == Truth::True) {
          Out.Taken =
              LB.getLocWithOffset(static_cast<int>(1 + C.Branches[K].Begin));
          Out.TakenKind = C.Branches[K].Kind;
        }
      return;
    }
  }
}

llvm::SmallVector<ArchPathFinding, 2>
PathComparison::findings(llvm::ArrayRef<CompileTarget> Targets) {
  for (const CompileTarget &W : modernCompileTargets())
    Modern.emplace_back(W, summarize(W));
  for (const CompileTarget &T : Targets)
    Own.emplace_back(T, summarize(T));

  ArchPathFinding Empty, Traps, NoResult;
  Empty.Kind = ArchPathFinding::EmptyBody;
  Traps.Kind = ArchPathFinding::TrapsOnly;
  NoResult.Kind = ArchPathFinding::NoResult;
  // The first target of each finding and its older working compilation.
  const TargetPath *EmptyT = nullptr, *TrapT = nullptr, *NoResultT = nullptr;
  const TargetPath *EmptyW = nullptr, *TrapW = nullptr, *NoResultW = nullptr;
  for (const TargetPath &E : Own) {
    const CompileTarget &T = E.first;
    const PathSummary &S = E.second;
    if (S.Kind != PathKind::Working) {
      const TargetPath *W = olderWorking(T, /*NeedResult=*/false);
      // A message alone is a stub only beside an `a`/`f` compilation that
      // does the work (`#if defined(__CUDA_ARCH_FEAT_SM90_ALL) ... #else
      // printf("not supported") #endif`); else it is the work.
      if (S.Kind == PathKind::MessageOnly &&
          (!W || W->first.Features == FeatureSet::Generic))
        continue;
      if (!W)
        continue;
      bool IsEmpty = S.Kind == PathKind::Empty;
      (IsEmpty ? Empty : Traps).Targets.push_back(T);
      const TargetPath *&First = IsEmpty ? EmptyT : TrapT;
      if (!First) {
        First = &E;
        (IsEmpty ? EmptyW : TrapW) = W;
      }
      continue;
    }
    if (S.Result)
      continue;
    const TargetPath *W = olderWorking(T, /*NeedResult=*/true);
    if (!W)
      continue;
    NoResult.Targets.push_back(T);
    if (!NoResultT) {
      NoResultT = &E;
      NoResultW = W;
    }
  }
  llvm::SmallVector<ArchPathFinding, 2> Findings;
  auto Finish = [&](ArchPathFinding &Out, const TargetPath *TS,
                    const TargetPath *W, bool ResultTokens) {
    if (Out.Targets.empty())
      return;
    Out.Working = W->first;
    locate(Out, TS->second, W->second, ResultTokens);
    if (ResultTokens && Names.NonVoid) {
      llvm::ArrayRef<const BodyToken *> Kept = TS->second.Kept;
      for (size_t I = 0; I < Kept.size(); ++I)
        if (Kept[I]->Kind == tok::kw_return && returnsConstant(Kept, I)) {
          Out.ConstantReturn =
              LB.getLocWithOffset(static_cast<int>(1 + Kept[I]->Offset));
          break;
        }
    }
    Findings.push_back(std::move(Out));
  };
  Finish(Empty, EmptyT, EmptyW, false);
  Finish(Traps, TrapT, TrapW, false);
  Finish(NoResult, NoResultT, NoResultW, true);
  return Findings;
}

llvm::SmallVector<ArchPathFinding, 2>
ArchPathAnalysis::analyze(const FunctionDecl *F,
                          llvm::ArrayRef<CompileTarget> Targets) {
  const auto *CS = dyn_cast_or_null<CompoundStmt>(F->getBody());
  if (!CS || Targets.empty())
    return {};
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation LB = CS->getLBracLoc(), RB = CS->getRBracLoc();
  if (LB.isInvalid() || RB.isInvalid() || LB.isMacroID() || RB.isMacroID())
    return {};
  FileID File = SM.getFileID(LB);
  if (File != SM.getFileID(RB))
    return {};
  unsigned Begin = SM.getFileOffset(LB) + 1, End = SM.getFileOffset(RB);
  bool Invalid = false;
  llvm::StringRef FileText = SM.getBufferData(File, &Invalid);
  if (Invalid || Begin > End || End > FileText.size())
    return {};
  llvm::StringRef Text = FileText.slice(Begin, End);
  // Most bodies name no architecture macro: nothing to read.
  if (!namesArchMacro(Text))
    return {};
  Body B(Text, Ctx.getLangOpts());
  if (!B.read())
    return {};
  if (!Collected)
    collectTranslationUnitFacts();
  ResultNames Names = resultNames(F, CS, File, Begin, End, SM);
  return PathComparison(B, Names, DeviceVariables, EffectfulFunctions, PP, TK,
                        LB)
      .findings(Targets);
}

} // namespace cuda_tidy
