//===--- Intrinsics.cpp - What CUDA's known calls mean for uniformity -----===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// CUDA's sources of (non-)uniformity, recognised by name without looking
// into bodies: the barriers (recognizeBarrier), the levels of the toolkit's
// intrinsics and of cooperative groups calls, what inline assembly reads or
// does, and which toolkit calls change memory or wait.
//
//===----------------------------------------------------------------------===//

#include "lib/uniformity/UniformityImpl.h"
#include "lib/ast/CudaAST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cuda_tidy {

bool isHeaderFunction(const FunctionDecl *FD, const SourceManager &SM) {
  return FD->getBuiltinID() != 0 || isCudaHeaderDecl(FD, SM);
}

static bool inCooperativeGroups(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "cooperative_groups")
        return true;
  return false;
}

std::optional<llvm::APSInt> constantOf(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent() ||
      !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt();
}

/// The record a cooperative groups call is made on: the object's type, or
/// the method's class.
static const CXXRecordDecl *groupRecord(const CallExpr *Call,
                                        const FunctionDecl *FD) {
  QualType T;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    if (const Expr *Obj = MC->getImplicitObjectArgument())
      T = Obj->getType();
  } else if (const auto *ME = dyn_cast<MemberExpr>(
                 Call->getCallee()->IgnoreParenImpCasts())) {
    T = ME->getBase()->getType();
  } else if (Call->getNumArgs() > 0) {
    // A free function: its group argument.
    T = Call->getArg(0)->getType();
  }
  if (!T.isNull()) {
    T = T.getNonReferenceType();
    if (const auto *PT = T->getAs<PointerType>())
      T = PT->getPointeeType();
    if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl())
      return RD;
  }
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    return MD->getParent();
  return nullptr;
}

/// The size of a cooperative groups tile type (`thread_block_tile<32>`), or
/// 0 when the group is not a tile of known size.
static unsigned tileSize(const CXXRecordDecl *RD) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || Spec->getName() != "thread_block_tile")
    return 0;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() == 0 || Args[0].getKind() != TemplateArgument::Integral)
    return 0;
  return static_cast<unsigned>(Args[0].getAsIntegral().getZExtValue());
}

static bool isWholeWarpTile(unsigned Size) {
  return Size >= 32 && Size % 32 == 0;
}

/// True when Arg is absent (a default argument) or the constant 0xffffffff.
static bool isFullMaskArg(const CallExpr *Call, unsigned I,
                          const ASTContext &Ctx) {
  if (I >= Call->getNumArgs() || isa<CXXDefaultArgExpr>(Call->getArg(I)))
    return true;
  auto V = constantOf(Call->getArg(I), Ctx);
  return V && V->getZExtValue() == 0xffffffffu;
}

//===----------------------------------------------------------------------===//
// Barriers.
//===----------------------------------------------------------------------===//

/// The operands of the first `Mnemonic` instruction in an asm string, up to
/// its ';', or std::nullopt when there is none.
static std::optional<StringRef> asmOperands(StringRef Asm, StringRef Mnemonic) {
  size_t Pos = Asm.find(Mnemonic);
  if (Pos == StringRef::npos)
    return std::nullopt;
  StringRef Rest = Asm.drop_front(Pos + Mnemonic.size());
  // Skip qualifiers such as ".aligned".
  size_t Space = Rest.find_first_of(" \t");
  if (Space == StringRef::npos)
    return StringRef();
  Rest = Rest.drop_front(Space);
  return Rest.take_until([](char C) { return C == ';' || C == '\n'; }).trim();
}

