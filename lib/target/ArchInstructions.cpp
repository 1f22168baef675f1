//===--- ArchInstructions.cpp - PTX only some targets accept --------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/target/ArchInstructions.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace cuda_tidy {

namespace {
bool specific(const CompileTarget &T) {
  return T.Features != FeatureSet::Generic;
}
bool sm90a(const CompileTarget &T) {
  return T.CudaArch == 900 && T.Features == FeatureSet::ArchSpecific;
}
bool anySpecific(const CompileTarget &T) {
  return specific(T) && T.CudaArch >= 900;
}
bool tensorCore5(const CompileTarget &T) {
  return specific(T) && llvm::is_contained({1000u, 1030u, 1100u}, T.CudaArch);
}
bool datacenterBlackwell(const CompileTarget &T) {
  return specific(T) && llvm::is_contained({1000u, 1030u}, T.CudaArch);
}
bool consumerBlackwell(const CompileTarget &T) {
  return specific(T) && llvm::is_contained({1200u, 1210u}, T.CudaArch);
}
bool blackwellOn(const CompileTarget &T) { return T.CudaArch >= 1000; }
} // namespace

// ptxas 13.0 on a one-instruction kernel for sm_90 ... sm_121f (every
// generic, `a` and `f` target); the docs page has the table.
static const ArchInstruction Instructions[] = {
    {"wgmma.", "", "sm_90a only", sm90a},
    {"setmaxnreg.", "", "the 'a' and 'f' targets only (sm_90a, sm_100a/f ...)",
     anySpecific},
    {"tensormap.replace", "",
     "the 'a' and 'f' targets only (sm_90a, sm_100a/f ...)", anySpecific},
    {"tcgen05.", "", "sm_100a/f, sm_103a/f and sm_110a/f only", tensorCore5},
    {"cp.async.bulk.tensor", ".cta_group::",
     "sm_100a/f, sm_103a/f and sm_110a/f only", tensorCore5},
    {"redux.sync", ".f32", "sm_100a/f and sm_103a/f only",
     datacenterBlackwell},
    {"mma.sync", ".kind::mxf4", "sm_120a/f and sm_121a/f only",
     consumerBlackwell},
    {"clusterlaunchcontrol.", "", "sm_100 and later only", blackwellOn},
};

llvm::SmallVector<std::pair<const ArchInstruction *, std::string>, 2>
findArchInstructions(llvm::StringRef Text) {
  llvm::SmallVector<std::pair<const ArchInstruction *, std::string>, 2> Out;
  llvm::SmallVector<llvm::StringRef, 8> Statements;
  Text.split(Statements, ';');
  for (llvm::StringRef S : Statements) {
    // Blocks, labels and predicates before the mnemonic: "{", "L1:", "@p".
    S = S.trim().ltrim("{} \t\r\n");
    if (S.starts_with("@"))
      S = S.drop_until([](char C) { return llvm::isSpace(C); }).trim();
    llvm::StringRef Mnemonic = S.take_until([](char C) { return llvm::isSpace(C); });
    for (const ArchInstruction &I : Instructions)
      if (Mnemonic.starts_with(I.Prefix) &&
          (I.Qualifier.empty() || Mnemonic.contains(I.Qualifier)) &&
          llvm::none_of(Out, [&](const auto &P) { return P.first == &I; }))
        Out.push_back({&I, Mnemonic.str()});
  }
  return Out;
}

std::string fittingGuard(const ArchInstruction &I,
                         llvm::ArrayRef<CompileTarget> Targets) {
  if (I.Accepts == sm90a)
    return "__CUDA_ARCH_FEAT_SM90_ALL";
  if (I.Accepts == anySpecific)
    return "defined(__CUDA_ARCH_FAMILY_SPECIFIC__)";
  if (I.Accepts == blackwellOn)
    return "__CUDA_ARCH__ >= 1000";
  llvm::SmallVector<std::string, 2> Families;
  for (const CompileTarget &T : Targets)
    if (I.Accepts(T)) {
      std::string G =
          "__CUDA_ARCH_FAMILY_SPECIFIC__ == " + std::to_string(T.CudaArch);
      if (!llvm::is_contained(Families, G))
        Families.push_back(G);
    }
  if (Families.empty())
    Families.push_back("__CUDA_ARCH_FAMILY_SPECIFIC__ == " +
                       std::string(I.Accepts == consumerBlackwell ? "1200"
                                                                  : "1000"));
  return llvm::join(Families, " || ");
}

