//===--- BinaryCompatibility.cpp - Which GPUs compiled code runs on -------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/target/BinaryCompatibility.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace cuda_tidy {

std::string CodeImage::name() const {
  std::string Out = Kind == ImageKind::Cubin ? "sm_" : "compute_";
  Out += std::to_string(number());
  if (Features == FeatureSet::ArchSpecific)
    Out += "a";
  else if (Features == FeatureSet::FamilySpecific)
    Out += "f";
  return Out;
}

std::optional<CodeImage> parseCodeImage(llvm::StringRef Name) {
  std::string Lower = Name.trim().lower();
  llvm::StringRef Rest = Lower;
  CodeImage Image;
  if (Rest.consume_front("compute_"))
    Image.Kind = ImageKind::Ptx;
  else if (!Rest.consume_front("sm_"))
    Rest.consume_front("lto_");
  if (Rest.consume_back("a"))
    Image.Features = FeatureSet::ArchSpecific;
  else if (Rest.consume_back("f"))
    Image.Features = FeatureSet::FamilySpecific;
  unsigned Number = 0;
  if (Rest.size() < 2 || Rest.size() > 3 || !llvm::all_of(Rest, llvm::isDigit) ||
      Rest.getAsInteger(10, Number))
    return std::nullopt;
  Image.Major = Number / 10;
  Image.Minor = Number % 10;
  return Image;
}

bool runsOn(const CodeImage &Image, unsigned Major, unsigned Minor) {
  switch (Image.Features) {
  case FeatureSet::ArchSpecific:
    return Major == Image.Major && Minor == Image.Minor;
  case FeatureSet::FamilySpecific:
    return Major == Image.Major && Minor >= Image.Minor;
  case FeatureSet::Generic:
    break;
  }
  if (Image.Kind == ImageKind::Cubin)
    return Major == Image.Major && Minor >= Image.Minor;
  return Major > Image.Major || (Major == Image.Major && Minor >= Image.Minor);
}

llvm::StringRef generationName(unsigned Major, unsigned Minor) {
  switch (Major) {
  case 7:
    return Minor < 5 ? "Volta" : "Turing";
  case 8:
    return Minor == 9 ? "Ada" : "Ampere";
  case 9:
    return "Hopper";
  case 10:
  case 11:
  case 12:
    return "Blackwell";
  default:
    return Major < 7 ? "pre-Volta" : "post-Blackwell";
  }
}

llvm::SmallVector<const ArchLimits *, 16> knownDevices() {
  llvm::SmallVector<const ArchLimits *, 16> Out;
  for (const ArchLimits &L : allArchLimits())
    Out.push_back(&L);
  return Out;
}

std::optional<llvm::SmallVector<const ArchLimits *, 16>>
parseSupportedArchitectures(llvm::StringRef Value, std::string &Error) {
  std::string List = Value.str();
  llvm::replace(List, ',', ';');
  llvm::SmallVector<llvm::StringRef, 8> Names;
  llvm::StringRef(List).split(Names, ';');
  llvm::SmallVector<bool, 16> Wanted(allArchLimits().size(), false);
  bool Any = false;
  for (llvm::StringRef Raw : Names) {
    llvm::StringRef N = Raw.trim();
    if (N.empty())
      continue;
    std::string Lower = N.lower();
    llvm::StringRef S = Lower;
    if (!S.consume_back("-real"))
      S.consume_back("-virtual");
    std::optional<unsigned> Major, Minor;
    if (S.contains('.')) {
      auto [Ma, Mi] = S.split('.');
      unsigned A, B;
      if (!Ma.getAsInteger(10, A) && !Mi.getAsInteger(10, B)) {
        Major = A;
        Minor = B;
      }
    } else if (std::optional<CodeImage> Image = parseCodeImage(S)) {
      Major = Image->Major;
      Minor = Image->Minor;
    }
    const ArchLimits *L =
        Major && Minor ? findArchLimits(*Major, *Minor) : nullptr;
    if (!L) {
      Error = ("'" + N + "' in '" + SupportedArchitecturesOptionName +
               "' is not a compute capability cuda-tidy knows; expected "
               "numbers such as 75;80;90;100;120 (known: " +
               knownGpuArchList() + ")")
                  .str();
      return std::nullopt;
    }
    Wanted[L - allArchLimits().data()] = true;
    Any = true;
  }
  if (!Any) {
    Error = ("'" + SupportedArchitecturesOptionName +
             "' names no compute capability; expected numbers such as "
             "75;80;90;100;120")
                .str();
    return std::nullopt;
  }
  llvm::SmallVector<const ArchLimits *, 16> Out;
  for (size_t I = 0; I < Wanted.size(); ++I)
    if (Wanted[I])
      Out.push_back(&allArchLimits()[I]);
  return Out;
}

