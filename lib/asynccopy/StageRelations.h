//===--- StageRelations.h - How far one loop counter runs ahead -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Relations between the counters of two loops: how many stages a
/// producer's counter (`fetch`, `iStage`) runs ahead of the consumer's
/// (`k`, `i`), so that slots named by the two variables are compared.
///
/// Model: a step class is the set of integer variables declared in one
/// statement and written only by the increment of one `for` loop, each
/// once, by a constant unit (`a += aStep, b += bStep, ++i`, `aStep` a
/// never-written local with a constant initialiser); each is its
/// initialiser plus its unit times the class's count of steps. The state
/// holds, for two classes, an interval of the difference of their counts
/// (and, against the class 0, of each count), set to 0 at the declaration,
/// moved by the steps, narrowed by the branch conditions that compare
/// linear forms of the variables (`aStage <= a + aStep * 4`: the counts
/// differ by at most 4 when the initialisers are the same and the units
/// equal) and widened to nothing beyond a bound.
///
/// Left out: variables written in any other way, loops other than `for`,
/// conditions that are not one comparison.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_ASYNCCOPY_STAGERELATIONS_H
#define CUDA_TIDY_LIB_ASYNCCOPY_STAGERELATIONS_H

#include "lib/asynccopy/RingSlots.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <vector>

namespace clang {
class DeclStmt;
class ForStmt;
} // namespace clang

namespace cuda_tidy {
namespace asynccopy {

/// Variables that step together in one `for` loop's increment.
struct StepClass {
  const clang::ForStmt *Loop = nullptr;
  /// The statement declaring its variables.
  const clang::DeclStmt *Decl = nullptr;
  llvm::SmallVector<const VarDecl *, 4> Vars;
  /// The step of the first variable: the class steps there.
  const Stmt *StepAt = nullptr;
};

/// The step classes of one body (ids from 1; 0 is the constant zero).
struct Counters {
  std::vector<StepClass> Classes;
  llvm::DenseMap<const VarDecl *, unsigned> ClassOf;
  llvm::DenseMap<const VarDecl *, int64_t> Unit;
  /// Initialisers that are constants.
  llvm::DenseMap<const VarDecl *, int64_t> Init;
  llvm::DenseMap<const Stmt *, unsigned> StepOf;
  /// The first variable of each class: the class is declared with it.
  llvm::DenseMap<const VarDecl *, unsigned> FirstOf;
  const StepClass &of(unsigned Id) const { return Classes[Id - 1]; }
  bool empty() const { return Classes.empty(); }
};

Counters collectCounters(const clang::Stmt *Body, const VarWrites &Writes,
                         clang::ASTContext &Ctx);

/// n_A - n_B lies in [Lo, Hi] (A < B; the class 0 counts nothing).
struct Relation {
  unsigned A = 0, B = 0;
  int64_t Lo = 0, Hi = 0;
  auto key() const { return std::make_tuple(A, B, Lo, Hi); }
  bool operator<(const Relation &O) const { return key() < O.key(); }
  bool operator==(const Relation &O) const { return key() == O.key(); }
};
using Relations = std::vector<Relation>;

/// The class's variables are declared: its count is 0.
void declareClass(Relations &Rel, unsigned X);
/// The class steps once.
void stepClass(Relations &Rel, unsigned X);
/// The relations that hold on both paths (Into unreached: From's).
void mergeRelations(Relations &Into, const Relations &From, bool IntoReached);
/// n_X - n_Y when the relations fix it.
std::optional<int64_t> exactDifference(const Relations &Rel, unsigned X,
                                       unsigned Y);
/// Narrows Rel by Cond evaluating to Holds; false when no path can take
/// the branch.
bool refineRelations(Relations &Rel, const Counters &Cs,
                     const VarWrites &Writes, const clang::Expr *Cond,
                     bool Holds, clang::ASTContext &Ctx);

/// Whether slots P and Q, named by variables of two classes, surely name
/// the same slot under Rel (the same unit, constant initialisers, the
/// difference of the counts fixed).
bool overlapByRelation(const Slot &P, const Slot &Q, const Relations &Rel,
                       const Counters &Cs);

} // namespace asynccopy
} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_ASYNCCOPY_STAGERELATIONS_H
