//===--- BarrierPoints.cpp - Pairs the inserted barriers order ------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/races/BarrierPoints.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_tidy {

void BarrierPoints::add(const BarrierFix &Fix, unsigned Owner) {
  if (Fix.Before && Fix.Scope)
    Before.push_back({Fix.Before, Fix.Scope, Owner});
  if (Fix.AtEndOf)
    AtEnd.push_back({Fix.AtEndOf, Owner});
}

bool BarrierPoints::within(SourceLocation Loc, SourceLocation Begin,
                           SourceLocation End) const {
  Begin = SM.getFileLoc(Begin);
  End = SM.getFileLoc(End);
  if (Loc.isInvalid() || Begin.isInvalid() || End.isInvalid())
    return false;
  auto [LocFile, LocOffset] = SM.getDecomposedLoc(Loc);
  auto [BeginFile, BeginOffset] = SM.getDecomposedLoc(Begin);
  auto [EndFile, EndOffset] = SM.getDecomposedLoc(End);
  return LocFile == BeginFile && LocFile == EndFile &&
         BeginOffset <= LocOffset && LocOffset <= EndOffset;
}

/// A label or case in S: a jump to it enters S.
static bool hasLabel(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (isa<LabelStmt, SwitchCase>(S))
    return true;
  for (const Stmt *Child : S->children())
    if (hasLabel(Child))
      return true;
  return false;
}

std::optional<unsigned> BarrierPoints::forward(SourceLocation A,
                                               SourceLocation B) const {
  for (const BeforePoint &P : Before) {
    SourceLocation At = SM.getFileLoc(P.S->getBeginLoc());
    if (!within(B, At, P.Scope->getRBracLoc()) || !SM.isWrittenInSameFile(A, At) ||
        !SM.isBeforeInTranslationUnit(A, At))
      continue;
    // No way into the block past the barrier: no label from S to B.
    bool Entered = false, Seen = false;
    for (const Stmt *Child : P.Scope->body()) {
      Seen |= Child == P.S;
      if (!Seen)
        continue;
      if (hasLabel(Child)) {
        Entered = true;
        break;
      }
      if (within(B, Child->getBeginLoc(), Child->getEndLoc()))
        break;
    }
    if (!Entered)
      return P.Owner;
  }
  return std::nullopt;
}

std::optional<unsigned> BarrierPoints::backward(SourceLocation A,
                                                SourceLocation B) const {
  auto Holds = [&](const Stmt *S) {
    return S && within(A, S->getBeginLoc(), S->getEndLoc()) &&
           within(B, S->getBeginLoc(), S->getEndLoc());
  };
  for (const EndPoint &P : AtEnd) {
    if (!Holds(P.Body))
      continue;
    // The body's loop is the innermost one that holds both accesses.
    bool Inner = false;
    for (const Stmt *Cur = P.Body; Cur && !Inner;) {
      const Stmt *Next = nullptr;
      for (const Stmt *Child : Cur->children())
        if (Holds(Child) && !isa<LambdaExpr>(Child)) {
          Next = Child;
          break;
        }
      Inner = isa_and_nonnull<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Next);
      Cur = Next;
    }
    if (!Inner)
      return P.Owner;
  }
  return std::nullopt;
}

std::optional<unsigned> BarrierPoints::orders(SourceLocation X,
                                              SourceLocation Y, bool XReachesY,
                                              bool YReachesX) const {
  X = SM.getFileLoc(X);
  Y = SM.getFileLoc(Y);
  if (empty() || X.isInvalid() || Y.isInvalid() || X == Y ||
      !SM.isWrittenInSameFile(X, Y) || (!XReachesY && !YReachesX))
    return std::nullopt;
  if (SM.isBeforeInTranslationUnit(Y, X)) {
    std::swap(X, Y);
    std::swap(XReachesY, YReachesX);
  }
  std::optional<unsigned> Owner;
  if (XReachesY && !(Owner = forward(X, Y)))
    return std::nullopt;
  if (YReachesX) {
    std::optional<unsigned> Back = backward(X, Y);
    if (!Back)
      return std::nullopt;
    if (!Owner)
      Owner = Back;
  }
  return Owner;
}

} // namespace cuda_tidy
