//===--- ConstantEval.h - Byte counts and dims proven constant --*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Proves the value of the integers and `dim3`s a kernel launch is given:
/// shared-memory byte counts, grid, block and cluster shapes.
///
/// Model: an expression has a value when clang's constant evaluator gives
/// one (constant expressions, `constexpr` and `const` integer variables with
/// constant initialisers, `sizeof` arithmetic, template arguments in an
/// instantiation), or when it is built with arithmetic, casts and `?:` from
/// such values and from *locals assigned once*: a local variable whose only
/// writes are its initialiser or one plain assignment, and that is never
/// otherwise written, incremented, or has its address or a non-const
/// reference taken in its function. A `dim3` is known when it is built from
/// known integers (missing components are 1) or is such a local.
///
/// Records filled field by field (`cudaLaunchConfig_t`, `cudaLaunchAttribute`
/// arrays, `CUlaunchConfig`) are modelled by FieldWrites: the last plain
/// assignment to a field path (`attrs[0].val.clusterDim.x`) before a point in
/// source order, or the variable's aggregate initialiser.
///
/// Parameters have a value only inside a CallFrame: evaluating a helper's
/// expression for one of its calls, a parameter that the helper never
/// writes stands for the call's argument, itself evaluated in the enclosing
/// frame (the caller's body, or the caller's own call frame). This is how a
/// value computed in a wrapper (`cudaFuncSetAttribute(k, attr, bytes)`) or a
/// configuration helper (`c->dynamicSmemBytes = bytes`) is bound at each of
/// its calls.
///
/// Left out, on purpose: control flow (a write in a branch counts as if it
/// always ran; a variable written twice is unknown), values read through
/// pointers, parameters outside a call frame, globals that are not
/// constant, and anything negative. Unknown values make the checks stay
/// silent.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_LAUNCH_CONSTANTEVAL_H
#define CUDA_TIDY_LIB_LAUNCH_CONSTANTEVAL_H

#include "clang/AST/ASTTypeTraits.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
class CallExpr;
class ParmVarDecl;
class Stmt;
class VarDecl;
} // namespace clang

namespace cuda_tidy {

class HelperSummaries;

/// A grid, block or cluster shape.
struct Dim3 {
  uint64_t X = 1, Y = 1, Z = 1;
  uint64_t product() const { return X * Y * Z; }
  /// "(16, 1, 1)".
  std::string str() const;
  bool operator==(const Dim3 &O) const {
    return X == O.X && Y == O.Y && Z == O.Z;
  }
};

/// One call a helper's expressions are evaluated for: Callee's parameters
/// stand for Call's arguments, which are evaluated in Parent (null: in the
/// body that makes the call).
struct CallFrame {
  const clang::CallExpr *Call = nullptr;
  const clang::FunctionDecl *Callee = nullptr;
  const CallFrame *Parent = nullptr;
};

/// The argument of Call that parameter P of Callee stands for, or null (a
/// parameter pack, a missing argument, a call of another function).
const clang::Expr *argumentFor(const CallFrame &Frame,
                               const clang::ParmVarDecl *P);

/// The parents of the statements of one function body, built by walking
/// that body only. (clang's ASTContext::getParents indexes the whole
/// translation unit, system headers included, on first use: far too costly
/// for the few lookups the launch model makes.) A variable's initialiser has
/// the VarDecl as parent, and the VarDecl its DeclStmt.
class LocalParents {
public:
  explicit LocalParents(const clang::Stmt *Body);
  /// The parent of N within the body; an empty node at the root.
  clang::DynTypedNode parent(const clang::DynTypedNode &N) const;
  clang::DynTypedNode parent(const clang::Stmt &S) const {
    return parent(clang::DynTypedNode::create(S));
  }

private:
  void index(const clang::Stmt *S);
  llvm::DenseMap<const clang::Stmt *, clang::DynTypedNode> StmtParents;
  llvm::DenseMap<const clang::Decl *, const clang::Stmt *> DeclParents;
};

/// Evaluates integers and dim3 values; caches what it learns about locals.
class ConstantEvaluator {
public:
  explicit ConstantEvaluator(clang::ASTContext &Ctx);
  ~ConstantEvaluator();

