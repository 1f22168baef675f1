//===--- FieldWrites.cpp - Records filled field by field ------------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// FieldWrites and HelperSummaries (lib/launch/ConstantEval.h): the writes to
// the fields of local records such as `cudaLaunchConfig_t`, the helpers that
// write through their parameters or return a record, and the uses that make
// a variable escape.
//
//===----------------------------------------------------------------------===//

#include "lib/launch/BodyWalk.h"
#include "lib/launch/ConstantEval.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace cuda_tidy {

//===----------------------------------------------------------------------===//
// FieldWrites
//===----------------------------------------------------------------------===//

static bool isLaunchConfigCallee(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier())
    return false;
  return llvm::StringSwitch<bool>(FD->getName())
      .Cases({"cudaLaunchKernelEx", "cudaLaunchKernelExC"}, true)
      .Cases({"cuLaunchKernelEx", "cuLaunchKernelEx_ptsz"}, true)
      .Case("cudaLaunchKernelExC_ptsz", true)
      .Default(false);
}

const VarDecl *FieldWrites::accessPath(const Expr *E, ConstantEvaluator &Eval,
                                       std::string &Path) {
  E = E->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (ME->isArrow() || !isa<FieldDecl>(ME->getMemberDecl()) ||
        !ME->getMemberDecl()->getIdentifier())
      return nullptr;
    const VarDecl *VD = accessPath(ME->getBase(), Eval, Path);
    if (VD)
      Path += "." + ME->getMemberDecl()->getName().str();
    return VD;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    std::optional<uint64_t> Index = Eval.evaluateInt(ASE->getIdx());
    if (!Index)
      return nullptr;
    const VarDecl *VD = accessPath(ASE->getBase(), Eval, Path);
    if (VD)
      Path += "[" + std::to_string(*Index) + "]";
    return VD;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
        !VD->getType()->isReferenceType())
      return VD;
  }
  return nullptr;
}

/// The helper (a user function with a body) that a call reaches, or null.
static const FunctionDecl *helperOf(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || isa<CXXMethodDecl>(FD) || !FD->hasBody() ||
      isLaunchConfigCallee(Call))
    return nullptr;
  const FunctionDecl *Def = nullptr;
  FD->getBody(Def);
  if (!Def || Def->isDependentContext() ||
      FD->getASTContext().getSourceManager().isInSystemHeader(
          Def->getLocation()))
    return nullptr;
  return Def;
}

/// The argument E, given to parameter P by pointer (`&x.f`) or by reference
/// (`x.f`): the lvalue it designates, or null.
static const Expr *designatedLValue(const Expr *E, const ParmVarDecl *P) {
  E = E->IgnoreParenImpCasts();
  QualType T = P->getType();
  if (T->isPointerType()) {
    const auto *UO = dyn_cast<UnaryOperator>(E);
    if (!UO || UO->getOpcode() != UO_AddrOf)
      return nullptr;
    return UO->getSubExpr();
  }
  if (T->isLValueReferenceType() && !T.getNonReferenceType().isConstQualified())
    return E;
  return nullptr;
}

/// The outermost lvalue a use of a local record or array designates
/// (`attrs[0].val` for `attrs`), and that lvalue's parent in *Parent.
static const Expr *outermostLValue(const DeclRefExpr *DRE,
                                   const LocalParents &Index,
                                   DynTypedNode &Parent) {
  const Expr *Top = DRE;
  Parent = parentSkippingParens(Top, Index);
  while (true) {
    if (const auto *ME = Parent.get<MemberExpr>()) {
      if (ME->isArrow())
        break;
      Top = ME;
    } else if (const auto *Cast = Parent.get<ImplicitCastExpr>()) {
      if (Cast->getCastKind() != CK_ArrayToPointerDecay)
        break;
      const Expr *From = Cast;
      DynTypedNode P = parentSkippingParens(From, Index);
      const auto *ASE = P.get<ArraySubscriptExpr>();
      if (!ASE || ASE->getBase()->IgnoreParens() != Cast)
        break;
      Top = ASE;
    } else {
      break;
    }
    Parent = parentSkippingParens(Top, Index);
  }
  return Top;
}

