//===--- WarpExchanges.h - Lanes of a warp exchanging data -------*- C++
//-*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The warp-exchange finder, a client of the lane model (LaneModel.h), for
/// cuda-implicit-warp-synchronization and cuda-warp-mask-correctness: a
/// write and a read of overlapping bytes of the same shared element (or
/// kernel pointer parameter element) by two different lanes of one warp
/// that can run concurrently, that is, some program point reaches both
/// with no barrier in between (one reaches the other, both are in one
/// statement, or they are on both sides of a branch that splits the warp).
/// Accesses in one iteration of a loop share its variable; through a back
/// edge they take any values (for a stride loop, the next iteration). A
/// pair that a condition the model cannot evaluate guards on both sides is
/// not reported (it may let one lane through).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_EXCHANGES_WARPEXCHANGES_H
#define CUDA_TIDY_LIB_EXCHANGES_WARPEXCHANGES_H

#include "lib/lanes/LaneModel.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>

namespace cuda_tidy {

/// A write and a read of the same shared element by two lanes of one warp
/// with no barrier between them.
struct WarpExchange {
  /// The function whose body holds both accesses.
  const clang::FunctionDecl *Func = nullptr;
  /// The read of another lane's element (an lvalue; for `s[t] += s[t + 1]`
  /// the read may be the compound assignment's left side).
  const clang::Expr *Read = nullptr;
  /// The write the read exchanges with.
  const clang::Expr *Write = nullptr;
  /// The statements that hold them (see LaneModel::statementOf).
  const clang::Stmt *ReadStmt = nullptr;
  const clang::Stmt *WriteStmt = nullptr;
  /// The `__shared__` variable accessed, or for global memory the kernel's
  /// pointer parameter the accesses go through (Global).
  const clang::VarDecl *Shared = nullptr;
  bool Global = false;
  /// The context's root is a warp helper nothing in the translation unit
  /// calls (CallContexts::uncalledWarpHelper), analysed as run by one whole
  /// warp; Shared is then its volatile pointer parameter, whose memory is
  /// not known.
  const clang::FunctionDecl *AssumedHelper = nullptr;
  /// Its parameter taken as each lane's thread index, if any.
  const clang::ParmVarDecl *AssumedIndex = nullptr;
  /// The call that passes shared memory into Func, when the accesses go
  /// through a pointer parameter; null otherwise.
  const clang::CallExpr *Via = nullptr;
  /// For an exchange split over two calls made in Func (a write in one, a
  /// read in the other), or over Func and one call it makes: the calls (the
  /// one of Func's own side null); an access made in a callee (at any
  /// depth below the call) has the statement of Func that holds the call as
  /// its ReadStmt or WriteStmt.
  const clang::CallExpr *ReadCall = nullptr;
  const clang::CallExpr *WriteCall = nullptr;
  /// The calls further up that lead to Via, innermost first (`scanBlock(v,
  /// s)` in `scan` for `scanWarp(v, s)` in `scanBlock`).
  llvm::SmallVector<const clang::CallExpr *, 2> Callers;
  /// One witness: ReaderLane reads the element that WriterLane writes.
  unsigned ReaderLane = 0;
  unsigned WriterLane = 0;
  /// Every lane seen reading or writing in a conflict, over all contexts.
  uint32_t Lanes = 0;
  /// Whether a barrier-free path leads from the write to the read, or from
  /// the read to the write (both in a loop). Neither: the two run on
  /// different sides of a branch that splits the warp.
  bool WriteReachesRead = false;
  bool ReadReachesWrite = false;
  /// Where the write's and the read's sides meet: the statement that holds
  /// WriteStmt (ReadStmt) and is a sibling, in the innermost compound
  /// statement holding both, of the one that holds the other access, when
  /// that is not WriteStmt (ReadStmt) itself and it holds no jump. Every
  /// path from the access to the other leaves it through its end, so a
  /// `__syncwarp` right after it orders the pair, with the mask of the
  /// lanes that run it (statementMask() knows it). For `if (lane == 0)
  /// base[w] = x; if (f) y = base[w];`: the first `if`.
  const clang::Stmt *WriteMeet = nullptr;
  const clang::Stmt *ReadMeet = nullptr;
};

/// Finds the warp exchanges of one translation unit, over its lane model.
/// Results are in source order of the reads.
class WarpExchangeFinder {
public:
  explicit WarpExchangeFinder(lanes::LaneModel &M) : M(M) {}

  /// Analyses every device function with a body that is not a dependent
  /// template pattern (once; later calls return at once).
  void run();

  llvm::ArrayRef<WarpExchange> exchanges() const { return Exchanges; }

  /// The lanes of a warp that run statement S, the same for every warp that
  /// runs it and every context it was analysed in (one per call of its
  /// function, or the kernel itself); std::nullopt when unknown. Only
  /// statements holding an exchange's access are known after run().
  std::optional<uint32_t> statementMask(const clang::Stmt *S) const;

  /// The kernels (or device functions analysed on their own) whose analysis
  /// the work budget cut short: exchanges past the cut are not reported.
  llvm::ArrayRef<const clang::FunctionDecl *> cutShort() const {
    return CutShort.getArrayRef();
  }

  lanes::LaneModel &model() { return M; }

private:
  class FrameSearch;
  void mergeMask(const clang::Stmt *S, std::optional<uint32_t> Mask);

  lanes::LaneModel &M;
  llvm::SmallVector<WarpExchange, 8> Exchanges;
  bool Ran = false;
  llvm::SetVector<const clang::FunctionDecl *> CutShort;
  /// Statement masks: absent = not computed, nullopt = unknown, 0 = never
  /// run in any context seen.
  llvm::DenseMap<const clang::Stmt *, std::optional<uint32_t>> Masks;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_EXCHANGES_WARPEXCHANGES_H
