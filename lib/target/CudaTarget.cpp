//===--- CudaTarget.cpp - The GPU architecture a check analyses -----------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/target/CudaTarget.h"
#include "lib/OptionValues.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
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

std::optional<GpuArch> compilationGpuArch(const clang::ASTContext &Ctx) {
  const clang::TargetInfo &Target = Ctx.getTargetInfo();
  if (!Target.getTriple().isNVPTX())
    return std::nullopt;
  GpuArchParse Parsed = parseGpuArch(Target.getTargetOpts().CPU);
  return Parsed.Arch;
}

std::optional<GpuArch> effectiveGpuArch(const TargetArchOverride &Override,
                                        const clang::ASTContext &Ctx) {
  if (Override.arch())
    return Override.arch();
  const clang::TargetInfo &Target = Ctx.getTargetInfo();
  if (!Target.getTriple().isNVPTX())
    return std::nullopt;
  llvm::StringRef CPU = Target.getTargetOpts().CPU;
  GpuArchParse Parsed = parseGpuArch(CPU);
  if (!Parsed.Arch && !CPU.empty())
    Override.reportSkipped(CPU, Parsed.Error);
  return Parsed.Arch;
}

llvm::SmallVector<std::optional<GpuArch>, 4>
effectiveGpuArchs(const TargetArchOverride &Override,
                  const clang::ASTContext &Ctx, const clang::Preprocessor *PP) {
  llvm::SmallVector<std::optional<GpuArch>, 4> Archs;
  const clang::MacroInfo *List = nullptr;
  if (!Override.arch() && PP && Ctx.getTargetInfo().getTriple().isNVPTX()) {
    const clang::IdentifierTable &Ids = PP->getIdentifierTable();
    auto It = Ids.find(GpuArchListMacroName);
    if (It != Ids.end() && It->getValue())
      List = PP->getMacroInfo(It->getValue());
  }
  if (List) {
    for (const clang::Token &T : List->tokens()) {
      const clang::IdentifierInfo *II = T.getIdentifierInfo();
      if (!II)
        continue;
      GpuArchParse Parsed = parseGpuArch(II->getName());
      if (!Parsed.Arch)
        Override.reportSkipped(II->getName(), Parsed.Error);
      Archs.push_back(std::move(Parsed.Arch));
    }
  }
  if (Archs.empty())
    Archs.push_back(effectiveGpuArch(Override, Ctx));
  return Archs;
}

} // namespace cuda_tidy
