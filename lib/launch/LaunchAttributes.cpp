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

std::optional<SmallVector<LaunchAttributeEntry, 2>>
readLaunchAttributes(const LaunchSite &L, ConstantEvaluator &Eval,
                     StringRef ValueMember) {
  if (L.Api != LaunchApi::CudaLaunchKernelEx &&
      L.Api != LaunchApi::CuLaunchKernelEx)
    return std::nullopt;
  std::optional<AttributeArray> Array =
      AttributeArray::read(L.ConfigVar, L.Caller, L.Call, Eval);
  if (!Array || Array->size() > 64)
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
