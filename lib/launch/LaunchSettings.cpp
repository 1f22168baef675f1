//===--- LaunchSettings.cpp - cudaFuncSetAttribute settings ---------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The function attributes set on kernels (lib/launch/LaunchModel.h): the
// attribute calls, their binding through wrappers at the wrappers' calls,
// and the guards that make a setting run once per process.
//
//===----------------------------------------------------------------------===//

#include "lib/launch/LaunchCollect.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "llvm/ADT/StringSwitch.h"
#include <deque>

using namespace clang;

namespace cuda_tidy {
namespace launch_detail {

static std::optional<FuncAttr> funcAttrOf(StringRef Name) {
  return llvm::StringSwitch<std::optional<FuncAttr>>(Name)
      .Cases({"cudaFuncAttributeMaxDynamicSharedMemorySize",
              "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES"},
             FuncAttr::MaxDynamicSharedMemorySize)
      .Cases({"cudaFuncAttributeNonPortableClusterSizeAllowed",
              "CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED"},
             FuncAttr::NonPortableClusterSizeAllowed)
      .Cases({"cudaFuncAttributeRequiredClusterWidth",
              "CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH"},
             FuncAttr::RequiredClusterWidth)
      .Cases({"cudaFuncAttributeRequiredClusterHeight",
              "CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT"},
             FuncAttr::RequiredClusterHeight)
      .Cases({"cudaFuncAttributeRequiredClusterDepth",
              "CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH"},
             FuncAttr::RequiredClusterDepth)
      .Default(std::nullopt);
}

/// Whether E names a variable with static storage that is not thread_local.
static const VarDecl *processWideVar(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->hasGlobalStorage() || VD->getTSCSpec() != TSCS_unspecified)
    return nullptr;
  return VD;
}

/// The scalar process-wide flag that Cond tests (`!done`, `done == false`,
/// `done`), or null. A flag read through an index (`done[device]`) or a
/// member is per device or per object.
static const VarDecl *testedFlag(const Expr *Cond) {
  const Expr *E = Cond ? Cond->IgnoreParenImpCasts() : nullptr;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(E))
    if (UO->getOpcode() == UO_LNot)
      E = UO->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(E))
    if (BO->isEqualityOp())
      E = BO->getLHS()->IgnoreParenImpCasts();
  const VarDecl *VD = processWideVar(E);
  if (!VD || !VD->getType()->isScalarType() || VD->getType()->isPointerType())
    return nullptr;
  return VD;
}

/// Whether S sets Flag (`Flag = ...`, `++Flag`, `Flag++`).
static bool setsFlag(const Stmt *S, const VarDecl *Flag) {
  if (!S)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->isAssignmentOp())
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        if (DRE->getDecl() == Flag)
          return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    if (UO->isIncrementDecrementOp())
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
        if (DRE->getDecl() == Flag)
          return true;
  for (const Stmt *Child : S->children())
    if (setsFlag(Child, Flag))
      return true;
  return false;
}

/// Whether S always leaves the function (`return;`, `{ ...; return; }`).
static bool leaves(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S))
    return true;
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return !CS->body_empty() && leaves(CS->body_back());
  return false;
}

