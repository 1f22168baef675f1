//===--- NvccArgs.h - nvcc command lines as clang command lines -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Translates the compile commands that nvcc builds write (CMake's
/// `LANGUAGES CUDA`, hand-written Makefiles) into commands that clang's
/// front end accepts, and splits a CUDA command into one analysis job per
/// side: the host and each device architecture.
///
/// The model: an nvcc command is a list of nvcc options, host-compiler
/// options (`-Xcompiler`, or unknown options under
/// `-forward-unknown-to-host-compiler`) and input files. Options that change
/// what the front end sees (macros, include paths, the language standard,
/// the architectures, relocatable device code, the default stream, fast
/// math) are translated; options that only matter to code generation, the
/// device linker, ptxas or the build (output files, dependency files, the
/// host compiler's path, register limits, warnings of nvcc's own front end)
/// are dropped. Anything else is reported as not translated and dropped, so
/// that clang never sees an nvcc option it would reject.
///
/// Left out: nvcc's `-arch=native|all|all-major` (they name no
/// architecture that is known without a GPU or the toolkit's list; they are
/// reported and the default architecture is used), `-Xcudafe` and other
/// pass-through options of nvcc's internal tools, and nvcc's other
/// predefined macros: the analysis is clang's, and says so. nvcc's
/// `__NVCC__` and `__CUDACC_VER_MAJOR__`/`__MINOR__` are defined when the
/// toolkit's version is known (code picks its CUDA spelling by them; CCCL
/// under `__NVCC__` needs the version).
///
/// Defined in three units: NvccArgs.cpp (the option table and the
/// translation), CudaToolkit.cpp (the toolkit's folders, version and
/// macros) and CudaJobs.cpp (clang's device architectures and the jobs of a
/// clang command).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_COMMON_NVCCARGS_H
#define CUDA_TIDY_TOOLS_COMMON_NVCCARGS_H

#include "lib/target/BinaryCompatibility.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace cuda_tidy {

/// The architecture nvcc 13 compiles for when the command names none.
inline constexpr const char *NvccDefaultArch = "sm_75";

/// Reads an `--options-file`; returns std::nullopt when it cannot be read.
using ReadFileFn =
    llvm::function_ref<std::optional<std::string>(llvm::StringRef Path)>;

/// How to translate.
struct NvccTranslateOptions {
  /// The clang executable written as the new argv[0].
  std::string ClangExecutable = "clang++";
  /// The CUDA toolkit; empty: found from the nvcc path (its parent folder).
  std::string CudaPath;
  /// The working directory of the command, for relative option files.
  std::string Directory;
};

/// An nvcc command translated into a clang command.
/// The toolkit's CUDA_VERSION (1000 * major + 10 * minor), read from
/// CudaPath/include/cuda.h; std::nullopt when it cannot be read.
std::optional<unsigned> toolkitVersion(llvm::StringRef CudaPath);

/// CudaPath/include/cccl (thrust, cub, libcu++ since CUDA 13, which nvcc
/// searches and clang does not) when that folder exists.
std::optional<std::string> ccclIncludeDir(llvm::StringRef CudaPath);

/// Appends to \p Args what gives clang the toolkit at \p CudaPath as nvcc
/// compiles with it: `--cuda-path`, CCCL's folder as a system folder, and
/// the macros nvcc defines and clang does not (`__CUDACC_VER_MAJOR__`,
/// `__CUDACC_VER_MINOR__` and `__NVCC__` when the version is known; the
/// cluster API of cooperative groups).
void appendToolkitArgs(llvm::StringRef CudaPath,
                       std::vector<std::string> &Args);

/// The code an nvcc command embeds for its device code, as nvcc 13 reads its
/// `-arch`, `-code` and `-gencode` options (checked against `nvcc --dryrun`,
/// whose fatbinary line lists the images):
///  - `-arch=sm_XY` alone: the sm_XY cubin and compute_XY PTX; `sm_XYa` and
///    `sm_XYf` add compute_XY PTX beside their own cubin and PTX;
///    `-arch=compute_XY` alone: its PTX (`compute_XYa`: and compute_XY's);
///  - `-arch=V -code=C1,C2` and `-gencode arch=V,code=[C1,C2]`: exactly the
///    images C1, C2 (`sm_*` cubins, `compute_*` PTX), compiled from V;
///  - several `-arch`: the last one counts; `-gencode`s add to `-arch`;
///  - `-arch=all`: a cubin for every architecture the toolkit supports and
///    PTX of its highest major; `all-major`: cubins of the major versions and
///    the earliest, the same PTX; `native`: cubins of the GPUs of the machine
///    that builds, known only there;
///  - no option: nvcc's default, sm_75 and compute_75 for CUDA 13 (sm_52
///    before).
struct NvccCodeTargets {
  /// The embedded images, in command order without repeats.
  std::vector<CodeImage> Images;
  /// The virtual architectures the device code is compiled for, as
  /// `compute_XY[a|f]`: the `__CUDA_ARCH__` values (and feature macros) its
  /// preprocessing sees.
  std::vector<std::string> CompileArchs;
  /// `-arch=native`: Images lacks the build machine's GPUs.
  bool Native = false;
  /// No architecture option: nvcc's default.
  bool Default = false;
  /// The options that chose the code, as written.
  std::vector<std::string> Options;
};

