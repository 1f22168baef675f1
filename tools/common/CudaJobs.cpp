//===--- CudaJobs.cpp - A CUDA command as clang's analysis jobs -----------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The device architectures clang 22 accepts for a build's targets (and the
// macros that make its parse nvcc's), and a CUDA command split into one job
// per side. Declared in NvccArgs.h.
//
//===----------------------------------------------------------------------===//

#include "tools/common/NvccArgs.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace cuda_tidy {

std::optional<std::string> normalizeGpuArch(StringRef Name) {
  Name = Name.trim().trim("\"'");
  StringRef Number = Name;
  if (!Number.consume_front("sm_"))
    Number.consume_front("compute_");
  // Digits, then at most one feature suffix: sm_90a, sm_100f.
  size_t Digits = Number.find_first_not_of("0123456789");
  if (Digits == 0 || Number.empty())
    return std::nullopt;
  StringRef Suffix = Digits == StringRef::npos ? "" : Number.substr(Digits);
  if (!Suffix.empty() && Suffix != "a" && Suffix != "f")
    return std::nullopt;
  return ("sm_" + Number).str();
}

/// The architecture-specific targets clang 22 accepts (`sm_XYa`, from its
/// list of offload architectures): the parse of an `f` target of the same
/// number.
static bool clangKnowsArchSpecific(unsigned Number) {
  return llvm::is_contained({90u, 100u, 101u, 103u, 110u, 120u, 121u}, Number);
}

std::optional<ClangDeviceArch> clangDeviceArch(StringRef Name,
                                               bool NvccMacros) {
  std::optional<std::string> Norm = normalizeGpuArch(Name);
  if (!Norm)
    return std::nullopt;
  StringRef Digits = StringRef(*Norm).drop_front(3); // "sm_"
  char Suffix = 0;
  if (Digits.ends_with("a") || Digits.ends_with("f")) {
    Suffix = Digits.back();
    Digits = Digits.drop_back();
  }
  unsigned Number = 0;
  if (Digits.getAsInteger(10, Number))
    return std::nullopt;
  std::string Value = std::to_string(Number * 10);
  ClangDeviceArch Out;
  Out.Arch = *Norm;
  if (Suffix == 'a' && NvccMacros) {
    Out.MacroArgs.push_back("-D__CUDA_ARCH_SPECIFIC__=" + Value);
    Out.MacroArgs.push_back("-D__CUDA_ARCH_FAMILY_SPECIFIC__=" + Value);
  } else if (Suffix == 'f') {
    // clang has no family-specific targets: the architecture-specific one of
    // the number, less its feature macro, or else the generic one.
    if (clangKnowsArchSpecific(Number)) {
      Out.Arch = ("sm_" + Digits + "a").str();
      Out.MacroArgs.push_back(
          ("-U__CUDA_ARCH_FEAT_SM" + Digits + "_ALL").str());
    } else {
      Out.Arch = ("sm_" + Digits).str();
    }
    Out.MacroArgs.push_back("-D__CUDA_ARCH_FAMILY_SPECIFIC__=" + Value);
  }
  return Out;
}

void useClangDeviceArchs(std::vector<std::string> &Args, bool NvccMacros) {
  std::optional<ClangDeviceArch> First;
  std::vector<std::string> Out;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    std::string Value;
    if (A.consume_front("--cuda-gpu-arch=") ||
        A.consume_front("--offload-arch="))
      Value = A.str();
    else if ((A == "--cuda-gpu-arch" || A == "--offload-arch") &&
             I + 1 < Args.size())
      Value = Args[++I];
    else {
      Out.push_back(Args[I]);
      continue;
    }
    std::optional<ClangDeviceArch> D = clangDeviceArch(Value, NvccMacros);
    if (!D) {
      Out.push_back("--cuda-gpu-arch=" + Value);
      continue;
    }
    std::string Arg = "--cuda-gpu-arch=" + D->Arch;
    if (!llvm::is_contained(Out, Arg))
      Out.push_back(Arg);
    // clang runs its device jobs in the order of the architecture names.
    if (!First || D->Arch < First->Arch)
      First = std::move(*D);
  }
  if (First && !First->MacroArgs.empty())
    Out.insert(Out.begin() + std::min<size_t>(1, Out.size()),
               First->MacroArgs.begin(), First->MacroArgs.end());
  Args = std::move(Out);
}