  /// The non-negative integer value of E, or std::nullopt when unproven.
  /// Inside Frame, parameters of Frame->Callee stand for its arguments.
  /// Comparisons, `!`, `&&` and `||` give 0 or 1 (`&&` and `||` when one
  /// proven side decides), so that conditions evaluate too.
  std::optional<uint64_t> evaluateInt(const clang::Expr *E,
                                      const CallFrame *Frame = nullptr);

  /// The value of a dim3 (or an integer converted to one), or std::nullopt.
  std::optional<Dim3> evaluateDim3(const clang::Expr *E,
                                   const CallFrame *Frame = nullptr);

  /// The expression a local variable is proven to hold everywhere it is read
  /// (its initialiser or its one assignment), or null.
  const clang::Expr *singleValue(const clang::VarDecl *VD);

  /// Whether parameter P is never written, incremented, or has its address
  /// or a non-const reference taken in its function, so that it holds its
  /// argument everywhere.
  bool isReadOnlyParam(const clang::ParmVarDecl *P);

  /// The last parameter that an evaluation needed but no frame bound, since
  /// the last call of this function (which clears it). A caller uses it to
  /// decide whether evaluating at the function's call sites could help.
  const clang::ParmVarDecl *takeUnboundParam() {
    const clang::ParmVarDecl *P = UnboundParam;
    UnboundParam = nullptr;
    return P;
  }
  /// Records that P was needed and is not bound.
  void noteUnboundParam(const clang::ParmVarDecl *P) { UnboundParam = P; }

  clang::ASTContext &context() { return Ctx; }

  /// The helper summaries of this translation unit.
  HelperSummaries &helpers();

  /// The parent index of a function body (built once per body).
  const LocalParents &parentsIn(const clang::Stmt *Body);

private:
  std::optional<uint64_t> evaluateIntImpl(const clang::Expr *E,
                                          const CallFrame *Frame,
                                          unsigned Depth);
  std::optional<Dim3> evaluateDim3Impl(const clang::Expr *E,
                                       const CallFrame *Frame, unsigned Depth);
  /// The argument a read-only parameter named by E stands for in Frame, and
  /// the frame to evaluate it in; null when E is not such a parameter.
  const clang::Expr *boundArgument(const clang::Expr *E, const CallFrame *Frame,
                                   const CallFrame *&ArgFrame);

  struct VarUses {
    const clang::Expr *Assigned = nullptr;
    unsigned Assignments = 0;
    bool Escapes = false;
  };
  VarUses scanUses(const clang::VarDecl *VD, const clang::Stmt *Body);

  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::VarDecl *, const clang::Expr *> SingleValues;
  llvm::DenseMap<const clang::ParmVarDecl *, bool> ReadOnlyParams;
  const clang::ParmVarDecl *UnboundParam = nullptr;
  std::unique_ptr<HelperSummaries> Helpers;
  llvm::DenseMap<const clang::Stmt *, std::unique_ptr<LocalParents>> Parents;
};

/// A field's value as FieldWrites knows it: an expression, to be evaluated
/// in the frames of the helper calls Through (outermost first; empty when
/// the expression is in the queried function itself).
struct FieldValue {
  const clang::Expr *Value = nullptr;
  llvm::SmallVector<const clang::CallExpr *, 2> Through;
  /// The value is an implicit zero (no expression).
  bool IsZero = false;
};

/// The writes to the fields of local records in one function body, for
/// launch configurations filled field by field.
///
/// A write is a plain assignment to a field path of a local variable
/// (`cfg.dynamicSmemBytes = n`, `attrs[0].val.clusterDim.x = 16`), an
/// assignment to a whole record or sub-record (`attr.val.clusterDim = {12,
/// 1, 1}`, `cfg = configFor(n)`), the variable's initialiser, or a call of a
/// helper in the translation unit that is given the variable (or one of its
/// fields or elements) by pointer or reference (`fillConfig(&cfg, 4, n)`,
/// `setCluster(attrs[0], 16)`): the helper's summary says which paths it
/// writes through that parameter, as expressions of its own parameters. A
/// record returned by value from a helper (`configFor(n)`) has the fields
/// of the local the helper returns, at its return statement.
class FieldWrites {
public:
  /// Collects the writes in Body (see the class comment), and which
  /// variables escape (address or reference passed anywhere but to a
  /// launch-configuration call or to a helper whose summary covers the
  /// parameter).
  FieldWrites(const clang::Stmt *Body, clang::ASTContext &Ctx,
              ConstantEvaluator &Eval);

