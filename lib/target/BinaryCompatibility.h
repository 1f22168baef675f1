//===--- BinaryCompatibility.h - Which GPUs compiled code runs on -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The rules that decide on which GPUs the device code of a build can run,
/// written once for the cuda-tidy driver (which reads them off each file's
/// nvcc flags) and for cuda-target-compatibility.
///
/// Model: a CUDA binary embeds code images, each compiled for one compute
/// capability X.Y, either as a cubin (machine code, `sm_XY`) or as PTX
/// (`compute_XY`), and either generic, architecture-specific (`sm_90a`) or
/// family-specific (`sm_100f`, CUDA 12.9 and later). The driver loads an
/// image that runs on the device, compiling PTX just in time. An image runs
/// on a device of compute capability M.m when:
///  - a generic cubin: M == X and m >= Y (the Blackwell compatibility guide:
///    "a cubin generated for a certain compute capability is supported to
///    run on any GPU with the same major revision and same or higher minor
///    revision");
///  - generic PTX: M.m >= X.Y (the JIT compiles it for any later GPU);
///  - an architecture-specific image (cubin or PTX): M.m == X.Y only (its
///    features are not guaranteed on any other compute capability);
///  - a family-specific image (cubin or PTX): M == X and m >= Y, the members
///    of its family (compute_100f runs on 10.0 and 10.3, not on 11.0 or
///    12.x).
/// These were measured on an H100 (shared/FACTS.md): sm_80, sm_86, sm_100
/// cubins and compute_120 PTX do not load there; compute_80 PTX and sm_90a
/// run.
///
/// Left out: CUDA's minor-version and forward-compatibility packages (older
/// drivers), which decide whether a *driver* runs a binary, not whether the
/// GPU does; LTO-IR images (`lto_XY`) are counted as the cubins the device
/// link makes of them.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_TARGET_BINARYCOMPATIBILITY_H
#define CUDA_TIDY_LIB_TARGET_BINARYCOMPATIBILITY_H

#include "lib/target/ArchLimits.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace cuda_tidy {

/// The module-wide option naming the GPUs a team supports.
inline constexpr llvm::StringLiteral SupportedArchitecturesOptionName =
    "cuda.SupportedArchitectures";

/// How an image is compiled.
enum class ImageKind {
  Cubin, ///< Machine code for one compute capability (`sm_80`).
  Ptx,   ///< PTX the driver compiles at load time (`compute_80`).
};

/// Which feature set an image (or a compilation) targets.
enum class FeatureSet {
  Generic,        ///< `sm_90`, `compute_90`.
  ArchSpecific,   ///< `sm_90a`, `compute_90a`: that compute capability only.
  FamilySpecific, ///< `sm_100f`, `compute_100f`: its family only.
};

/// One code image of a fat binary.
struct CodeImage {
  ImageKind Kind = ImageKind::Cubin;
  unsigned Major = 0;
  unsigned Minor = 0;
  FeatureSet Features = FeatureSet::Generic;

  /// The compute capability as nvcc spells it (`90` for 9.0).
  unsigned number() const { return Major * 10 + Minor; }
  /// "sm_90a", "compute_80".
  std::string name() const;
  bool operator==(const CodeImage &O) const {
    return Kind == O.Kind && Major == O.Major && Minor == O.Minor &&
           Features == O.Features;
  }
};

/// Parses `sm_XY`, `compute_XY` and `lto_XY` (the cubin the device link
/// makes), each with an optional `a` or `f`, and the bare numbers `XY` (a
/// cubin). Any number of two or three digits is accepted, the limits table
/// notwithstanding; std::nullopt for anything else.
std::optional<CodeImage> parseCodeImage(llvm::StringRef Name);

/// Whether \p Image runs on a device of compute capability Major.Minor (the
/// rules of the file comment).
bool runsOn(const CodeImage &Image, unsigned Major, unsigned Minor);

/// The GPU generation of a compute capability, for messages ("Hopper").
llvm::StringRef generationName(unsigned Major, unsigned Minor);

/// The compute capabilities of the limits table from Volta on, in order: the
/// devices a build is judged against when no list is configured.
llvm::SmallVector<const ArchLimits *, 16> knownDevices();

/// Parses the value of `cuda.SupportedArchitectures`: compute capabilities
/// separated by ';' or ',', each as CMake (`75`, `90`, `120`), as nvcc
/// (`sm_90`, `compute_90`) or dotted (`9.0`); an `a`/`f` suffix or CMake's
/// `-real`/`-virtual` is ignored (the list names GPUs, not code). Returns the
/// table rows in table order without repeats, or std::nullopt with \p Error
/// set for a name that is not one of the table's compute capabilities.
std::optional<llvm::SmallVector<const ArchLimits *, 16>>
parseSupportedArchitectures(llvm::StringRef Value, std::string &Error);

/// What a build's images cannot run on.
struct CompatibilityVerdict {
  /// The devices (of those judged) no image runs on, in their order.
  llvm::SmallVector<const ArchLimits *, 16> CannotRun;
  /// Some device newer than every image cannot run: the build has no code
  /// for a generation after its newest one (no PTX carries it forward).
  bool ForwardGap = false;
  /// Devices no image runs on inside what the build covers: an image runs on
  /// an older compute capability of their major version (`sm_100a` alone
  /// runs on 10.0, not on 10.3), or images run on generations both older and
  /// newer than theirs while none runs on their generation (sm_75 cubins and
  /// compute_90 PTX leave Ampere and Ada). In CannotRun's order.
  llvm::SmallVector<const ArchLimits *, 4> Holes;
};

/// Judges \p Images against \p Devices (in increasing order).
CompatibilityVerdict judgeImages(llvm::ArrayRef<CodeImage> Images,
                                 llvm::ArrayRef<const ArchLimits *> Devices);

/// "9.0 or later (Hopper, Blackwell)", "7.0 and 7.5 (Volta, Turing)": the
/// compute capabilities \p CCs with their generations. When \p Devices is
/// the whole table, runs of consecutive entries are shortened ("8.0 to 8.9",
/// and "9.0 or later" for a run that reaches the newest); a configured list
/// is named entry by entry.
std::string describeComputeCapabilities(
    llvm::ArrayRef<const ArchLimits *> CCs,
    llvm::ArrayRef<const ArchLimits *> Devices);

/// "sm_80 and sm_90 cubins and compute_90 PTX", "sm_80 cubins only, with no
/// PTX", "compute_120 PTX only".
std::string describeImages(llvm::ArrayRef<CodeImage> Images);

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_TARGET_BINARYCOMPATIBILITY_H
