//===--- CudaTarget.cpp - The GPU architecture a check analyses -----------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/target/CudaTarget.h"
#include "lib/ast/Macros.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"

namespace cuda_tidy {

std::optional<GpuArch> compilationGpuArch(const clang::ASTContext &Ctx) {
  const clang::TargetInfo &Target = Ctx.getTargetInfo();
  if (!Target.getTriple().isNVPTX())
    return std::nullopt;
  GpuArchParse Parsed = parseGpuArch(Target.getTargetOpts().CPU);
  return Parsed.Arch;
}

std::optional<GpuArch> effectiveGpuArch(const std::optional<GpuArch> &Override,
                                        const clang::ASTContext &Ctx,
                                        SkippedArch Skipped) {
  if (Override)
    return Override;
  const clang::TargetInfo &Target = Ctx.getTargetInfo();
  if (!Target.getTriple().isNVPTX())
    return std::nullopt;
  llvm::StringRef CPU = Target.getTargetOpts().CPU;
  GpuArchParse Parsed = parseGpuArch(CPU);
  if (!Parsed.Arch && !CPU.empty())
    Skipped(CPU, Parsed.Error);
  return Parsed.Arch;
}

llvm::SmallVector<std::optional<GpuArch>, 4>
effectiveGpuArchs(const std::optional<GpuArch> &Override,
                  const clang::ASTContext &Ctx, const clang::Preprocessor *PP,
                  SkippedArch Skipped) {
  llvm::SmallVector<std::optional<GpuArch>, 4> Archs;
  const clang::MacroInfo *List = nullptr;
  if (!Override && PP && Ctx.getTargetInfo().getTriple().isNVPTX()) {
    List = macroNamed(*PP, GpuArchListMacroName);
  }
  if (List) {
    for (const clang::Token &T : List->tokens()) {
      const clang::IdentifierInfo *II = T.getIdentifierInfo();
      if (!II)
        continue;
      GpuArchParse Parsed = parseGpuArch(II->getName());
      if (!Parsed.Arch)
        Skipped(II->getName(), Parsed.Error);
      Archs.push_back(std::move(Parsed.Arch));
    }
  }
  if (Archs.empty())
    Archs.push_back(effectiveGpuArch(Override, Ctx, Skipped));
  return Archs;
}

} // namespace cuda_tidy
