//===--- LaneModelOptions.cpp - The lane model's options, for checks ------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "checks/LaneModelOptions.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/StringSet.h"
#include <mutex>

namespace cuda_tidy {

LaneModelOptions::LaneModelOptions(clang::tidy::ClangTidyContext &Context) {
  // In the body: Error, written by the reader, is declared after Settings
  // and so is not yet constructed in the member initialisers.
  Settings =
      lanes::readLaneModelSettings(Context.getOptions().CheckOptions, Error);
}

std::string LaneModelOptions::takeError() const {
  if (Error.empty())
    return "";
  static std::mutex Mutex;
  static llvm::StringSet<> Reported;
  std::lock_guard<std::mutex> Lock(Mutex);
  return Reported.insert(Error).second ? Error : "";
}

void LaneModelOptions::remarkCutShort(
    clang::tidy::ClangTidyCheck &Check, const clang::SourceManager &SM,
    llvm::ArrayRef<const clang::FunctionDecl *> Cut,
    llvm::StringRef Findings) const {
  for (const clang::FunctionDecl *F : Cut) {
    clang::SourceLocation Loc = SM.getFileLoc(F->getLocation());
    if (Loc.isInvalid() || SM.isInSystemHeader(Loc))
      continue;
    Check.diag(Loc,
               "the lane model stopped analysing %0 at its work budget: %1 "
               "past that point are not reported",
               clang::DiagnosticIDs::Remark)
        << F << Findings;
    Check.diag(Loc,
               "raise the module-wide option '%0' (now %1; 0 for no limit) "
               "to analyse all of it",
               clang::DiagnosticIDs::Note)
        << lanes::LaneModelBudgetOptionName
        << std::to_string(Settings.WorkBudget);
  }
}

} // namespace cuda_tidy