/// The guard that makes Call run once per process, if any (see the model).
static std::optional<OnceGuard> onceGuardOf(
    const CallExpr *Call, const FunctionDecl *In, ConstantEvaluator &Eval,
    const llvm::DenseMap<const CXXMethodDecl *, const LambdaExpr *> &Lambdas) {
  if (!In || !In->getBody())
    return std::nullopt;
  const LocalParents *Index = &Eval.parentsIn(In->getBody());
  DynTypedNode Node = DynTypedNode::create(*static_cast<const Stmt *>(Call));
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    DynTypedNode P = Index->parent(Node);
    if (P.getNodeKind().isNone()) {
      // The body of a lambda analysed on its own: go on from the lambda
      // expression in the function around it.
      const auto *MD = dyn_cast<CXXMethodDecl>(In);
      const LambdaExpr *LE = MD ? Lambdas.lookup(MD) : nullptr;
      const auto *Outer =
          LE ? dyn_cast<FunctionDecl>(MD->getParent()->getDeclContext())
             : nullptr;
      if (!Outer || !Outer->getBody())
        return std::nullopt;
      In = Outer;
      Index = &Eval.parentsIn(Outer->getBody());
      Node = DynTypedNode::create(*static_cast<const Stmt *>(LE));
      continue;
    }
    const Stmt *Child = Node.get<Stmt>();
    if (const auto *VD = P.get<VarDecl>()) {
      if (VD->isStaticLocal() && VD->getTSCSpec() == TSCS_unspecified)
        return OnceGuard{OnceGuard::StaticInit, VD, VD->getLocation()};
      if (!VD->isLocalVarDecl())
        return std::nullopt;
    } else if (const auto *If = P.get<IfStmt>()) {
      if (Child && Child != If->getCond() &&
          (Child == If->getThen() || Child == If->getElse())) {
        const VarDecl *Flag = testedFlag(If->getCond());
        if (Flag && setsFlag(Child, Flag))
          return OnceGuard{OnceGuard::StaticFlag, Flag, If->getIfLoc()};
      }
    } else if (const auto *CS = P.get<CompoundStmt>()) {
      // if (flag) return; flag = true; ... Call ...
      for (const Stmt *Sibling : CS->body()) {
        if (Sibling == Child)
          break;
        const auto *If = dyn_cast<IfStmt>(Sibling);
        if (!If || If->getElse() || !leaves(If->getThen()))
          continue;
        const VarDecl *Flag = testedFlag(If->getCond());
        if (Flag && setsFlag(CS, Flag))
          return OnceGuard{OnceGuard::StaticFlag, Flag, If->getIfLoc()};
      }
    } else if (const auto *CE = P.get<CallExpr>()) {
      const FunctionDecl *Callee = CE->getDirectCallee();
      if (Callee && Callee->getIdentifier() &&
          Callee->getName() == "call_once" && Callee->isInStdNamespace()) {
        const VarDecl *Flag =
            CE->getNumArgs() > 0
                ? dyn_cast_or_null<VarDecl>(
                      isa<DeclRefExpr>(CE->getArg(0)->IgnoreParenImpCasts())
                          ? cast<DeclRefExpr>(
                                CE->getArg(0)->IgnoreParenImpCasts())
                                ->getDecl()
                          : nullptr)
                : nullptr;
        // A thread_local once_flag is once per thread.
        if (Flag && Flag->getTSCSpec() != TSCS_unspecified)
          return std::nullopt;
        return OnceGuard{OnceGuard::CallOnce, Flag, CE->getBeginLoc()};
      }
    } else if (!P.get<Stmt>()) {
      return std::nullopt;
    }
    Node = P;
  }
  return std::nullopt;
}

/// The function type a kernel expression promises, for a setting whose
/// kernel is unknown; null for `void *`.
static const Type *kernelTypeOf(const Expr *E) {
  if (!E)
    return nullptr;
  QualType T = E->IgnoreParenImpCasts()->getType();
  if (const auto *PT = T->getAs<PointerType>())
    T = PT->getPointeeType();
  if (const auto *RT = T->getAs<ReferenceType>())
    T = RT->getPointeeType();
  if (!T->isFunctionType())
    return nullptr;
  return T.getCanonicalType().getTypePtr();
}

bool ownedBy(const ParmVarDecl *P, const FunctionDecl *FD) {
  const auto *Owner = dyn_cast<FunctionDecl>(P->getDeclContext());
  return Owner && FD && Owner->getCanonicalDecl() == FD->getCanonicalDecl();
}

const CallFrame *framesOf(llvm::ArrayRef<UserCall> Chain,
                          const FunctionDecl *Innermost,
                          std::deque<CallFrame> &Frames) {
  // Built from the outermost, so that each frame's parent exists.
  const CallFrame *Parent = nullptr;
  for (size_t I = Chain.size(); I-- > 0;) {
    const FunctionDecl *Callee = I == 0 ? Innermost : Chain[I - 1].Caller;
    Frames.push_back({Chain[I].Call, Callee, Parent});
    Parent = &Frames.back();
  }
  return Parent;
}

void SettingCollector::addAttributeCall(const CallExpr *Call, bool Driver,
                                        const FunctionDecl *In) {
  if (Call->getNumArgs() < 3)
    return;
  std::optional<FuncAttr> Attr = funcAttrOf(enumeratorName(Call->getArg(1)));
  if (!Attr)
    return;
  FuncAttributeCall A;
  A.Attr = *Attr;
  A.Call = Call;
  A.Site = Call;
  A.Caller = In;
  A.Driver = Driver;
  Eval.takeUnboundParam();
  evaluateSetting(A, nullptr);
  // A kernel or value that is a parameter of this function: bind it at
  // the function's calls.
  const ParmVarDecl *Unbound = Eval.takeUnboundParam();
  if (Unbound && ownedBy(Unbound, In)) {
    Pending.push_back({A, In});
    return;
  }
  finishSetting(A, In);
}

