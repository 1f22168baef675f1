//===--- LaunchModel.cpp - Kernel launches and their configurations -------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The walk that collects the launch model, the launch sites it recognises
// and the data flow of their configurations. The attribute settings are in
// LaunchSettings.cpp, the source spellings and fix-its in
// LaunchSpelling.cpp.
//
//===----------------------------------------------------------------------===//

#include "lib/launch/LaunchModel.h"
#include "lib/ast/CudaAST.h"
#include "lib/launch/LaunchCollect.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include <deque>
#include <numeric>

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

namespace launch_detail {

const Decl *driverFunctionOf(const Expr *E) {
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

StringRef enumeratorName(const Expr *E) {
  if (!E)
    return "";
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts()))
    if (const auto *ECD = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
      return ECD->getName();
  return "";
}

const FunctionDecl *kernelOf(const Expr *E, ConstantEvaluator &Eval,
                             const CallFrame *Frame, unsigned Depth) {
  if (!E || Depth > 8)
    return nullptr;
  E = E->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf)
      E = UO->getSubExpr()->IgnoreParenCasts();
  // A getter whose body only returns the kernel: `static auto K() { return
  // &k<T>; }`.
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Getter = Call->getDirectCallee();
    const auto *Body =
        Getter ? dyn_cast_or_null<CompoundStmt>(Getter->getBody()) : nullptr;
    const auto *Ret = Body && Body->size() == 1
                          ? dyn_cast<ReturnStmt>(Body->body_front())
                          : nullptr;
    return Ret ? kernelOf(Ret->getRetValue(), Eval, nullptr, Depth + 1)
               : nullptr;
  }
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
    return kernelOf(Arg, Eval, Frame->Parent, Depth + 1);
  }
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || VD->getType().isVolatileQualified())
    return nullptr;
  if (VD->isLocalVarDecl() && !VD->isStaticLocal() &&
      !VD->getType()->isReferenceType())
    return kernelOf(Eval.singleValue(VD), Eval, Frame, Depth + 1);
  // A constant pointer anywhere: `static void (*const Fn)(int) = k;`.
  if (VD->getType().isConstQualified() && VD->getInit())
    return kernelOf(VD->getInit(), Eval, nullptr, Depth + 1);
  return nullptr;
}

} // namespace launch_detail

using namespace launch_detail;

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

/// Whether a statement always leaves its function (`return`, `throw`, or
/// a block that ends in one).
static bool leavesFunction(const Stmt *S) {
  if (const auto *C = dyn_cast_or_null<CompoundStmt>(S))
    return !C->body_empty() && leavesFunction(C->body_back());
  return isa_and_nonnull<ReturnStmt>(S) || isa_and_nonnull<CXXThrowExpr>(S);
}

/// Whether the values of Frame prove that the launch L is not reached in
/// its function: an `if` around it whose condition they make false (true,
/// for the else arm), or an earlier `if (c) return;` of an enclosing block
/// whose condition they make true (`if (n <= 1024) k<<<1, n>>>();` called
/// with n = 2048 launches nothing).
static bool unreachableIn(const LaunchSite &L, ConstantEvaluator &Eval,
                          const CallFrame *Frame) {
  const Stmt *Body = L.Caller ? L.Caller->getBody() : nullptr;
  if (!Body)
    return false;
  const LocalParents &Parents = Eval.parentsIn(Body);
  const Stmt *Child = L.Call;
  for (unsigned Steps = 0; Child && Child != Body && Steps < 64; ++Steps) {
    const Stmt *Parent = Parents.parent(*Child).get<Stmt>();
    if (!Parent)
      return false;
    if (const auto *If = dyn_cast<IfStmt>(Parent);
        If && !If->isConsteval() && !If->getConditionVariable() &&
        (Child == If->getThen() || Child == If->getElse())) {
      std::optional<uint64_t> V = Eval.evaluateInt(If->getCond(), Frame);
      if (V && (*V != 0) != (Child == If->getThen()))
        return true;
    }
    if (const auto *Block = dyn_cast<CompoundStmt>(Parent))
      for (const Stmt *S : Block->body()) {
        if (S == Child)
          break;
        const auto *Exit = dyn_cast<IfStmt>(S);
        if (!Exit || Exit->getElse() || Exit->isConsteval() ||
            Exit->getConditionVariable() || !leavesFunction(Exit->getThen()))
          continue;
        std::optional<uint64_t> V = Eval.evaluateInt(Exit->getCond(), Frame);
        if (V && *V)
          return true;
      }
    Child = Parent;
  }
  return false;
}