/// The architecture conditionals of one file.
struct ArchInstructionAnalysis::FileText {
  llvm::StringRef Text;
  ConditionalText Conditionals;
};

ArchInstructionAnalysis::ArchInstructionAnalysis(const ASTContext &Ctx,
                                                 ToolkitVersion TK,
                                                 CallersFn Callers)
    : Ctx(Ctx), TK(TK), Callers(std::move(Callers)) {}

ArchInstructionAnalysis::~ArchInstructionAnalysis() = default;

const ArchInstructionAnalysis::FileText *
ArchInstructionAnalysis::fileText(FileID File) {
  auto [It, New] = Files.try_emplace(File);
  if (New) {
    bool Invalid = false;
    llvm::StringRef Text = Ctx.getSourceManager().getBufferData(File, &Invalid);
    if (!Invalid) {
      It->second = std::make_unique<FileText>();
      It->second->Text = Text;
      It->second->Conditionals = readConditionals(Text, Ctx.getLangOpts());
      if (!It->second->Conditionals.Balanced)
        It->second.reset();
    }
  }
  return It->second.get();
}

/// The text of \p Body as written, when it is one file's (empty otherwise),
/// with that file and the body's offset in it.
static llvm::StringRef bodyText(const Stmt *Body, const SourceManager &SM,
                                FileID &File, unsigned &From) {
  SourceLocation Begin = Body->getBeginLoc(), End = Body->getEndLoc();
  if (Begin.isMacroID() || End.isMacroID())
    return {};
  File = SM.getFileID(Begin);
  if (File != SM.getFileID(End))
    return {};
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  From = SM.getFileOffset(Begin);
  unsigned To = SM.getFileOffset(End);
  if (Invalid || From > To || To > Buffer.size())
    return {};
  return Buffer.slice(From, To);
}

/// Where the body of \p F starts, as a file offset (0 when unknown).
static unsigned bodyOffset(const FunctionDecl *F, const SourceManager &SM) {
  const Stmt *Body = F ? F->getBody() : nullptr;
  if (!Body)
    return 0;
  SourceLocation B = SM.getExpansionLoc(Body->getBeginLoc());
  return B.isValid() ? SM.getFileOffset(B) : 0;
}

Truth ArchInstructionAnalysis::keptAt(SourceLocation Loc,
                                      const CompileTarget &T,
                                      const FunctionDecl *In,
                                      std::string *Condition,
                                      SourceLocation *Guard) {
  const SourceManager &SM = Ctx.getSourceManager();
  Loc = SM.getExpansionLoc(Loc);
  if (Loc.isInvalid())
    return Truth::Unknown;
  FileID File = SM.getFileID(Loc);
  const FileText *F = fileText(File);
  if (!F)
    return Truth::Unknown;
  unsigned Offset = SM.getFileOffset(Loc);
  unsigned BodyBegin = bodyOffset(In, SM);
  Truth Out = Truth::True;
  for (const ConditionalChain &C : F->Conditionals.Chains) {
    for (size_t B = 0; B < C.Branches.size(); ++B) {
      const ConditionalBranch &Br = C.Branches[B];
      if (Offset < Br.End || Offset >= Br.BodyEnd)
        continue;
      if (!C.ReadsArch) {
        // Around the function: taken, as the parse that holds it took it
        // (its macros are not the architecture's). In the body: unknown,
        // the macro may derive from the architecture's.
        if (C.Branches.front().Begin >= BodyBegin)
          Out = Truth::Unknown;
        continue;
      }
      Truth Taken =
          branchTruths(C, T.macros(), Ctx.getLangOpts(), TK)[B];
      if (Taken == Truth::False)
        return Truth::False;
      if (Taken == Truth::Unknown)
        Out = Truth::Unknown;
      // Chains come in the order of their #if: the last one is innermost.
      if (Condition) {
        *Condition = Br.Kind == ConditionalBranch::Else
                         ? "#else of '" + C.Branches.front().Condition + "'"
                         : Br.Condition;
        if (Guard)
          *Guard = SM.getComposedLoc(File, Br.Begin);
      }
    }
  }
  return Out;
}

