//===--- LaunchModel.cpp - Kernel launches and function attributes --------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/launch/LaunchModel.h"
#include "lib/ast/CallGraph.h"
#include "lib/ast/CudaAST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringSwitch.h"
#include <deque>
#include <map>
#include <memory>

using namespace clang;

namespace cuda_tidy {

std::string LaunchSite::kernelName() const {
  if (Kernel) {
    std::string Name;
    llvm::raw_string_ostream OS(Name);
    PrintingPolicy Policy(Kernel->getASTContext().getLangOpts());
    Policy.SuppressScope = false;
    Policy.FullyQualifiedName = false;
    Kernel->getNameForDiagnostic(OS, Policy, /*Qualified=*/false);
    return Name;
  }
  if (const auto *ND = dyn_cast_or_null<NamedDecl>(KernelKey))
    return ND->getNameAsString();
  return "kernel";
}

OptInSpelling optInSpelling(LaunchApi Api) {
  if (isDriverApi(Api))
    return {"cuFuncSetAttribute",
            "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES",
            "CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED"};
  return {"cudaFuncSetAttribute", "cudaFuncAttributeMaxDynamicSharedMemorySize",
          "cudaFuncAttributeNonPortableClusterSizeAllowed"};
}

/// The variable or field holding a driver-API CUfunction.
static const Decl *driverFunctionOf(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return VD->getCanonicalDecl();
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->getMemberDecl()->getCanonicalDecl();
  return nullptr;
}

/// The name of the enumerator E names, or "".
static StringRef enumeratorName(const Expr *E) {
  if (!E)
    return "";
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts()))
    if (const auto *ECD = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
      return ECD->getName();
  return "";
}

static const Expr *argOrNull(const CallExpr *Call, unsigned I) {
  if (I >= Call->getNumArgs())
    return nullptr;
  const Expr *A = Call->getArg(I);
  return isa<CXXDefaultArgExpr>(A) ? nullptr : A;
}

