//===--- TextureObjectFix.cpp - Texture references to objects -------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/toolkit/TextureObjectFix.h"
#include "lib/toolkit/TextureFixSyntax.h"
#include "lib/ast/CudaAST.h"
#include "lib/ast/FixItHelpers.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/EquivalenceClasses.h"

using namespace clang;

namespace cuda_tidy {

using namespace texfix;

namespace {

enum class UseKind { Read, Bind, Unbind, OtherApi };


/// What one reference's analysis found.
struct RefPlan {
  const VarDecl *Var = nullptr;
  bool IsSurface = false;
  Rewrite Fix;
  llvm::SmallVector<size_t, 8> FunctionUses;
  /// The element type as the fix spells it, and what a read returns.
  std::string Element, Texel;
  unsigned Dim = 0;
  bool Normalized = false;
  /// Settings in the order they apply: declaration, then assignments.
  llvm::SmallVector<std::pair<std::string, std::string>, 8> Settings;
  llvm::SmallVector<const Stmt *, 4> SettingStatements;
  /// The channel format the declaration gives, if any.
  std::string DeclDesc;
  const FunctionUse *Bind = nullptr;
  std::optional<size_t> BindUse;
  const FunctionUse *Unbind = nullptr;
  llvm::SmallVector<const FunctionUse *, 4> Reads;
  /// The kernels that read it (patterns), in order of first read.
  llvm::SmallVector<const FunctionDecl *, 2> Kernels;
  /// A binding that writes its offset to a local the program never reads
  /// (`size_t offset; cudaBindTexture(&offset, ...)`): the local, and its
  /// declaration when it declares nothing else. The rewrite then assumes an
  /// aligned pointer and goes on a note.
  const VarDecl *UnreadOffset = nullptr;
  const DeclStmt *UnreadOffsetDecl = nullptr;
  /// Nothing refers to it.
  bool Unused = false;
};

class Planner {
public:
  Planner(const RemovedApiUses &Uses, ASTContext &Ctx)
      : Uses(Uses), Ctx(Ctx), SM(Ctx.getSourceManager()) {
    for (size_t I = 0; I != Uses.Functions.size(); ++I)
      if (Uses.Functions[I].Call)
        CallIndex[Uses.Functions[I].Call] = I;
  }

  std::vector<TexturePlan> run();

private:
  void analyse(RefPlan &P);
  void analyseDeclaration(RefPlan &P);
  void analyseUses(RefPlan &P);
  void analyseBind(RefPlan &P);
  void analyseKernels(RefPlan &P);
  bool checkKernel(const FunctionDecl *K, StringRef Name, Rewrite &Fix);
  std::string descriptorText(const RefPlan &P, const std::string &ResName,
                             const std::string &TexName,
                             const std::string &Indent);
  void addEdits(RefPlan &P, Rewrite &Out);

  /// In the main file, or in a `.cu` file it includes (old code often
  /// includes its kernels' `.cu` file into the host code's): files of this
  /// translation unit that no other includes by convention.
  bool inMainFile(SourceLocation L) const {
    if (L.isInvalid())
      return false;
    SourceLocation E = SM.getExpansionLoc(L);
    if (SM.isInMainFile(E))
      return true;
    if (SM.isInSystemHeader(E))
      return false;
    OptionalFileEntryRef File = SM.getFileEntryRefForID(SM.getFileID(E));
    return File && File->getName().ends_with(".cu");
  }