struct NvccTranslation {
  /// The clang command line, argv[0] included.
  std::vector<std::string> Args;
  /// The real GPU architectures the command compiles for, as clang spells
  /// them (`sm_90`, `sm_90a`), in command order without repeats. Empty when
  /// the command names none (nvcc then compiles for NvccDefaultArch).
  std::vector<std::string> GpuArchs;
  /// The toolkit used for `--cuda-path`; empty when none was found.
  std::string CudaPath;
  /// Options that were not understood and dropped, as written.
  std::vector<std::string> Untranslated;
  /// Other problems, one sentence each (a missing toolkit, an unreadable
  /// options file, an option with no value).
  std::vector<std::string> Problems;
  /// The code nvcc embeds.
  NvccCodeTargets Code;
};

/// Whether \p Executable names nvcc (`nvcc`, `/usr/local/cuda/bin/nvcc`,
/// `nvcc.exe`), possibly behind a launcher such as ccache.
bool isNvccCommand(llvm::ArrayRef<std::string> Argv);

/// Translates an nvcc command line (argv[0] is nvcc, or a launcher followed
/// by nvcc) into a clang command line. \p ReadFile reads `--options-file`s.
NvccTranslation translateNvccCommand(llvm::ArrayRef<std::string> Argv,
                                     const NvccTranslateOptions &Opts,
                                     ReadFileFn ReadFile);

/// Converts an nvcc architecture name (`sm_90`, `compute_90`, `sm_90a`,
/// `90`) into the real architecture clang analyses (`sm_90`, `sm_90a`).
/// Returns std::nullopt for names that are not one architecture (`native`,
/// `all`, `lto_90`).
std::optional<std::string> normalizeGpuArch(llvm::StringRef Name);

/// The CUDA toolkit a given nvcc belongs to: the parent of its `bin`
/// folder, when it holds `include/cuda_runtime.h`. Follows symbolic links
/// and looks nvcc up in PATH when it is given without a folder.
std::optional<std::string> findCudaToolkitFromNvcc(llvm::StringRef Nvcc);

/// How clang 22 parses the device code of one architecture of a build: the
/// architecture it accepts and the macro changes that give the parse the
/// architecture macros nvcc defines (nvcc 13.0, `-E -Xcompiler -dM`):
///  - `sm_XY`: `__CUDA_ARCH__` = XY0 only, as clang; unchanged;
///  - `sm_XYa` (architecture-specific): clang defines `__CUDA_ARCH__` and
///    `__CUDA_ARCH_FEAT_SMXY_ALL`; nvcc also `__CUDA_ARCH_SPECIFIC__` and
///    `__CUDA_ARCH_FAMILY_SPECIFIC__` (both XY0), added when \p NvccMacros;
///  - `sm_XYf` (family-specific): clang 22 rejects the name ("unsupported
///    CUDA gpu architecture"); it is parsed as `sm_XYa` (the builtins of the
///    family's instructions stay declared) with `__CUDA_ARCH_FEAT_SMXY_ALL`
///    undefined and `__CUDA_ARCH_FAMILY_SPECIFIC__` = XY0 defined, which is
///    nvcc's set, or as `sm_XY` where clang knows no `sm_XYa`.
/// A clang build (\p NvccMacros false) keeps clang's own macros for `a`
/// targets: they are what that build compiles with.
struct ClangDeviceArch {
  /// The value of `--cuda-gpu-arch` ("sm_100a").
  std::string Arch;
  /// `-U`/`-D` arguments, in order, for the device job.
  std::vector<std::string> MacroArgs;
};

/// The clang parse of the architecture \p Name (`sm_100f`, `compute_90a`,
/// `90a`); std::nullopt when it names no single architecture.
std::optional<ClangDeviceArch> clangDeviceArch(llvm::StringRef Name,
                                               bool NvccMacros);

/// Rewrites every `--cuda-gpu-arch` of the clang command \p Args to a name
/// clang accepts (clangDeviceArch()) and adds the macro changes of the
/// device job clang runs first (its architectures in name order), the one a
/// single-job tool (clangd) analyses.
void useClangDeviceArchs(std::vector<std::string> &Args, bool NvccMacros);

/// Which sides of a CUDA file to analyse.
struct CudaSides {
  bool Host = true;
  bool Device = true;
};

/// Parses a side list such as "host,device", "host" or "device". Returns
/// std::nullopt and sets \p Error for anything else.
std::optional<CudaSides> parseCudaSides(llvm::StringRef List,
                                        std::string &Error);

/// Parses an architecture list such as "sm_90,sm_100a". Returns
/// std::nullopt and sets \p Error when a name is not an architecture.
std::optional<std::vector<std::string>> parseCudaArchList(llvm::StringRef List,
                                                          std::string &Error);

/// One analysis job of a compile command.
struct CudaJob {
  /// "host" or the device architecture ("sm_90").
  std::string Side;
  std::vector<std::string> Args;
};

/// Whether a clang command compiles CUDA: `-x cuda`, or a `.cu` input with
/// no `-x` before it.
bool isCudaClangCommand(llvm::ArrayRef<std::string> Args);

/// Splits a clang CUDA command into the jobs to analyse: the host side
/// (`--cuda-host-only`) and one device side per architecture
/// (`--cuda-device-only --cuda-gpu-arch=ARCH`). \p Archs overrides the
/// architectures the command names; with neither, the device side uses
/// clang's default. A command that is not CUDA gives one job, unchanged.
/// Each device job is named by the architecture as given (`sm_100f`) and
/// parses it as clangDeviceArch() says (\p NvccMacros: the command is an
/// nvcc build's).
std::vector<CudaJob> splitCudaJobs(llvm::ArrayRef<std::string> Args,
                                   llvm::ArrayRef<std::string> Archs,
                                   CudaSides Sides, bool NvccMacros = false);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_COMMON_NVCCARGS_H
