//===--- RingSlots.h - Ring indices and the slots they name -----*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How the integer variables of a body move (the steps of ring indices and
/// offsets), and the slots of shared buffers named by them, compared as
/// the asynchronous-copy analysis needs.
///
/// Model: a write `++x`, `x += K`, `x = (x + K) % S`, `x = (x + K) & (S -
/// 1)`, `x ^= K` (K a power of two), `x = c ? 0 : x + K` moves x by a
/// constant; `if (x == S) x = 0;` wraps it. A variable whose every write is
/// such a step modulo M (or a wrap at M), with a constant initialiser in
/// [0, M), stays in [0, M): its slots are compared modulo M. A variable
/// moved only by one `for` loop's `++` is a counter (it walks elements).
/// A never-written local (`const int j = stage % S`) stands for its
/// initialiser while the variables it names do not move; a whole-buffer
/// address adding a moved variable (`buf[off + tid]`) is the slot at it.
///
/// A local pointer set to a slot (`float *p = &ring[s][0]`) names that
/// slot while s does not step in the pointer's scope.
///
/// Left out: pointers that move (a slot the analysis does not compare),
/// relations between two variables (StageRelations.h relates loop
/// counters).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_ASYNCCOPY_RINGSLOTS_H
#define CUDA_TIDY_LIB_ASYNCCOPY_RINGSLOTS_H

#include "lib/asynccopy/AsyncCopyEvents.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace clang {
class Stmt;
} // namespace clang

namespace cuda_tidy {
namespace asynccopy {

using clang::SourceRange;
using clang::Stmt;
using clang::VarDecl;

/// One write that moves an integer variable by a constant: `++x`,
/// `x += K`, `x = x + K`, `x = (x + K) % S`, `x = (x + K) & (S - 1)`,
/// `x ^= K` (K a power of two), `x = c ? 0 : x + K`; or the wrap of a ring
/// index (`if (x == S) x = 0;`), which does not move it modulo S.
struct Step {
  const VarDecl *Var = nullptr;
  int64_t By = 0;
  /// The step wraps modulo Mod (0: no wrap).
  int64_t Mod = 0;
  bool Xor = false;
  bool Wrap = false;
};

/// How the variables of a body are written after their initialisation:
/// the steps the analysis follows, the variables that stay in [0, M) (ring
/// indices), and those written in any other way.
struct VarWrites {
  llvm::DenseMap<const Stmt *, Step> Steps;
  llvm::DenseMap<const VarDecl *, int64_t> Modulus;
  llvm::DenseSet<const VarDecl *> Moved;
  /// Moved only by the `++` of one `for` loop's increment: a counter, which
  /// walks elements rather than naming a slot.
  llvm::DenseSet<const VarDecl *> Counter;
  llvm::DenseSet<const VarDecl *> Unstable;
  /// How many statements write each variable (or take its address).
  llvm::DenseMap<const VarDecl *, unsigned> WriteCount;
  /// A local's declaration to the end of its scope (the compound or `for`
  /// statement that holds it).
  llvm::DenseMap<const VarDecl *, SourceRange> Scope;
};

/// The steps and ring ranges of the variables written in Body.
VarWrites collectVarWrites(const clang::Stmt *Body, clang::ASTContext &Ctx);

/// Slots named by the variables of one body, settled (locals expanded,
/// ring ranges applied, unstable ones dropped) and compared.
class SlotModel {
public:
  SlotModel(const VarWrites &Writes, clang::ASTContext &Ctx)
      : Writes(Writes), Ctx(Ctx) {}
  /// The slot a location names, in the variables' current values.
  Slot settle(const Location &L) const;
  Slot settle(Slot P) const;
  /// The two slots surely overlap.
  bool overlapSure(const Slot &P, const Slot &Q) const;
  /// P read after Move: the slot moves back by the step.
  void shift(const Step &Move, Slot &P) const;

private:
  Slot expandLocal(Slot P, unsigned Depth) const;
  Slot offsetSlot(const Location &L, Slot P) const;
  bool namesUnstable(const clang::Stmt *S, unsigned Depth) const;
  bool sameExpr(const clang::Expr *A, const clang::Expr *B) const;
  const VarWrites &Writes;
  clang::ASTContext &Ctx;
};

} // namespace asynccopy
} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_ASYNCCOPY_RINGSLOTS_H
