//===--- ArchLimits.h - Per-architecture CUDA limits ------------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one table of per-architecture hardware limits every cuda-tidy check
/// reads, and the parser for GPU architecture names.
///
/// Model: a compute capability (7.0 to 12.1) carries the occupancy and memory
/// limits the Volta, Hopper and Blackwell tuning guides and the CUDA C++
/// Programming Guide's compute capability table state (the sources are
/// listed in shared/FACTS.md). An architecture *name* adds how code is
/// compiled for it: a real target (`sm_90`), a virtual one (`compute_90`), or
/// an architecture-specific (`sm_90a`) or family-specific (`sm_100f`) one.
///
/// Left out: compute capabilities the table has no documented numbers for
/// (7.2, 10.1, everything before Volta, and any newer than 12.1). Their names
/// parse as unknown so that a check never guesses a limit; lib/target/CudaTarget.h
/// says once per run which architecture was skipped and why.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_TARGET_ARCHLIMITS_H
#define CUDA_TIDY_LIB_TARGET_ARCHLIMITS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>

namespace cuda_tidy {

/// Static shared memory one kernel may declare for a generic target, and the
/// dynamic shared memory a launch gets without the
/// cudaFuncAttributeMaxDynamicSharedMemorySize opt-in: 48 KiB everywhere.
inline constexpr unsigned DefaultSharedMemPerBlock = 48 * 1024;

/// Thread block clusters: the portable size and the size no GPU accepts.
inline constexpr unsigned PortableClusterSize = 8;

/// Launch shapes every GPU of the table accepts (CUDA C++ Programming Guide,
/// compute capability table; the runtime returns cudaErrorInvalidValue for
/// anything larger, measured on an H100 in shared/FACTS.md): a block of at
/// most 1024 threads, at most 1024 in x and y and 64 in z; a grid of at most
/// 2^31 - 1 blocks in x and 65535 in y and z.
inline constexpr unsigned MaxThreadsPerBlock = 1024;
inline constexpr unsigned MaxBlockDim[3] = {1024, 1024, 64};
inline constexpr uint64_t MaxGridDim[3] = {(1ull << 31) - 1, 65535, 65535};

/// Hardware limits of one compute capability.
struct ArchLimits {
  unsigned Major;
  unsigned Minor;
  /// A product that has it, for messages ("H100").
  const char *Example;
  unsigned MaxWarpsPerSM;
  unsigned MaxBlocksPerSM;
  /// Shared memory per SM, in bytes.
  unsigned SharedMemPerSM;
  /// The opt-in maximum of shared memory per block (static plus dynamic), in
  /// bytes.
  unsigned MaxSharedMemPerBlock;
  /// Whether thread block clusters exist (compute capability 9.0 and later).
  bool HasClusters;
  /// Largest cluster with cudaFuncAttributeNonPortableClusterSizeAllowed, or 0
  /// when the documentation does not state one.
  unsigned MaxNonPortableClusterSize;

  // Registers: the same on every architecture of the table (64K 32-bit
  // registers per SM and at most 255 per thread: V, H and B; 64K per block:
  // P; the allocation unit and the partitions: cuda_occupancy.h of CUDA 13.0,
  // cudaOccRegAllocationGranularity and cudaOccSubPartitionsPerMultiprocessor
  // for compute capability 7.x to 12.x).
  /// 32-bit registers per SM.
  unsigned RegistersPerSM = 64 * 1024;
  /// 32-bit registers one block may use.
  unsigned RegistersPerBlock = 64 * 1024;
  /// The most registers ptxas gives one thread.
  unsigned MaxRegistersPerThread = 255;
  /// Registers are allocated per warp, in units of this many.
  unsigned RegisterAllocationUnit = 256;
  /// The register file's partitions: a block's warps are spread over them,
  /// and the hardware's launch check counts the warps rounded up to a
  /// multiple of this.
  unsigned RegisterFilePartitions = 4;

  /// The compute capability as an integer, as __CUDA_ARCH__ spells it (900).
  unsigned cudaArch() const { return Major * 100 + Minor * 10; }
  /// The SM number as nvcc and the fatbin spell it (90).
  unsigned smNumber() const { return Major * 10 + Minor; }
  /// Resident threads per SM (2048, or 1536 where 48 warps fit).
  unsigned maxThreadsPerSM() const { return MaxWarpsPerSM * 32; }
  /// The largest cluster this architecture runs: 0 without clusters, the
  /// non-portable maximum where one is stated, else the portable size.
  unsigned largestCluster() const {
    if (!HasClusters)
      return 0;
    return MaxNonPortableClusterSize ? MaxNonPortableClusterSize
                                     : PortableClusterSize;
  }
};

/// Registers one block of \p Threads threads holds when each thread uses
/// \p RegistersPerThread, as the hardware allocates them: per warp, rounded
/// up to the allocation unit, for the warps rounded up to a multiple of the
/// register file's partitions (cudaOccMaxBlocksPerSMRegsLimit). A launch
/// fails with cudaErrorLaunchOutOfResources when this exceeds
/// RegistersPerBlock.
uint64_t allocatedRegistersPerBlock(const ArchLimits &L,
                                    unsigned RegistersPerThread,
                                    uint64_t Threads);

/// The largest cluster any GPU in the table runs, with the non-portable
/// opt-in (16).
unsigned largestClusterAnyGpu();

/// Every compute capability the table knows, in increasing order.
llvm::ArrayRef<ArchLimits> allArchLimits();

/// The limits of compute capability Major.Minor, or null when unknown.
const ArchLimits *findArchLimits(unsigned Major, unsigned Minor);

/// How code is generated for an architecture.
enum class ArchFlavor {
  Real,           ///< sm_90: SASS for one architecture, portable PTX rules.
  Virtual,        ///< compute_90: PTX, JIT-compiled at load time.
  ArchSpecific,   ///< sm_90a / compute_90a: only this exact architecture.
  FamilySpecific, ///< sm_100f / compute_100f: one architecture family.
};

/// A parsed GPU architecture name.
struct GpuArch {
  const ArchLimits *Limits = nullptr;
  ArchFlavor Flavor = ArchFlavor::Real;
  /// The name as the user wrote it, normalised to lower case ("sm_90a").
  std::string Name;

  /// Whether ptxas accepts static shared memory beyond 48 KiB for this target
  /// (up to the per-block maximum): architecture- and family-specific ones.
  bool allowsLargeStaticSharedMemory() const {
    return Flavor == ArchFlavor::ArchSpecific ||
           Flavor == ArchFlavor::FamilySpecific;
  }
};

/// The result of parsing an architecture name: the architecture, or a message
/// that says why the name is not one.
struct GpuArchParse {
  std::optional<GpuArch> Arch;
  std::string Error;
};

/// Parses "sm_90", "sm_90a", "sm_100f", "compute_90", "compute_90a". Case is
/// ignored. Anything else, or a compute capability missing from the table,
/// gives an error naming the accepted names.
GpuArchParse parseGpuArch(llvm::StringRef Name);

/// "sm_70, sm_75, ..., sm_120": the real targets the table knows, for
/// messages.
std::string knownGpuArchList();

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_TARGET_ARCHLIMITS_H