  /// The value of Var's field Path (".dynamicSmemBytes", "[0].id") at Loc:
  /// from the last write before Loc to that path or to a record containing
  /// it, else from the variable's initialiser, with the helper calls the
  /// value must be evaluated through. No value when the variable escapes or
  /// nothing is known; IsZero when it comes from an implicit zero
  /// initialisation (no expression).
  FieldValue fieldAt(const clang::VarDecl *Var, llvm::StringRef Path,
                     clang::SourceLocation Loc) const;

  /// Whether Var is used in any way other than through its fields or as
  /// `&Var` passed as a call's argument.
  bool escapes(const clang::VarDecl *Var) const {
    return Escaped.count(Var) != 0;
  }

  /// The access path of an lvalue such as `attrs[1].val.clusterDim.x`: its
  /// local variable and the path "[1].val.clusterDim.x". Null when the base
  /// is not a local variable or an index is not constant.
  static const clang::VarDecl *
  accessPath(const clang::Expr *E, ConstantEvaluator &Eval, std::string &Path);

  /// What a helper writes through one of its pointer or reference
  /// parameters: paths relative to the record the parameter refers to.
  struct ParamWrites {
    struct Entry {
      std::string Path;
      const clang::Expr *Value;
      llvm::SmallVector<const clang::CallExpr *, 2> Through;
    };
    llvm::SmallVector<Entry, 4> Writes;
    /// The parameter is used only for these writes and for reads.
    bool Covered = true;
  };

private:
  struct Write {
    const clang::VarDecl *Var;
    std::string Path;
    const clang::Expr *Value;
    clang::SourceLocation Loc;
    llvm::SmallVector<const clang::CallExpr *, 2> Through;
  };
  /// Records what the helpers called in Body write through their
  /// parameters, and the arguments whose use those writes account for.
  void addHelperWrites(const clang::Stmt *Body,
                       llvm::DenseSet<const clang::Expr *> &CoveredArgs);
  FieldValue resolve(const clang::Expr *Value, llvm::StringRef Rest,
                     llvm::ArrayRef<const clang::CallExpr *> Through,
                     unsigned Depth) const;
  llvm::SmallVector<Write, 16> Writes;
  llvm::DenseMap<const clang::VarDecl *, bool> Escaped;
  const clang::ASTContext &Ctx;
  ConstantEvaluator &Eval;
};

/// The FieldWrites of a function's body and the summaries of helpers, built
/// once per function.
class HelperSummaries {
public:
  HelperSummaries(clang::ASTContext &Ctx, ConstantEvaluator &Eval)
      : Ctx(Ctx), Eval(Eval) {}
  /// FD's field writes (FD must have a body).
  const FieldWrites &writesOf(const clang::FunctionDecl *FD);
  /// What FD writes through parameter Index; null when FD has no body in
  /// user code, or is being summarised (recursion).
  const FieldWrites::ParamWrites *paramWrites(const clang::FunctionDecl *FD,
                                              unsigned Index);
  /// The local FD returns by value from every return statement, and the
  /// last such statement; null when there is none or they differ.
  const clang::VarDecl *returnedLocal(const clang::FunctionDecl *FD,
                                      clang::SourceLocation *At);

private:
  clang::ASTContext &Ctx;
  ConstantEvaluator &Eval;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<FieldWrites>>
      Writes;
  llvm::DenseMap<std::pair<const clang::FunctionDecl *, unsigned>,
                 std::unique_ptr<FieldWrites::ParamWrites>>
      Params;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_LAUNCH_CONSTANTEVAL_H
