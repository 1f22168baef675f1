//===--- BlockScopeAtomics.cpp - Block-scope atomics on shared addresses --===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/ast/CudaAST.h"
#include "lib/ordering/MemoryOrderingImpl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace cuda_tidy {

namespace {
/// What an address or index is made of, for the threads of different
/// blocks: a part that comes from blockIdx, none, or something unknown.
enum class BlockPart { None, FromBlockIdx, Unknown };

BlockPart join(BlockPart A, BlockPart B) {
  if (A == BlockPart::FromBlockIdx || B == BlockPart::FromBlockIdx)
    return BlockPart::FromBlockIdx;
  if (A == BlockPart::Unknown || B == BlockPart::Unknown)
    return BlockPart::Unknown;
  return BlockPart::None;
}

/// The right-hand sides Var gets in Body (assignments, compound assignments),
/// or false when it is changed some other way (address taken, `++`, passed
/// by reference).
class ValueCollector : public DynamicRecursiveASTVisitor {
public:
  explicit ValueCollector(const VarDecl *V) : Var(V) {}
  SmallVector<const Expr *, 4> Values;
  bool Escapes = false;
  bool VisitBinaryOperator(BinaryOperator *BO) override {
    if (BO->isAssignmentOp() && refersTo(BO->getLHS()))
      Values.push_back(BO->getRHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) override {
    if (UO->getOpcode() == UO_AddrOf && refersTo(UO->getSubExpr()))
      Escapes = true;
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) override {
    for (const Expr *Arg : CE->arguments())
      if (refersTo(Arg) && Arg->isGLValue())
        Escapes = true;
    return true;
  }

private:
  bool refersTo(const Expr *E) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == Var;
  }
  const VarDecl *Var;
};

class BlockPartFinder {
public:
  explicit BlockPartFinder(const FunctionDecl &F) : Func(F) {}
  BlockPart of(const Expr *E, unsigned Depth = 0);

private:
  BlockPart ofVariable(const VarDecl *V, bool Loaded, unsigned Depth);
  const FunctionDecl &Func;
  llvm::SmallPtrSet<const VarDecl *, 8> Visiting;
};
} // namespace

BlockPart BlockPartFinder::ofVariable(const VarDecl *V, bool Loaded,
                                      unsigned Depth) {
  if (V->isConstexpr())
    return BlockPart::None;
  if (V->hasGlobalStorage())
    // The variable's address is the same in every block; its value, loaded
    // as an index, is memory.
    return Loaded ? BlockPart::Unknown : BlockPart::None;
  if (const auto *P = dyn_cast<ParmVarDecl>(V))
    return isKernel(&Func) && !P->getType()->isReferenceType()
               ? BlockPart::None
               : BlockPart::Unknown;
  if (!Loaded && V->getType()->isArrayType())
    return BlockPart::None;
  if (!Visiting.insert(V).second)
    return BlockPart::None; // `i += stride` adds no new part.
  ValueCollector Collector(V);
  Collector.TraverseStmt(Func.getBody());
  BlockPart Part =
      V->getInit() ? of(V->getInit(), Depth + 1) : BlockPart::Unknown;
  if (Collector.Escapes)
    Part = join(Part, BlockPart::Unknown);
  for (const Expr *Value : Collector.Values)
    Part = join(Part, of(Value, Depth + 1));
  Visiting.erase(V);
  return Part;
}

