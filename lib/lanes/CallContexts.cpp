//===--- CallContexts.cpp - The call chains a function is analysed in -----===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/lanes/CallContexts.h"
#include "lib/ast/CallGraph.h"
#include "lib/ast/CudaAST.h"
#include "lib/lanes/FunctionFacts.h"
#include "lib/launch/LaunchModel.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_tidy::lanes {

CallContexts::CallContexts(ASTContext &Ctx, const LaneModelInputs &Inputs,
                           std::optional<Dim3> DefaultShape,
                           FunctionFacts &Facts)
    : Ctx(Ctx), Inputs(Inputs), Facts(Facts), DefaultShape(DefaultShape) {}

const FunctionDecl *
CallContexts::followable(const FunctionDecl *Callee,
                                     const Frame &Fr) const {
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || !Def)
    return nullptr;
  auto [It, New] = UserDefinitions.try_emplace(Def, false);
  if (New) {
    const SourceManager &SM = Ctx.getSourceManager();
    It->second =
        Def->getBody() && isDeviceCode(Def) && !Def->isVariadic() &&
        !SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation()));
  }
  if (!It->second)
    return nullptr;
  // Recursion is cut.
  for (const Frame *Cur = &Fr; Cur; Cur = Cur->Parent)
    if (Cur->F == Def)
      return nullptr;
  return Def;
}

llvm::ArrayRef<BlockShape>
CallContexts::blockShapes(const Frame &Fr) {
  const FunctionDecl *Root = rootOf(Fr).F;
  auto [It, New] = ShapeCache.try_emplace(Root);
  if (!New)
    return It->second;
  llvm::SmallVector<BlockShape, 6> Shapes;
  // What the code says: the blocks of its launches in this translation
  // unit, else the option.
  uint64_t MaxThreads = 1024;
  if (isKernel(Root)) {
    for (const LaunchSite &L : Inputs.Launches().launches())
      if (L.Kernel && L.Block &&
          L.Kernel->getCanonicalDecl() == Root->getCanonicalDecl() &&
          L.Block->product() > 0 && L.Block->product() <= 1024 &&
          !llvm::any_of(Shapes,
                        [&](const BlockShape &S) { return S.D == *L.Block; }))
        Shapes.push_back({*L.Block, true});
    if (Shapes.empty() && DefaultShape)
      Shapes.push_back({*DefaultShape, true});
    // __launch_bounds__(N): no block of the kernel has more threads.
    if (std::optional<uint64_t> Bound = launchBoundsMaxThreads(Root, Ctx))
      MaxThreads = std::min(MaxThreads, *Bound);
  }
  // A warp helper no one calls: one warp (see uncalledWarpHelper).
  if (uncalledWarpHelper(Root))
    MaxThreads = 32;
  // A one-dimensional shape says no more than the model's own enumeration
  // of block sizes, which it keeps (a launch seen here may not be the only
  // one).
  if (llvm::none_of(Shapes, [](const BlockShape &S) {
        return S.D.Y > 1 || S.D.Z > 1;
      })) {
    Shapes.clear();
    for (unsigned NumThreads : BlockSizes)
      if (NumThreads <= MaxThreads || NumThreads == BlockSizes[0])
        Shapes.push_back({Dim3{NumThreads, 1, 1}, false});
  }
  It = ShapeCache.find(Root);
  It->second = std::move(Shapes);
  return It->second;
}

/// Collects the device functions to analyse and the dependent calls of
/// template patterns.
class CallContexts::Collector : public DynamicUserCodeVisitor {
public:
  explicit Collector(CallContexts &A) : A(A) {
    ShouldVisitTemplateInstantiations = true;
  }

  bool TraverseFunctionDecl(FunctionDecl *FD) override {
    return traverseFn(FD);
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *FD) override {
    return traverseFn(FD);
  }
  bool TraverseCXXConversionDecl(CXXConversionDecl *FD) override {
    return traverseFn(FD);
  }

  bool traverseFn(FunctionDecl *FD) {
    const FunctionDecl *Saved = Current;
    bool Device = FD->doesThisDeclarationHaveABody() && isDeviceCode(FD) &&
                  isAnalysedBody(FD) && !FD->isInvalidDecl();
    if (Device) {
      A.Functions.push_back(FD);
      Current = FD->isDependentContext() ? FD : nullptr;
    } else {
      Current = nullptr;
    }
    bool Result;
    if (auto *CD = dyn_cast<CXXConversionDecl>(FD))
      Result = DynamicRecursiveASTVisitor::TraverseCXXConversionDecl(CD);
    else if (isa<CXXMethodDecl>(FD))
      Result = DynamicRecursiveASTVisitor::TraverseCXXMethodDecl(
          cast<CXXMethodDecl>(FD));
    else
      Result = DynamicRecursiveASTVisitor::TraverseFunctionDecl(FD);
    Current = Saved;
    return Result;
  }

  /// Outside a device function's pattern no call is collected: what is
  /// left to find in a statement is a function of a class declared in it
  /// (walked as a declaration), so the rest of the statement is not walked.
  bool TraverseStmt(Stmt *S) override {
    if (!S || Current)
      return DynamicRecursiveASTVisitor::TraverseStmt(S);
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (Decl *D : DS->decls())
        if (isa<TagDecl>(D) && !TraverseDecl(D))
          return false;
    for (Stmt *Child : S->children())
      if (!TraverseStmt(Child))
        return false;
    return true;
  }

