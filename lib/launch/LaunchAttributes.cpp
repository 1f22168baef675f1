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

/// Evaluates V as an integer in the frames of the helper calls it comes
/// through.
static std::optional<uint64_t> intOf(const FieldValue &V,
                                     ConstantEvaluator &Eval) {
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

/// The expression V is written as in the launching function.
static const Expr *spelledAt(const FieldValue &V) {
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

std::optional<SmallVector<LaunchAttributeEntry, 2>>
readLaunchAttributes(const LaunchSite &L, ConstantEvaluator &Eval,
                     StringRef ValueMember) {
  if (L.Api != LaunchApi::CudaLaunchKernelEx &&
      L.Api != LaunchApi::CuLaunchKernelEx)
    return std::nullopt;
  if (!L.ConfigVar || !L.Caller || !L.Caller->getBody())
    return std::nullopt;
  const FieldWrites &W = Eval.helpers().writesOf(L.Caller);
  if (W.escapes(L.ConfigVar))
    return std::nullopt;
  SourceLocation At = L.Call->getBeginLoc();
  std::optional<uint64_t> NumAttrs =
      intOf(W.fieldAt(L.ConfigVar, ".numAttrs", At), Eval);
  if (!NumAttrs)
    return std::nullopt;
  SmallVector<LaunchAttributeEntry, 2> Entries;
  if (*NumAttrs == 0)
    return Entries;
  FieldValue AttrsValue = W.fieldAt(L.ConfigVar, ".attrs", At);
  if (!AttrsValue.Value)
    return std::nullopt;
  bool Indexed = false;
  unsigned Base = 0;
  const VarDecl *Array = attributeArray(AttrsValue.Value, Eval, Indexed, Base);
  if (!Array || (!Indexed && *NumAttrs != 1) || *NumAttrs > 64)
    return std::nullopt;
  const auto *Owner =
      dyn_cast_or_null<FunctionDecl>(Array->getParentFunctionOrMethod());
  if (!Owner || !Owner->getBody())
    return std::nullopt;
  const FieldWrites &AW = Eval.helpers().writesOf(Owner);
  if (AW.escapes(Array))
    return std::nullopt;
  // An array filled in a helper is read as the helper leaves it.
  SourceLocation ArrayAt = AttrsValue.Through.empty() ? At : SourceLocation();
  auto Element = [&](StringRef Path) {
    FieldValue V = AW.fieldAt(Array, Path, ArrayAt);
    SmallVector<const CallExpr *, 2> Through(AttrsValue.Through.begin(),
                                             AttrsValue.Through.end());
    Through.append(V.Through.begin(), V.Through.end());
    V.Through = std::move(Through);
    return V;
  };
  bool Driver = isDriverApi(L.Api);
  for (uint64_t I = 0; I < *NumAttrs; ++I) {
    std::string Elem =
        Indexed ? "[" + std::to_string(Base + I) + "]" : std::string();
    FieldValue Id = Element(Elem + ".id");
    LaunchAttributeEntry E;
    E.IdName = launch_detail::enumeratorName(Id.Value);
    E.IdExpr = spelledAt(Id);
    E.Value = intOf(
        Element(Elem + (Driver ? ".value." : ".val.") + ValueMember.str()),
        Eval);
    Entries.push_back(E);
  }
  return Entries;
}

} // namespace cuda_tidy