/// A barrier instruction of the whole block or cluster in inline assembly.
static std::optional<BarrierSite> asmBarrier(const GCCAsmStmt *Asm,
                                             BarrierSite B) {
  std::string Str = Asm->getAsmString();
  // The arrive half of a split cluster barrier is not a wait; the wait
  // is where every thread of the cluster must have arrived.
  if (asmOperands(Str, "barrier.cluster.wait")) {
    B.Name = "barrier.cluster.wait";
    B.Scope = BarrierScope::Cluster;
    return B;
  }
  for (StringRef M :
       {"barrier.cta.sync", "bar.cta.sync", "barrier.sync", "bar.sync"}) {
    std::optional<StringRef> Ops = asmOperands(Str, M);
    if (!Ops)
      continue;
    // With a thread count the barrier is for part of the block only.
    if (Ops->contains(','))
      return std::nullopt;
    B.Name = M.str();
    return B;
  }
  return std::nullopt;
}

/// A barrier function of the CUDA headers, Name.
static std::optional<BarrierSite> toolkitBarrier(const CallExpr *Call,
                                                 StringRef Name,
                                                 const ASTContext &Ctx,
                                                 BarrierSite B) {
  if (Name == "__syncthreads" || Name == "__syncthreads_count" ||
      Name == "__syncthreads_and" || Name == "__syncthreads_or" ||
      Name == "__nvvm_bar_sync" || Name == "__nvvm_barrier_sync" ||
      Name == "__barrier_sync" || Name == "__nvvm_bar0_popc" ||
      Name == "__nvvm_bar0_and" || Name == "__nvvm_bar0_or") {
    B.Name = Name.str();
    return B;
  }
  if (Name == "__cluster_barrier_wait") {
    B.Name = Name.str();
    B.Scope = BarrierScope::Cluster;
    return B;
  }
  if (Name == "__syncwarp" && isFullMaskArg(Call, 0, Ctx)) {
    B.Name = Name.str();
    B.WarpBarrier = true;
    return B;
  }
  return std::nullopt;
}

/// Cooperative groups' `sync` of a block, cluster or grid.
static std::optional<BarrierSite>
groupBarrier(const CallExpr *Call, const FunctionDecl *FD, BarrierSite B) {
  if (FD->getName() != "sync" || !inCooperativeGroups(FD))
    return std::nullopt;
  const CXXRecordDecl *RD = groupRecord(Call, FD);
  if (!RD || !RD->getIdentifier())
    return std::nullopt;
  StringRef Group = RD->getName();
  if (Group == "grid_group")
    B.Scope = BarrierScope::Grid;
  else if (Group == "cluster_group")
    B.Scope = BarrierScope::Cluster;
  else if (Group != "thread_block")
    return std::nullopt;
  B.Name = isa<CXXMethodDecl>(FD) ? (Group + "::sync").str()
                                  : "cooperative_groups::sync";
  return B;
}

std::optional<BarrierSite> recognizeBarrier(const Stmt *S, ASTContext &Ctx) {
  if (!S)
    return std::nullopt;
  // Most statements are neither: the site is made only for a candidate.
  auto Site = [S] {
    BarrierSite B;
    B.Site = S;
    B.Barrier = S;
    return B;
  };
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S))
    return asmBarrier(Asm, Site());
  const auto *Call = dyn_cast<CallExpr>(S);
  if (!Call)
    return std::nullopt;
  const FunctionDecl *FD = resolveCallee(Call);
  if (!FD || !FD->getIdentifier())
    return std::nullopt;
  // Every barrier's name is one of these (the test is cheap; whether FD is
  // the toolkit's asks for its attributes).
  StringRef Name = FD->getName();
  if (Name != "sync" && !Name.starts_with("__sync") &&
      !Name.starts_with("__nvvm_bar") && Name != "__barrier_sync" &&
      Name != "__cluster_barrier_wait")
    return std::nullopt;
  if (isHeaderFunction(FD, Ctx.getSourceManager()))
    return toolkitBarrier(Call, Name, Ctx, Site());
  return groupBarrier(Call, FD, Site());
}

//===----------------------------------------------------------------------===//
// The levels of known calls.
//===----------------------------------------------------------------------===//