CompatibilityVerdict judgeImages(llvm::ArrayRef<CodeImage> Images,
                                 llvm::ArrayRef<const ArchLimits *> Devices) {
  CompatibilityVerdict V;
  unsigned Newest = 0;
  for (const CodeImage &I : Images)
    Newest = std::max(Newest, I.Major * 100 + I.Minor * 10);
  llvm::SmallVector<bool, 16> Runs;
  for (const ArchLimits *D : Devices)
    Runs.push_back(llvm::any_of(Images, [&](const CodeImage &I) {
      return runsOn(I, D->Major, D->Minor);
    }));
  auto GenerationRuns = [&](llvm::StringRef Generation) {
    for (size_t I = 0; I < Devices.size(); ++I)
      if (Runs[I] &&
          generationName(Devices[I]->Major, Devices[I]->Minor) == Generation)
        return true;
    return false;
  };
  for (size_t P = 0; P < Devices.size(); ++P) {
    const ArchLimits *D = Devices[P];
    if (Runs[P])
      continue;
    V.CannotRun.push_back(D);
    if (D->cudaArch() > Newest)
      V.ForwardGap = true;
    bool OlderOfMajor = false, Before = false, After = false;
    for (size_t I = 0; I < Devices.size(); ++I) {
      if (!Runs[I])
        continue;
      Before |= I < P;
      After |= I > P;
      OlderOfMajor |= Devices[I]->Major == D->Major &&
                      Devices[I]->Minor < D->Minor;
    }
    if (OlderOfMajor ||
        (Before && After && !GenerationRuns(generationName(D->Major, D->Minor))))
      V.Holes.push_back(D);
  }
  return V;
}

static std::string ccName(const ArchLimits *L) {
  return std::to_string(L->Major) + "." + std::to_string(L->Minor);
}

/// "a", "a and b", "a, b and c".
static std::string joinAnd(llvm::ArrayRef<std::string> Parts) {
  std::string Out;
  for (size_t I = 0; I < Parts.size(); ++I) {
    if (I > 0)
      Out += I + 1 == Parts.size() ? " and " : ", ";
    Out += Parts[I];
  }
  return Out;
}

std::string
describeComputeCapabilities(llvm::ArrayRef<const ArchLimits *> CCs,
                            llvm::ArrayRef<const ArchLimits *> Devices) {
  // Positions of CCs in Devices; consecutive positions form runs.
  llvm::SmallVector<size_t, 16> Pos;
  for (const ArchLimits *C : CCs) {
    const auto *It = llvm::find(Devices, C);
    if (It != Devices.end())
      Pos.push_back(It - Devices.begin());
  }
  llvm::sort(Pos);
  // Ranges only over the whole table: a configured list has gaps.
  bool Full = Devices.size() == allArchLimits().size();
  llvm::SmallVector<std::string, 8> Parts;
  for (size_t I = 0; I < Pos.size();) {
    size_t J = I;
    while (J + 1 < Pos.size() && Pos[J + 1] == Pos[J] + 1)
      ++J;
    const ArchLimits *First = Devices[Pos[I]], *Last = Devices[Pos[J]];
    if (Full && Pos[J] + 1 == Devices.size() && J > I) {
      Parts.push_back(ccName(First) + " or later");
    } else if (Full && J - I >= 2) {
      Parts.push_back(ccName(First) + " to " + ccName(Last));
    } else {
      for (size_t K = I; K <= J; ++K)
        Parts.push_back(ccName(Devices[Pos[K]]));
    }
    I = J + 1;
  }
  llvm::SmallVector<std::string, 6> Generations;
  for (size_t P : Pos) {
    std::string G =
        generationName(Devices[P]->Major, Devices[P]->Minor).str();
    if (!llvm::is_contained(Generations, G))
      Generations.push_back(G);
  }
  std::string Out = joinAnd(Parts);
  if (!Generations.empty())
    Out += " (" + llvm::join(Generations, ", ") + ")";
  return Out;
}

std::string describeImages(llvm::ArrayRef<CodeImage> Images) {
  llvm::SmallVector<std::string, 8> Cubins, Ptx;
  for (const CodeImage &I : Images) {
    auto &List = I.Kind == ImageKind::Cubin ? Cubins : Ptx;
    if (!llvm::is_contained(List, I.name()))
      List.push_back(I.name());
  }
  if (Cubins.empty() && Ptx.empty())
    return "no device code";
  if (Ptx.empty())
    return joinAnd(Cubins) + " cubins only, with no PTX";
  if (Cubins.empty())
    return joinAnd(Ptx) + " PTX only";
  return joinAnd(Cubins) + " cubins and " + joinAnd(Ptx) + " PTX";
}

} // namespace cuda_tidy