namespace {
/// Walks the translation unit, template instantiations included, and
/// remembers the function it is in.
class Collector : public UserCodeVisitor<Collector> {
public:
  Collector(ASTContext &Ctx, ConstantEvaluator &Eval,
            std::vector<LaunchSite> &Launches,
            std::vector<LauncherLaunch> &LauncherCalls,
            std::vector<FuncAttributeCall> &Attrs)
      : SM(Ctx.getSourceManager()), Eval(Eval), Launches(Launches),
        LauncherCalls(LauncherCalls), Settings(Eval, Attrs) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  /// Binds the settings made in wrappers at the wrappers' calls; call after
  /// the traversal.
  void bindWrappers() { Settings.bindWrappers(); }

  bool TraverseFunctionDecl(FunctionDecl *FD) { return traverseFunc(FD); }
  bool TraverseCXXMethodDecl(CXXMethodDecl *FD) { return traverseFunc(FD); }
  bool TraverseCXXConstructorDecl(CXXConstructorDecl *FD) {
    return traverseFunc(FD);
  }
  bool TraverseCXXDestructorDecl(CXXDestructorDecl *FD) {
    return traverseFunc(FD);
  }

  bool VisitLambdaExpr(LambdaExpr *LE) {
    Settings.noteLambda(LE->getCallOperator(), LE);
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (!Current || Current->isDependentContext() || Call->containsErrors())
      return true;
    if (CallFiles.isSystem(Call->getBeginLoc(), SM))
      return true;
    if (const auto *KCE = dyn_cast<CUDAKernelCallExpr>(Call)) {
      addChevronLaunch(KCE);
      return true;
    }
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return true;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      addLauncherLaunch(MC);
    // Where the callee is declared, asked once per callee.
    auto [Where, New] = CalleeWhere.try_emplace(Callee);
    if (New)
      Where->second = {isInSystemHeader(Callee), isCudaHeaderDecl(Callee, SM)};
    const auto [SystemCallee, CudaHeaderCallee] = Where->second;
    // Calls of user functions, for binding wrappers at their calls.
    if (Callee->hasBody() && !SystemCallee)
      Settings.noteCall(Callee, {Call, Current});
    if (!Callee->getIdentifier() || !CudaHeaderCallee)
      return true;
    StringRef Name = Callee->getName();
    if (Name == "cudaFuncSetAttribute" || Name == "cuFuncSetAttribute") {
      Settings.addAttributeCall(Call, Name == "cuFuncSetAttribute", Current);
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

  /// `triple_chevron(...).doit(kernel, args...)` (see LauncherLaunch).
  void addLauncherLaunch(const CXXMemberCallExpr *MC) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    if (!M || !M->getIdentifier() || M->getName() != "doit" ||
        !M->getParent()->getIdentifier() ||
        M->getParent()->getName() != "triple_chevron" || MC->getNumArgs() < 1)
      return;
    LauncherLaunch L;
    L.Call = MC;
    L.Caller = Current;
    L.Kernel = kernelOf(MC->getArg(0), Eval);
    // The object: `triple_chevron(g, b, bytes, s, pdl)` or a factory's
    // `operator()(g, b, bytes, s, pdl)`.
    const Expr *Object = MC->getImplicitObjectArgument();
    while (true) {
      Object = Object->IgnoreParenImpCasts();
      if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(Object))
        Object = MT->getSubExpr();
      else if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(Object))
        Object = BT->getSubExpr();
      else if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(Object))
        Object = FC->getSubExpr();
      else
        break;
    }
    const Expr *Flag = nullptr;
    if (const auto *CC = dyn_cast<CXXConstructExpr>(Object))
      Flag = CC->getNumArgs() > 4 ? CC->getArg(4) : nullptr;
    else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Object))
      Flag = OC->getNumArgs() > 5 ? OC->getArg(5) : nullptr;
    else
      return;
    if (Flag && isa<CXXDefaultArgExpr>(Flag))
      Flag = nullptr;
    L.DependentLaunch = Flag;
    L.DependentValue = Flag ? Eval.evaluateInt(Flag, nullptr)
                            : std::optional<uint64_t>(0);
    LauncherCalls.push_back(L);
  }

  void addChevronLaunch(const CUDAKernelCallExpr *KCE) {
    LaunchSite L;
    L.Api = LaunchApi::TripleChevron;
    L.Call = KCE;
    L.Caller = Current;
    L.KernelExpr = KCE->getCallee();
    L.DynamicSmemExpr =
        KCE->getConfig() ? argOrNull(KCE->getConfig(), 2) : nullptr;
    finishWithShape(L);
  }

  /// The kernel and shape of a `<<<>>>`, `cudaLaunchKernel` or
  /// `cuLaunchKernel` launch L (its Call, KernelExpr and DynamicSmemExpr
  /// set), evaluated in Frame: L's own fields, or one of its bindings.
  LaunchBinding shapeOf(const LaunchSite &L, const CallFrame *Frame) {
    LaunchBinding B;
    auto Smem = [&]() {
      return L.DynamicSmemExpr ? Eval.evaluateInt(L.DynamicSmemExpr, Frame)
                               : std::optional<uint64_t>(0);
    };
    if (const auto *KCE = dyn_cast<CUDAKernelCallExpr>(L.Call)) {
      B.Kernel = KCE->getDirectCallee();
      if (B.Kernel && !isKernel(B.Kernel))
        B.Kernel = nullptr;
      // A kernel held in a variable: `auto k = f<64>; k<<<...>>>()`.
      if (!B.Kernel)
        B.Kernel = kernelOf(KCE->getCallee(), Eval, Frame);
      const CallExpr *Config = KCE->getConfig();
      if (Config && Config->getNumArgs() >= 2) {
        B.Grid = Eval.evaluateDim3(Config->getArg(0), Frame);
        B.Block = Eval.evaluateDim3(Config->getArg(1), Frame);
        B.DynamicSmem = Smem();
      }
      return B;
    }
    const CallExpr *Call = L.Call;
    // An Ex launch's shape is in its configuration: only the kernel binds.
    if (L.Api == LaunchApi::CudaLaunchKernelEx) {
      B.Kernel = kernelOf(L.KernelExpr, Eval, Frame);
      return B;
    }
    if (L.Api == LaunchApi::CuLaunchKernel) {
      std::optional<uint64_t> D[6];
      for (unsigned I = 0; I < 6; ++I)
        D[I] = Eval.evaluateInt(Call->getArg(1 + I), Frame);
      if (D[0] && D[1] && D[2])
        B.Grid = Dim3{*D[0], *D[1], *D[2]};
      if (D[3] && D[4] && D[5])
        B.Block = Dim3{*D[3], *D[4], *D[5]};
      B.DynamicSmem = Smem();
      return B;
    }
    B.Kernel = kernelOf(L.KernelExpr, Eval, Frame);
    B.Grid = Eval.evaluateDim3(Call->getArg(1), Frame);
    B.Block = Eval.evaluateDim3(Call->getArg(2), Frame);
    B.DynamicSmem = Smem();
    return B;
  }

  /// Evaluates L's shape (see shapeOf) and records it; a launch whose shape
  /// or kernel reads a parameter of its function is bound at the
  /// function's calls after the walk.
  void finishWithShape(LaunchSite &L) {
    Eval.takeUnboundParam();
    LaunchBinding B = shapeOf(L, nullptr);
    const ParmVarDecl *Unbound = Eval.takeUnboundParam();
    if (!L.Kernel)
      L.Kernel = B.Kernel;
    L.Grid = B.Grid;
    L.Block = B.Block;
    L.DynamicSmem = B.DynamicSmem;
    finish(L);
    if (Unbound && ownedBy(Unbound, Current))
      ToBind.push_back(Launches.size() - 1);
  }

  void addApiLaunch(const CallExpr *Call, LaunchApi Api) {
    bool BindKernel = false;
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
      L.DynamicSmemExpr = argOrNull(Call, 4);
      finishWithShape(L);
      return;
    case LaunchApi::CuLaunchKernel:
      if (Call->getNumArgs() < 8)
        return;
      L.KernelExpr = Call->getArg(0);
      L.KernelKey = driverFunctionOf(L.KernelExpr);
      L.DynamicSmemExpr = Call->getArg(7);
      finishWithShape(L);
      return;
    case LaunchApi::CudaLaunchKernelEx:
    case LaunchApi::CuLaunchKernelEx:
      if (Call->getNumArgs() < 2)
        return;
      L.KernelExpr = Call->getArg(1);
      if (Api == LaunchApi::CudaLaunchKernelEx) {
        Eval.takeUnboundParam();
        L.Kernel = kernelOf(L.KernelExpr, Eval);
        const ParmVarDecl *Unbound = Eval.takeUnboundParam();
        // A launcher's kernel parameter: bound at the launcher's calls.
        BindKernel = !L.Kernel && Unbound && ownedBy(Unbound, Current);
      } else {
        L.KernelKey = driverFunctionOf(L.KernelExpr);
      }
      readConfig(L, Call->getArg(0));
      break;
    case LaunchApi::TripleChevron:
      return;
    }
    finish(L);
    if (BindKernel)
      ToBind.push_back(Launches.size() - 1);
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
    return launch_detail::intOf(V, Eval);
  }
  std::optional<Dim3> dim3Of(const FieldValue &V) {
    if (!V.Value)
      return std::nullopt;
    return inFrames(V, [&](const Expr *E, const CallFrame *F) {
      return Eval.evaluateDim3(E, F);
    });
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
    FieldValue Bytes = Field(Driver ? ".sharedMemBytes" : ".dynamicSmemBytes");
    L.DynamicSmemExpr = Bytes.IsZero ? nullptr : spelledAt(Bytes);
    L.DynamicSmem = intOf(Bytes);

    // The attribute array: its cluster-dimension entry.
    std::optional<AttributeArray> Array =
        AttributeArray::read(Config, Current, L.Call, Eval);
    if (!Array)
      return;
    for (uint64_t I = 0; I < Array->size() && I < 64; ++I) {
      FieldValue Id = Array->field(I, ".id");
      StringRef IdName = enumeratorName(Id.Value);
      if (IdName != "cudaLaunchAttributeClusterDimension" &&
          IdName != "CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION")
        continue;
      L.HasClusterAttr = true;
      std::string ValPath =
          std::string(Driver ? ".value" : ".val") + ".clusterDim";
      std::optional<uint64_t> C[3];
      const char *Comps[3] = {".x", ".y", ".z"};
      for (unsigned K = 0; K < 3; ++K) {
        FieldValue CV = Array->field(I, ValPath + Comps[K]);
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

public:
  /// Binds the launches whose shape reads a parameter of their function at
  /// that function's calls; call after the walk (and before sorting).
  void bindLaunches() {
    for (size_t Index : ToBind) {
      LaunchSite &L = Launches[Index];
      bindLaunchAt(L, L.Caller, {}, 0);
    }
  }

private:
  /// Evaluates L at each call of Function, reached through the calls Chain
  /// (innermost first).
  void bindLaunchAt(LaunchSite &L, const FunctionDecl *Function,
                    const llvm::SmallVector<UserCall, 2> &Chain,
                    unsigned Depth) {
    unsigned Seen = 0;
    for (const UserCall &Site : Settings.callsTo(Function)) {
      if (++Seen > 64 || L.Bindings.size() >= 64)
        break;
      if (!Site.Caller || Site.Caller->isDependentContext())
        continue;
      llvm::SmallVector<UserCall, 2> Longer(Chain);
      Longer.push_back(Site);
      std::deque<CallFrame> Frames;
      const CallFrame *Frame = framesOf(Longer, L.Caller, Frames);
      Eval.takeUnboundParam();
      LaunchBinding B = shapeOf(L, Frame);
      const ParmVarDecl *Unbound = Eval.takeUnboundParam();
      if (Unbound && ownedBy(Unbound, Site.Caller) && Depth + 1 < 3) {
        bindLaunchAt(L, Site.Caller, Longer, Depth + 1);
        continue;
      }
      // A call whose values skip the launch binds nothing.
      bool Skipped = unreachableIn(L, Eval, Frame);
      Eval.takeUnboundParam();
      if (Skipped)
        continue;
      for (size_t I = Longer.size(); I-- > 0;)
        B.Through.push_back(Longer[I].Call);
      B.Caller = Site.Caller;
      L.Bindings.push_back(std::move(B));
    }
  }

  const SourceManager &SM;
  ConstantEvaluator &Eval;
  std::vector<LaunchSite> &Launches;
  std::vector<LauncherLaunch> &LauncherCalls;
  const FunctionDecl *Current = nullptr;
  SystemHeaderCache CallFiles;
  /// By callee: declared in a system header; declared by the CUDA headers.
  llvm::DenseMap<const FunctionDecl *, std::pair<bool, bool>> CalleeWhere;
  SettingCollector Settings;
  /// The launches (indices into Launches) to bind at their function's
  /// calls.
  std::vector<size_t> ToBind;
};
} // namespace

/// Sorts V by the expansion location LocOf gives, keeping the walk's order
/// for equal locations.
template <typename T, typename Fn>
static void sortBySource(std::vector<T> &V, const SourceManager &SM,
                         Fn &&LocOf) {
  std::vector<size_t> Order(V.size());
  std::iota(Order.begin(), Order.end(), 0);
  llvm::sort(Order, [&](size_t A, size_t B) {
    SourceLocation LA = SM.getExpansionLoc(LocOf(V[A]));
    SourceLocation LB = SM.getExpansionLoc(LocOf(V[B]));
    if (LA != LB)
      return SM.isBeforeInTranslationUnit(LA, LB);
    return A < B;
  });
  std::vector<T> Sorted;
  Sorted.reserve(V.size());
  for (size_t I : Order)
    Sorted.push_back(std::move(V[I]));
  V = std::move(Sorted);
}

LaunchModel::LaunchModel(ASTContext &Ctx, ConstantEvaluator &Eval)
    : SM(Ctx.getSourceManager()) {
  Collector C(Ctx, Eval, Launches, LauncherCalls, Attrs);
  C.TraverseAST(Ctx);
  C.bindWrappers();
  C.bindLaunches();
  sortBySource(Launches, SM,
               [](const LaunchSite &L) { return L.Call->getBeginLoc(); });
  sortBySource(Attrs, SM, [](const FuncAttributeCall &A) {
    return A.Site->getBeginLoc();
  });
}

const Expr *LauncherLaunch::argument(unsigned Index) const {
  if (!Call || Index + 1 >= Call->getNumArgs())
    return nullptr;
  return Call->getArg(Index + 1);
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
    // In the same function, the setting must come first. The macro
    // locations themselves are compared: a setting and a launch written in
    // one macro argument (`DISPATCH(type, { cudaFuncSetAttribute(...);
    // k<<<...>>>(); })`) share their expansion location but keep their
    // order, and each copy of an argument expanded twice follows the last.
    if (A.Caller == L.Caller &&
        !SM.isBeforeInTranslationUnit(A.Site->getBeginLoc(),
                                      L.Call->getBeginLoc()))
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

} // namespace cuda_tidy
