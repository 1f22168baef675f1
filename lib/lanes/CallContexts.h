//===--- CallContexts.h - The call chains a function is analysed in -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The contexts of the lane model: each device function is analysed in each
/// call chain that leads to it from a kernel, or from a function with no
/// caller in the translation unit (its entry lanes unknown), up to
/// MaxContexts chains of up to MaxCallDepth calls; recursion is cut.
/// Callers come from the translation unit's call graph (lib/ast/CallGraph.h)
/// plus the dependent calls of template patterns that name one function
/// (`warpTail<BlockSize>(s, tid)`). Also: which callees the model follows
/// into (device code with a visible body, not in a system header, not
/// recursive), and the block shapes a context's kernel is evaluated for.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_LANES_CALLCONTEXTS_H
#define CUDA_TIDY_LIB_LANES_CALLCONTEXTS_H

#include "lib/lanes/ModelTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <deque>
#include <optional>

namespace cuda_tidy::lanes {

class FunctionFacts;

class CallContexts {
public:
  /// DefaultShape: the block shape of kernels with no launch whose block
  /// is proven (the cuda.BlockDim option), if set.
  CallContexts(clang::ASTContext &Ctx, const LaneModelInputs &Inputs,
               std::optional<Dim3> DefaultShape, FunctionFacts &Facts);

  /// The device functions with a body that are not in a system header's
  /// expansion (the model's work list), in traversal order.
  llvm::ArrayRef<const clang::FunctionDecl *> functions();
  /// The device functions that call F, with the calls.
  llvm::SmallVector<std::pair<const clang::CallExpr *,
                              const clang::FunctionDecl *>,
                    4>
  callersOf(const clang::FunctionDecl *F);
  /// The call chains F is analysed in.
  llvm::ArrayRef<const Frame *> contextsOf(const clang::FunctionDecl *F,
                                           unsigned Depth = 0);
  /// Whether F is a device function (not a kernel) that nothing in the
  /// translation unit calls and that takes a pointer to volatile data (a
  /// header's warp-synchronous helper, `warpReduce(volatile float *s,
  /// int tid)`). Such a function is analysed as run by one whole warp of 32
  /// threads: its volatile pointer parameters each point to one array the
  /// lanes share, and an integer parameter named as a thread index (see
  /// assumedThreadIndex) is the lane's thread index.
  bool uncalledWarpHelper(const clang::FunctionDecl *F);
  /// Whether P, a parameter of an uncalled warp helper, is taken as the
  /// thread's index: an integer named `tid`, `thid`, `tidx`, `ltid`, `lid`,
  /// `lane`, `laneId`, `lane_id`, `threadId`, `thread_id`, `localId`.
  static bool assumedThreadIndex(const clang::ParmVarDecl *P);
  /// The definition of a callee whose body the model may follow.
  const clang::FunctionDecl *followable(const clang::FunctionDecl *Callee,
                                        const Frame &Fr) const;
  /// The frame of Def called by Call from Parent (one per call and parent,
  /// kept with the contexts).
  const Frame *callFrame(const clang::FunctionDecl *Def,
                         const clang::CallExpr *Call, const Frame &Parent);
  /// The shapes a frame is evaluated for (see LaneModel.h): the shapes of
  /// its kernel's launches in this translation unit when one of them has
  /// two or three dimensions, else the default shape, else the
  /// one-dimensional sizes of BlockSizes up to `__launch_bounds__`.
  llvm::ArrayRef<BlockShape> blockShapes(const Frame &Fr);
  /// The cuda.BlockDim shape, if set.
  std::optional<Dim3> defaultShape() const { return DefaultShape; }
  /// The distinct block shapes of the launches of kernel K in this
  /// translation unit whose block is proven (one-dimensional ones too), in
  /// launch order.
  llvm::SmallVector<Dim3, 4> launchedShapes(const clang::FunctionDecl *K);
  /// Whether this translation unit may launch kernel K: a launch of it,
  /// proven block or not, or a launch whose kernel is not resolved.
  bool mayBeLaunched(const clang::FunctionDecl *K);

private:
  class Collector;
  /// Fills Functions and PatternCallers (once).
  void collect();

  clang::ASTContext &Ctx;
  const LaneModelInputs &Inputs;
  FunctionFacts &Facts;
  bool Collected = false;
  llvm::SmallVector<const clang::FunctionDecl *, 16> Functions;
  /// Calls the translation unit's call graph cannot resolve: dependent calls
  /// in template patterns (`warpTail<BlockSize>(s, tid)`), by callee.
  llvm::DenseMap<const clang::FunctionDecl *,
                 llvm::SmallVector<std::pair<const clang::CallExpr *,
                                             const clang::FunctionDecl *>,
                                   2>>
      PatternCallers;
  /// Definitions followable() looked at: whether each is in user code (a
  /// definition of the user's device code, not a header's).
  mutable llvm::DenseMap<const clang::FunctionDecl *, bool> UserDefinitions;
  std::deque<Frame> FrameStore;
  llvm::DenseMap<const clang::FunctionDecl *,
                 llvm::SmallVector<const Frame *, 4>>
      Contexts;
  llvm::DenseMap<std::pair<const clang::CallExpr *, const Frame *>,
                 const Frame *>
      CallFrames;
  /// The shape the cuda.BlockDim option gives kernels with no launch whose
  /// block is proven.
  std::optional<Dim3> DefaultShape;
  llvm::DenseMap<const clang::FunctionDecl *,
                 llvm::SmallVector<BlockShape, 6>>
      ShapeCache;
  llvm::DenseMap<const clang::FunctionDecl *, bool> WarpHelpers;
};

} // namespace cuda_tidy::lanes

#endif // CUDA_TIDY_LIB_LANES_CALLCONTEXTS_H