BlockPart BlockPartFinder::of(const Expr *E, unsigned Depth) {
  if (!E || Depth > 16)
    return BlockPart::Unknown;
  if (std::optional<BuiltinVarRef> Ref = getBuiltinVarRef(E))
    return Ref->Var == BuiltinVar::BlockIdx ? BlockPart::FromBlockIdx
                                            : BlockPart::None;
  E = E->IgnoreParens();
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
    if (Cast->getCastKind() != CK_LValueToRValue)
      return of(Cast->getSubExpr(), Depth);
    const auto *DRE = dyn_cast<DeclRefExpr>(Cast->getSubExpr()->IgnoreParens());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return V ? ofVariable(V, /*Loaded=*/true, Depth) : BlockPart::Unknown;
  }
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
    return of(Cast->getSubExpr(), Depth);
  if (isa<IntegerLiteral>(E) || isa<CharacterLiteral>(E) ||
      isa<CXXBoolLiteralExpr>(E) || isa<UnaryExprOrTypeTraitExpr>(E) ||
      isa<SubstNonTypeTemplateParmExpr>(E))
    return BlockPart::None;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl>(DRE->getDecl()) ||
        isa<NonTypeTemplateParmDecl>(DRE->getDecl()))
      return BlockPart::None;
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    return V ? ofVariable(V, /*Loaded=*/false, Depth) : BlockPart::Unknown;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return join(of(AS->getBase(), Depth + 1), of(AS->getIdx(), Depth + 1));
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->isIncrementDecrementOp() ? BlockPart::Unknown
                                        : of(UO->getSubExpr(), Depth + 1);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return BO->isAssignmentOp()
               ? BlockPart::Unknown
               : join(of(BO->getLHS(), Depth + 1), of(BO->getRHS(), Depth + 1));
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return join(of(CO->getCond(), Depth + 1),
                join(of(CO->getTrueExpr(), Depth + 1),
                     of(CO->getFalseExpr(), Depth + 1)));
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->isArrow() ? join(of(ME->getBase(), Depth + 1), BlockPart::None)
                         : of(ME->getBase(), Depth + 1);
  return BlockPart::Unknown;
}

static std::optional<BlockScopeAtomic>
classifyAddress(const Expr *Address, const FunctionDecl &Func) {
  BlockScopeAtomic Found;
  Found.Address = Address;
  MemoryBase Base = memoryBaseOf(Address, &Func);
  Found.Base = Base.Decl;
  if (Base.Space == MemorySpace::Global) {
    BlockPartFinder Parts(Func);
    Found.SharedBetweenBlocks = Parts.of(Address) == BlockPart::None;
  }
  return Found;
}

std::optional<BlockScopeAtomic>
classifyBlockScopeAtomicCall(const CallExpr &Call, const FunctionDecl &Func) {
  StringRef Name = calleeName(Call);
  if (!Name.starts_with("atomic") || !Name.ends_with("_block") ||
      Call.getNumArgs() < 1)
    return std::nullopt;
  return classifyAddress(Call.getArg(0), Func);
}

/// Whether Type is `cuda::atomic_ref<T, thread_scope_block>` (or
/// `cuda::atomic`, with ClassName).
static bool isBlockScopeAtomicType(QualType Type, StringRef ClassName) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      Type.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || Spec->getName() != ClassName)
    return false;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() < 2 || Args[1].getKind() != TemplateArgument::Integral)
    return false;
  const auto *Enum = Args[1].getIntegralType()->getAs<EnumType>();
  if (!Enum)
    return false;
  for (const EnumConstantDecl *C : Enum->getDecl()->enumerators())
    if (C->getInitVal() == Args[1].getAsIntegral())
      return C->getName() == "thread_scope_block";
  return false;
}

std::optional<BlockScopeAtomic>
classifyBlockScopeAtomicRef(const CXXConstructExpr &Construct,
                            const FunctionDecl &Func) {
  if (Construct.getNumArgs() < 1 ||
      !isBlockScopeAtomicType(Construct.getType(), "atomic_ref"))
    return std::nullopt;
  // A copy of another atomic_ref is not where the address comes from.
  if (isBlockScopeAtomicType(Construct.getArg(0)->getType(), "atomic_ref"))
    return std::nullopt;
  return classifyAddress(Construct.getArg(0), Func);
}

std::optional<BlockScopeAtomic>
classifyBlockScopeAtomicObject(const CallExpr &MemberCall,
                               const FunctionDecl &Func) {
  const auto *Member = dyn_cast<CXXMemberCallExpr>(&MemberCall);
  if (!Member)
    return std::nullopt;
  // The object's own type: libcu++ declares the members in a base.
  const Expr *Object = Member->getImplicitObjectArgument();
  if (Object)
    Object = Object->IgnoreParenImpCasts();
  if (!Object || !isBlockScopeAtomicType(Object->getType(), "atomic"))
    return std::nullopt;
  return classifyAddress(Object, Func);
}

} // namespace cuda_tidy