Truth ArchInstructionAnalysis::emitted(const FunctionDecl *F,
                                       const CompileTarget &T,
                                       unsigned Depth) {
  if (F->hasAttr<CUDAGlobalAttr>())
    return Truth::True;
  if (Depth > 4 || Ctx.getLangOpts().GPURelocatableDeviceCode)
    return Truth::Unknown;
  llvm::SmallVector<const FunctionDecl *, 4> Instances;
  if (const FunctionTemplateDecl *FT = F->getDescribedFunctionTemplate()) {
    for (const FunctionDecl *S : FT->specializations())
      Instances.push_back(S);
  } else if (F->isTemplated()) {
    return Truth::Unknown; // A member of a class template.
  } else {
    Instances.push_back(F);
  }
  Truth Out = Truth::False;
  for (const FunctionDecl *I : Instances) {
    for (const auto &[Caller, Loc] : Callers(I)) {
      if (!Caller)
        return Truth::Unknown;
      Truth Site = keptAt(Loc, T, Caller);
      if (Site == Truth::False)
        continue;
      const FunctionDecl *Pattern = Caller->getTemplateInstantiationPattern();
      Truth Up = emitted(Pattern ? Pattern : Caller, T, Depth + 1);
      if (Site == Truth::True && Up == Truth::True)
        return Truth::True;
      if (Up != Truth::False)
        Out = Truth::Unknown;
    }
  }
  return Out;
}

/// The asm statements of \p Text: the offset of each one's first string
/// literal and its literals' contents joined (escapes of newlines and tabs
/// read as such).
static llvm::SmallVector<std::pair<unsigned, std::string>, 4>
asmStrings(llvm::StringRef Slice, const LangOptions &LangOpts) {
  llvm::SmallVector<std::pair<unsigned, std::string>, 4> Out;
  std::string Buffer = Slice.str(); // The lexer reads up to a terminator.
  llvm::StringRef Text = Buffer;
  Lexer Lex(SourceLocation::getFromRawEncoding(0), LangOpts, Buffer.c_str(),
            Buffer.c_str(), Buffer.c_str() + Buffer.size());
  Token T;
  bool InAsm = false;
  int Depth = 0;
  while (true) {
    Lex.LexFromRawLexer(T);
    if (T.is(tok::eof))
      break;
    unsigned Off = T.getLocation().getRawEncoding();
    llvm::StringRef Spelling = Text.substr(Off, T.getLength());
    if (!InAsm) {
      if (T.is(tok::raw_identifier) &&
          (Spelling == "asm" || Spelling == "__asm__" || Spelling == "__asm")) {
        InAsm = true;
        Depth = 0;
      }
      continue;
    }
    if (T.is(tok::l_paren)) {
      if (++Depth == 1)
        Out.push_back({0, std::string()});
      continue;
    }
    if (Depth == 0) {
      if (T.isNot(tok::raw_identifier)) // volatile, inline, goto
        InAsm = false;
      continue;
    }
    if (T.is(tok::r_paren) || (Depth == 1 && T.is(tok::colon))) {
      InAsm = false;
      continue;
    }
    if (T.is(tok::string_literal) && Depth == 1) {
      if (Out.back().second.empty())
        Out.back().first = Off;
      llvm::StringRef Body = Spelling.drop_front().drop_back();
      std::string S = Body.str();
      for (auto [From, To] : {std::pair<const char *, const char *>{"\\n", "\n"},
                              {"\\t", "\t"}}) {
        size_t P = 0;
        while ((P = S.find(From, P)) != std::string::npos)
          S.replace(P, 2, To);
      }
      Out.back().second += S;
    }
  }
  llvm::erase_if(Out, [](const auto &P) { return P.second.empty(); });
  return Out;
}