/// Whether a field or element Top (whose parent is Parent) is used in a way
/// that lets the variable escape: its address passed or stored somewhere,
/// or given by non-const reference to a call that is not a covered helper.
static bool partEscapes(const Expr *Top, const DynTypedNode &Parent,
                        const llvm::DenseSet<const Expr *> &CoveredArgs) {
  if (const auto *UO = Parent.get<UnaryOperator>())
    if (UO->getOpcode() == UO_AddrOf && !CoveredArgs.count(UO) &&
        !isa<ArraySubscriptExpr>(Top))
      return true;
  const auto *Call = Parent.get<CallExpr>();
  if (!Call || Parent.get<CXXOperatorCallExpr>())
    return false;
  const FunctionDecl *Callee = Call->getDirectCallee();
  for (unsigned I = 0; I < Call->getNumArgs(); ++I)
    if (Call->getArg(I)->IgnoreParens() == Top && Callee &&
        I < Callee->getNumParams() &&
        Callee->getParamDecl(I)->getType()->isReferenceType() &&
        !Callee->getParamDecl(I)
             ->getType()
             .getNonReferenceType()
             .isConstQualified())
      return true;
  return false;
}

/// Whether From (an array decayed to a pointer, or `&var`) is stored in a
/// field: an aggregate initialiser (`{grid, block, 0, s, &attr, 1}`; a
/// designated one has a syntactic and a semantic parent) or an assignment
/// to a member (`config.attrs = attrs`).
static bool storedInField(const Expr *From, const LocalParents &Index) {
  DynTypedNode Up = Index.parent(*From);
  if (Up.get<InitListExpr>() || Up.get<DesignatedInitExpr>())
    return true;
  DynTypedNode P = parentSkippingParens(From, Index);
  while (const auto *Cast = P.get<ImplicitCastExpr>()) {
    From = Cast;
    P = parentSkippingParens(From, Index);
  }
  if (const auto *BO = P.get<BinaryOperator>())
    return BO->getOpcode() == BO_Assign && BO->getRHS() == From &&
           isa<MemberExpr>(BO->getLHS()->IgnoreParenImpCasts());
  return P.get<InitListExpr>() || P.get<DesignatedInitExpr>();
}

/// Whether a use of the whole variable (DRE, whose parent is Parent) keeps
/// it local: a sizeof, a copy out (returned, or copied into another
/// variable), the target of a whole-record assignment, a read, storing it
/// or its address in a field, passing its address to a covered helper or
/// as the configuration of a launch.
static bool
wholeUseStaysLocal(const DeclRefExpr *DRE, const DynTypedNode &Parent,
                   const LocalParents &Index,
                   const llvm::DenseSet<const Expr *> &CoveredArgs) {
  if (Parent.get<UnaryExprOrTypeTraitExpr>())
    return true;
  // Copied out whole: returned, or copied into another variable.
  {
    const Expr *Copy = DRE;
    DynTypedNode Up = Parent;
    while (true) {
      const Expr *Next = Up.get<ImplicitCastExpr>();
      if (!Next)
        if (const auto *CE = Up.get<CXXConstructExpr>())
          if (CE->getConstructor()->isCopyOrMoveConstructor())
            Next = CE;
      if (!Next)
        break;
      Copy = Next;
      Up = parentSkippingParens(Copy, Index);
    }
    if (Copy != DRE && (Up.get<ReturnStmt>() || Up.get<VarDecl>()))
      return true;
  }
  // The target of a whole-record assignment.
  if (const auto *BO = Parent.get<BinaryOperator>())
    if (BO->getOpcode() == BO_Assign && BO->getLHS()->IgnoreParens() == DRE)
      return true;
  if (const auto *OC = Parent.get<CXXOperatorCallExpr>())
    if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
        OC->getArg(0)->IgnoreParens() == DRE)
      return true;
  if (const auto *Cast = Parent.get<ImplicitCastExpr>()) {
    if (Cast->getCastKind() == CK_ArrayToPointerDecay &&
        storedInField(Cast, Index))
      return true;
    if (Cast->getCastKind() == CK_LValueToRValue)
      return true;
  }
  if (const auto *UO = Parent.get<UnaryOperator>()) {
    if (UO->getOpcode() == UO_AddrOf) {
      if (storedInField(UO, Index) || CoveredArgs.count(UO))
        return true;
      const Expr *From = UO;
      DynTypedNode P = parentSkippingParens(From, Index);
      while (const auto *Cast = P.get<ImplicitCastExpr>()) {
        From = Cast;
        P = parentSkippingParens(From, Index);
      }
      if (const auto *Call = P.get<CallExpr>())
        if (isLaunchConfigCallee(Call) && Call->getNumArgs() > 0 &&
            Call->getArg(0)->IgnoreParenImpCasts() == UO)
          return true;
    }
  }
  return false;
}

