//===--- PluginMain.cpp - Entry point of the clang-tidy plugin ------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Registers the module when clang-tidy loads CudaTidy.so, after checking that
// the clang-tidy that loaded it is the major version it was built for. A
// plugin loaded into another major version would register checks against an
// incompatible ABI and crash; instead it says what is wrong and registers
// nothing.
//
//===----------------------------------------------------------------------===//

#include "checks/CudaTidyModule.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <cstring>
#include <link.h>
#include <string>

namespace {
struct HostLibraries {
  std::string Mismatch;
};
} // namespace

/// Looks at the LLVM and clang shared libraries loaded in this process and
/// records one whose major version differs from ours.
static int inspectLoadedObject(struct dl_phdr_info *Info, size_t, void *Data) {
  auto *Host = static_cast<HostLibraries *>(Data);
  if (!Info->dlpi_name || !Host->Mismatch.empty())
    return 0;
  const char *Base = std::strrchr(Info->dlpi_name, '/');
  Base = Base ? Base + 1 : Info->dlpi_name;
  for (const char *Prefix : {"libclang-cpp.so.", "libLLVM.so.", "libLLVM-"}) {
    size_t Len = std::strlen(Prefix);
    if (std::strncmp(Base, Prefix, Len) != 0)
      continue;
    int Major = std::atoi(Base + Len);
    if (Major > 0 && Major != LLVM_VERSION_MAJOR)
      Host->Mismatch = Info->dlpi_name;
  }
  return 0;
}

static void registerCudaTidyPlugin() __attribute__((constructor));
static void registerCudaTidyPlugin() {
  HostLibraries Host;
  dl_iterate_phdr(inspectLoadedObject, &Host);
  if (!Host.Mismatch.empty()) {
    llvm::errs() << "error: CudaTidy.so was built for clang-tidy "
                 << LLVM_VERSION_MAJOR
                 << " but was loaded into a process that uses " << Host.Mismatch
                 << "; run it with clang-tidy-" << LLVM_VERSION_MAJOR
                 << " (or use build/bin/cuda-tidy). No cuda-* checks were "
                    "registered.\n";
    return;
  }
  static clang::tidy::ClangTidyModuleRegistry::Add<cuda_tidy::CudaTidyModule>
      Registration(cuda_tidy::ModuleName, cuda_tidy::ModuleDescription);
}
