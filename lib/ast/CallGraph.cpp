//===--- CallGraph.cpp - The calls of a translation unit ------------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/ast/CallGraph.h"
#include "lib/ast/CudaAST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_tidy {

namespace {
/// Fills a CallGraphIndex: every call with a direct callee, attributed to
/// the function whose body holds it, and every reference to a function that
/// is not the callee of a call.
class CallIndexer : public DynamicRecursiveASTVisitor {
public:
  CallIndexer(
      llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<CallSite, 2>> &Out,
      llvm::DenseSet<const FunctionDecl *> &AddressTaken,
      llvm::DenseMap<const Stmt *, const FunctionDecl *> &Enclosing)
      : Out(Out), AddressTaken(AddressTaken), Enclosing(Enclosing) {
    ShouldVisitTemplateInstantiations = true;
    ShouldVisitImplicitCode = false;
    // Calls in types (`decltype(f(x))`) are not evaluated.
    ShouldWalkTypesOfTypeLocs = false;
  }

  // Declarations of system headers outside function bodies that hold no
  // function body (variables, types, enums, using declarations, static
  // assertions) are not walked: the headers of a CUDA translation unit are
  // most of it.
  //
  // Where a declaration is written is asked only at namespace scope: one
  // inside a class or a function is where its enclosing declaration is.
  bool TraverseDecl(Decl *D) override {
    if (!D)
      return true;
    const bool Saved = InSystem;
    if (!isa<TranslationUnitDecl>(D) &&
        D->getLexicalDeclContext()->getRedeclContext()->isFileContext())
      InSystem = SystemFiles.isSystem(D);
    bool Result = true;
    if (!InSystem ||
        !isa<VarDecl, TypedefNameDecl, EnumDecl, UsingDecl,
             UsingDirectiveDecl, StaticAssertDecl, FieldDecl,
             TypeAliasTemplateDecl, VarTemplateDecl, ConceptDecl>(D) ||
        D->getDeclContext()->isFunctionOrMethod())
      Result = DynamicRecursiveASTVisitor::TraverseDecl(D);
    InSystem = Saved;
    return Result;
  }

  // In a system header, types, template arguments, qualifiers and
  // attributes hold no call the index needs: the user's functions it can
  // call reach it through the bodies of device template instantiations.
  bool TraverseTypeLoc(TypeLoc TL, bool TraverseQualifier) override {
    return InSystem ||
           DynamicRecursiveASTVisitor::TraverseTypeLoc(TL, TraverseQualifier);
  }
  bool TraverseTemplateArgumentLoc(const TemplateArgumentLoc &Arg) override {
    return InSystem ||
           DynamicRecursiveASTVisitor::TraverseTemplateArgumentLoc(Arg);
  }
  bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc NNS) override {
    return InSystem ||
           DynamicRecursiveASTVisitor::TraverseNestedNameSpecifierLoc(NNS);
  }
  bool TraverseAttr(Attr *At) override {
    return InSystem || DynamicRecursiveASTVisitor::TraverseAttr(At);
  }

  bool TraverseFunctionDecl(FunctionDecl *FD) override {
    return within(FD, [&] {
      return DynamicRecursiveASTVisitor::TraverseFunctionDecl(FD);
    });
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *FD) override {
    return within(FD, [&] {
      return DynamicRecursiveASTVisitor::TraverseCXXMethodDecl(FD);
    });
  }
  bool TraverseCXXConstructorDecl(CXXConstructorDecl *FD) override {
    return within(FD, [&] {
      return DynamicRecursiveASTVisitor::TraverseCXXConstructorDecl(FD);
    });
  }
  bool TraverseCXXDestructorDecl(CXXDestructorDecl *FD) override {
    return within(FD, [&] {
      return DynamicRecursiveASTVisitor::TraverseCXXDestructorDecl(FD);
    });
  }
  bool TraverseCXXConversionDecl(CXXConversionDecl *FD) override {
    return within(FD, [&] {
      return DynamicRecursiveASTVisitor::TraverseCXXConversionDecl(FD);
    });
  }

  // A lambda's body is traversed as part of the function it is written in
  // (its call operator is implicit code), but a call in it is the lambda's.
  bool TraverseLambdaExpr(LambdaExpr *LE) override {
    const FunctionDecl *Saved = Innermost;
    Innermost = LE->getCallOperator();
    bool Result = DynamicRecursiveASTVisitor::TraverseLambdaExpr(LE);
    Innermost = Saved;
    return Result;
  }

  bool VisitAsmStmt(AsmStmt *S) override {
    if (Innermost)
      Enclosing[S] = Innermost;
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) override {
    if (Innermost)
      Enclosing[Call] = Innermost;
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      Out[Callee->getCanonicalDecl()].push_back({Call, Current});
    // The visitor sees a call before its callee expression; remember the
    // callee so that it is not taken for an address-taken function.
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts()))
      CalleeRefs.insert(DRE);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) override {
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
      if (!CalleeRefs.contains(DRE))
        AddressTaken.insert(FD->getCanonicalDecl());
    return true;
  }

private:
  template <typename Fn> bool within(const FunctionDecl *FD, Fn Traverse) {
    // Functions of system headers (most of a CUDA translation unit) are
    // walked only where they can reach user code: device code instantiated
    // from a template (a library kernel calling the user's functor). A
    // host-only function holds no device call, and one that is no
    // instantiation cannot name a function of the user's; a declaration
    // with no body holds no call at all.
    if (InSystem &&
        (!FD->getBody() || !FD->isTemplateInstantiation() ||
         (!FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAGlobalAttr>())))
      return true;
    const FunctionDecl *Saved = Current, *SavedInnermost = Innermost;
    Current = Innermost = FD;
    bool Result = Traverse();
    Current = Saved;
    Innermost = SavedInnermost;
    return Result;
  }

  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<CallSite, 2>> &Out;
  llvm::DenseSet<const FunctionDecl *> &AddressTaken;
  llvm::DenseMap<const Stmt *, const FunctionDecl *> &Enclosing;
  const FunctionDecl *Current = nullptr, *Innermost = nullptr;
  /// The namespace-scope declaration being walked is in a system header.
  bool InSystem = false;
  SystemHeaderCache SystemFiles;
  llvm::DenseSet<const DeclRefExpr *> CalleeRefs;
};
} // namespace

CallGraphIndex::CallGraphIndex(ASTContext &Ctx) {
  CallIndexer Indexer(Callers, AddressTaken, Enclosing);
  Indexer.TraverseAST(Ctx);
}

llvm::ArrayRef<CallSite>
CallGraphIndex::callersOf(const FunctionDecl *F) const {
  if (!F)
    return {};
  auto It = Callers.find(F->getCanonicalDecl());
  if (It == Callers.end())
    return {};
  return It->second;
}

const FunctionDecl *CallGraphIndex::enclosingCallable(const Stmt *S) const {
  return S ? Enclosing.lookup(S) : nullptr;
}

bool CallGraphIndex::isAddressTaken(const FunctionDecl *F) const {
  return F && AddressTaken.contains(F->getCanonicalDecl());
}

} // namespace cuda_tidy