void FieldWrites::addHelperWrites(const Stmt *Body,
                                  llvm::DenseSet<const Expr *> &CoveredArgs) {
  forEachStmt(Body, [&](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    const FunctionDecl *Helper = helperOf(Call);
    if (!Helper)
      return;
    for (unsigned I = 0; I < Call->getNumArgs() && I < Helper->getNumParams();
         ++I) {
      const ParmVarDecl *P = Helper->getParamDecl(I);
      const Expr *Target = designatedLValue(Call->getArg(I), P);
      if (!Target)
        continue;
      std::string Prefix;
      const VarDecl *VD = accessPath(Target, Eval, Prefix);
      if (!VD)
        continue;
      const ParamWrites *PW = Eval.helpers().paramWrites(Helper, I);
      if (!PW || !PW->Covered)
        continue;
      CoveredArgs.insert(Call->getArg(I)->IgnoreParenImpCasts());
      for (const ParamWrites::Entry &E : PW->Writes) {
        Write W{VD, Prefix + E.Path, E.Value, Call->getBeginLoc(), {Call}};
        W.Through.append(E.Through.begin(), E.Through.end());
        Writes.push_back(std::move(W));
      }
    }
  });
}

FieldWrites::FieldWrites(const Stmt *Body, ASTContext &Ctx,
                         ConstantEvaluator &Eval)
    : Ctx(Ctx), Eval(Eval) {
  const LocalParents &Index = Eval.parentsIn(Body);
  // Calls of helpers that write through their parameters, and the uses of
  // variables that they account for.
  llvm::DenseSet<const Expr *> CoveredArgs;
  addHelperWrites(Body, CoveredArgs);

  auto Record = [&](const Expr *LHS, const Expr *RHS, SourceLocation Loc) {
    std::string Path;
    const VarDecl *VD = accessPath(LHS, Eval, Path);
    if (VD)
      Writes.push_back({VD, Path, RHS, Loc, {}});
  };
  forEachStmt(Body, [&](const Stmt *S) {
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->getOpcode() == BO_Assign)
        Record(BO->getLHS(), BO->getRHS(), BO->getOperatorLoc());
      return;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
      if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
        Record(OC->getArg(0), OC->getArg(1), OC->getOperatorLoc());
      return;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(S);
    if (!DRE)
      return;
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->hasLocalStorage() ||
        !(VD->getType()->isRecordType() || VD->getType()->isArrayType()))
      return;
    DynTypedNode Parent;
    const Expr *Top = outermostLValue(DRE, Index, Parent);
    if (CoveredArgs.count(Top))
      return;
    // A field or element: written, read, or handed to a call.
    bool Escapes = Top != DRE
                       ? partEscapes(Top, Parent, CoveredArgs)
                       : !wholeUseStaysLocal(DRE, Parent, Index, CoveredArgs);
    if (Escapes)
      Escaped[VD] = true;
  });
}

