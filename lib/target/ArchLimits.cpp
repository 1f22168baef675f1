//===--- ArchLimits.cpp - Per-architecture CUDA limits --------------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/target/ArchLimits.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace cuda_tidy {

static constexpr unsigned KiB = 1024;

// Sources, per column, in shared/FACTS.md: V = Volta tuning guide, H = Hopper,
// B = Blackwell, P = CUDA C++ Programming Guide. Shared memory per block is the
// opt-in maximum.
//
// The rows for 8.7, 10.3, 11.0 and 12.1 follow the compute capability table
// of the CUDA C++ Programming Guide ("Compute Capabilities", Table 31,
// docs.nvidia.com/cuda/cuda-programming-guide/05-appendices/
// compute-capabilities.html), cross-checked against the occupancy calculator
// header the CUDA 13.0 toolkit ships (include/cuda_occupancy.h): resident
// blocks per SM (16 for 8.7, 32 for 10.3, 24 for 11.0 and 12.x) and the
// largest shared memory carveout per SM (164 KB for 8.0 and 8.7, 228 KB for
// 10.x and 11.0, the 12.0 configurations for 12.1). Shared memory per block is
// the SM's less the 1 KB the driver reserves per block. 12.1 (DGX Spark) has
// 12.0's shared memory. Resident blocks of 12.0: the Blackwell guide says 32,
// the occupancy header 24 for every 12.x, and CUDA 13.0's ptxas agrees with
// the header: `.minnctapersm 25` is "out of range" for sm_120 and sm_121
// (as it is above 16 for sm_75, sm_86, sm_87, above 24 for sm_89 and
// sm_110, and above 32 for sm_80, sm_90, sm_100, sm_103); 24 is kept. The
// resident threads (warps x 32) match ptxas's "threads per SM" range on
// every target. The largest non-portable cluster is stated for 9.0 and 10.0
// only; the others keep 0.
static const ArchLimits Table[] = {
    // CC   example        warps blocks smem/SM    smem/block clusters  max
    {7, 0, "V100", 64, 32, 96 * KiB, 96 * KiB, false, 0},
    {7, 5, "T4", 32, 16, 64 * KiB, 64 * KiB, false, 0},
    {8, 0, "A100", 64, 32, 164 * KiB, 163 * KiB, false, 0},
    {8, 6, "RTX 30", 48, 16, 100 * KiB, 99 * KiB, false, 0},
    {8, 7, "Jetson Orin", 48, 16, 164 * KiB, 163 * KiB, false, 0},
    {8, 9, "RTX 40", 48, 24, 100 * KiB, 99 * KiB, false, 0},
    {9, 0, "H100", 64, 32, 228 * KiB, 227 * KiB, true, 16},
    {10, 0, "B200", 64, 32, 228 * KiB, 227 * KiB, true, 16},
    {10, 3, "B300", 64, 32, 228 * KiB, 227 * KiB, true, 0},
    {11, 0, "Jetson Thor", 48, 24, 228 * KiB, 227 * KiB, true, 0},
    {12, 0, "RTX 50", 48, 24, 128 * KiB, 99 * KiB, true, 0},
    {12, 1, "DGX Spark", 48, 24, 128 * KiB, 99 * KiB, true, 0},
};

llvm::ArrayRef<ArchLimits> allArchLimits() { return Table; }

uint64_t allocatedRegistersPerBlock(const ArchLimits &L,
                                    unsigned RegistersPerThread,
                                    uint64_t Threads) {
  uint64_t Unit = L.RegisterAllocationUnit;
  uint64_t PerWarp =
      (uint64_t(RegistersPerThread) * 32 + Unit - 1) / Unit * Unit;
  uint64_t Warps = (Threads + 31) / 32;
  uint64_t Parts = L.RegisterFilePartitions;
  uint64_t CountedWarps = (Warps + Parts - 1) / Parts * Parts;
  return PerWarp * CountedWarps;
}

unsigned largestClusterAnyGpu() {
  unsigned Max = PortableClusterSize;
  for (const ArchLimits &L : Table)
    Max = std::max(Max, L.MaxNonPortableClusterSize);
  return Max;
}

const ArchLimits *findArchLimits(unsigned Major, unsigned Minor) {
  for (const ArchLimits &L : Table)
    if (L.Major == Major && L.Minor == Minor)
      return &L;
  return nullptr;
}

std::string knownGpuArchList() {
  std::string Out;
  for (const ArchLimits &L : Table) {
    if (!Out.empty())
      Out += ", ";
    Out += "sm_" + std::to_string(L.Major * 10 + L.Minor);
  }
  return Out;
}

GpuArchParse parseGpuArch(llvm::StringRef Name) {
  GpuArchParse Result;
  std::string Lower = Name.trim().lower();
  llvm::StringRef Rest = Lower;
  auto Fail = [&](llvm::StringRef Why) {
    Result.Error = ("unknown CUDA architecture '" + Name.trim() + "': " + Why +
                    "; expected one of " + knownGpuArchList() +
                    " (optionally as compute_NN, or with an 'a' or 'f' suffix)")
                       .str();
    return Result;
  };

  bool Virtual = false;
  if (Rest.consume_front("sm_")) {
  } else if (Rest.consume_front("compute_")) {
    Virtual = true;
  } else {
    return Fail("the name must start with 'sm_' or 'compute_'");
  }

  ArchFlavor Flavor = Virtual ? ArchFlavor::Virtual : ArchFlavor::Real;
  if (Rest.consume_back("a"))
    Flavor = ArchFlavor::ArchSpecific;
  else if (Rest.consume_back("f"))
    Flavor = ArchFlavor::FamilySpecific;

  unsigned Number = 0;
  if (Rest.empty() || !llvm::all_of(Rest, llvm::isDigit) ||
      Rest.getAsInteger(10, Number) || Number < 10)
    return Fail("the compute capability must be a number such as 90");

  const ArchLimits *Limits = findArchLimits(Number / 10, Number % 10);
  if (!Limits) {
    std::string CC =
        std::to_string(Number / 10) + "." + std::to_string(Number % 10);
    if (Number < 70)
      return Fail("compute capability " + CC +
                  " is older than Volta (7.0), where cuda-tidy's limits "
                  "table starts");
    return Fail("compute capability " + CC +
                " is not in cuda-tidy's limits table");
  }
  if (Flavor == ArchFlavor::ArchSpecific && Limits->Major < 9)
    return Fail("architecture-specific ('a') targets start at sm_90a");
  if (Flavor == ArchFlavor::FamilySpecific && Limits->Major < 10)
    return Fail("family-specific ('f') targets start at sm_100f");

  Result.Arch = GpuArch{Limits, Flavor, Lower};
  return Result;
}

} // namespace cuda_tidy
