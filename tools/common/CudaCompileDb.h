//===--- CudaCompileDb.h - Compile databases for the drivers ----*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Turns the compile commands of a project (nvcc's or clang's) into the
/// commands the drivers analyse, and writes them as a JSON compilation
/// database. Both drivers hand clang's own tools (clang-tidy's and clangd's
/// command lines, unchanged) a translated database instead of hooking into
/// their loaders, which offer no plug point for a command that becomes
/// several.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_COMMON_CUDACOMPILEDB_H
#define CUDA_TIDY_TOOLS_COMMON_CUDACOMPILEDB_H

#include "tools/common/NvccArgs.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace cuda_tidy {

/// How the device side of a CUDA file is parsed when the file is built for
/// several architectures.
enum class ArchParseMode {
  /// One device parse per architecture.
  Each,
  /// One device parse for all of them when the user's code does not vary by
  /// architecture (see ArchDependence.h); the checks that depend on the
  /// architecture evaluate each one from it. One per architecture otherwise.
  OnceWhenPossible,
};

/// Parses "each" or "once-when-possible". Returns std::nullopt and sets
/// \p Error for anything else.
std::optional<ArchParseMode> parseArchParseMode(llvm::StringRef Value,
                                                std::string &Error);

/// Where the cuda-tidy driver finds the kernel register counts that
/// cuda-launch-resources checks launches against.
enum class ResourceUsageMode {
  /// Nowhere: the register rule stays silent.
  None,
  /// The object file the compile command writes (its `-o`), when it exists
  /// and is newer than the source.
  Object,
  /// The object file, else the device code compiled with nvcc (`--fatbin`,
  /// the command's own options) into a temporary file.
  Compile,
};

/// Parses "none", "object" or "compile". Returns std::nullopt and sets
/// \p Error for anything else.
std::optional<ResourceUsageMode> parseResourceUsageMode(llvm::StringRef Value,
                                                        std::string &Error);

/// The macro through which a job names the file its register counts come
/// from (`-D__CUDA_TIDY_RESOURCE_USAGE__="path"`); the check reads it
/// (checks/LaunchResourcesCheck.h).
inline constexpr const char *ResourceUsageMacro =
    "__CUDA_TIDY_RESOURCE_USAGE__";
/// With a compiled fatbin, the name messages give it instead of its
/// temporary path (`-D__CUDA_TIDY_RESOURCE_USAGE_NAME__="..."`).
inline constexpr const char *ResourceUsageNameMacro =
    "__CUDA_TIDY_RESOURCE_USAGE_NAME__";

struct CompileDbOptions {
  /// The CUDA toolkit; empty: found from each nvcc command.
  std::string CudaPath;
  /// Architectures that replace those of the commands; empty: keep them.
  std::vector<std::string> Archs;
  CudaSides Sides;
  /// One command per side (cuda-tidy) or the translated command as it is
  /// (cuda-clangd, which analyses one side of each file).
  bool SplitJobs = true;
  /// argv[0] of translated nvcc commands.
  std::string ClangExecutable = "clang++";
  /// A header force-included (`-include`) into every CUDA command: the
  /// compatibility declarations of writeCompatHeader(). Empty: none.
  std::string CompatHeader;
  /// With SplitJobs, whether architecture-independent files get one device
  /// job for all their architectures (the job defines GpuArchListMacro).
  ArchParseMode ArchParse = ArchParseMode::OnceWhenPossible;
  /// Where kernel register counts come from.
  ResourceUsageMode ResourceUsage = ResourceUsageMode::Object;
  /// With ResourceUsageMode::Compile, the folder the compiled fatbins go to.
  std::string ResourceUsageDir;
};

/// The file a compile command's register counts are read from, and, when it
/// must first be made, the nvcc command that makes it (run in the command's
/// folder).
struct ResourceUsagePlan {
  std::string Path;
  std::vector<std::string> Compile;
};

/// What \p Opts says about \p Command's register counts: its object file
/// when it exists and is not older than the source; with
/// ResourceUsageMode::Compile and an nvcc command, a fatbin in
/// ResourceUsageDir compiled from the command (the same options, `--fatbin`
/// instead of the object, no dependency files); else std::nullopt.
std::optional<ResourceUsagePlan>
planResourceUsage(const clang::tooling::CompileCommand &Command,
                  const CompileDbOptions &Opts);

/// Writes the compatibility header into \p Dir and returns its path: what
/// nvcc provides and clang does not, so that code nvcc builds parses.
///  - `__cluster_dims__(...)` expands to nothing, so that clusters over 8
///    blocks (nvcc builds them, the GPU runs them with the non-portable
///    opt-in, clang 22 rejects the attribute) are not clang errors; the
///    checks read the macro's arguments where it is written.
///  - Host `min` and `max` of mixed signedness and width, which nvcc's
///    math headers declare for host code (`numThreads = min(blockSize, n)`
///    with an int and an unsigned).
llvm::Expected<std::string> writeCompatHeader(llvm::StringRef Dir);

/// The text writeCompatHeader() writes.
llvm::StringRef compatHeaderText();

/// Reports each problem once per run, naming the tool and the first file.
class TranslationLog {
public:
  TranslationLog(llvm::StringRef Tool, llvm::raw_ostream &OS)
      : Tool(Tool.str()), OS(OS) {}
  void warn(llvm::StringRef File, const llvm::Twine &Message);
  unsigned count() const { return Count; }

private:
  std::string Tool;
  llvm::raw_ostream &OS;
  llvm::StringSet<> Seen;
  unsigned Count = 0;
};

/// The commands to analyse for one compile command: nvcc commands are
/// translated, CUDA commands are split into their sides.
std::vector<clang::tooling::CompileCommand>
translateCompileCommand(const clang::tooling::CompileCommand &Command,
                        const CompileDbOptions &Opts, TranslationLog &Log);

/// The translation of an nvcc command (what translateCompileCommand() starts
/// from), for what the drivers read off it besides the clang command: the
/// code it embeds. std::nullopt for other commands.
std::optional<NvccTranslation>
translateNvcc(const clang::tooling::CompileCommand &Command,
              const CompileDbOptions &Opts);

/// Whether any command of \p DB is an nvcc command.
bool hasNvccCommands(const clang::tooling::CompilationDatabase &DB);

/// Writes \p Commands as a JSON compilation database at \p Path.
llvm::Error
writeJsonDatabase(llvm::StringRef Path,
                  llvm::ArrayRef<clang::tooling::CompileCommand> Commands);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_COMMON_CUDACOMPILEDB_H
