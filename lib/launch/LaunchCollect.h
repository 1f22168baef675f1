//===--- LaunchCollect.h - How the launch model is collected ----*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Internal to lib/launch: the pieces LaunchModel.cpp (launch sites and
/// their configurations) and LaunchSettings.cpp (cudaFuncSetAttribute
/// settings, wrappers, once-per-process guards) share while one walk of the
/// translation unit collects the model. Checks include LaunchModel.h, never
/// this header.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_LAUNCH_LAUNCHCOLLECT_H
#define CUDA_TIDY_LIB_LAUNCH_LAUNCHCOLLECT_H

#include "lib/launch/LaunchModel.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <deque>
#include <vector>

namespace clang {
class CXXMethodDecl;
class LambdaExpr;
class ParmVarDecl;
} // namespace clang

namespace cuda_tidy {
namespace launch_detail {

/// The variable or field holding a driver-API CUfunction, or null.
const clang::Decl *driverFunctionOf(const clang::Expr *E);

/// The name of the enumerator E names, or "".
llvm::StringRef enumeratorName(const clang::Expr *E);

/// The kernel E names: `k`, `&k`, `(void *)k`, `k<float>`, a local
/// assigned once or a constant variable holding one, or a parameter bound
/// in Frame to one of these. A parameter no frame binds is noted with
/// ConstantEvaluator::noteUnboundParam.
const clang::FunctionDecl *kernelOf(const clang::Expr *E,
                                    ConstantEvaluator &Eval,
                                    const CallFrame *Frame = nullptr,
                                    unsigned Depth = 0);

/// Evaluates a field's value as an integer in the frames of the helper
/// calls it is set through; 0 for an implicit zero.
std::optional<uint64_t> intOf(const FieldValue &V, ConstantEvaluator &Eval);

/// The expression a field value is written as in the queried function: its
/// own expression, or for a value set in a helper the outermost helper
/// call (for notes and fix-its).
const clang::Expr *spelledAt(const FieldValue &V);

/// The attribute array of a launch configuration (`cudaLaunchConfig_t` /
/// `CUlaunchConfig`) as set before the launch: the one reader of
/// `numAttrs` and `attrs` for the launch model and LaunchAttributes.h.
class AttributeArray {
public:
  /// Reads the `numAttrs` and `attrs` fields of Config, a local
  /// configuration of Caller given to the launch Call: std::nullopt when
  /// Config escapes, `numAttrs` is not proven, or `attrs` is not a local
  /// array (or, with one entry, a single attribute) of a function with a
  /// body that does not escape (see LaunchAttributes.h).
  static std::optional<AttributeArray> read(const clang::VarDecl *Config,
                                            const clang::FunctionDecl *Caller,
                                            const clang::CallExpr *Call,
                                            ConstantEvaluator &Eval);

  /// The number of entries (`numAttrs`).
  uint64_t size() const { return Count; }
  /// Field Path (".id", ".val.clusterDim.x") of entry I, with the helper
  /// calls it is set through.
  FieldValue field(uint64_t I, llvm::StringRef Path) const;

private:
  const FieldWrites *Writes = nullptr;
  const clang::VarDecl *Array = nullptr;
  bool Indexed = false;
  unsigned Base = 0;
  uint64_t Count = 0;
  /// Where the array is read: at the launch, or (filled in a helper) as
  /// the helper leaves it.
  clang::SourceLocation At;
  llvm::SmallVector<const clang::CallExpr *, 2> Through;
};

/// One call of a user function and the function that makes it.
struct UserCall {
  const clang::CallExpr *Call = nullptr;
  const clang::FunctionDecl *Caller = nullptr;
};

/// Whether P is a parameter of FD.
bool ownedBy(const clang::ParmVarDecl *P, const clang::FunctionDecl *FD);

/// The frames of a chain of calls, innermost first: Chain[0] calls
/// Innermost, Chain[I] calls the function that makes Chain[I - 1]. Frames
/// holds them; returns the innermost (whose parents lead outwards).
const CallFrame *framesOf(llvm::ArrayRef<UserCall> Chain,
                          const clang::FunctionDecl *Innermost,
                          std::deque<CallFrame> &Frames);

/// Collects the cudaFuncSetAttribute / cuFuncSetAttribute settings of a
/// translation unit: fed by the walk that finds the launches, then asked to
/// bind the settings made inside wrappers at the wrappers' calls.
class SettingCollector {
public:
  SettingCollector(ConstantEvaluator &Eval,
                   std::vector<FuncAttributeCall> &Attrs)
      : Eval(Eval), Attrs(Attrs) {}

  /// A call of a user function with a body (for binding wrappers).
  void noteCall(const clang::FunctionDecl *Callee, UserCall Site) {
    CallsTo[Callee->getCanonicalDecl()].push_back(Site);
  }
  /// The calls noted for Callee.
  llvm::ArrayRef<UserCall> callsTo(const clang::FunctionDecl *Callee) const {
    auto It = CallsTo.find(Callee->getCanonicalDecl());
    return It == CallsTo.end() ? llvm::ArrayRef<UserCall>() : It->second;
  }
  /// A lambda, to leave its body for the code around it.
  void noteLambda(const clang::CXXMethodDecl *CallOperator,
                  const clang::LambdaExpr *LE) {
    Lambdas[CallOperator] = LE;
  }

  /// A cudaFuncSetAttribute (or, with Driver, cuFuncSetAttribute) call made
  /// in function In.
  void addAttributeCall(const clang::CallExpr *Call, bool Driver,
                        const clang::FunctionDecl *In);

  /// Binds the settings made in wrappers at the wrappers' calls; call after
  /// the walk.
  void bindWrappers();

private:
  void evaluateSetting(FuncAttributeCall &A, const CallFrame *Frame);
  void bindAt(const FuncAttributeCall &A, const clang::FunctionDecl *Function,
              const llvm::SmallVector<UserCall, 2> &Chain,
              FuncAttributeCall Best, unsigned Depth);
  void finishSetting(FuncAttributeCall &A, const clang::FunctionDecl *In,
                     llvm::ArrayRef<UserCall> Chain = {});

  ConstantEvaluator &Eval;
  std::vector<FuncAttributeCall> &Attrs;
  /// The calls of each user function with a body, by canonical declaration.
  llvm::DenseMap<const clang::FunctionDecl *, llvm::SmallVector<UserCall, 2>>
      CallsTo;
  struct PendingSetting {
    FuncAttributeCall Setting;
    const clang::FunctionDecl *Function;
  };
  std::vector<PendingSetting> Pending;
  /// Each lambda's call operator and its expression, to leave a lambda's
  /// body for the code around it.
  llvm::DenseMap<const clang::CXXMethodDecl *, const clang::LambdaExpr *>
      Lambdas;
};

} // namespace launch_detail
} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_LAUNCH_LAUNCHCOLLECT_H
