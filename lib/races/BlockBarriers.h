//===--- BlockBarriers.h - Barriers every thread of a block reaches -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The block barriers of a function in one context of the lane model, as
/// the race finder counts them (SharedRaces.h): the barriers the uniformity
/// analysis recognises at block, cluster or grid scope (not `__syncwarp`),
/// `cuda::barrier` arrive-and-wait, and calls to user functions whose body
/// is not visible, where every thread of the block reaches them: the
/// control at the barrier, at each call of the context's chain, and what a
/// called function's barrier depends on are block-uniform once the chain's
/// arguments are bound. A completed wait on an mbarrier (MbarrierWaits.h)
/// counts wherever it is.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_RACES_BLOCKBARRIERS_H
#define CUDA_TIDY_LIB_RACES_BLOCKBARRIERS_H

#include "lib/lanes/ModelTypes.h"
#include "lib/races/SharedRaces.h"
#include <optional>

namespace cuda_tidy {

class MbarrierWaits;
class UniformityAnalysis;
struct UniformValue;

namespace lanes {
class LaneModel;
} // namespace lanes

/// The elements of I's CFG that are block barriers every thread reaches in
/// the context Fr; std::nullopt when the uniformity analysis cannot analyse
/// a function of the context. MayReachBarrier: Fr's function may reach a
/// block barrier (BarrierReach); when not, the analysis is not asked.
/// Waits: the completed mbarrier waits count too (wherever they are).
std::optional<lanes::BarrierTable>
blockBarriers(lanes::LaneModel &M, UniformityAnalysis &Plain,
              lanes::FunctionInfo &I, const lanes::Frame &Fr,
              bool MayReachBarrier, MbarrierWaits &Waits);

/// V (a level in Fr's function) with the arguments of the context's calls
/// bound, joined with the control at each call: block-uniform? At a root
/// that is not a kernel, its parameters are taken as the same in every
/// thread.
bool boundBlockUniform(UniformityAnalysis &Plain, UniformValue V,
                       const lanes::Frame &Fr);

/// The CFG edges of I that no execution takes in the context Fr, as (from
/// block, to block): the false edge of an `if` around a barrier of Barriers
/// whose condition is implied true where it is tested (the same pure
/// condition holds on entry to an enclosing loop's body or `if`'s then-arm,
/// and nothing in between writes its variables: `for (j = 0; j < n; ++j)
/// { ...; if (j < n) __syncthreads(); }`), or that the lane model evaluates
/// to true in Fr (`if (final_sync) __syncthreads();` in a helper called
/// with `true`).
llvm::SmallVector<std::pair<unsigned, unsigned>, 2>
deadEdges(lanes::LaneModel &M, lanes::FunctionInfo &I, const lanes::Frame &Fr,
          const lanes::BarrierTable &Barriers);

/// Every thread of the block reaches S (a statement of Fr's function) in
/// the context Fr, and in every other context of that function.
bool everyThreadReaches(lanes::LaneModel &M, UniformityAnalysis &Plain,
                        const clang::Stmt *S, const lanes::Frame &Fr);

/// Where `__syncthreads();` orders Race, of the context Fr (see
/// SharedRaces.h): InIteration, a barrier-free path joins the two accesses
/// within one iteration; ThroughBackEdge, one through a loop's back edge.
BarrierFix placeBarrier(lanes::LaneModel &M, UniformityAnalysis &Plain,
                        lanes::FunctionInfo &I, const lanes::Frame &Fr,
                        const SharedRace &Race, bool InIteration,
                        bool ThroughBackEdge);

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_RACES_BLOCKBARRIERS_H