/// The level of a call to Name, a function of the CUDA headers.
static std::optional<UniformValue>
toolkitLevel(const CallExpr *Call, StringRef Name,
             llvm::ArrayRef<UniformValue> Args, const UniformityOptions &Opts,
             const ASTContext &Ctx) {
  auto Thread = UniformValue::of(Uniformity::Thread);
  auto Warp = UniformValue::of(Uniformity::Warp);
  if (Name == "clock" || Name == "clock64" || Name == "__globaltimer" ||
      Name.starts_with("atomic") || Name.starts_with("__nvvm_atom") ||
      Name.starts_with("__atomic_") || Name.starts_with("__c11_atomic") ||
      Name.starts_with("__hip_atomic") || Name.starts_with("__nvvm_shfl") ||
      Name.starts_with("__lanemask") || Name == "__match_any_sync" ||
      Name == "__shfl" || Name == "__shfl_up" || Name == "__shfl_down" ||
      Name == "__shfl_xor" || Name == "__shfl_up_sync" ||
      Name == "__shfl_down_sync" || Name == "__shfl_xor_sync" ||
      Name.contains("sreg_tid") || Name.contains("sreg_laneid") ||
      Name.contains("sreg_clock") || Name.contains("sreg_globaltimer") ||
      Name.contains("sreg_lanemask") || Name.contains("sreg_warpid") ||
      Name.contains("sreg_smid"))
    return Thread;
  if (Opts.Scope != BarrierScope::Block &&
      (Name.contains("sreg_ctaid") || Name.contains("sreg_cluster_ctarank") ||
       Name.contains("sreg_cluster_ctaid") ||
       (Opts.Scope == BarrierScope::Grid && Name.contains("sreg_clusterid")) ||
       Name == "__clusterRelativeBlockRank" ||
       Name == "__clusterRelativeBlockIdx" ||
       Name == "__cluster_map_shared_rank"))
    return Thread;
  if (Name == "__shfl_sync") {
    // A broadcast from a uniform lane across the whole warp.
    bool UniformLane = Args.size() > 2 && Args[2].Params == 0 &&
                       Args[2].Base != Uniformity::Thread;
    bool FullWidth = true;
    if (Call->getNumArgs() > 3 && !isa<CXXDefaultArgExpr>(Call->getArg(3))) {
      auto W = constantOf(Call->getArg(3), Ctx);
      FullWidth = W && W->getExtValue() == 32;
    }
    return UniformLane && FullWidth ? Warp : Thread;
  }
  if (Name == "__ballot_sync" || Name == "__any_sync" || Name == "__all_sync" ||
      Name == "__activemask" || Name == "__match_all_sync" ||
      Name == "__ballot" || Name == "__any" || Name == "__all" ||
      Name.starts_with("__nvvm_vote") ||
      (Name.starts_with("__reduce_") && Name.ends_with("_sync")))
    return Warp;
  if (Name == "__syncthreads_count" || Name == "__syncthreads_and" ||
      Name == "__syncthreads_or" || Name.starts_with("__nvvm_bar0_"))
    return UniformValue();
  return std::nullopt;
}

/// The level of a call to method Name of cooperative groups' Group (a tile
/// of Tile threads, or 0).
static std::optional<UniformValue>
groupMethodLevel(StringRef Name, StringRef Group, unsigned Tile,
                 const UniformityOptions &Opts) {
  auto Thread = UniformValue::of(Uniformity::Thread);
  auto Warp = UniformValue::of(Uniformity::Warp);
  bool BlockLike = Group == "thread_block" || Group == "grid_group" ||
                   Group == "cluster_group";
  if (Name == "thread_rank") {
    if (!BlockLike || !Opts.BlockSizeMultipleOf32)
      return Thread;
    // A block's rank is threadIdx.x + 32 * q (Uniformity.h); a grid's or a
    // cluster's adds the block's rank times its size, a multiple of 32 that
    // is uniform where blocks are one.
    UniformValue V =
        UniformValue::of(Uniformity::Thread, UniformValue::LaneLinear);
    if (Group != "thread_block" && Opts.Scope != BarrierScope::Block)
      return V;
    V.Affine = true;
    V.Lin = {1, 0, 0, 32};
    V.Pow2 = Group == "thread_block" ? 63 : 5;
    return V;
  }
  if (Name == "thread_index" || Name.starts_with("shfl") ||
      Name.starts_with("match"))
    return Thread;
  if (Name == "meta_group_rank")
    return isWholeWarpTile(Tile) ? Warp : Thread;
  if (Name == "any" || Name == "all" || Name == "ballot")
    return Tile == 32 ? Warp : Thread;
  if ((Name == "group_index" || Name == "block_index" ||
       Name == "block_rank") &&
      Opts.Scope != BarrierScope::Block)
    return Thread;
  if (Name == "group_index" || Name == "block_index" || Name == "block_rank" ||
      Name == "num_threads" || Name == "size" || Name == "group_dim" ||
      Name == "dim_threads" || Name == "dim_blocks" || Name == "num_blocks" ||
      Name == "meta_group_size" || Name == "is_valid" || Name == "sync")
    return UniformValue();
  return std::nullopt;
}