/// Fills A's kernel and value, evaluated in Frame.
void SettingCollector::evaluateSetting(FuncAttributeCall &A,
                                       const CallFrame *Frame) {
  const Expr *KernelArg = A.Call->getArg(0);
  A.KernelKey = nullptr;
  A.KernelUnknown = false;
  A.KernelType = nullptr;
  if (A.Driver) {
    A.KernelKey = driverFunctionOf(KernelArg);
    // A CUfunction parameter is not followed.
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(KernelArg->IgnoreParenImpCasts()))
      if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl())) {
        A.KernelKey = nullptr;
        Eval.noteUnboundParam(P);
      }
  } else if (const FunctionDecl *K = kernelOf(KernelArg, Eval, Frame)) {
    A.KernelKey = K->getCanonicalDecl();
  }
  if (!A.KernelKey) {
    A.KernelUnknown = true;
    // The outermost argument the kernel was given as says most.
    const Expr *Outer = KernelArg;
    if (!A.Through.empty()) {
      const auto *DRE = dyn_cast<DeclRefExpr>(KernelArg->IgnoreParenCasts());
      const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
      for (const CallFrame *F = Frame; P && F; F = F->Parent) {
        const Expr *Arg = argumentFor(*F, P);
        if (!Arg)
          break;
        Outer = Arg;
        DRE = dyn_cast<DeclRefExpr>(Arg->IgnoreParenCasts());
        P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
      }
    }
    A.KernelType = kernelTypeOf(Outer);
  }
  A.Value = Eval.evaluateInt(A.Call->getArg(2), Frame);
}

/// Binds setting A, made inside a wrapper and reached through the calls
/// Chain (innermost first), at each call of Function (the wrapper, or the
/// function making the outermost call of Chain). Best is the setting as
/// evaluated so far, kept when Function has no calls to bind at.
void SettingCollector::bindAt(const FuncAttributeCall &A,
                              const FunctionDecl *Function,
                              const llvm::SmallVector<UserCall, 2> &Chain,
                              FuncAttributeCall Best, unsigned Depth) {
  auto Callers = CallsTo.find(Function->getCanonicalDecl());
  if (Callers == CallsTo.end() || Depth >= 3) {
    finishSetting(Best, A.Caller, Chain);
    return;
  }
  unsigned Seen = 0;
  for (const UserCall &Site : Callers->second) {
    if (++Seen > 64)
      break;
    if (!Site.Caller || Site.Caller->isDependentContext())
      continue;
    llvm::SmallVector<UserCall, 2> Longer(Chain);
    Longer.push_back(Site);
    // One frame per call: Longer[I] calls the function that makes
    // Longer[I - 1] (or A.Call, for I == 0), and its arguments are
    // evaluated in the frame of Longer[I + 1].
    std::deque<CallFrame> Frames;
    const CallFrame *Parent = framesOf(Longer, A.Caller, Frames);
    FuncAttributeCall B = A;
    B.Site = Site.Call;
    B.Caller = Site.Caller;
    B.Through.clear();
    for (size_t I = Longer.size(); I-- > 0;)
      B.Through.push_back(Longer[I].Call);
    Eval.takeUnboundParam();
    evaluateSetting(B, Parent);
    const ParmVarDecl *Unbound = Eval.takeUnboundParam();
    if (Unbound && ownedBy(Unbound, Site.Caller)) {
      bindAt(A, Site.Caller, Longer, B, Depth + 1);
      continue;
    }
    finishSetting(B, A.Caller, Longer);
  }
}

/// Records A, made by a call in function In and reached through the
/// calls Chain (innermost first).
void SettingCollector::finishSetting(FuncAttributeCall &A,
                                     const FunctionDecl *In,
                                     llvm::ArrayRef<UserCall> Chain) {
  A.Guard = onceGuardOf(A.Call, In, Eval, Lambdas);
  for (const UserCall &Via : Chain)
    if (!A.Guard)
      A.Guard = onceGuardOf(Via.Call, Via.Caller, Eval, Lambdas);
  Attrs.push_back(A);
}

void SettingCollector::bindWrappers() {
  for (const PendingSetting &P : Pending)
    bindAt(P.Setting, P.Function, {}, P.Setting, 0);
}

} // namespace launch_detail

std::string describeGuard(const OnceGuard &G) {
  switch (G.K) {
  case OnceGuard::CallOnce:
    return "'std::call_once'";
  case OnceGuard::StaticInit:
    return "the initialiser of 'static " + G.Var->getName().str() + "'";
  case OnceGuard::StaticFlag:
    return "the flag '" + G.Var->getName().str() + "'";
  }
  return "";
}

} // namespace cuda_tidy