  const RemovedApiUses &Uses;
  ASTContext &Ctx;
  const SourceManager &SM;
  llvm::DenseMap<const CallExpr *, size_t> CallIndex;
};

void Planner::analyseDeclaration(RefPlan &P) {
  const VarDecl *Var = P.Var;
  if (!inMainFile(Var->getLocation()) || !Var->getLocation().isFileID()) {
    P.Fix.fail("it is declared in a header or a macro; the files that "
               "include it would all have to change together");
    return;
  }
  if (Var->getStorageClass() == SC_Extern) {
    P.Fix.fail("it is declared 'extern'");
    return;
  }
  std::optional<Token> Next =
      Lexer::findNextToken(Var->getEndLoc(), SM, Ctx.getLangOpts());
  if (!Next || !Next->is(tok::semi)) {
    P.Fix.fail("it is declared together with other variables");
    return;
  }
  const auto *Spec = cast<ClassTemplateSpecializationDecl>(
      Var->getType().getCanonicalType()->getAsCXXRecordDecl());
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() != 3 || Args[0].getKind() != TemplateArgument::Type ||
      Args[1].getKind() != TemplateArgument::Integral ||
      Args[2].getKind() != TemplateArgument::Integral) {
    P.Fix.fail("its template arguments are not understood");
    return;
  }
  QualType Element = Args[0].getAsType();
  PrintingPolicy Policy = Ctx.getPrintingPolicy();
  Policy.SuppressTagKeyword = true;
  P.Element = Element.getAsString(Policy);
  P.Dim = Args[1].getAsIntegral().getZExtValue();
  P.Normalized = Args[2].getAsIntegral().getZExtValue() != 0;
  if (!llvm::is_contained({1u, 2u, 3u, 0x0Cu, 0xF1u, 0xF2u}, P.Dim)) {
    P.Fix.fail("its texture type is not one the fix handles");
    return;
  }
  if (P.Normalized) {
    unsigned N = normalizedComponents(Element);
    if (N == 0) {
      P.Fix.fail("its element type '" + P.Element +
                 "' cannot be read as normalized floats");
      return;
    }
    P.Texel = N == 1 ? "float" : "float" + std::to_string(N);
  } else {
    P.Texel = P.Element;
  }
  // Defaults of a texture reference, then its constructor's arguments.
  for (const char *A : {"addressMode[0]", "addressMode[1]", "addressMode[2]"})
    P.Settings.push_back({A, "cudaAddressModeClamp"});
  P.Settings.push_back({"filterMode", "cudaFilterModePoint"});
  P.Settings.push_back({"normalizedCoords", "0"});
  if (const auto *Construct =
          dyn_cast_or_null<CXXConstructExpr>(Var->getInit())) {
    for (unsigned I = 0; I < Construct->getNumArgs(); ++I) {
      const Expr *Arg = Construct->getArg(I);
      if (isa<CXXDefaultArgExpr>(Arg))
        continue;
      std::optional<std::string> Text =
          writtenText(Arg->getSourceRange(), Ctx);
      if (!Text || Arg->HasSideEffects(Ctx) ||
          (I < 3 && !Arg->isEvaluatable(Ctx))) {
        P.Fix.fail("its constructor's arguments are not constants written "
                   "outside macros");
        return;
      }
      if (I == 0)
        P.Settings.push_back({"normalizedCoords", *Text});
      else if (I == 1)
        P.Settings.push_back({"filterMode", *Text});
      else if (I == 2)
        for (const char *A :
             {"addressMode[0]", "addressMode[1]", "addressMode[2]"})
          P.Settings.push_back({A, *Text});
      else
        P.DeclDesc = *Text;
    }
  } else if (Var->getInit()) {
    P.Fix.fail("it is initialised");
  }
}

void Planner::analyseUses(RefPlan &P) {
  static const llvm::SmallVector<VarUse, 8> None;
  auto Refs = Uses.VarRefs.find(P.Var);
  llvm::SmallVector<Setting, 4> Settings;
  for (const VarUse &U : Refs == Uses.VarRefs.end() ? None : Refs->second) {
    bool AddressTaken = false;
    unsigned Index = 0;
    if (const CallExpr *Call = argumentOf(U, AddressTaken, Index)) {
      auto It = CallIndex.find(Call);
      if (It != CallIndex.end() &&
          isTextureFunction(Uses.Functions[It->second].Api)) {
        const FunctionUse &F = Uses.Functions[It->second];
        if (!llvm::is_contained(P.FunctionUses, It->second))
          P.FunctionUses.push_back(It->second);
        StringRef N = F.Api->Name;
        if (F.Api->Kind == ApiKind::DeviceFunction && !P.IsSurface &&
            Index == 0 && !AddressTaken)
          P.Reads.push_back(&F);
        else if (N == "cudaBindTexture" || N == "cudaBindTexture2D" ||
                 N == "cudaBindTextureToArray") {
          if (P.Bind)
            P.Fix.fail("it is bound more than once; create one texture "
                       "object per binding and pass the one each launch "
                       "needs",
                       F.NameLoc);
          P.Bind = &F;
          P.BindUse = It->second;
        } else if (N == "cudaUnbindTexture") {
          if (P.Unbind)
            P.Fix.fail("it is unbound more than once; destroy the texture "
                       "object once",
                       F.NameLoc);
          P.Unbind = &F;
        } else {
          P.Fix.fail("'" + N.str() + "' has no texture object form the fix "
                     "writes",
                     F.NameLoc);
        }
        continue;
      }
    }
    std::string WhyNot;
    if (std::optional<Setting> S = settingOf(U, Ctx, WhyNot)) {
      Settings.push_back(*S);
      continue;
    }
    P.Fix.fail(WhyNot.empty()
                   ? "it is used other than by the texture functions"
                   : WhyNot,
               U.Ref->getLocation());
  }
  if (P.IsSurface || !P.Fix.ok())
    return;
  if (Refs == Uses.VarRefs.end()) {
    // Nothing in the translation unit refers to it: the declaration goes.
    P.Unused = true;
    return;
  }
  if (!P.Bind) {
    P.Fix.fail("it is not bound in this file");
    return;
  }
  if (P.Reads.empty()) {
    P.Fix.fail("no kernel in this file reads it");
    return;
  }
  // Assignments apply in order, before the binding, in its block.
  auto [BindStmt, BindBlock] = P.Bind->Context.statementInBlock(P.Bind->Call);
  for (const Setting &S : Settings) {
    if (S.Block != BindBlock || !BindStmt ||
        !SM.isBeforeInTranslationUnit(S.Statement->getEndLoc(),
                                      BindStmt->getBeginLoc())) {
      P.Fix.fail("'" + P.Var->getName().str() + "." + S.Field +
                     "' is set other than in the block of the binding, "
                     "before it",
                 S.Statement->getBeginLoc());
      return;
    }
    P.Settings.push_back({S.Field, S.Value});
    P.SettingStatements.push_back(S.Statement);
  }
}

void Planner::analyseBind(RefPlan &P) {
  const FunctionUse &B = *P.Bind;
  const CallExpr *Call = B.Call;
  if (!B.Context.Function || isDeviceCode(B.Context.Function) ||
      !inMainFile(Call->getBeginLoc())) {
    P.Fix.fail("it is bound outside the host code of this file",
               B.NameLoc);
    return;
  }
  auto [S, Block] = B.Context.statementInBlock(Call);
  if (!S || !bindStatementIsSimple(Call, S, B.Context, Ctx) ||
      statementBegin(S, Ctx).isInvalid()) {
    P.Fix.fail("the binding is not a statement of a block (or part of one "
               "whose other parts have side effects)",
               B.NameLoc);
    return;
  }
  if (!replaceCall(Call, B.Api->Name, "cudaCreateTextureObject", Ctx)) {
    P.Fix.fail("the binding is written in a macro", B.NameLoc);
    return;
  }
  for (const Stmt *Setting : P.SettingStatements)
    if (!removeStatement(Setting, Ctx)) {
      P.Fix.fail("a setting is written in a macro", Setting->getBeginLoc());
      return;
    }
  if (P.Unbind) {
    const FunctionUse &U = *P.Unbind;
    if (!U.Context.Function || isDeviceCode(U.Context.Function) ||
        !replaceCall(U.Call, U.Api->Name, "cudaDestroyTextureObject", Ctx)) {
      P.Fix.fail("the unbinding is not host code written outside macros",
                 U.NameLoc);
      return;
    }
    if (const Stmt *Loop = B.Context.innermostLoop();
        Loop && !U.Context.isInside(Loop)) {
      P.Fix.fail("it is bound in a loop and unbound after it; each pass "
                 "would create a texture object",
                 U.NameLoc);
      return;
    }
  }
}

bool Planner::checkKernel(const FunctionDecl *K, StringRef Name,
                          Rewrite &Fix) {
  std::string KName = K->getNameAsString();
  for (const FunctionDecl *D : K->redecls()) {
    if (!inMainFile(D->getLocation()))
      return Fix.fail("kernel '" + KName + "' is declared in a header",
                      D->getLocation());
    FunctionTypeLoc FTL = D->getFunctionTypeLoc();
    if (!FTL || !FTL.getRParenLoc().isFileID())
      return Fix.fail("the parameter list of kernel '" + KName +
                          "' is written in a macro",
                      D->getLocation());
    if (D->isVariadic())
      return Fix.fail("kernel '" + KName + "' is variadic", D->getLocation());
    for (const ParmVarDecl *Param : D->parameters()) {
      if (Param->hasDefaultArg())
        return Fix.fail("kernel '" + KName +
                            "' has default arguments; the texture object "
                            "would have to follow them",
                        Param->getLocation());
      if (Param->getIdentifier() && Param->getName() == Name)
        return Fix.fail("kernel '" + KName + "' already has a parameter "
                        "named '" + Name.str() + "'",
                        Param->getLocation());
    }
  }
  if (const FunctionDecl *Def = K->getDefinition();
      Def && declaresName(Def, Name))
    return Fix.fail("kernel '" + KName + "' declares its own '" + Name.str() +
                        "', which would hide the texture object",
                    Def->getLocation());
  for (const KernelRefUse &R : Uses.KernelRefs) {
    if (R.Kernel != K)
      continue;
    const CallExpr *Call = nullptr;
    for (const Stmt *A : R.Context.Ancestors) {
      if (isa<ImplicitCastExpr, ParenExpr, CStyleCastExpr,
              CXXReinterpretCastExpr, UnaryOperator>(A))
        continue;
      Call = dyn_cast<CallExpr>(A);
      break;
    }
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    StringRef CalleeName =
        Callee && Callee->getIdentifier() ? Callee->getName() : "";
    if (!CalleeName.starts_with("cudaFunc") &&
        !CalleeName.starts_with("cudaOccupancy"))
      return Fix.fail("kernel '" + KName + "' is referred to other than by "
                      "launches; the texture object would have to be passed "
                      "there too",
                      R.Ref->getExprLoc());
  }
  for (const LaunchUse &L : Uses.Launches) {
    if (L.Kernel != K)
      continue;
    SourceLocation At = L.Call->getBeginLoc();
    if (!inMainFile(At) || !L.Call->getRParenLoc().isFileID())
      return Fix.fail("kernel '" + KName + "' is launched in a macro or "
                      "another file",
                      At);
    if (!L.Context.Function || isDeviceCode(L.Context.Function))
      return Fix.fail("kernel '" + KName + "' is launched from device code",
                      At);
    if (declaresName(L.Context.Function, Name))
      return Fix.fail("'" + L.Context.Function->getNameAsString() +
                          "' declares its own '" + Name.str() +
                          "', which would hide the texture object at the "
                          "launch",
                      At);
  }
  return true;
}

void Planner::analyseKernels(RefPlan &P) {
  for (const FunctionUse *Read : P.Reads) {
    const FunctionDecl *F = Read->Context.Function;
    if (!F || !isKernel(F)) {
      P.Fix.fail(F ? "it is read in device function '" +
                         F->getNameAsString() +
                         "'; pass the texture object to it as a parameter"
                   : "it is read outside a function",
                 Read->NameLoc);
      return;
    }
    if (!inMainFile(Read->NameLoc)) {
      P.Fix.fail("it is read in a header; the files that include it would "
                 "all have to change together",
                 Read->NameLoc);
      return;
    }
    if (writtenRange(SourceRange(Read->NameLoc), Ctx).isInvalid()) {
      P.Fix.fail("the read is written in a macro", Read->NameLoc);
      return;
    }
    const FunctionDecl *K = patternOf(F);
    if (!llvm::is_contained(P.Kernels, K))
      P.Kernels.push_back(K);
  }
  StringRef Name = P.Var->getName();
  for (const FunctionDecl *K : P.Kernels) {
    if (!checkKernel(K, Name, P.Fix))
      return;
    for (const LaunchUse &L : Uses.Launches) {
      if (L.Kernel != K)
        continue;
      if (!SM.isBeforeInTranslationUnit(P.Var->getLocation(),
                                        L.Call->getBeginLoc()))
        return (void)P.Fix.fail("kernel '" + K->getNameAsString() +
                                    "' is launched before the reference is "
                                    "declared",
                                L.Call->getBeginLoc());
    }
  }
}

std::string Planner::descriptorText(const RefPlan &P,
                                    const std::string &ResName,
                                    const std::string &TexName,
                                    const std::string &Indent) {
  const CallExpr *Call = P.Bind->Call;
  const FunctionDecl *Callee = Call->getDirectCallee();
  StringRef Name = P.Bind->Api->Name;
  bool CForm = Callee && Callee->isExternC();
  std::string Text;
  auto Line = [&](const std::string &S) { Text += S + ";\n" + Indent; };
  // Declarations a goto or case label may jump past get no initialiser.
  bool Jumps = hasJumps(P.Bind->Context.Function);
  auto Declare = [&](StringRef Type, const std::string &Name) {
    if (Jumps) {
      Line(Type.str() + " " + Name);
      Line(Name + " = {}");
    } else {
      Line(Type.str() + " " + Name + " = {}");
    }
  };
  // The channel format: an explicit argument, the declaration's, or the
  // element type's.
  auto Desc = [&](unsigned I, std::string &Out) {
    if (isChannelDescParam(Callee, I)) {
      std::optional<std::string> T = argText(Call, I, Ctx);
      if (!T)
        return false;
      if (CForm) {
        const auto *Addr =
            dyn_cast<UnaryOperator>(Call->getArg(I)->IgnoreParenImpCasts());
        std::optional<std::string> Inner =
            Addr && Addr->getOpcode() == UO_AddrOf
                ? writtenText(Addr->getSubExpr()->getSourceRange(), Ctx)
                : std::nullopt;
        Out = Inner ? *Inner : "*(" + *T + ")";
      } else {
        Out = *T;
      }
      return true;
    }
    Out = P.DeclDesc.empty() ? "cudaCreateChannelDesc<" + P.Element + ">()"
                             : P.DeclDesc;
    return true;
  };
  auto Pointer = [&](unsigned I, std::string &Out) {
    std::optional<std::string> T = argText(Call, I, Ctx);
    if (!T)
      return false;
    QualType Ty = Call->getArg(I)->IgnoreParenImpCasts()->getType();
    if (Ty->isPointerType() && Ty->getPointeeType().isConstQualified())
      Out = "(void *)(" + *T + ")";
    else
      Out = *T;
    return true;
  };
  Declare("cudaResourceDesc", ResName);
  if (Name == "cudaBindTextureToArray") {
    std::optional<std::string> Array = argText(Call, 1, Ctx);
    if (!Array)
      return "";
    QualType Ty = Call->getArg(1)->IgnoreParenImpCasts()->getType();
    if (Ty->isPointerType() && Ty->getPointeeType().isConstQualified())
      *Array = "const_cast<cudaArray_t>(" + *Array + ")";
    Line(ResName + ".resType = cudaResourceTypeArray");
    Line(ResName + ".res.array.array = " + *Array);
  } else {
    bool HasDesc = isChannelDescParam(Callee, 3);
    std::string Ptr, DescText;
    if (!Pointer(2, Ptr) || !Desc(3, DescText))
      return "";
    unsigned First = HasDesc ? 4 : 3;
    if (Name == "cudaBindTexture") {
      std::optional<std::string> Size = argText(Call, First, Ctx);
      if (!Size)
        return "";
      Line(ResName + ".resType = cudaResourceTypeLinear");
      Line(ResName + ".res.linear.devPtr = " + Ptr);
      Line(ResName + ".res.linear.desc = " + DescText);
      Line(ResName + ".res.linear.sizeInBytes = " + *Size);
    } else {
      std::optional<std::string> W = argText(Call, First, Ctx),
                                 H = argText(Call, First + 1, Ctx),
                                 Pitch = argText(Call, First + 2, Ctx);
      if (!W || !H || !Pitch)
        return "";
      Line(ResName + ".resType = cudaResourceTypePitch2D");
      Line(ResName + ".res.pitch2D.devPtr = " + Ptr);
      Line(ResName + ".res.pitch2D.desc = " + DescText);
      Line(ResName + ".res.pitch2D.width = " + *W);
      Line(ResName + ".res.pitch2D.height = " + *H);
      Line(ResName + ".res.pitch2D.pitchInBytes = " + *Pitch);
    }
  }
  Declare("cudaTextureDesc", TexName);
  // The last assignment of each field wins.
  llvm::SmallVector<std::pair<std::string, std::string>, 8> Final;
  for (const auto &S : P.Settings) {
    auto It = llvm::find_if(Final, [&](const auto &F) {
      return F.first == S.first;
    });
    if (It != Final.end())
      It->second = S.second;
    else
      Final.push_back(S);
  }
  Final.push_back({"readMode", P.Normalized ? "cudaReadModeNormalizedFloat"
                                            : "cudaReadModeElementType"});
  // The usual fields first, in the order the descriptor declares them.
  llvm::SmallVector<std::pair<std::string, std::string>, 8> Ordered;
  for (StringRef F : {"addressMode[0]", "addressMode[1]", "addressMode[2]",
                      "filterMode", "readMode", "normalizedCoords"})
    for (const auto &S : Final)
      if (S.first == F)
        Ordered.push_back(S);
  for (const auto &S : Final)
    if (!llvm::is_contained(Ordered, S))
      Ordered.push_back(S);
  for (const auto &[Field, Value] : Ordered)
    Line(TexName + "." + Field + " = " + Value);
  return Text;
}

void Planner::analyse(RefPlan &P) {
  if (P.IsSurface) {
    P.Fix.fail("surface references are not rewritten; create a surface "
               "object with 'cudaCreateSurfaceObject' where the reference is "
               "bound, pass it to the kernels, and read and write through it");
    analyseUses(P);
    return;
  }
  analyseDeclaration(P);
  analyseUses(P);
  if (!P.Fix.ok() || P.Unused)
    return;
  analyseBind(P);
  if (!P.Fix.ok())
    return;
  analyseKernels(P);
  if (!P.Fix.ok())
    return;
  // Bind offsets and sizes.
  const CallExpr *Call = P.Bind->Call;
  StringRef Name = P.Bind->Api->Name;
  if (Name != "cudaBindTextureToArray" &&
      !isNullPointerConstant(Call->getArg(0), Ctx)) {
    P.UnreadOffset = unreadOffset(Call->getArg(0), P.Bind->Context.Function,
                                  P.UnreadOffsetDecl, Ctx);
    if (!P.UnreadOffset) {
      P.Fix.fail("the binding asks for an offset; a texture object needs "
                 "memory aligned to 'textureAlignment' and has no offset",
                 P.Bind->NameLoc);
      return;
    }
  }
  if (Name == "cudaBindTexture") {
    unsigned SizeArg = isChannelDescParam(Call->getDirectCallee(), 3) ? 4 : 3;
    if (SizeArg >= Call->getNumArgs() ||
        isa<CXXDefaultArgExpr>(Call->getArg(SizeArg))) {
      P.Fix.fail("the binding gives no size; 'sizeInBytes' of the texture "
                 "object must be the size of the bound memory",
                 P.Bind->NameLoc);
      return;
    }
  }
  if (descriptorText(P, "r", "t", "").empty())
    P.Fix.fail("the binding's arguments have side effects or are written "
               "in a macro",
               P.Bind->NameLoc);
}

void Planner::addEdits(RefPlan &P, Rewrite &Out) {
  const VarDecl *Var = P.Var;
  std::string Name = Var->getName().str();
  // The declaration.
  SourceLocation TypeBegin =
      Var->getTypeSourceInfo()->getTypeLoc().getBeginLoc();
  CharSourceRange Decl =
      writtenRange(SourceRange(TypeBegin, Var->getEndLoc()), Ctx);
  if (Decl.isInvalid()) {
    Out.fail("the declaration of '" + Name + "' is written in a macro",
             Var->getLocation());
    return;
  }
  std::string Static = Var->getStorageClass() == SC_Static ? "" : "static ";
  Out.Edits.push_back(FixItHint::CreateReplacement(
      Decl, Static + "cudaTextureObject_t " + Name + " = 0"));

  // The binding: descriptors before its statement, the object created in
  // its place.
  const FunctionUse &B = *P.Bind;
  auto [S, Block] = B.Context.statementInBlock(B.Call);
  std::string Res = Name + "Res", Tex = Name + "Desc";
  for (unsigned N = 2; !isNameFree(Res, B.Context.Function, Ctx) ||
                       !isNameFree(Tex, B.Context.Function, Ctx);
       ++N) {
    Res = Name + "Res" + std::to_string(N);
    Tex = Name + "Desc" + std::to_string(N);
  }
  SourceLocation Begin = statementBegin(S, Ctx);
  std::string Indent = lineIndentOf(Begin, SM).Indent.str();
  Out.Edits.push_back(FixItHint::CreateInsertion(
      Begin, descriptorText(P, Res, Tex, Indent)));
  Out.Edits.push_back(*replaceCall(B.Call, B.Api->Name,
                                   "cudaCreateTextureObject(&" + Name + ", &" +
                                       Res + ", &" + Tex + ", nullptr)",
                                   Ctx));
  for (const Stmt *Setting : P.SettingStatements)
    Out.Edits.push_back(*removeStatement(Setting, Ctx));
  if (P.UnreadOffsetDecl)
    if (std::optional<FixItHint> H = removeStatement(P.UnreadOffsetDecl, Ctx))
      Out.Edits.push_back(*H);
  if (P.Unbind)
    Out.Edits.push_back(*replaceCall(P.Unbind->Call, P.Unbind->Api->Name,
                                     "cudaDestroyTextureObject(" + Name + ")",
                                     Ctx));
  // The reads: the object forms are templates on the texel type.
  for (const FunctionUse *Read : P.Reads)
    Out.Edits.push_back(FixItHint::CreateInsertion(
        writtenRange(SourceRange(Read->NameLoc), Ctx).getEnd(),
        "<" + P.Texel + ">"));
}

std::vector<TexturePlan> Planner::run() {
  std::vector<RefPlan> Refs(Uses.TextureRefs.size());
  for (size_t I = 0; I != Refs.size(); ++I) {
    Refs[I].Var = Uses.TextureRefs[I];
    isTextureReferenceType(Refs[I].Var->getType(), &Refs[I].IsSurface);
    analyse(Refs[I]);
  }

  // References that share a kernel are rewritten together.
  llvm::EquivalenceClasses<size_t> Groups;
  for (size_t I = 0; I != Refs.size(); ++I) {
    Groups.insert(I);
    for (size_t J = 0; J != I; ++J)
      if (llvm::any_of(Refs[I].Kernels, [&](const FunctionDecl *K) {
            return llvm::is_contained(Refs[J].Kernels, K);
          }))
        Groups.unionSets(I, J);
  }

  std::vector<TexturePlan> Out(Refs.size());
  for (size_t I = 0; I != Refs.size(); ++I) {
    Out[I].Var = Refs[I].Var;
    Out[I].IsSurface = Refs[I].IsSurface;
    Out[I].FunctionUses = Refs[I].FunctionUses;
    Out[I].BindUse = Refs[I].BindUse;
  }
  for (auto It = Groups.begin(); It != Groups.end(); ++It) {
    if (!(*It)->isLeader())
      continue;
    llvm::SmallVector<size_t, 4> Members(Groups.member_begin(**It),
                                         Groups.member_end());
    llvm::sort(Members);
    size_t Leader = Members.front();
    Rewrite Fix;
    for (size_t M : Members)
      if (!Refs[M].Fix.ok()) {
        Fix = Refs[M].Fix;
        if (M != Members.front() || Members.size() > 1)
          Fix.WhyNot = Members.size() > 1 && M != Leader
                           ? "texture reference '" +
                                 Refs[M].Var->getName().str() +
                                 "', read by the same kernel, cannot be "
                                 "rewritten: " + Fix.WhyNot
                           : Fix.WhyNot;
        break;
      }
    if (Fix.ok() && Refs[Leader].Unused) {
      // Alone in its group: it has no kernels.
      if (std::optional<FixItHint> H = removeDeclaration(Refs[Leader].Var, Ctx))
        Fix.Edits.push_back(*H);
      else
        Fix.fail("it is not used; remove its declaration");
    } else if (Fix.ok()) {
      for (size_t M : Members)
        addEdits(Refs[M], Fix);
      // Kernel parameters and launch arguments, one per reference, in the
      // order the references are declared.
      llvm::SmallVector<const FunctionDecl *, 4> Kernels;
      for (size_t M : Members)
        for (const FunctionDecl *K : Refs[M].Kernels)
          if (!llvm::is_contained(Kernels, K))
            Kernels.push_back(K);
      for (const FunctionDecl *K : Kernels) {
        std::string Params, Args;
        for (size_t M : Members)
          if (llvm::is_contained(Refs[M].Kernels, K)) {
            std::string N = Refs[M].Var->getName().str();
            Params += (Params.empty() ? "" : ", ") +
                      std::string("cudaTextureObject_t ") + N;
            Args += (Args.empty() ? "" : ", ") + N;
          }
        for (const FunctionDecl *D : K->redecls()) {
          FunctionTypeLoc FTL = D->getFunctionTypeLoc();
          if (D->getNumParams() == 0) {
            // `(void)` becomes the parameter; `()` gets it.
            CharSourceRange Inside = CharSourceRange::getCharRange(
                FTL.getLParenLoc().getLocWithOffset(1), FTL.getRParenLoc());
            StringRef Written =
                Lexer::getSourceText(Inside, SM, Ctx.getLangOpts()).trim();
            Fix.Edits.push_back(
                Written == "void"
                    ? FixItHint::CreateReplacement(Inside, Params)
                    : FixItHint::CreateInsertion(FTL.getRParenLoc(), Params));
          } else {
            Fix.Edits.push_back(
                FixItHint::CreateInsertion(FTL.getRParenLoc(), ", " + Params));
          }
        }
        for (const LaunchUse &L : Uses.Launches)
          if (L.Kernel == K)
            Fix.Edits.push_back(FixItHint::CreateInsertion(
                L.Call->getRParenLoc(),
                (L.Call->getNumArgs() ? ", " : "") + Args));
      }
    }
    // A binding whose offset the program never reads: the rewrite is right
    // when the memory is aligned (the offset is then 0), which the check
    // cannot prove; it goes on a note, held by the leader only.
    auto Offset = llvm::find_if(
        Members, [&](size_t M) { return Refs[M].UnreadOffset != nullptr; });
    if (Fix.ok() && Offset != Members.end()) {
      const RefPlan &O = Refs[*Offset];
      Fix.NoteEdits.assign(Fix.Edits.begin(), Fix.Edits.end());
      Fix.Edits.clear();
      Fix.NoteText =
          "if the bound memory is aligned to 'textureAlignment' (memory from "
          "'cudaMalloc' is), the offset is 0 and the texture object reads "
          "the same texels";
      Fix.fail("the binding asks for an offset; a texture object needs "
               "memory aligned to 'textureAlignment' and has no offset",
               O.Bind->NameLoc);
      for (size_t M : Members) {
        Out[M].Fix = Fix;
        if (M != Leader)
          Out[M].Fix.NoteEdits.clear();
      }
      continue;
    }
    for (size_t M : Members) {
      if (!Fix.ok()) {
        Out[M].Fix = Fix;
        continue;
      }
      Out[M].FixedWith = Refs[Leader].Var;
      if (M == Leader)
        Out[M].Fix = Fix;
    }
  }
  return Out;
}

} // namespace

std::vector<TexturePlan> planTextureObjectFixes(const RemovedApiUses &Uses,
                                                ASTContext &Ctx) {
  return Planner(Uses, Ctx).run();
}

} // namespace cuda_tidy
