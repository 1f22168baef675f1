//===--- LaunchAttributes.cpp - The attribute array of a launch -----------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/launch/LaunchAttributes.h"
#include "lib/launch/LaunchCollect.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include <deque>
#include <string>

using namespace clang;

namespace cuda_tidy {

namespace launch_detail {

std::optional<uint64_t> intOf(const FieldValue &V, ConstantEvaluator &Eval) {
  if (V.IsZero)
    return 0;
  if (!V.Value)
    return std::nullopt;
  std::deque<CallFrame> Frames;
  const CallFrame *Parent = nullptr;
  for (const CallExpr *Call : V.Through) {
    Frames.push_back({Call, Call->getDirectCallee(), Parent});
    Parent = &Frames.back();
  }
  return Eval.evaluateInt(V.Value, Parent);
}

const Expr *spelledAt(const FieldValue &V) {
  return V.Through.empty() ? V.Value : V.Through.front();
}

/// The local array (or single attribute) `attrs` points to, and the index
/// of its first element; null when it is not a local of a function with a
/// body.
static const VarDecl *attributeArray(const Expr *Attrs, ConstantEvaluator &Eval,
                                     bool &Indexed, unsigned &Base) {
  const Expr *A = Attrs->IgnoreParenImpCasts();
  std::string Prefix;
  Indexed = false;
  Base = 0;
  if (const auto *AO = dyn_cast<UnaryOperator>(A)) {
    if (AO->getOpcode() != UO_AddrOf)
      return nullptr;
    const VarDecl *Var =
        FieldWrites::accessPath(AO->getSubExpr(), Eval, Prefix);
    if (!Var || Prefix.empty())
      return Var;
    // &attrs[1]: the elements from index 1.
    StringRef P(Prefix);
    if (!P.starts_with("[") || !P.ends_with("]") ||
        P.drop_front().drop_back().getAsInteger(10, Base))
      return nullptr;
    Indexed = true;
    return Var;
  }
  const VarDecl *Var = FieldWrites::accessPath(A, Eval, Prefix);
  if (!Var || !Prefix.empty() || !Var->getType()->isArrayType())
    return nullptr;
  Indexed = true;
  return Var;
}

std::optional<AttributeArray> AttributeArray::read(const VarDecl *Config,
                                                   const FunctionDecl *Caller,
                                                   const CallExpr *Call,
                                                   ConstantEvaluator &Eval) {
  if (!Config || !Caller || !Caller->getBody())
    return std::nullopt;
  const FieldWrites &W = Eval.helpers().writesOf(Caller);
  if (W.escapes(Config))
    return std::nullopt;
  SourceLocation At = Call->getBeginLoc();
  std::optional<uint64_t> NumAttrs =
      intOf(W.fieldAt(Config, ".numAttrs", At), Eval);
  if (!NumAttrs)
    return std::nullopt;
  AttributeArray Out;
  if (*NumAttrs == 0)
    return Out;
  FieldValue AttrsValue = W.fieldAt(Config, ".attrs", At);
  if (!AttrsValue.Value)
    return std::nullopt;
  Out.Array = attributeArray(AttrsValue.Value, Eval, Out.Indexed, Out.Base);
  if (!Out.Array || (!Out.Indexed && *NumAttrs != 1))
    return std::nullopt;
  const auto *Owner =
      dyn_cast_or_null<FunctionDecl>(Out.Array->getParentFunctionOrMethod());
  if (!Owner || !Owner->getBody())
    return std::nullopt;
  Out.Writes = &Eval.helpers().writesOf(Owner);
  if (Out.Writes->escapes(Out.Array))
    return std::nullopt;
  Out.Count = *NumAttrs;
  // An array filled in a helper is read as the helper leaves it.
  Out.At = AttrsValue.Through.empty() ? At : SourceLocation();
  Out.Through = AttrsValue.Through;
  return Out;
}

FieldValue AttributeArray::field(uint64_t I, StringRef Path) const {
  std::string Elem =
      Indexed ? "[" + std::to_string(Base + I) + "]" : std::string();
  FieldValue V = Writes->fieldAt(Array, Elem + Path.str(), At);
  SmallVector<const CallExpr *, 2> All(Through.begin(), Through.end());
  All.append(V.Through.begin(), V.Through.end());
  V.Through = std::move(All);
  return V;
}

} // namespace launch_detail

using namespace launch_detail;

namespace {
/// The uses of a local attribute array filled at a counter.
struct CountedUses {
  const VarDecl *Array = nullptr;
  StringRef ValueMember;
  unsigned Refs = 0, Known = 0;
  SmallVector<const Expr *, 2> Ids;
  SmallVector<const Expr *, 2> Values;