/// The initialiser of the field path Path inside Init, an aggregate
/// initialiser; *IsZero when it is implicitly zero.
static const Expr *initializerAt(const Expr *Init, StringRef Path,
                                 bool *IsZero) {
  while (!Path.empty()) {
    const auto *ILE =
        dyn_cast_or_null<InitListExpr>(Init ? Init->IgnoreImplicit() : nullptr);
    if (!ILE)
      return nullptr;
    if (ILE->isSyntacticForm() && ILE->getSemanticForm())
      ILE = ILE->getSemanticForm();
    unsigned Index = 0;
    if (Path.consume_front("[")) {
      size_t Close = Path.find(']');
      if (Close == StringRef::npos ||
          Path.substr(0, Close).getAsInteger(10, Index))
        return nullptr;
      Path = Path.drop_front(Close + 1);
      if (!ILE->getType()->isArrayType())
        return nullptr;
    } else if (Path.consume_front(".")) {
      size_t End = Path.find_first_of(".[");
      StringRef Name = Path.substr(0, End);
      Path = End == StringRef::npos ? StringRef() : Path.drop_front(End);
      const RecordDecl *RD = ILE->getType()->getAsRecordDecl();
      if (!RD)
        return nullptr;
      if (RD->isUnion()) {
        // Only the member the initialiser names has a value.
        const FieldDecl *F = ILE->getInitializedFieldInUnion();
        if (!F || !F->getIdentifier() || F->getName() != Name ||
            ILE->getNumInits() != 1)
          return nullptr;
        Init = ILE->getInit(0);
        continue;
      }
      bool Found = false;
      for (const FieldDecl *F : RD->fields()) {
        if (F->getIdentifier() && F->getName() == Name) {
          Index = F->getFieldIndex();
          Found = true;
          break;
        }
      }
      if (!Found)
        return nullptr;
    } else {
      return nullptr;
    }
    if (Index >= ILE->getNumInits()) {
      // Past the written initialisers: the array filler or zero.
      *IsZero = true;
      return nullptr;
    }
    Init = ILE->getInit(Index);
    if (isa<ImplicitValueInitExpr>(Init)) {
      *IsZero = true;
      return nullptr;
    }
  }
  return Init;
}

/// Whether Prefix is Path or a record containing it ("" contains all).
static bool isPathPrefix(StringRef Prefix, StringRef Path) {
  if (!Path.starts_with(Prefix))
    return false;
  return Path.size() == Prefix.size() || Path[Prefix.size()] == '.' ||
         Path[Prefix.size()] == '[';
}

FieldValue FieldWrites::resolve(const Expr *Value, StringRef Rest,
                                llvm::ArrayRef<const CallExpr *> Through,
                                unsigned Depth) const {
  FieldValue Out;
  Out.Through.assign(Through.begin(), Through.end());
  if (Rest.empty() || !Value) {
    Out.Value = Value;
    return Out;
  }
  if (Depth > 4)
    return FieldValue();
  // Strip copies and temporaries down to the record's source.
  const Expr *E = Value;
  while (true) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
      if (CE->getConstructor()->isCopyOrMoveConstructor() &&
          CE->getNumArgs() == 1) {
        E = CE->getArg(0);
        continue;
      }
    if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = FC->getSubExpr();
      continue;
    }
    break;
  }
  if (isa<InitListExpr>(E)) {
    Out.Value = initializerAt(E, Rest, &Out.IsZero);
    return Out;
  }
  // A record returned by value from a helper.
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Helper = helperOf(Call);
    SourceLocation At;
    const VarDecl *Local =
        Helper ? Eval.helpers().returnedLocal(Helper, &At) : nullptr;
    if (!Local)
      return FieldValue();
    const FieldWrites &Inner = Eval.helpers().writesOf(Helper);
    FieldValue V = Inner.fieldAt(Local, Rest, At);
    FieldValue Result;
    Result.Value = V.Value;
    Result.IsZero = V.IsZero;
    Result.Through.assign(Through.begin(), Through.end());
    Result.Through.push_back(Call);
    Result.Through.append(V.Through.begin(), V.Through.end());
    return Result;
  }
  return FieldValue();
}