llvm::SmallVector<InstructionFinding, 1>
ArchInstructionAnalysis::analyze(const FunctionDecl *F,
                                 llvm::ArrayRef<CompileTarget> Targets) {
  llvm::SmallVector<InstructionFinding, 1> Findings;
  const Stmt *Body = F->getBody();
  const SourceManager &SM = Ctx.getSourceManager();
  if (!Body || Targets.empty())
    return Findings;
  FileID File;
  unsigned From = 0;
  llvm::StringRef Text = bodyText(Body, SM, File, From);
  // Most bodies hold no inline assembly: a test of the text before the
  // file's conditionals are read.
  if (!Text.contains("asm") || !fileText(File))
    return Findings;
  for (const auto &[Offset, Asm] : asmStrings(Text, Ctx.getLangOpts())) {
    SourceLocation Loc = SM.getComposedLoc(File, From + Offset);
    for (const auto &[I, Mnemonic] : findArchInstructions(Asm)) {
      InstructionFinding Fd;
      Fd.Instruction = I;
      Fd.Mnemonic = Mnemonic;
      Fd.Asm = Loc;
      for (const CompileTarget &T : Targets) {
        if (I->Accepts(T))
          continue;
        std::string Condition;
        SourceLocation Guard;
        if (keptAt(Loc, T, F, &Condition, &Guard) != Truth::True ||
            emitted(F, T, 0) != Truth::True)
          continue;
        Fd.Rejecting.push_back(T);
        if (Fd.GuardCondition.empty()) {
          Fd.GuardCondition = Condition;
          Fd.Guard = Guard;
        }
      }
      if (!Fd.Rejecting.empty())
        Findings.push_back(std::move(Fd));
    }
  }
  return Findings;
}

/// A wrapper's condition with its derived macros spelled as the
/// architecture macros they stand for: CuTe's and CUTLASS's
/// `*_ARCH_MMA_SM90A_ENABLED` (cute/arch/config.hpp, cutlass/arch/config.h:
/// defined when `__CUDA_ARCH_FEAT_SM90_ALL` is) and CCCL's
/// `_CCCL_CUDA_COMPILER(NVHPC)` (0 under nvcc and clang).
static std::string spellDerived(llvm::StringRef Condition) {
  std::string Out = Condition.str();
  auto Replace = [&Out](llvm::StringRef From, llvm::StringRef To) {
    for (size_t P = Out.find(From.str()); P != std::string::npos;
         P = Out.find(From.str(), P + To.size()))
      Out.replace(P, From.size(), To.str());
  };
  Replace("_CCCL_CUDA_COMPILER(NVHPC)", "0");
  Replace("CUTE_ARCH_MMA_SM90A_ENABLED", "__CUDA_ARCH_FEAT_SM90_ALL");
  Replace("CUTLASS_ARCH_MMA_SM90A_ENABLED", "__CUDA_ARCH_FEAT_SM90_ALL");
  return Out;
}

Truth ArchInstructionAnalysis::keptInWrapper(FileID File, unsigned Offset,
                                             unsigned BodyBegin,
                                             const CompileTarget &T,
                                             std::string *Condition) {
  const FileText *F = fileText(File);
  if (!F)
    return Truth::Unknown;
  Truth Out = Truth::True;
  for (const ConditionalChain &C : F->Conditionals.Chains) {
    if (C.Branches.empty() || Offset < C.Branches.front().End ||
        Offset >= C.Branches.back().BodyEnd)
      continue;
    ConditionalChain Spelled = C;
    for (ConditionalBranch &B : Spelled.Branches)
      B.Condition = spellDerived(B.Condition);
    bool Reads = llvm::any_of(Spelled.Branches, [](const ConditionalBranch &B) {
      return namesArchMacro(B.Condition);
    });
    for (size_t B = 0; B < C.Branches.size(); ++B) {
      const ConditionalBranch &Br = C.Branches[B];
      if (Offset < Br.End || Offset >= Br.BodyEnd)
        continue;
      if (!Reads) {
        // Around the wrapper: as the parse took it; inside: unknown.
        if (C.Branches.front().Begin >= BodyBegin)
          Out = Truth::Unknown;
        continue;
      }
      Truth Taken = branchTruths(Spelled, T.macros(), Ctx.getLangOpts(), TK)[B];
      if (Taken == Truth::False)
        return Truth::False;
      if (Taken == Truth::Unknown)
        Out = Truth::Unknown;
      if (Condition && Br.Kind != ConditionalBranch::Else)
        *Condition = Br.Condition;
    }
  }
  return Out;
}

