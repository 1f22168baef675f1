//===--- Guards.h - The lanes that run a statement --------------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Which lanes of a batch run a statement: the conditions around it (every
/// enclosing `if`, `?:`, `&&`, `||` and earlier `if (c) return;` of an
/// enclosing block) and the loops around it (counted loops with a
/// thread-independent trip count are enumerated, stride loops by iteration
/// with their test a condition; other loops on a varying condition, switches
/// and jumps make the guard opaque), in the function and along the call
/// chain of its context. A condition that cannot be evaluated in a lane and
/// is not proven warp-uniform lets the lane through and marks it unknown.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_LANES_GUARDS_H
#define CUDA_TIDY_LIB_LANES_GUARDS_H

#include "lib/lanes/ModelTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <optional>

namespace cuda_tidy::lanes {

class FunctionFacts;
class ThreadVariance;
class WarpValues;

class GuardModel {
public:
  GuardModel(FunctionFacts &Facts, ThreadVariance &Variance,
             WarpValues &Values);

  /// The conditions (innermost first) and counted loops (innermost first)
  /// between From and Stop in I's function, evaluated in Fr; Opaque set
  /// when a loop, switch or jump makes the lanes unknown.
  void guardOf(const clang::Stmt *From, const clang::Stmt *Stop,
               FunctionInfo &I, const Frame &Fr,
               llvm::SmallVectorImpl<Cond> &Guard,
               llvm::SmallVectorImpl<const clang::ForStmt *> &Loops,
               bool &Opaque);
  /// Whether C, a condition that does not depend on the thread, evaluates
  /// in En (its first thread) to the side not taken: no thread runs what it
  /// guards (a level a call leaves out, `if (maxlevel >= 2)` with 1 bound
  /// at the call). One that cannot be evaluated is taken.
  bool uniformSkip(const Cond &C, const Frame &Fr, const Env &En);
  /// The lanes of Active (a batch starting at thread En.Tid) for which
  /// every condition of Guard evaluates to the side taken (a condition that
  /// does not depend on the thread: see uniformSkip). A condition that
  /// cannot be evaluated in a lane and is not proven warp-uniform lets the
  /// lane pass, adds it to Unknown and the condition to Unknowns.
  uint32_t evalGuard(llvm::ArrayRef<Cond> Guard, const Frame &Fr,
                     const Env &En, uint32_t Active, uint32_t &Unknown,
                     llvm::SmallPtrSetImpl<const clang::Expr *> *Unknowns =
                         nullptr);
  /// The calls that lead to Fr; false when a caller cannot be analysed.
  bool chainOf(const Frame &Fr, CallChain &Out);
  /// The lanes of Active that pass every call's guard (Unknown as
  /// evalGuard).
  uint32_t passesChain(const CallChain &C, const Env &En, uint32_t Active,
                       uint32_t &Unknown,
                       llvm::SmallPtrSetImpl<const clang::Expr *> *Unknowns =
                           nullptr) {
    for (const CallLevel &L : C)
      Active = evalGuard(L.Guard, *L.Fr, En, Active, Unknown, Unknowns);
    return Active;
  }
  /// Calls Fn for each valuation of Loops (outermost first) in Fr.
  void enumerate(llvm::ArrayRef<const clang::ForStmt *> Loops,
                 const Frame &Fr, Env &En,
                 llvm::function_ref<bool(Env &)> Fn, unsigned I = 0);
  /// Enumerates the counted loops around the calls of C, outermost first.
  void enumerateChain(const CallChain &C, Env &En,
                      llvm::function_ref<bool(Env &)> Fn, unsigned Idx = 0);
  /// The stride-loop form of L when its variable starts at a value that
  /// differs between the threads in the context Fr; null otherwise.
  const StrideLoop *strideIn(const clang::ForStmt *L, const Frame &Fr);
  /// The condition blocks of I's counted loops whose first test holds for
  /// every block size (the body runs at least once), computed once.
  const llvm::DenseSet<unsigned> &enteredLoops(FunctionInfo &I);
  /// A and B are in the two arms of the if statement that ends Block.
  bool oppositeArms(FunctionInfo &I, unsigned Block, const clang::Stmt *A,
                    const clang::Stmt *B);
  /// The branch that ends Block can split a warp in the context Fr (a
  /// condition proven warp-uniform does not), or with WholeBlock the
  /// threads of a block (any thread-varying condition does).
  bool divergentBranch(FunctionInfo &I, unsigned Block, const Frame &Fr,
                       bool WholeBlock = false);
  /// See WarpExchange::WriteMeet: the meeting point of From with To.
  const clang::Stmt *meetOf(const clang::Stmt *From, const clang::Stmt *To,
                            FunctionInfo &I);

private:
  /// enumerate() for a stride loop: its iterations, from the first.
  void enumerateStride(const StrideLoop &SL,
                       llvm::ArrayRef<const clang::ForStmt *> Loops,
                       const Frame &Fr, Env &En,
                       llvm::function_ref<bool(Env &)> Fn, unsigned Idx);
  /// The next value of a counted loop's variable.
  std::optional<int64_t> stepLoop(const clang::ForStmt *L,
                                  const clang::VarDecl *V, const Frame &Fr,
                                  Env &En);
  /// Whether the first test of the counted loop L in I holds for every
  /// block size.
  bool entersLoop(const clang::ForStmt *L, FunctionInfo &I);

  FunctionFacts &Facts;
  ThreadVariance &Variance;
  WarpValues &Values;
  /// Whether a statement holds a jump (a loop body is asked once per access
  /// in it).
  bool jumps(const clang::Stmt *S);
  llvm::DenseMap<const clang::Stmt *, bool> Jumps;
  llvm::DenseMap<std::pair<const clang::ForStmt *, const Frame *>, bool>
      StrideIn;
};

} // namespace cuda_tidy::lanes

#endif // CUDA_TIDY_LIB_LANES_GUARDS_H