static std::optional<LaunchApi> launchApiOf(StringRef Name) {
  return llvm::StringSwitch<std::optional<LaunchApi>>(Name)
      .Cases({"cudaLaunchKernel", "cudaLaunchKernel_ptsz"},
             LaunchApi::CudaLaunchKernel)
      .Cases(
          {"cudaLaunchCooperativeKernel", "cudaLaunchCooperativeKernel_ptsz"},
          LaunchApi::CudaLaunchCooperativeKernel)
      .Cases({"cudaLaunchKernelEx", "cudaLaunchKernelExC"},
             LaunchApi::CudaLaunchKernelEx)
      .Case("cudaLaunchKernelExC_ptsz", LaunchApi::CudaLaunchKernelEx)
      .Cases({"cuLaunchKernel", "cuLaunchKernel_ptsz"},
             LaunchApi::CuLaunchKernel)
      .Cases({"cuLaunchKernelEx", "cuLaunchKernelEx_ptsz"},
             LaunchApi::CuLaunchKernelEx)
      .Default(std::nullopt);
}

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
  if (!VD || !VD->hasGlobalStorage() ||
      VD->getTSCSpec() != TSCS_unspecified)
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
static std::optional<OnceGuard>
onceGuardOf(const CallExpr *Call, const FunctionDecl *In,
            ConstantEvaluator &Eval,
            const llvm::DenseMap<const CXXMethodDecl *, const LambdaExpr *>
                &Lambdas) {
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

namespace {
/// Walks the translation unit, template instantiations included, and
/// remembers the function it is in.
class Collector : public UserCodeVisitor<Collector> {
public:
  Collector(ASTContext &Ctx, ConstantEvaluator &Eval,
            std::vector<LaunchSite> &Launches,
            std::vector<FuncAttributeCall> &Attrs)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Eval(Eval), Launches(Launches),
        Attrs(Attrs) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  /// Binds the settings made in wrappers at the wrappers' calls; call after
  /// the traversal.
  void bindWrappers() {
    for (const PendingSetting &P : Pending)
      bindAt(P.Setting, P.Function, {}, P.Setting, 0);
  }

  bool TraverseFunctionDecl(FunctionDecl *FD) { return traverseFunc(FD); }
  bool TraverseCXXMethodDecl(CXXMethodDecl *FD) { return traverseFunc(FD); }
  bool TraverseCXXConstructorDecl(CXXConstructorDecl *FD) {
    return traverseFunc(FD);
  }
  bool TraverseCXXDestructorDecl(CXXDestructorDecl *FD) {
    return traverseFunc(FD);
  }

  bool VisitLambdaExpr(LambdaExpr *LE) {
    Lambdas[LE->getCallOperator()] = LE;
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (!Current || Current->isDependentContext() || Call->containsErrors())
      return true;
    if (SM.isInSystemHeader(SM.getExpansionLoc(Call->getBeginLoc())))
      return true;
    if (const auto *KCE = dyn_cast<CUDAKernelCallExpr>(Call)) {
      addChevronLaunch(KCE);
      return true;
    }
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return true;
    // Calls of user functions, for binding wrappers at their calls.
    if (Callee->hasBody() && !isInSystemHeader(Callee))
      CallsTo[Callee->getCanonicalDecl()].push_back({Call, Current});
    if (!Callee->getIdentifier() || !isCudaHeaderDecl(Callee, SM))
      return true;
    StringRef Name = Callee->getName();
    if (Name == "cudaFuncSetAttribute" || Name == "cuFuncSetAttribute") {
      addAttributeCall(Call, Name == "cuFuncSetAttribute");
      return true;
    }
    if (std::optional<LaunchApi> Api = launchApiOf(Name))
      addApiLaunch(Call, *Api);
    return true;
  }

private:
  template <typename T> bool traverseFunc(T *FD) {
    const FunctionDecl *Saved = Current;
    Current = FD;
    bool Result;
    if constexpr (std::is_same_v<T, FunctionDecl>)
      Result = RecursiveASTVisitor::TraverseFunctionDecl(FD);
    else if constexpr (std::is_same_v<T, CXXMethodDecl>)
      Result = RecursiveASTVisitor::TraverseCXXMethodDecl(FD);
    else if constexpr (std::is_same_v<T, CXXConstructorDecl>)
      Result = RecursiveASTVisitor::TraverseCXXConstructorDecl(FD);
    else
      Result = RecursiveASTVisitor::TraverseCXXDestructorDecl(FD);
    Current = Saved;
    return Result;
  }


  void addChevronLaunch(const CUDAKernelCallExpr *KCE) {
    LaunchSite L;
    L.Api = LaunchApi::TripleChevron;
    L.Call = KCE;
    L.Caller = Current;
    L.KernelExpr = KCE->getCallee();
    L.Kernel = KCE->getDirectCallee();
    if (L.Kernel && !isKernel(L.Kernel))
      L.Kernel = nullptr;
    // A kernel held in a variable: `auto k = f<64>; k<<<...>>>()`.
    if (!L.Kernel)
      L.Kernel = kernelOf(KCE->getCallee());
    const CallExpr *Config = KCE->getConfig();
    if (Config && Config->getNumArgs() >= 2) {
      L.Grid = Eval.evaluateDim3(Config->getArg(0));
      L.Block = Eval.evaluateDim3(Config->getArg(1));
      L.DynamicSmemExpr = argOrNull(Config, 2);
      L.DynamicSmem = L.DynamicSmemExpr ? Eval.evaluateInt(L.DynamicSmemExpr)
                                        : std::optional<uint64_t>(0);
    }
    finish(L);
  }

  void addApiLaunch(const CallExpr *Call, LaunchApi Api) {
    LaunchSite L;
    L.Api = Api;
    L.Call = Call;
    L.Caller = Current;
    switch (Api) {
    case LaunchApi::CudaLaunchKernel:
    case LaunchApi::CudaLaunchCooperativeKernel:
      if (Call->getNumArgs() < 3)
        return;
      L.KernelExpr = Call->getArg(0);
      L.Kernel = kernelOf(L.KernelExpr);
      L.Grid = Eval.evaluateDim3(Call->getArg(1));
      L.Block = Eval.evaluateDim3(Call->getArg(2));
      L.DynamicSmemExpr = argOrNull(Call, 4);
      L.DynamicSmem = L.DynamicSmemExpr ? Eval.evaluateInt(L.DynamicSmemExpr)
                                        : std::optional<uint64_t>(0);
      break;
    case LaunchApi::CuLaunchKernel: {
      if (Call->getNumArgs() < 8)
        return;
      L.KernelExpr = Call->getArg(0);
      L.KernelKey = driverFunctionOf(L.KernelExpr);
      std::optional<uint64_t> D[6];
      for (unsigned I = 0; I < 6; ++I)
        D[I] = Eval.evaluateInt(Call->getArg(1 + I));
      if (D[0] && D[1] && D[2])
        L.Grid = Dim3{*D[0], *D[1], *D[2]};
      if (D[3] && D[4] && D[5])
        L.Block = Dim3{*D[3], *D[4], *D[5]};
      L.DynamicSmemExpr = Call->getArg(7);
      L.DynamicSmem = Eval.evaluateInt(L.DynamicSmemExpr);
      break;
    }
    case LaunchApi::CudaLaunchKernelEx:
    case LaunchApi::CuLaunchKernelEx:
      if (Call->getNumArgs() < 2)
        return;
      L.KernelExpr = Call->getArg(1);
      if (Api == LaunchApi::CudaLaunchKernelEx)
        L.Kernel = kernelOf(L.KernelExpr);
      else
        L.KernelKey = driverFunctionOf(L.KernelExpr);
      readConfig(L, Call->getArg(0));
      break;
    case LaunchApi::TripleChevron:
      return;
    }
    finish(L);
  }

  /// Evaluates V in the frames of the helper calls it comes through.
  template <typename Fn> auto inFrames(const FieldValue &V, Fn &&Evaluate) {
    std::deque<CallFrame> Frames;
    const CallFrame *Parent = nullptr;
    for (const CallExpr *Call : V.Through) {
      Frames.push_back({Call, Call->getDirectCallee(), Parent});
      Parent = &Frames.back();
    }
    return Evaluate(V.Value, Parent);
  }
  std::optional<uint64_t> intOf(const FieldValue &V) {
    if (V.IsZero)
      return 0;
    if (!V.Value)
      return std::nullopt;
    return inFrames(V, [&](const Expr *E, const CallFrame *F) {
      return Eval.evaluateInt(E, F);
    });
  }
  std::optional<Dim3> dim3Of(const FieldValue &V) {
    if (!V.Value)
      return std::nullopt;
    return inFrames(V, [&](const Expr *E, const CallFrame *F) {
      return Eval.evaluateDim3(E, F);
    });
  }
  /// The expression a field value is written as in this function, for
  /// notes and fix-its; for a value set in a helper, the outermost helper
  /// call.
  static const Expr *spelledAt(const FieldValue &V) {
    if (!V.Through.empty())
      return V.Through.front();
    return V.Value;
  }

  /// Reads the fields of `&config` as set before the launch.
  void readConfig(LaunchSite &L, const Expr *ConfigArg) {
    const auto *UO = dyn_cast<UnaryOperator>(ConfigArg->IgnoreParenImpCasts());
    if (!UO || UO->getOpcode() != UO_AddrOf)
      return;
    std::string Unused;
    const VarDecl *Config =
        FieldWrites::accessPath(UO->getSubExpr(), Eval, Unused);
    if (!Config || !Unused.empty())
      return;
    const FieldWrites &W = Eval.helpers().writesOf(Current);
    if (W.escapes(Config))
      return;
    L.ConfigVar = Config;
    SourceLocation At = L.Call->getBeginLoc();
    bool Driver = isDriverApi(L.Api);
    auto Field = [&](StringRef Path) { return W.fieldAt(Config, Path, At); };
    if (Driver) {
      std::optional<uint64_t> D[6];
      const char *Names[6] = {".gridDimX",  ".gridDimY",  ".gridDimZ",
                              ".blockDimX", ".blockDimY", ".blockDimZ"};
      for (unsigned I = 0; I < 6; ++I)
        D[I] = intOf(Field(Names[I]));
      if (D[0] && D[1] && D[2])
        L.Grid = Dim3{*D[0], *D[1], *D[2]};
      if (D[3] && D[4] && D[5])
        L.Block = Dim3{*D[3], *D[4], *D[5]};
    } else {
      L.Grid = dim3Of(Field(".gridDim"));
      L.Block = dim3Of(Field(".blockDim"));
    }
    FieldValue Bytes =
        Field(Driver ? ".sharedMemBytes" : ".dynamicSmemBytes");
    L.DynamicSmemExpr = Bytes.IsZero ? nullptr : spelledAt(Bytes);
    L.DynamicSmem = intOf(Bytes);

    // The attribute array.
    std::optional<uint64_t> NumAttrs = intOf(Field(".numAttrs"));
    FieldValue AttrsValue = Field(".attrs");
    if (!NumAttrs || *NumAttrs == 0 || !AttrsValue.Value)
      return;
    const Expr *A = AttrsValue.Value->IgnoreParenImpCasts();
    std::string Prefix;
    const VarDecl *AttrVar = nullptr;
    bool Indexed = false;
    if (const auto *AO = dyn_cast<UnaryOperator>(A)) {
      if (AO->getOpcode() != UO_AddrOf)
        return;
      AttrVar = FieldWrites::accessPath(AO->getSubExpr(), Eval, Prefix);
      // &attrs[1]: elements from index 1.
      if (AttrVar && StringRef(Prefix).starts_with("[") &&
          StringRef(Prefix).ends_with("]") &&
          Prefix.find('.') == std::string::npos) {
        unsigned Base = 0;
        if (StringRef(Prefix).drop_front().drop_back().getAsInteger(10, Base))
          return;
        Indexed = true;
        Prefix = std::to_string(Base);
      } else if (!Prefix.empty()) {
        return;
      }
    } else {
      AttrVar = FieldWrites::accessPath(A, Eval, Prefix);
      if (!AttrVar || !Prefix.empty() || !AttrVar->getType()->isArrayType())
        return;
      Indexed = true;
      Prefix = "0";
    }
    if (!AttrVar)
      return;
    const auto *AttrOwner =
        dyn_cast_or_null<FunctionDecl>(AttrVar->getParentFunctionOrMethod());
    if (!AttrOwner || !AttrOwner->getBody())
      return;
    const FieldWrites &AW = Eval.helpers().writesOf(AttrOwner);
    if (AW.escapes(AttrVar))
      return;
    // An array filled in a helper is read as the helper leaves it.
    SourceLocation AttrAt = AttrsValue.Through.empty() ? At : SourceLocation();
    auto AttrField = [&](StringRef Path) {
      FieldValue V = AW.fieldAt(AttrVar, Path, AttrAt);
      llvm::SmallVector<const CallExpr *, 2> Through(
          AttrsValue.Through.begin(), AttrsValue.Through.end());
      Through.append(V.Through.begin(), V.Through.end());
      V.Through = std::move(Through);
      return V;
    };
    unsigned Base = Indexed ? std::stoul(Prefix) : 0;
    if (!Indexed && *NumAttrs != 1)
      return;
    for (uint64_t I = 0; I < *NumAttrs && I < 64; ++I) {
      std::string Elem =
          Indexed ? "[" + std::to_string(Base + I) + "]" : std::string();
      FieldValue Id = AttrField(Elem + ".id");
      StringRef IdName = Id.Through.empty()
                             ? enumeratorName(Id.Value)
                             : enumeratorName(Id.Value);
      if (IdName != "cudaLaunchAttributeClusterDimension" &&
          IdName != "CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION")
        continue;
      L.HasClusterAttr = true;
      std::string ValPath = Elem + (Driver ? ".value" : ".val") + ".clusterDim";
      std::optional<uint64_t> C[3];
      const char *Comps[3] = {".x", ".y", ".z"};
      for (unsigned K = 0; K < 3; ++K) {
        FieldValue CV = AttrField(ValPath + Comps[K]);
        if (K == 0) {
          const Expr *Spelled = spelledAt(CV);
          L.ClusterExpr = Spelled ? Spelled : spelledAt(Id);
        }
        C[K] = intOf(CV);
      }
      if (C[0] && C[1] && C[2])
        L.Cluster = Dim3{*C[0], *C[1], *C[2]};
    }
  }

  void finish(LaunchSite &L) {
    if (L.Kernel) {
      L.KernelKey = L.Kernel->getCanonicalDecl();
    }
    Launches.push_back(L);
  }

  /// The kernel E names: `k`, `&k`, `(void *)k`, `k<float>`, a local
  /// assigned once or a constant variable holding one, or a parameter bound
  /// in Frame to one of these.
  const FunctionDecl *kernelOf(const Expr *E, const CallFrame *Frame = nullptr,
                               unsigned Depth = 0) {
    if (!E || Depth > 8)
      return nullptr;
    E = E->IgnoreParenCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      if (UO->getOpcode() == UO_AddrOf)
        E = UO->getSubExpr()->IgnoreParenCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    if (!DRE)
      return nullptr;
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
      return isKernel(FD) ? FD : nullptr;
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl())) {
      const Expr *Arg = Frame ? argumentFor(*Frame, P) : nullptr;
      if (!Arg || !Eval.isReadOnlyParam(P)) {
        Eval.noteUnboundParam(P);
        return nullptr;
      }
      return kernelOf(Arg, Frame->Parent, Depth + 1);
    }
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || VD->getType().isVolatileQualified())
      return nullptr;
    if (VD->isLocalVarDecl() && !VD->isStaticLocal() &&
        !VD->getType()->isReferenceType())
      return kernelOf(Eval.singleValue(VD), Frame, Depth + 1);
    // A constant pointer anywhere: `static void (*const Fn)(int) = k;`.
    if (VD->getType().isConstQualified() && VD->getInit())
      return kernelOf(VD->getInit(), nullptr, Depth + 1);
    return nullptr;
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

  void addAttributeCall(const CallExpr *Call, bool Driver) {
    if (Call->getNumArgs() < 3)
      return;
    std::optional<FuncAttr> Attr = funcAttrOf(enumeratorName(Call->getArg(1)));
    if (!Attr)
      return;
    FuncAttributeCall A;
    A.Attr = *Attr;
    A.Call = Call;
    A.Site = Call;
    A.Caller = Current;
    A.Driver = Driver;
    Eval.takeUnboundParam();
    evaluateSetting(A, nullptr);
    // A kernel or value that is a parameter of this function: bind it at
    // the function's calls.
    const ParmVarDecl *Unbound = Eval.takeUnboundParam();
    if (Unbound && ownedBy(Unbound, Current)) {
      Pending.push_back({A, Current});
      return;
    }
    finishSetting(A, Current);
  }

  static bool ownedBy(const ParmVarDecl *P, const FunctionDecl *FD) {
    const auto *Owner = dyn_cast<FunctionDecl>(P->getDeclContext());
    return Owner && FD &&
           Owner->getCanonicalDecl() == FD->getCanonicalDecl();
  }

  /// Fills A's kernel and value, evaluated in Frame.
  void evaluateSetting(FuncAttributeCall &A, const CallFrame *Frame) {
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
    } else if (const FunctionDecl *K = kernelOf(KernelArg, Frame)) {
      A.KernelKey = K->getCanonicalDecl();
    }
    if (!A.KernelKey) {
      A.KernelUnknown = true;
      // The outermost argument the kernel was given as says most.
      const Expr *Outer = KernelArg;
      if (!A.Through.empty()) {
        const auto *DRE =
            dyn_cast<DeclRefExpr>(KernelArg->IgnoreParenCasts());
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
  void bindAt(const FuncAttributeCall &A, const FunctionDecl *Function,
              const llvm::SmallVector<CallSite, 2> &Chain,
              FuncAttributeCall Best, unsigned Depth) {
    auto Callers = CallsTo.find(Function->getCanonicalDecl());
    if (Callers == CallsTo.end() || Depth >= 3) {
      finishSetting(Best, A.Caller, Chain);
      return;
    }
    unsigned Seen = 0;
    for (const CallSite &Site : Callers->second) {
      if (++Seen > 64)
        break;
      if (!Site.Caller || Site.Caller->isDependentContext())
        continue;
      llvm::SmallVector<CallSite, 2> Longer(Chain);
      Longer.push_back(Site);
      // One frame per call, built from the outermost: Longer[I] calls the
      // function that makes Longer[I - 1] (or A.Call, for I == 0), and its
      // arguments are evaluated in the frame of Longer[I + 1].
      std::deque<CallFrame> Frames;
      const CallFrame *Parent = nullptr;
      for (size_t I = Longer.size(); I-- > 0;) {
        const FunctionDecl *Callee = I == 0 ? A.Caller : Longer[I - 1].Caller;
        Frames.push_back({Longer[I].Call, Callee, Parent});
        Parent = &Frames.back();
      }
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
  void finishSetting(FuncAttributeCall &A, const FunctionDecl *In,
                     llvm::ArrayRef<CallSite> Chain = {}) {
    A.Guard = onceGuardOf(A.Call, In, Eval, Lambdas);
    for (const CallSite &Via : Chain)
      if (!A.Guard)
        A.Guard = onceGuardOf(Via.Call, Via.Caller, Eval, Lambdas);
    Attrs.push_back(A);
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  ConstantEvaluator &Eval;
  std::vector<LaunchSite> &Launches;
  std::vector<FuncAttributeCall> &Attrs;
  const FunctionDecl *Current = nullptr;
  /// The calls of each user function with a body, by canonical declaration.
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<CallSite, 2>> CallsTo;
  struct PendingSetting {
    FuncAttributeCall Setting;
    const FunctionDecl *Function;
  };
  std::vector<PendingSetting> Pending;
  /// Each lambda's call operator and its expression, to leave a lambda's
  /// body for the code around it.
  llvm::DenseMap<const CXXMethodDecl *, const LambdaExpr *> Lambdas;
};
} // namespace

LaunchModel::LaunchModel(ASTContext &Ctx, ConstantEvaluator &Eval)
    : SM(Ctx.getSourceManager()) {
  Collector C(Ctx, Eval, Launches, Attrs);
  C.TraverseAST(Ctx);
  C.bindWrappers();
  auto Before = [this](SourceLocation A, SourceLocation B) {
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A),
                                        SM.getExpansionLoc(B));
  };
  std::stable_sort(Launches.begin(), Launches.end(),
                   [&](const LaunchSite &A, const LaunchSite &B) {
                     return Before(A.Call->getBeginLoc(),
                                   B.Call->getBeginLoc());
                   });
  std::stable_sort(Attrs.begin(), Attrs.end(),
                   [&](const FuncAttributeCall &A, const FuncAttributeCall &B) {
                     return Before(A.Site->getBeginLoc(),
                                   B.Site->getBeginLoc());
                   });
}

llvm::SmallVector<const FuncAttributeCall *, 2>
LaunchModel::settingsFor(const LaunchSite &L, FuncAttr Attr,
                         bool IncludeUnknown) const {
  llvm::SmallVector<const FuncAttributeCall *, 2> Out;
  if (!L.KernelKey)
    return Out;
  const Type *LaunchedType =
      L.Kernel ? L.Kernel->getType().getCanonicalType().getTypePtr() : nullptr;
  for (const FuncAttributeCall &A : Attrs) {
    if (A.Attr != Attr || A.Driver != isDriverApi(L.Api))
      continue;
    if (A.KernelUnknown) {
      if (!IncludeUnknown || (A.KernelType && A.KernelType != LaunchedType))
        continue;
    } else if (A.KernelKey != L.KernelKey) {
      continue;
    }
    if (A.Caller == L.Caller && !SM.isBeforeInTranslationUnit(
                                    SM.getExpansionLoc(A.Site->getBeginLoc()),
                                    SM.getExpansionLoc(L.Call->getBeginLoc())))
      continue;
    Out.push_back(&A);
  }
  return Out;
}

std::optional<Dim3>
LaunchModel::requiredClusterFor(const LaunchSite &L,
                                const CallExpr **Where) const {
  auto W = settingsFor(L, FuncAttr::RequiredClusterWidth);
  auto H = settingsFor(L, FuncAttr::RequiredClusterHeight);
  auto D = settingsFor(L, FuncAttr::RequiredClusterDepth);
  if (W.empty() && H.empty() && D.empty())
    return std::nullopt;
  Dim3 Out;
  const CallExpr *First = nullptr;
  auto Take = [&](llvm::ArrayRef<const FuncAttributeCall *> Calls,
                  uint64_t &Into) {
    if (Calls.empty())
      return true;
    // The last one in source order wins.
    const FuncAttributeCall *Last = Calls.back();
    if (!First)
      First = Last->Site;
    if (!Last->Value)
      return false;
    Into = *Last->Value;
    return true;
  };
  if (!Take(W, Out.X) || !Take(H, Out.Y) || !Take(D, Out.Z))
    return std::nullopt;
  if (Where)
    *Where = First;
  return Out;
}

//===----------------------------------------------------------------------===//
// __cluster_dims__
//===----------------------------------------------------------------------===//

namespace {
class ClusterDimsCallbacks : public PPCallbacks {
public:
  ClusterDimsCallbacks(ClusterDimsMacros &Out, Preprocessor &PP)
      : Out(Out), PP(PP) {}

  void MacroExpands(const Token &Name, const MacroDefinition &MD,
                    SourceRange Range, const MacroArgs *Args) override {
    const IdentifierInfo *II = Name.getIdentifierInfo();
    if (!II || II->getName() != "__cluster_dims__" || !Args)
      return;
    ClusterDimsSpelling S;
    S.Loc = PP.getSourceManager().getExpansionLoc(Name.getLocation());
    // cuda-tidy's compatibility header defines it to nothing.
    if (const MacroInfo *MI = MD.getMacroInfo())
      S.Empty = MI->getNumTokens() == 0;
    uint64_t V[3] = {1, 1, 1};
    bool Ok = true;
    unsigned N = Args->getNumMacroArguments();
    // A variadic macro has one argument holding "x, y, z": split on commas.
    unsigned Index = 0;
    for (unsigned I = 0; I < N && Ok; ++I) {
      const Token *T = Args->getUnexpArgument(I);
      llvm::SmallVector<const Token *, 2> Current;
      auto Flush = [&]() {
        if (Current.empty())
          return;
        std::optional<uint64_t> Value;
        if (Current.size() == 1)
          Value = tokenValue(*Current[0]);
        if (!Value || Index >= 3)
          Ok = false;
        else
          V[Index] = *Value;
        ++Index;
        Current.clear();
      };
      for (; T->isNot(tok::eof); ++T) {
        if (T->is(tok::comma)) {
          Flush();
          continue;
        }
        Current.push_back(T);
      }
      Flush();
    }
    if (Ok && Index > 0)
      S.Dims = Dim3{V[0], V[1], V[2]};
    Out.add(S);
  }

private:
  /// An integer literal, or a macro whose body is one.
  std::optional<uint64_t> tokenValue(const Token &T, unsigned Depth = 0) {
    if (T.is(tok::numeric_constant)) {
      StringRef Text(T.getLiteralData(), T.getLength());
      if (!T.getLiteralData())
        return std::nullopt;
      Text = Text.rtrim("uUlL");
      uint64_t V = 0;
      if (Text.getAsInteger(0, V))
        return std::nullopt;
      return V;
    }
    if (T.is(tok::identifier) && Depth < 4) {
      const MacroInfo *MI = PP.getMacroInfo(T.getIdentifierInfo());
      if (MI && MI->isObjectLike() && MI->getNumTokens() == 1)
        return tokenValue(MI->getReplacementToken(0), Depth + 1);
    }
    return std::nullopt;
  }

  ClusterDimsMacros &Out;
  Preprocessor &PP;
};
} // namespace

std::unique_ptr<PPCallbacks>
ClusterDimsMacros::makeCallbacks(Preprocessor &PP) {
  return std::make_unique<ClusterDimsCallbacks>(*this, PP);
}

const ClusterDimsSpelling *
ClusterDimsMacros::find(const FunctionDecl *FD, const SourceManager &SM) const {
  for (const FunctionDecl *Redecl : FD->redecls()) {
    SourceLocation Begin = SM.getExpansionLoc(Redecl->getBeginLoc());
    SourceLocation Name = SM.getExpansionLoc(Redecl->getLocation());
    for (const ClusterDimsSpelling &S : Spellings)
      if (SM.getFileID(S.Loc) == SM.getFileID(Name) &&
          !SM.isBeforeInTranslationUnit(S.Loc, Begin) &&
          SM.isBeforeInTranslationUnit(S.Loc, Name))
        return &S;
  }
  return nullptr;
}

std::optional<Dim3> kernelClusterDims(const FunctionDecl *Kernel,
                                      const ClusterDimsMacros *Macros,
                                      ConstantEvaluator &Eval,
                                      SourceLocation *Loc, bool *FromMacro) {
  if (FromMacro)
    *FromMacro = false;
  if (!Kernel)
    return std::nullopt;
  const SourceManager &SM = Kernel->getASTContext().getSourceManager();
  // The pattern of a template specialisation carries the written attribute.
  const FunctionDecl *Candidates[] = {
      Kernel, Kernel->getTemplateInstantiationPattern()};
  for (const FunctionDecl *FD : Candidates) {
    if (!FD)
      continue;
    if (const auto *A = FD->getAttr<CUDAClusterDimsAttr>()) {
      std::optional<uint64_t> V[3] = {1, 1, 1};
      const Expr *E[3] = {A->getX(), A->getY(), A->getZ()};
      for (unsigned I = 0; I < 3; ++I)
        if (E[I])
          V[I] = Eval.evaluateInt(E[I]);
      if (Loc)
        *Loc = A->getLocation();
      if (V[0] && V[1] && V[2])
        return Dim3{*V[0], *V[1], *V[2]};
      return std::nullopt;
    }
    if (Macros)
      if (const ClusterDimsSpelling *S = Macros->find(FD, SM)) {
        if (Loc)
          *Loc = S->Loc;
        // Only an attribute clang dropped with an error is news to the
        // user; an empty compatibility macro is not.
        if (FromMacro)
          *FromMacro = !S->Empty;
        return S->Dims;
      }
  }
  return std::nullopt;
}

} // namespace cuda_tidy

namespace cuda_tidy {

std::optional<std::string> writtenText(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()), SM,
      Ctx.getLangOpts());
  if (Range.isInvalid() || SM.isInSystemHeader(Range.getBegin()))
    return std::nullopt;
  bool Invalid = false;
  StringRef Text = Lexer::getSourceText(Range, SM, Ctx.getLangOpts(), &Invalid);
  if (Invalid || Text.empty())
    return std::nullopt;
  return Text.str();
}