FieldValue FieldWrites::fieldAt(const VarDecl *Var, StringRef Path,
                                SourceLocation Loc) const {
  if (!Var || escapes(Var))
    return FieldValue();
  const SourceManager &SM = Ctx.getSourceManager();
  const Write *Last = nullptr;
  for (const Write &W : Writes) {
    if (W.Var != Var || !isPathPrefix(W.Path, Path))
      continue;
    if (Loc.isValid() && !SM.isBeforeInTranslationUnit(W.Loc, Loc))
      continue;
    if (!Last || !SM.isBeforeInTranslationUnit(W.Loc, Last->Loc))
      Last = &W;
  }
  if (Last)
    return resolve(Last->Value, StringRef(Path).drop_front(Last->Path.size()),
                   Last->Through, 0);
  const Expr *Init = Var->getInit();
  if (!Init)
    return FieldValue();
  return resolve(Init, Path, {}, 0);
}

//===----------------------------------------------------------------------===//
// HelperSummaries
//===----------------------------------------------------------------------===//

const FieldWrites &HelperSummaries::writesOf(const FunctionDecl *FD) {
  std::unique_ptr<FieldWrites> &Slot = Writes[FD];
  if (!Slot)
    Slot = std::make_unique<FieldWrites>(FD->getBody(), Ctx, Eval);
  return *Slot;
}

/// The path of an lvalue based on parameter P (`p->a.b`, `(*p).a`, `p[0]`,
/// `r.a` for a reference), relative to the record P refers to.
static bool paramPath(const Expr *E, const ParmVarDecl *P,
                      ConstantEvaluator &Eval, std::string &Path) {
  E = E->IgnoreParenImpCasts();
  auto IsP = [&](const Expr *X) {
    const auto *DRE = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == P;
  };
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (!isa<FieldDecl>(ME->getMemberDecl()) ||
        !ME->getMemberDecl()->getIdentifier())
      return false;
    std::string Member = "." + ME->getMemberDecl()->getName().str();
    if (ME->isArrow()) {
      if (!IsP(ME->getBase()) || !P->getType()->isPointerType())
        return false;
      Path = Member;
      return true;
    }
    if (!paramPath(ME->getBase(), P, Eval, Path))
      return false;
    Path += Member;
    return true;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    std::optional<uint64_t> Index = Eval.evaluateInt(ASE->getIdx());
    if (!Index)
      return false;
    if (IsP(ASE->getBase()) && P->getType()->isPointerType()) {
      if (*Index != 0)
        return false;
      Path.clear();
      return true;
    }
    if (!paramPath(ASE->getBase(), P, Eval, Path))
      return false;
    Path += "[" + std::to_string(*Index) + "]";
    return true;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_Deref && IsP(UO->getSubExpr()) &&
        P->getType()->isPointerType()) {
      Path.clear();
      return true;
    }
  if (IsP(E) && P->getType()->isReferenceType()) {
    Path.clear();
    return true;
  }
  return false;
}

