//===--- BuildCompatibility.cpp - GPUs a build's flags leave out ----------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "tools/common/BuildCompatibility.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace llvm;

namespace cuda_tidy {

static std::string ccNumber(const ArchLimits *L) {
  return std::to_string(L->Major * 10 + L->Minor);
}

static bool hasOption(const NvccCodeTargets &Code, StringRef Needle) {
  return llvm::any_of(Code.Options, [&](const std::string &O) {
    return StringRef(O).contains(Needle);
  });
}

/// What leaves \p Holes without code and what would fill them: an
/// architecture-specific image of an older compute capability of their major
/// version (`sm_100a` leaves 10.3: build `sm_100f`, or add `compute_100`
/// PTX), or a generation between those built.
static std::string describeHoles(const NvccCodeTargets &Code,
                                 ArrayRef<const ArchLimits *> Holes,
                                 ArrayRef<const ArchLimits *> Devices) {
  const ArchLimits *Hole = Holes.front();
  for (const CodeImage &I : Code.Images) {
    if (I.Features != FeatureSet::ArchSpecific || I.Major != Hole->Major ||
        I.Minor >= Hole->Minor)
      continue;
    std::string Number = std::to_string(I.number());
    std::string Family = I.Kind == ImageKind::Cubin ? "sm_" + Number + "f"
                                                    : "compute_" + Number + "f";
    return "compute capability " + describeComputeCapabilities(Holes, Devices) +
           " has no code although the build covers " +
           std::to_string(I.Major) + "." + std::to_string(I.Minor) + ": '" +
           I.name() + "' is architecture-specific and runs on " +
           std::to_string(I.Major) + "." + std::to_string(I.Minor) +
           " only; build '" + Family + "' (CMake '" + Number +
           "f') for the whole family, or add 'compute_" + Number + "' PTX";
  }
  return "compute capability " + describeComputeCapabilities(Holes, Devices) +
         " has no code between the generations the build covers; add an 'sm_" +
         ccNumber(Hole) + "' target, or PTX of an older architecture";
}

std::optional<BuildVerdict>
judgeBuild(const NvccCodeTargets &Code, std::optional<unsigned> Toolkit,
           const std::optional<SmallVector<const ArchLimits *, 16>> &Supported) {
  if (Code.Native)
    return BuildVerdict{
        true,
        "is built with '-arch=native': it has cubins only for the GPUs of the "
        "machine that builds it and no PTX (on a machine without a GPU, nvcc's "
        "default sm_75 and compute_75), so it cannot run on a GPU newer than "
        "those; name the architectures "
        "instead (nvcc '-arch=sm_80' embeds the sm_80 cubin and compute_80 "
        "PTX; CMake '80;90' or 'all-major')"};
  SmallVector<const ArchLimits *, 16> Devices =
      Supported ? *Supported : knownDevices();
  CompatibilityVerdict V = judgeImages(Code.Images, Devices);
  if (V.CannotRun.empty())
    return std::nullopt;

  BuildVerdict Out;
  Out.Warning = Supported ? true : V.ForwardGap || !V.Holes.empty();
  std::string &P = Out.Predicate;
  P = Code.Default ? "is built for nvcc's default architecture, as "
                   : "is built as ";
  P += describeImages(Code.Images);
  P += ": it cannot run on compute capability " +
       describeComputeCapabilities(V.CannotRun, Devices);
  if (Supported)
    P += ", which '" + SupportedArchitecturesOptionName.str() + "' names";

  // The newest image, and what it leaves out.
  const CodeImage *Newest = nullptr;
  for (const CodeImage &I : Code.Images)
    if (!Newest || I.number() > Newest->number() ||
        (I.number() == Newest->number() &&
         I.Features == FeatureSet::Generic))
      Newest = &I;
  unsigned NewestArch = Newest ? Newest->Major * 100 + Newest->Minor * 10 : 0;
  SmallVector<std::string, 3> Advice;
  if (Newest && Newest->Features == FeatureSet::ArchSpecific && V.ForwardGap)
    P += "; '" + Newest->name() + "' is architecture-specific and runs on " +
         std::to_string(Newest->Major) + "." + std::to_string(Newest->Minor) +
         " only";
  else if (Newest && Newest->Features == FeatureSet::FamilySpecific &&
           V.ForwardGap)
    P += "; '" + Newest->name() + "' is family-specific and runs on " +
         std::to_string(Newest->Major) + ".x only";

  const ArchLimits *FirstNewer = nullptr, *FirstOlder = nullptr;
  for (const ArchLimits *L : V.CannotRun) {
    if (L->cudaArch() > NewestArch) {
      if (!FirstNewer)
        FirstNewer = L;
    } else if (!FirstOlder) {
      FirstOlder = L;
    }
  }
  // CUDA 13 builds nothing below compute capability 7.5.
  bool Cuda13 = Toolkit.value_or(13000) >= 13000;
  const ArchLimits *Buildable = nullptr;
  for (const ArchLimits *L : V.CannotRun)
    if (!Cuda13 || L->cudaArch() >= 750) {
      Buildable = L;
      break;
    }
  bool Volta = Cuda13 && V.CannotRun.front()->cudaArch() < 750;
  if (FirstOlder && Supported) {
    // PTX of the oldest one the toolkit builds carries all of them.
    if (Buildable)
      Advice.push_back("add 'compute_" + ccNumber(Buildable) +
                       "' PTX, which runs on " +
                       std::to_string(Buildable->Major) + "." +
                       std::to_string(Buildable->Minor) +
                       " and later, or a cubin for each");
    if (Volta)
      Advice.push_back("CUDA 13 builds no code for compute capability 7.0; "
                       "build it with CUDA 12");
  } else if (FirstNewer && Newest) {
    std::string Base = std::to_string(Newest->number());
    std::string A = "add 'compute_" + Base + "' PTX or an 'sm_" +
                    ccNumber(FirstNewer) + "' target";
    if (Newest->Features == FeatureSet::Generic &&
        hasOption(Code, "code=[sm_" + Base + "]"))
      A += " (CMake: '" + Base + "' instead of '" + Base + "-real')";
    else if (Newest->Features != FeatureSet::Generic &&
             hasOption(Code, "--generate-code="))
      A += " (CMake: add '" + Base + "')";
    Advice.push_back(std::move(A));
  } else if (!Out.Warning && Volta) {
    Advice.push_back("CUDA 13 builds no code for Volta");
  }
  if (!Supported && !V.Holes.empty())
    Advice.push_back(describeHoles(Code, V.Holes, Devices));
  for (const std::string &A : Advice)
    P += "; " + A;
  return Out;
}

std::vector<BuildFinding>
judgeBuilds(ArrayRef<BuildCommand> Commands,
            function_ref<std::string(StringRef)> Display) {
  std::vector<BuildFinding> Out;
  StringMap<size_t> Groups;
  std::vector<std::string> Predicates;
  for (const BuildCommand &C : Commands) {
    std::string Options = C.Code.Default ? std::string("nvcc's default")
                                         : llvm::join(C.Code.Options, " ");
    std::string Key = Options + "\n" +
                      std::to_string(C.Toolkit.value_or(0)) + "\n";
    if (C.Supported)
      for (const ArchLimits *L : *C.Supported)
        Key += ccNumber(L) + ";";
    auto [It, New] = Groups.try_emplace(Key, Out.size());
    if (!New) {
      if (It->second != SIZE_MAX && Out[It->second].File != C.File)
        ++Out[It->second].Files;
      continue;
    }
    std::optional<BuildVerdict> V = judgeBuild(C.Code, C.Toolkit, C.Supported);
    if (!V) {
      It->second = SIZE_MAX;
      continue;
    }
    BuildFinding F;
    F.Warning = V->Warning;
    F.Options = Options;
    F.File = C.File;
    F.Files = 1;
    Out.push_back(std::move(F));
    Predicates.push_back(std::move(V->Predicate));
  }
  for (size_t I = 0; I < Out.size(); ++I) {
    BuildFinding &F = Out[I];
    StringRef Predicate = Predicates[I];
    std::string Subject = "'" + Display(F.File) + "'";
    if (F.Files > 1) {
      Subject += " and " + std::to_string(F.Files - 1) +
                 (F.Files == 2 ? " other file" : " other files");
      if (Predicate.consume_front("is "))
        Subject += " are";
    }
    F.Message = Subject + " " + Predicate.str();
  }
  return Out;
}

} // namespace cuda_tidy
