//===--- BlockEvaluator.h - Values for a whole block at once ----*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The lane model's evaluator for a whole one-dimensional block in one walk,
/// for the index forms whose cost need not grow with the block size: in
/// lane L of warp W an integer is A[L] + C * W (C the same in every lane),
/// and a comparison gives per lane the set of warps in which it holds. The
/// forms: threadIdx.x, blockDim.x, blockIdx (0), literals and constants,
/// loop and stride-loop variables, parameters through their calls, locals
/// never written again, the `%%laneid` asm local, + - * / % << >> & | ^ ~ !
/// with the operand forms that keep A + C * W exact, comparisons, && and
/// ||. Anything else (a value that would wrap in its type, a call, a
/// conditional operator, a variable written in the function, a known two-
/// or three-dimensional shape) is declined, and the caller evaluates warp
/// by warp (WarpEvaluator.h), which gives the same values: the unit test
/// LaneAccess.BlockAtOnceAgreesWithWarpByWarp compares them.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_LANES_BLOCKEVALUATOR_H
#define CUDA_TIDY_LIB_LANES_BLOCKEVALUATOR_H

#include "lib/lanes/ModelTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>
#include <unordered_map>

namespace cuda_tidy::lanes {

class FunctionFacts;
class GuardModel;
class ThreadVariance;
class WarpAddresses;
class WarpValues;

/// A value over a whole one-dimensional block at once: in lane L of warp
/// W, A[L] + C * W (an integer), or bit W of M[L] (a truth value).
struct WarpVal {
  bool Bool = false;
  int64_t C = 0;
  int64_t A[32] = {};
  uint32_t M[32] = {};
};

/// The warps (bit W) in which each lane passes every warp-varying condition
/// of a guard: the lanes of warp W are those whose bit W is set, the same
/// as GuardModel::evalGuard gives with no unknown lane.
struct BlockGuard {
  bool Ok = false;
  bool ReadBlockDim = false;
  uint32_t Lanes[32] = {}; // by warp
};

/// The elements `base[index]` designates in every thread of a block, for a
/// base the same in all threads: byteAt(W, L) = Byte + (A[L] + C * W) *
/// Size, what WarpAddresses::evalObjW gives lane L of warp W.
struct BlockAddress {
  const void *Key = nullptr;
  const clang::VarDecl *Var = nullptr;
  int64_t Byte = 0, Size = 0;
  WarpVal Index;
  int64_t byteAt(unsigned W, unsigned L) const {
    return int64_t(uint64_t(Byte) +
                   uint64_t(Index.A[L] + Index.C * int64_t(W)) *
                       uint64_t(Size));
  }
};

class BlockEvaluator {
public:
  BlockEvaluator(clang::ASTContext &Ctx, uint64_t &WorkDone,
                 FunctionFacts &Facts, ThreadVariance &Variance,
                 WarpValues &Values, WarpAddresses &Addresses,
                 GuardModel &Guards);

  /// Evaluates E for every thread of a block of NumWarps warps (En.BlockDim =
  /// 32 * NumWarps, shape not known) in one walk; false where the form is not
  /// one of those WarpVal holds or a lane's value would differ from evalW's (a
  /// value that wraps, a call, a variable written in the function): the
  /// caller then evaluates warp by warp. Sets ReadsBlockDim when blockDim is
  /// read.
  bool evalBlock(const clang::Expr *E, const Frame &Fr, const Env &En,
                 unsigned NumWarps, WarpVal &Out, bool &ReadsBlockDim,
                 unsigned Depth = 0);
  /// The warps in which each lane passes every warp-varying condition of
  /// Guard, cached; null where evalBlock does not apply to one of them.
  const BlockGuard *blockGuard(llvm::ArrayRef<Cond> Guard, const Frame &Fr,
                               const Env &En);
  /// BlockAddress for lvalue E in a one-dimensional block of NumWarps warps;
  /// false where E is of another form (the caller evaluates warp by warp).
  bool blockAddress(const clang::Expr *E, const Frame &Fr, const Env &En,
                    unsigned NumWarps, BlockAddress &Out);
  /// The lanes of each warp of the block that pass the chain's guards and
  /// those of Rest (each with its frame), through blockGuard; false when
  /// one of them is not evaluated for the whole block at once.
  bool blockLanes(const CallChain &Chain,
                  llvm::ArrayRef<std::pair<llvm::ArrayRef<Cond>, const Frame *>>
                      Rest,
                  const Env &En, unsigned Threads,
                  llvm::SmallVectorImpl<uint32_t> &Lanes);

private:
  /// An integer of type T in every thread: false where a lane's value
  /// would wrap (evalW normalises to T).
  bool fits(WarpVal &V, clang::QualType T, unsigned NumWarps);
  bool evalDeclRef(const clang::DeclRefExpr *DRE, const Frame &Fr,
                   const Env &En, unsigned NumWarps, WarpVal &R,
                   bool &ReadsBlockDim, unsigned Depth);
  bool evalBinary(const clang::BinaryOperator *BO, const Frame &Fr,
                  const Env &En, unsigned NumWarps, WarpVal &R,
                  bool &ReadsBlockDim, unsigned Depth);
  /// X op Y for an operator other than a comparison, && and ||, with both
  /// sides integers of the block form.
  bool arithmetic(clang::BinaryOperatorKind Op, bool Unsigned,
                  clang::QualType T, unsigned NumWarps, WarpVal &X, WarpVal &Y);

  clang::ASTContext &Ctx;
  uint64_t &WorkDone;
  FunctionFacts &Facts;
  ThreadVariance &Variance;
  WarpValues &Values;
  WarpAddresses &Addresses;
  GuardModel &Guards;
  IntTypes Types{Ctx};
  std::unordered_map<std::string, BlockGuard> BlockGuards;
};

} // namespace cuda_tidy::lanes

#endif // CUDA_TIDY_LIB_LANES_BLOCKEVALUATOR_H