/// The level of a call to Name, a free function of cooperative groups on a
/// tile of Tile threads (or 0).
static std::optional<UniformValue> groupFunctionLevel(StringRef Name,
                                                      unsigned Tile) {
  if (Name == "this_thread_block" || Name == "this_grid" ||
      Name == "this_cluster" || Name == "tiled_partition" || Name == "sync" ||
      Name == "wait" || Name == "wait_prior" || Name == "memcpy_async")
    return UniformValue();
  if (Name == "reduce")
    return isWholeWarpTile(Tile) ? UniformValue::of(Uniformity::Warp)
                                 : UniformValue::of(Uniformity::Thread);
  if (Name == "inclusive_scan" || Name == "exclusive_scan" ||
      Name == "coalesced_threads" || Name == "labeled_partition" ||
      Name == "binary_partition")
    return UniformValue::of(Uniformity::Thread);
  return std::nullopt;
}

std::optional<UniformValue> intrinsicLevel(const CallExpr *Call,
                                           const FunctionDecl *FD,
                                           llvm::ArrayRef<UniformValue> Args,
                                           const UniformityOptions &Opts,
                                           ASTContext &Ctx, bool Header) {
  if (!FD->getIdentifier())
    return std::nullopt;
  StringRef Name = FD->getName();
  if (Header)
    return toolkitLevel(Call, Name, Args, Opts, Ctx);
  if (!inCooperativeGroups(FD))
    return std::nullopt;
  const CXXRecordDecl *RD = groupRecord(Call, FD);
  StringRef Group = RD && RD->getIdentifier() ? RD->getName() : "";
  unsigned Tile = tileSize(RD);
  if (isa<CXXMethodDecl>(FD))
    return groupMethodLevel(Name, Group, Tile, Opts);
  return groupFunctionLevel(Name, Tile);
}

UniformValue asmLevel(StringRef Asm, UniformValue Inputs) {
  UniformValue Level = Inputs;
  for (StringRef Varying :
       {"%laneid", "%tid", "%clock", "%globaltimer", "%lanemask", "%warpid",
        "%smid", "atom.", "red.", "shfl", "match.any"})
    if (Asm.contains(Varying))
      Level = UniformValue::of(Uniformity::Thread);
  if (Level.Base != Uniformity::Thread && Asm.contains("vote"))
    Level = join(Level, UniformValue::of(Uniformity::Warp));
  return Level;
}

bool isWorkCall(const FunctionDecl *FD, const SourceManager &SM) {
  if (!FD || !FD->getIdentifier() || !isHeaderFunction(FD, SM))
    return true;
  // The toolkit's math and conversion functions only compute; what
  // changes memory, orders it or waits is work.
  StringRef Name = FD->getName();
  return Name.starts_with("atomic") || Name.starts_with("__nvvm_atom") ||
         Name.starts_with("__st") || Name.starts_with("__threadfence") ||
         Name.starts_with("__sync") || Name.starts_with("__nanosleep") ||
         Name.starts_with("__trap") || Name == "printf" ||
         Name.starts_with("mem") || Name.contains("wait") ||
         Name.contains("arrive") || Name.contains("async");
}

} // namespace cuda_tidy