  /// `Array[...]` under E, or null.
  const ArraySubscriptExpr *element(const Expr *E) const {
    const auto *AS = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts());
    const auto *DRE = AS ? dyn_cast<DeclRefExpr>(
                               AS->getBase()->IgnoreParenImpCasts())
                         : nullptr;
    return DRE && DRE->getDecl() == Array ? AS : nullptr;
  }
  void scan(const Stmt *S) {
    if (!S)
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == Array)
      ++Refs;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->getOpcode() == BO_Assign) {
      const auto *ME = dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParens());
      const auto *Outer =
          ME ? dyn_cast<MemberExpr>(ME->getBase()->IgnoreParenImpCasts())
             : nullptr;
      if (ME && ME->getMemberDecl()->getName() == "id" &&
          element(ME->getBase())) {
        Ids.push_back(BO->getRHS());
        ++Known;
      } else if (ME && Outer && ME->getMemberDecl()->getName() == ValueMember &&
                 element(Outer->getBase())) {
        Values.push_back(BO->getRHS());
        ++Known;
      } else if (ME && Outer && element(Outer->getBase())) {
        ++Known; // another member of the value union (a cluster shape)
      } else if (ME && ME->getMemberDecl()->getName() == "attrs" &&
                 isa<DeclRefExpr>(BO->getRHS()->IgnoreParenImpCasts()) &&
                 cast<DeclRefExpr>(BO->getRHS()->IgnoreParenImpCasts())
                         ->getDecl() == Array) {
        ++Known;
      }
    }
    for (const Stmt *Child : S->children())
      scan(Child);
  }
};
} // namespace

/// The entries of an attribute array filled at a counter (`attrs[n].id =
/// ...; ++n;` under conditions, `numAttrs = n`, CCCL's triple_chevron):
/// each id written may be set. The array is a local of the launching
/// function used only through such writes and `config.attrs = attrs`;
/// a member's value is known when every write of it gives one constant.
static std::optional<SmallVector<LaunchAttributeEntry, 2>>
countedAttributes(const LaunchSite &L, ConstantEvaluator &Eval,
                  StringRef ValueMember) {
  if (!L.ConfigVar || !L.Caller || !L.Caller->getBody())
    return std::nullopt;
  const FieldWrites &W = Eval.helpers().writesOf(L.Caller);
  if (W.escapes(L.ConfigVar))
    return std::nullopt;
  FieldValue AttrsValue = W.fieldAt(L.ConfigVar, ".attrs", L.Call->getBeginLoc());
  if (!AttrsValue.Value || !AttrsValue.Through.empty())
    return std::nullopt;
  bool Indexed = false;
  unsigned Base = 0;
  const VarDecl *Array = attributeArray(AttrsValue.Value, Eval, Indexed, Base);
  if (!Array || !Indexed || Base != 0 ||
      Array->getDeclContext() != L.Caller)
    return std::nullopt;
  CountedUses Uses;
  Uses.Array = Array;
  Uses.ValueMember = ValueMember;
  Uses.scan(L.Caller->getBody());
  // Every use of the array is one of the writes above (the declaration's
  // own name is no reference).
  if (Uses.Refs != Uses.Known || Uses.Ids.empty() || Uses.Ids.size() > 8)
    return std::nullopt;
  std::optional<uint64_t> Value;
  for (size_t I = 0; I < Uses.Values.size(); ++I) {
    std::optional<uint64_t> V = Eval.evaluateInt(Uses.Values[I], nullptr);
    if (!V || (I && V != Value)) {
      Value.reset();
      break;
    }
    Value = V;
  }
  SmallVector<LaunchAttributeEntry, 2> Entries;
  for (const Expr *Id : Uses.Ids) {
    LaunchAttributeEntry E;
    E.IdName = enumeratorName(Id);
    E.IdExpr = Id;
    E.Value = Value;
    Entries.push_back(E);
  }
  return Entries;
}

std::optional<SmallVector<LaunchAttributeEntry, 2>>
readLaunchAttributes(const LaunchSite &L, ConstantEvaluator &Eval,
                     StringRef ValueMember) {
  if (L.Api != LaunchApi::CudaLaunchKernelEx &&
      L.Api != LaunchApi::CuLaunchKernelEx)
    return std::nullopt;
  std::optional<AttributeArray> Array =
      AttributeArray::read(L.ConfigVar, L.Caller, L.Call, Eval);
  if (!Array)
    return countedAttributes(L, Eval, ValueMember);
  if (Array->size() > 64)
    return std::nullopt;
  SmallVector<LaunchAttributeEntry, 2> Entries;
  bool Driver = isDriverApi(L.Api);
  for (uint64_t I = 0; I < Array->size(); ++I) {
    FieldValue Id = Array->field(I, ".id");
    LaunchAttributeEntry E;
    E.IdName = enumeratorName(Id.Value);
    E.IdExpr = spelledAt(Id);
    E.Value = intOf(
        Array->field(I, (Driver ? ".value." : ".val.") + ValueMember.str()),
        Eval);
    Entries.push_back(E);
  }
  return Entries;
}

} // namespace cuda_tidy