const FieldWrites::ParamWrites *
HelperSummaries::paramWrites(const FunctionDecl *FD, unsigned Index) {
  auto Key = std::make_pair(FD, Index);
  auto It = Params.find(Key);
  if (It != Params.end())
    return It->second.get(); // Null while being built: recursion.
  Params[Key] = nullptr;
  const ParmVarDecl *P = FD->getParamDecl(Index);
  QualType T = P->getType();
  if (!(T->isPointerType() || T->isLValueReferenceType()) ||
      !T->getPointeeType()->isRecordType() ||
      T->getPointeeType().isConstQualified())
    return nullptr;
  auto Summary = std::make_unique<FieldWrites::ParamWrites>();
  const Stmt *Body = FD->getBody();
  const LocalParents &Parents = Eval.parentsIn(Body);
  // The writes, and the uses of P that they (or reads) account for.
  llvm::DenseSet<const Stmt *> Accounted;
  forEachStmt(Body, [&](const Stmt *S) {
    const Expr *LHS = nullptr, *RHS = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->getOpcode() == BO_Assign) {
        LHS = BO->getLHS();
        RHS = BO->getRHS();
      }
    } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
      if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
        LHS = OC->getArg(0);
        RHS = OC->getArg(1);
      }
    } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      // P handed on to another helper.
      const FunctionDecl *Helper = helperOf(Call);
      for (unsigned I = 0; Helper && I < Call->getNumArgs() &&
                           I < Helper->getNumParams();
           ++I) {
        const Expr *Arg = Call->getArg(I)->IgnoreParenImpCasts();
        std::string Prefix;
        const Expr *Target = designatedLValue(Arg, Helper->getParamDecl(I));
        bool Passed = false;
        if (const auto *DRE = dyn_cast<DeclRefExpr>(Arg))
          if (DRE->getDecl() == P && T->isPointerType() &&
              Helper->getParamDecl(I)->getType()->isPointerType())
            Passed = true; // fill(c) with c a pointer: the whole record.
        if (!Passed && Target && paramPath(Target, P, Eval, Prefix))
          Passed = true;
        if (!Passed)
          continue;
        const FieldWrites::ParamWrites *Inner = paramWrites(Helper, I);
        if (!Inner || !Inner->Covered)
          return;
        Accounted.insert(Arg);
        for (const auto &E : Inner->Writes) {
          FieldWrites::ParamWrites::Entry Entry{Prefix + E.Path, E.Value,
                                                {Call}};
          Entry.Through.append(E.Through.begin(), E.Through.end());
          Summary->Writes.push_back(std::move(Entry));
        }
      }
    }
    std::string Path;
    if (LHS && paramPath(LHS, P, Eval, Path)) {
      Summary->Writes.push_back({Path, RHS, {}});
      Accounted.insert(LHS->IgnoreParenImpCasts());
    }
  });
  // Every other use of P must be a read of a field.
  forEachStmt(Body, [&](const Stmt *S) {
    const auto *DRE = dyn_cast<DeclRefExpr>(S);
    if (!Summary->Covered || !DRE || DRE->getDecl() != P)
      return;
    // Walk up to the outermost lvalue based on P.
    const Expr *Top = DRE;
    bool ThroughField = false;
    while (true) {
      const Expr *Up = Parents.parent(*Top).get<Expr>();
      if (!Up || !(isa<MemberExpr>(Up) || isa<ArraySubscriptExpr>(Up) ||
                   isa<ParenExpr>(Up) || isa<ImplicitCastExpr>(Up) ||
                   (isa<UnaryOperator>(Up) &&
                    cast<UnaryOperator>(Up)->getOpcode() == UO_Deref)))
        break;
      if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Up))
        if (Cast->getCastKind() == CK_LValueToRValue &&
            !isa<MemberExpr>(Top) && !isa<ArraySubscriptExpr>(Top) &&
            Top != DRE)
          break;
      Top = Up;
      if (!isa<ImplicitCastExpr>(Up) && !isa<ParenExpr>(Up))
        ThroughField = true;
      if (Accounted.count(Top->IgnoreParenImpCasts()))
        return;
    }
    if (Accounted.count(Top->IgnoreParenImpCasts()) || Accounted.count(DRE))
      return;
    // A read of a field: the lvalue is loaded.
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Top))
      if (Cast->getCastKind() == CK_LValueToRValue && ThroughField)
        return;
    Summary->Covered = false;
  });
  // Later writes to a path replace earlier ones (source order).
  FieldWrites::ParamWrites *Result = Summary.get();
  Params[Key] = std::move(Summary);
  return Result;
}

const VarDecl *HelperSummaries::returnedLocal(const FunctionDecl *FD,
                                              SourceLocation *At) {
  const VarDecl *Local = nullptr;
  bool Ok = true;
  forEachStmt(FD->getBody(), [&](const Stmt *S) {
    const auto *RS = dyn_cast<ReturnStmt>(S);
    if (!RS || !Ok)
      return;
    const Expr *V = RS->getRetValue();
    if (V)
      V = V->IgnoreImplicit()->IgnoreParenImpCasts();
    if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(V))
      if (CE->getConstructor()->isCopyOrMoveConstructor() &&
          CE->getNumArgs() == 1)
        V = CE->getArg(0)->IgnoreImplicit()->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast_or_null<DeclRefExpr>(V);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) ||
        (Local && Local != VD)) {
      Ok = false;
      return;
    }
    Local = VD;
    *At = RS->getBeginLoc();
  });
  return Ok ? Local : nullptr;
}

} // namespace cuda_tidy
