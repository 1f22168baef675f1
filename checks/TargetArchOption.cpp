//===--- TargetArchOption.cpp - The cuda.TargetArch option, for checks ----===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "checks/TargetArchOption.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "lib/OptionValues.h"
#include "llvm/ADT/StringSet.h"
#include <mutex>

namespace cuda_tidy {

TargetArchOverride::TargetArchOverride(clang::tidy::ClangTidyContext &Context)
    : Context(&Context) {
  std::optional<llvm::StringRef> Value =
      moduleOption(Context.getOptions().CheckOptions, TargetArchOptionName);
  if (!Value)
    return;
  Raw = Value->str();
  GpuArchParse Parsed = parseGpuArch(Raw);
  if (Parsed.Arch)
    Arch = std::move(Parsed.Arch);
  else
    Error = invalidOptionMessage(TargetArchOptionName, Parsed.Error);
}

bool TargetArchOverride::shouldReportError() const {
  if (Error.empty())
    return false;
  static std::mutex Mutex;
  static llvm::StringSet<> Reported;
  std::lock_guard<std::mutex> Lock(Mutex);
  return Reported.insert(Raw).second;
}

void TargetArchOverride::reportSkipped(llvm::StringRef Name,
                                       llvm::StringRef Why) const {
  static std::mutex Mutex;
  static llvm::StringSet<> Reported;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (!Reported.insert(Name.lower()).second)
      return;
  }
  // The parser's message starts "unknown CUDA architecture 'NAME': WHY; ...":
  // keep the reason only.
  llvm::StringRef Reason = Why;
  size_t Colon = Reason.find("': ");
  if (Colon != llvm::StringRef::npos)
    Reason = Reason.drop_front(Colon + 3);
  Reason = Reason.split("; expected").first;
  std::string Message = ("per-architecture shared memory limits are not "
                         "checked for '" +
                         Name + "': " + Reason)
                            .str();
  if (Name == "sm_52")
    Message += ", and clang analyses for sm_52 when the compilation names no "
               "'--cuda-gpu-arch'";
  Message += " (set the option '" + TargetArchOptionName.str() +
             "' to check them for another architecture)";
  Context->configurationDiag(Message, clang::DiagnosticIDs::Warning);
}

llvm::SmallVector<std::optional<GpuArch>, 4>
TargetArchOverride::effectiveArchs(const clang::ASTContext &Ctx,
                                   const clang::Preprocessor *PP) const {
  return effectiveGpuArchs(Arch, Ctx, PP,
                           [this](llvm::StringRef Name, llvm::StringRef Why) {
                             reportSkipped(Name, Why);
                           });
}

} // namespace cuda_tidy