/// The stand-in a wrapper's body text holds for its instruction: the offset
/// and name of an undefined `__cuda_ptx_..._is_not_supported...` function's
/// call, or of `CUTE_INVALID_CONTROL_PATH`.
static std::optional<std::pair<size_t, llvm::StringRef>>
findStandIn(llvm::StringRef Body, WrapperFinding::Consequence &Kind) {
  size_t P = Body.find("__cuda_ptx_");
  while (P != llvm::StringRef::npos) {
    llvm::StringRef Name = Body.substr(P).take_while(
        [](char C) { return llvm::isAlnum(C) || C == '_'; });
    if (Name.contains("_is_not_supported") &&
        Body.substr(P + Name.size()).ltrim().starts_with("(")) {
      Kind = WrapperFinding::UnresolvedExtern;
      return std::make_pair(P, Name);
    }
    P = Body.find("__cuda_ptx_", P + Name.size());
  }
  P = Body.find("CUTE_INVALID_CONTROL_PATH");
  if (P != llvm::StringRef::npos) {
    Kind = WrapperFinding::Trap;
    return std::make_pair(P, Body.substr(P, 25));
  }
  return std::nullopt;
}

/// The braces of the function body that follows the declaration name at
/// \p NameOffset of \p Text: the first '{' outside parentheses, and its
/// matching '}'. False when a ';' comes first (a declaration only).
static bool bodyAfter(llvm::StringRef Text, unsigned NameOffset,
                      const LangOptions &LangOpts, unsigned &Open,
                      unsigned &Close) {
  std::string Buffer = Text.substr(NameOffset).str();
  Lexer Lex(SourceLocation::getFromRawEncoding(0), LangOpts, Buffer.c_str(),
            Buffer.c_str(), Buffer.c_str() + Buffer.size());
  Token T;
  int Parens = 0, Braces = 0;
  while (true) {
    Lex.LexFromRawLexer(T);
    if (T.is(tok::eof))
      return false;
    unsigned Off = NameOffset + T.getLocation().getRawEncoding();
    if (T.is(tok::l_paren))
      ++Parens;
    else if (T.is(tok::r_paren))
      --Parens;
    else if (Parens == 0 && Braces == 0 && T.is(tok::semi))
      return false;
    else if (Parens == 0 && T.is(tok::l_brace)) {
      if (Braces++ == 0)
        Open = Off;
    } else if (Parens == 0 && T.is(tok::r_brace) && --Braces == 0) {
      Close = Off;
      return true;
    }
  }
}