  /// Dependent calls of a pattern, which the call graph has no edge for.
  bool VisitCallExpr(CallExpr *CE) override {
    if (!Current || CE->getDirectCallee())
      return true;
    const FunctionDecl *Callee = resolveCallee(CE);
    const FunctionDecl *Def = nullptr;
    if (Callee && Callee->hasBody(Def) && Def && isDeviceCode(Def) &&
        Def != Current && isAnalysedBody(Def))
      A.PatternCallers[Def].push_back({CE, Current});
    return true;
  }

private:
  CallContexts &A;
  const FunctionDecl *Current = nullptr;
};

void CallContexts::collect() {
  if (Collected)
    return;
  Collected = true;
  Collector(*this).TraverseDecl(Ctx.getTranslationUnitDecl());
}

llvm::SmallVector<std::pair<const CallExpr *, const FunctionDecl *>, 4>
CallContexts::callersOf(const FunctionDecl *F) {
  collect();
  llvm::SmallVector<std::pair<const CallExpr *, const FunctionDecl *>, 4> Out;
  const SourceManager &SM = Ctx.getSourceManager();
  for (const CallSite &Site : Inputs.Calls().callersOf(F)) {
    const FunctionDecl *Caller = Site.Caller;
    if (!Caller || Caller->getCanonicalDecl() == F->getCanonicalDecl() ||
        !Caller->hasBody() || !isDeviceCode(Caller) ||
        !isAnalysedBody(Caller) ||
        SM.isInSystemHeader(SM.getExpansionLoc(Caller->getLocation())))
      continue;
    // A lambda's calls are attributed to the function it is written in; the
    // model does not bind lambda parameters.
    if (Caller->getBody() && !Facts.info(Caller).PM->hasParent(Site.Call))
      continue;
    Out.push_back({Site.Call, Caller});
  }
  auto It = PatternCallers.find(F);
  if (It != PatternCallers.end())
    Out.append(It->second.begin(), It->second.end());
  return Out;
}

bool CallContexts::uncalledWarpHelper(const FunctionDecl *F) {
  auto [It, New] = WarpHelpers.try_emplace(F, false);
  if (!New)
    return It->second;
  const SourceManager &SM = Ctx.getSourceManager();
  bool Helper = !isKernel(F) && F->hasBody() && isDeviceCode(F) &&
                !F->isTemplateInstantiation() &&
                !SM.isInSystemHeader(SM.getExpansionLoc(F->getLocation())) &&
                Inputs.Calls().callersOf(F).empty() && callersOf(F).empty() &&
                llvm::any_of(F->parameters(), [](const ParmVarDecl *P) {
                  QualType T = P->getType();
                  return T->isPointerType() &&
                         T->getPointeeType().isVolatileQualified() &&
                         !T->getPointeeType().isConstQualified();
                });
  WarpHelpers[F] = Helper;
  return Helper;
}

bool CallContexts::assumedThreadIndex(const ParmVarDecl *P) {
  if (!P->getType()->isIntegerType() || !P->getIdentifier())
    return false;
  std::string Name;
  for (char C : P->getName())
    if (C != '_')
      Name.push_back(static_cast<char>(llvm::toLower(C)));
  return llvm::is_contained({"tid", "thid", "tidx", "ltid", "lid", "lane",
                             "laneid", "threadid", "localid"},
                            Name);
}

static constexpr unsigned MaxContexts = 16;
static constexpr unsigned MaxCallDepth = 8;


llvm::ArrayRef<const Frame *>
CallContexts::contextsOf(const FunctionDecl *F, unsigned Depth) {
  auto Found = Contexts.find(F);
  if (Found != Contexts.end())
    return Found->second;
  // Recursion or a deep chain: cut here, with F as a root of unknown entry.
  Contexts[F]; // marks F in progress: a recursive call sees no context
  llvm::SmallVector<const Frame *, 4> Out;
  auto Callers = callersOf(F);
  if (isKernel(F) || Callers.empty() || Depth >= MaxCallDepth) {
    FrameStore.push_back(Frame{F, nullptr, nullptr});
    Out.push_back(&FrameStore.back());
  } else {
    for (auto &[Call, Caller] : Callers) {
      for (const Frame *Parent : contextsOf(Caller, Depth + 1)) {
        if (Out.size() >= MaxContexts)
          break;
        FrameStore.push_back(Frame{F, Call, Parent});
        Out.push_back(&FrameStore.back());
      }
    }
  }
  auto &Slot = Contexts[F];
  Slot = std::move(Out);
  return Slot;
}

llvm::ArrayRef<const FunctionDecl *> CallContexts::functions() {
  collect();
  return Functions;
}

const Frame *CallContexts::callFrame(const FunctionDecl *Def,
                                     const CallExpr *Call,
                                     const Frame &Parent) {
  const Frame *&Slot = CallFrames[{Call, &Parent}];
  if (!Slot) {
    FrameStore.push_back(Frame{Def, Call, &Parent});
    Slot = &FrameStore.back();
  }
  return Slot;
}

llvm::SmallVector<Dim3, 4>
CallContexts::launchedShapes(const FunctionDecl *K) {
  llvm::SmallVector<Dim3, 4> Out;
  for (const LaunchSite &L : Inputs.Launches().launches())
    if (L.Kernel && L.Block &&
        L.Kernel->getCanonicalDecl() == K->getCanonicalDecl() &&
        L.Block->product() > 0 && L.Block->product() <= 1024 &&
        !llvm::is_contained(Out, *L.Block))
      Out.push_back(*L.Block);
  return Out;
}

bool CallContexts::mayBeLaunched(const FunctionDecl *K) {
  return llvm::any_of(Inputs.Launches().launches(), [&](const LaunchSite &L) {
    return !L.KernelKey ||
           (L.Kernel && L.Kernel->getCanonicalDecl() == K->getCanonicalDecl());
  });
}

} // namespace cuda_tidy::lanes