std::optional<std::string> writtenKernel(const LaunchSite &L,
                                         const ASTContext &Ctx) {
  const Expr *E = L.KernelExpr;
  if (!E)
    return std::nullopt;
  if (!isDriverApi(L.Api)) {
    E = E->IgnoreParenCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      if (UO->getOpcode() == UO_AddrOf)
        E = UO->getSubExpr()->IgnoreParenCasts();
    if (!isa<DeclRefExpr>(E))
      return std::nullopt;
  }
  return writtenText(E, Ctx);
}

std::optional<FixItHint> insertBeforeLaunch(const LaunchSite &L,
                                            ASTContext &Ctx, StringRef Call,
                                            std::string &WhyNot) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (!L.Caller || !L.Caller->getBody()) {
    WhyNot = "the launch is not inside a function body";
    return std::nullopt;
  }
  // The launching function's own parent index: the fix is rare, and
  // ASTContext::getParents would index the whole translation unit.
  LocalParents Index(L.Caller->getBody());
  DynTypedNode Node = DynTypedNode::create(*static_cast<const Stmt *>(L.Call));
  const Stmt *Statement = nullptr;
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    llvm::SmallVector<DynTypedNode, 1> Parents;
    if (DynTypedNode P = Index.parent(Node); !P.getNodeKind().isNone())
      Parents.push_back(P);
    if (Parents.size() != 1) {
      WhyNot = "the launch is not inside a function body";
      return std::nullopt;
    }
    if (Parents[0].get<CompoundStmt>()) {
      Statement = Node.get<Stmt>();
      break;
    }
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P || !(isa<Expr>(P) || isa<DeclStmt>(P) || isa<ReturnStmt>(P))) {
      if (Parents[0].get<VarDecl>()) {
        Node = Parents[0];
        continue;
      }
      WhyNot = "the launch is not a statement of a block";
      return std::nullopt;
    }
    Node = Parents[0];
  }
  if (!Statement) {
    WhyNot = "the launch is not a statement of a block";
    return std::nullopt;
  }
  SourceLocation Begin = Statement->getBeginLoc();
  if (Begin.isMacroID()) {
    SourceLocation MacroStart;
    if (!Lexer::isAtStartOfMacroExpansion(Begin, SM, Ctx.getLangOpts(),
                                          &MacroStart)) {
      WhyNot = "the statement starts inside a macro";
      return std::nullopt;
    }
    Begin = SM.getExpansionLoc(MacroStart);
  }
  if (Begin.isInvalid() || SM.isInSystemHeader(Begin)) {
    WhyNot = "the launch is in a system header";
    return std::nullopt;
  }
  StringRef Indent = Lexer::getIndentationForLine(Begin, SM);
  bool StartsLine = SM.getSpellingColumnNumber(Begin) == Indent.size() + 1;
  std::string Text = Call.str() + ";";
  Text += StartsLine ? "\n" + Indent.str() : std::string(" ");
  return FixItHint::CreateInsertion(Begin, Text);
}

} // namespace cuda_tidy
