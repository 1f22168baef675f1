//===--- WarpEvaluator.h - Values and addresses, a warp at a time -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The lane model's evaluator: the value of an integer expression
/// (WarpValues) and the address of an lvalue or pointer (WarpAddresses) in
/// each thread of a batch of up to 32 (lane L is thread Env::Tid + L), with
/// the types' integer semantics, in one walk of the expression. What it
/// follows is stated in LaneModel.h: built-in indices, literals and
/// constants, enumerated loop and stride-loop variables, parameters bound
/// at the frame's calls, locals never written again or written only in
/// straight-line code of their block, the `%%laneid` asm local, cooperative
/// groups' ranks, calls with a visible body whose returns agree; addresses
/// through subscripts, `*`, pointer arithmetic, casts, members, local
/// pointers and pointer parameters, down to a `__shared__` variable (or a
/// kernel's pointer parameter). Lanes where a value is not known are left
/// out of the result's Valid mask. Each node evaluated for a thread counts
/// one unit of the model's work.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_LANES_WARPEVALUATOR_H
#define CUDA_TIDY_LIB_LANES_WARPEVALUATOR_H

#include "lib/lanes/ModelTypes.h"
#include "llvm/ADT/DenseMap.h"
#include <memory>
#include <optional>
#include <vector>

namespace cuda_tidy::lanes {

class CallContexts;
class FunctionFacts;
class WarpValues;

/// Integer values.
class WarpValues {
public:
  WarpValues(clang::ASTContext &Ctx, uint64_t &WorkDone, FunctionFacts &Facts,
             CallContexts &Calls);

  /// The values of integer expression E in the lanes of Active (a batch
  /// starting at thread En.Tid); the lanes where it is not known are left
  /// out of the result's Valid.
  Vals evalW(const clang::Expr *E, const Frame &Fr, const Env &En,
             uint32_t Active, unsigned Depth = 0);
  /// The same for the one thread En.Tid.
  std::optional<int64_t> eval(const clang::Expr *E, const Frame &Fr,
                              const Env &En, unsigned Depth = 0);
  /// The value of a constant expression (a template argument, a sizeof),
  /// evaluated once.
  std::optional<int64_t> constantOf(const clang::Expr *E);
  /// The elements of V when it is an array of integer constants that
  /// nothing writes (`int stride[4] = {0, 256, 512, 768};` local to F and
  /// only read by element, or a const array), else null. Computed once.
  const std::vector<int64_t> *constantTable(const clang::VarDecl *V,
                                            const clang::FunctionDecl *F);
  /// The largest such table followed.
  static constexpr uint64_t MaxTableSize = 4096;
  /// V converted to T (truncated and sign-extended as the GPU does).
  int64_t normalize(int64_t V, clang::QualType T);
  /// Every valid lane of W converted to T.
  void normalizeAll(Vals &W, clang::QualType T);
  /// The value of stride-loop variable V in iteration Trip.
  Vals strideValue(const clang::VarDecl *V, int64_t Trip, const Frame &Fr,
                   const Env &En, uint32_t Active, unsigned Depth);

private:
  /// W with every valid lane converted to T.
  Vals normalized(Vals W, clang::QualType T);
  /// `threadIdx`, `blockDim`, `blockIdx`: Handled false for other nodes.
  Vals evalBuiltinW(const clang::Expr *E, const Env &En, uint32_t Active,
                    bool &Handled);
  Vals evalDeclRefW(const clang::DeclRefExpr *DRE, const Frame &Fr,
                    const Env &En, uint32_t Active, unsigned Depth);
  Vals evalBinaryW(const clang::BinaryOperator *BO, const Frame &Fr,
                   const Env &En, uint32_t Active, unsigned Depth);
  /// The value of local V where Use reads it, when V is declared in a
  /// compound statement whose direct children are the only statements that
  /// write it (`idx += 32;`), so every thread that reaches Use ran the same
  /// writes in order: its initialiser, then each write before Use's
  /// statement.
  Vals straightLineValueW(const clang::VarDecl *V,
                          const clang::DeclRefExpr *Use, const Frame &Fr,
                          const Env &En, uint32_t Active, unsigned Depth);
  /// Cooperative groups' ranks and sizes of the block and of its tiles.
  const clang::CXXRecordDecl *groupRecord(const clang::Expr *Obj);
  Vals evalCooperativeW(const clang::CallExpr *CE, const Env &En,
                        uint32_t Active);
  Vals evalCallW(const clang::CallExpr *CE, const Frame &Fr, const Env &En,
                 uint32_t Active, unsigned Depth);
  /// An element of a constant table (constantTable) read.
  Vals tableElementW(const clang::ArraySubscriptExpr *ASE, const Frame &Fr,
                     const Env &En, uint32_t Active, unsigned Depth);

  clang::ASTContext &Ctx;
  uint64_t &WorkDone;
  FunctionFacts &Facts;
  CallContexts &Calls;
  IntTypes Types{Ctx};
  llvm::DenseMap<const clang::Expr *, std::optional<int64_t>> Constants;
  llvm::DenseMap<const clang::VarDecl *, std::optional<std::vector<int64_t>>>
      Tables;
};

/// Addresses.
class WarpAddresses {
public:
  WarpAddresses(clang::ASTContext &Ctx, FunctionFacts &Facts,
                CallContexts &Calls, WarpValues &Values);

  /// The address pointer expression E holds in the lanes of Active.
  Addrs evalPtrW(const clang::Expr *E, const Frame &Fr, const Env &En,
                 uint32_t Active, unsigned Depth = 0);
  /// The address pointer variable V holds.
  Addrs evalPtrVarW(const clang::VarDecl *V, const Frame &Fr, const Env &En,
                    uint32_t Active, unsigned Depth = 0);
  /// The object lvalue E designates.
  Addrs evalObjW(const clang::Expr *E, const Frame &Fr, const Env &En,
                 uint32_t Active, unsigned Depth = 0);
  /// The same for the one thread En.Tid.
  std::optional<Address> evalObj(const clang::Expr *E, const Frame &Fr,
                                 const Env &En);
  std::optional<Address> evalPtrVar(const clang::VarDecl *V, const Frame &Fr,
                                    const Env &En);

private:
  Addrs evalPtrCallW(const clang::CallExpr *CE, const Frame &Fr,
                     const Env &En, uint32_t Active, unsigned Depth);
  /// For local pointer V of Fr's function, never written again, whose
  /// initialiser is another pointer variable of the function plus or minus
  /// an integer (`float *v2 = v1 + step;`): that initialiser and the
  /// variable; nulls otherwise.
  std::pair<const clang::BinaryOperator *, const clang::VarDecl *>
  derivedStep(const clang::VarDecl *V, const Frame &Fr);
  /// The longest chain of derived pointers followed in one level.
  static constexpr unsigned MaxDerivedSteps = 64;
  /// An element of dependent type in a template pattern (see evalObjW).
  Addrs dependentElementW(const clang::ArraySubscriptExpr *ASE,
                          const Frame &Fr, const Env &En, uint32_t Active,
                          unsigned Depth);

  clang::ASTContext &Ctx;
  FunctionFacts &Facts;
  CallContexts &Calls;
  WarpValues &Values;
  /// The objects that the elements of one dependent type in one object
  /// make (their key: the address of the entry's value).
  llvm::DenseMap<std::pair<const void *, const clang::Type *>,
                 std::unique_ptr<char>>
      DependentKeys;
};

} // namespace cuda_tidy::lanes

#endif // CUDA_TIDY_LIB_LANES_WARPEVALUATOR_H