std::optional<WrapperFinding>
ArchInstructionAnalysis::wrapperCall(const FunctionDecl *F,
                                     const CallExpr *Call,
                                     llvm::ArrayRef<CompileTarget> Targets) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return std::nullopt;
  if (const FunctionDecl *P = Callee->getTemplateInstantiationPattern())
    Callee = P;
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionDecl *Def = nullptr;
  FileID File;
  unsigned From = 0, To = 0;
  const FileText *FT = nullptr;
  if (Callee->hasBody(Def) && Def && Def->getBody()) {
    SourceLocation Begin = Def->getBody()->getBeginLoc(),
                   End = Def->getBody()->getEndLoc();
    if (Begin.isMacroID() || End.isMacroID() ||
        SM.getFileID(Begin) != SM.getFileID(End))
      return std::nullopt;
    File = SM.getFileID(Begin);
    From = SM.getFileOffset(Begin);
    To = SM.getFileOffset(End);
    FT = fileText(File);
  } else {
    // A body the parse skipped (clangd's preamble skips the bodies of
    // header functions): read it from the text after the declaration.
    Def = Callee->getDefinition() ? Callee->getDefinition() : Callee;
    SourceLocation Name = SM.getExpansionLoc(Def->getLocation());
    if (Name.isInvalid())
      return std::nullopt;
    File = SM.getFileID(Name);
    FT = fileText(File);
    if (!FT || !bodyAfter(FT->Text, SM.getFileOffset(Name),
                          Ctx.getLangOpts(), From, To))
      return std::nullopt;
  }
  if (!FT || From > To || To > FT->Text.size())
    return std::nullopt;
  llvm::StringRef Body = FT->Text.slice(From, To);
  WrapperFinding Fd;
  auto StandIn = findStandIn(Body, Fd.Kind);
  if (!StandIn)
    return std::nullopt;
  Fd.Callee = Def;
  Fd.Marker = StandIn->second.str();
  Fd.Call = SM.getExpansionLoc(Call->getBeginLoc());
  auto Asms = asmStrings(Body, Ctx.getLangOpts());
  if (!Asms.empty()) {
    llvm::StringRef First = llvm::StringRef(Asms.front().second).trim();
    First = First.ltrim("{} \t\r\n");
    Fd.Mnemonic = First.take_until([](char C) { return llvm::isSpace(C); })
                      .rtrim(";")
                      .str();
    // The wrapper's own condition for its instruction, from a target that
    // keeps it.
    for (const CompileTarget &W : modernCompileTargets()) {
      std::string Condition;
      if (keptInWrapper(File, From + Asms.front().first, From, W, &Condition) ==
          Truth::True) {
        Fd.WrapperCondition = Condition;
        break;
      }
    }
  }
  for (const CompileTarget &T : Targets) {
    std::string Condition;
    SourceLocation Guard;
    if (keptInWrapper(File, From + StandIn->first, From, T, nullptr) !=
            Truth::True ||
        keptAt(Call->getBeginLoc(), T, F, &Condition, &Guard) != Truth::True ||
        emitted(F, T, 0) != Truth::True)
      continue;
    Fd.Failing.push_back(T);
    if (Fd.GuardCondition.empty()) {
      Fd.GuardCondition = Condition;
      Fd.Guard = Guard;
    }
  }
  if (Fd.Failing.empty())
    return std::nullopt;
  return Fd;
}

/// The direct calls in \p S, lambdas' bodies left out.
static void collectCalls(const Stmt *S,
                         llvm::SmallVectorImpl<const CallExpr *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (CE->getDirectCallee())
      Out.push_back(CE);
  for (const Stmt *C : S->children())
    collectCalls(C, Out);
}

llvm::SmallVector<WrapperFinding, 1>
ArchInstructionAnalysis::analyzeWrapperCalls(
    const FunctionDecl *F, llvm::ArrayRef<CompileTarget> Targets) {
  llvm::SmallVector<WrapperFinding, 1> Findings;
  const Stmt *Body = F->getBody();
  const SourceManager &SM = Ctx.getSourceManager();
  if (!Body || Targets.empty())
    return Findings;
  FileID File;
  unsigned From = 0;
  llvm::StringRef Text = bodyText(Body, SM, File, From);
  // Most bodies name no wrapper: a test of the text before the file's
  // conditionals are read.
  if (!Text.contains("ptx::") && !Text.contains("tcgen05_") &&
      !Text.contains("warpgroup_") && !Text.contains("::fma("))
    return Findings;
  if (!fileText(File))
    return Findings;
  llvm::SmallVector<const CallExpr *, 8> Calls;
  collectCalls(Body, Calls);
  llvm::DenseSet<unsigned> Seen;
  for (const CallExpr *Call : Calls) {
    SourceLocation Loc = SM.getExpansionLoc(Call->getBeginLoc());
    if (!Seen.insert(Loc.getRawEncoding()).second)
      continue;
    if (std::optional<WrapperFinding> Fd = wrapperCall(F, Call, Targets))
      Findings.push_back(std::move(*Fd));
  }
  return Findings;
}

} // namespace cuda_tidy