std::optional<CudaSides> parseCudaSides(StringRef List, std::string &Error) {
  CudaSides Sides{false, false};
  SmallVector<StringRef, 2> Names;
  List.split(Names, ',', -1, false);
  for (StringRef N : Names) {
    N = N.trim();
    if (N == "host")
      Sides.Host = true;
    else if (N == "device")
      Sides.Device = true;
    else {
      Error = ("unknown side '" + N + "' (expected 'host' or 'device')").str();
      return std::nullopt;
    }
  }
  if (!Sides.Host && !Sides.Device) {
    Error = "no side named (expected 'host', 'device' or 'host,device')";
    return std::nullopt;
  }
  return Sides;
}

std::optional<std::vector<std::string>> parseCudaArchList(StringRef List,
                                                          std::string &Error) {
  std::vector<std::string> Archs;
  SmallVector<StringRef, 4> Names;
  List.split(Names, ',', -1, false);
  for (StringRef N : Names) {
    std::optional<std::string> Arch = normalizeGpuArch(N);
    if (!Arch) {
      Error = ("'" + N.trim() + "' is not a GPU architecture (expected a " +
               "name such as sm_90 or sm_100a)")
                  .str();
      return std::nullopt;
    }
    if (!llvm::is_contained(Archs, *Arch))
      Archs.push_back(*Arch);
  }
  if (Archs.empty()) {
    Error = "no architecture named";
    return std::nullopt;
  }
  return Archs;
}

bool isCudaClangCommand(ArrayRef<std::string> Args) {
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if ((A == "-x" && I + 1 < Args.size() && Args[I + 1] == "cuda") ||
        A == "-xcuda" || A == "--language=cuda")
      return true;
    if (!A.starts_with("-") && A.ends_with(".cu"))
      return true;
  }
  return false;
}

std::vector<CudaJob> splitCudaJobs(ArrayRef<std::string> Args,
                                   ArrayRef<std::string> Archs, CudaSides Sides,
                                   bool NvccMacros) {
  if (Args.empty() || !isCudaClangCommand(Args))
    return {CudaJob{"", Args.vec()}};
  std::vector<std::string> Base{Args.front()};
  std::vector<std::string> Named;
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A.consume_front("--cuda-gpu-arch=") ||
        A.consume_front("--offload-arch=")) {
      Named.push_back(A.str());
      continue;
    }
    if ((A == "--cuda-gpu-arch" || A == "--offload-arch") &&
        I + 1 < Args.size()) {
      Named.push_back(Args[++I]);
      continue;
    }
    if (A == "--cuda-host-only" || A == "--cuda-device-only" ||
        A == "--cuda-compile-host-device" || A == "--offload-host-only" ||
        A == "--offload-device-only" || A == "--offload-host-device")
      continue;
    Base.push_back(Args[I]);
  }
  std::vector<std::string> Use = Archs.empty() ? Named : Archs.vec();

  auto Job = [&](StringRef Side, ArrayRef<std::string> Extra) {
    CudaJob J{Side.str(), {Base.front()}};
    llvm::append_range(J.Args, Extra);
    J.Args.insert(J.Args.end(), Base.begin() + 1, Base.end());
    return J;
  };
  std::vector<CudaJob> Jobs;
  if (Sides.Host)
    Jobs.push_back(Job("host", {"--cuda-host-only"}));
  if (Sides.Device) {
    if (Use.empty())
      Jobs.push_back(Job("device", {"--cuda-device-only"}));
    for (const std::string &Arch : Use) {
      std::vector<std::string> Extra{"--cuda-device-only",
                                     "--cuda-gpu-arch=" + Arch};
      if (std::optional<ClangDeviceArch> D =
              clangDeviceArch(Arch, NvccMacros)) {
        Extra[1] = "--cuda-gpu-arch=" + D->Arch;
        llvm::append_range(Extra, D->MacroArgs);
      }
      Jobs.push_back(Job(Arch, Extra));
    }
  }
  return Jobs;
}

} // namespace cuda_tidy
