//===--- LaneModelOptions.cpp - The lane model's module-wide options ------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/lanes/LaneModelOptions.h"
#include "lib/OptionValues.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/StringSet.h"
#include <mutex>

namespace cuda_tidy {

std::optional<std::array<unsigned, 3>> parseBlockDim(llvm::StringRef Text,
                                                     std::string &Error) {
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  Text.trim().split(Parts, ',');
  std::array<unsigned, 3> D = {1, 1, 1};
  if (Parts.empty() || Parts.size() > 3) {
    Error = "expected 'X', 'X,Y' or 'X,Y,Z'";
    return std::nullopt;
  }
  uint64_t Product = 1;
  for (unsigned K = 0; K < Parts.size(); ++K) {
    unsigned V;
    if (Parts[K].trim().getAsInteger(10, V) || V == 0 || V > 1024) {
      Error = "'" + Parts[K].trim().str() +
              "' is not a block dimension from 1 to 1024";
      return std::nullopt;
    }
    D[K] = V;
    Product *= V;
  }
  if (Product > 1024) {
    Error = "a block has at most 1024 threads, not " + std::to_string(Product);
    return std::nullopt;
  }
  return D;
}

BlockDimOption::BlockDimOption(clang::tidy::ClangTidyContext &Context) {
  readBudget(Context);
  std::optional<llvm::StringRef> Value =
      moduleOption(Context.getOptions().CheckOptions, BlockDimOptionName);
  if (!Value)
    return;
  Raw = Value->str();
  std::string Why;
  Shape = parseBlockDim(Raw, Why);
  if (!Shape)
    Error = invalidOptionMessage(BlockDimOptionName, Why);
}

void BlockDimOption::readBudget(clang::tidy::ClangTidyContext &Context) {
  std::optional<llvm::StringRef> Text = moduleOption(
      Context.getOptions().CheckOptions, LaneModelBudgetOptionName);
  if (!Text)
    return;
  uint64_t V = 0;
  if (Text->getAsInteger(10, V)) {
    if (Error.empty())
      Error = invalidOptionMessage(
          LaneModelBudgetOptionName,
          "'" + *Text + "' is not a non-negative integer (0 means no limit)");
    return;
  }
  Budget = V;
}

std::string BlockDimOption::takeError() const {
  if (Error.empty())
    return "";
  static std::mutex Mutex;
  static llvm::StringSet<> Reported;
  std::lock_guard<std::mutex> Lock(Mutex);
  return Reported.insert(Error).second ? Error : "";
}

void BlockDimOption::applyTo(lanes::LaneModel &Lanes) const {
  if (Shape)
    Lanes.setDefaultBlockShape((*Shape)[0], (*Shape)[1], (*Shape)[2]);
  Lanes.setWorkBudget(Budget);
}

void BlockDimOption::remarkCutShort(
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
        << LaneModelBudgetOptionName << std::to_string(Budget);
  }
}

} // namespace cuda_tidy
