//===--- ResourceUsage.h - Kernel resources the build recorded --*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The registers each kernel uses, per GPU architecture, as the build
/// recorded them: read from what nvcc (or clang) wrote, never guessed.
///
/// Model: ptxas decides a kernel's register count, and writes it into the
/// cubin it produces, in the `.nv.info` section (attribute EIATTR_REGCOUNT,
/// 0x2f: the kernel's symbol index and its count). nvcc embeds the cubins of
/// a translation unit in its object file as a *fatbin*: the section
/// `.nv_fatbin` (whole-program compilation; also in linked executables and
/// shared libraries) or `__nv_relfatbin` (`-rdc`, relocatable cubins). A
/// fatbin is a list of containers, each a 16-byte header (magic 0xBA55ED50,
/// version, header size, size of the entries) and entries: a header (kind
/// 1 = PTX, 2 = cubin; header size; padded payload size; compressed size;
/// the SM number, 90 for sm_90 and sm_90a; flags) and the payload. CUDA
/// 13's fatbinary compresses PTX and relocatable cubins by default with
/// zstd (entry flag 0x8000; `-Xfatbin -compress-all` compresses every
/// image); LLVM's zstd decompresses them. Images compressed in another form
/// (CUDA 12's flag 0x2000) are skipped.
///
/// Readable files: an ELF object, executable or shared library with one of
/// those sections; a fatbin (`nvcc -fatbin`); a cubin (`nvcc -cubin`); the
/// text ptxas prints with `-v` (`nvcc -Xptxas -v` or `--resource-usage`,
/// a build log): "Compiling entry function 'NAME' for 'sm_90'" followed by
/// "Used N registers".
///
/// Kernels are named by their demangled names, with nvcc's names for
/// anonymous namespaces (`_GLOBAL__N__<hash>...`) read as clang's
/// `(anonymous namespace)`, so that a kernel clang mangles matches the name
/// nvcc gave it (the two differ in internal-linkage markers and anonymous
/// namespaces only).
///
/// Left out: what PTX JIT-compiled at load time uses (a target with PTX and
/// no cubin has no count); a relocatable cubin's count is the kernel's own,
/// before nvlink adds what the device functions it calls across objects
/// need (the linked executable has the final count).
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_RESOURCES_RESOURCEUSAGE_H
#define CUDA_TIDY_LIB_RESOURCES_RESOURCEUSAGE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace clang {
class FunctionDecl;
} // namespace clang

namespace cuda_tidy {

/// What the build says about one kernel for one architecture.
struct KernelResources {
  unsigned Registers = 0;
  /// From a relocatable cubin (-rdc, before nvlink): the kernel's own count.
  bool Relocatable = false;
};

/// The kernels of one file, per architecture.
class ResourceUsageTable {
public:
  /// Records \p Name (mangled or demangled) for SM number \p Sm (90 for
  /// sm_90). A kernel seen twice for one architecture: a linked image's
  /// count wins over a relocatable one's (an -rdc executable holds both);
  /// two different counts of the same kind make the name ambiguous (static
  /// kernels of the same name in two translation units of an executable).
  void add(unsigned Sm, llvm::StringRef Name, KernelResources R);

  /// The kernel \p Name (mangled as clang mangles it, or demangled) for SM
  /// number \p Sm, if the file has a cubin for that architecture naming it
  /// and the name is not ambiguous.
  std::optional<KernelResources> lookup(unsigned Sm,
                                        llvm::StringRef Name) const;

  /// The SM numbers the file has cubins (or ptxas output) for, ascending.
  llvm::SmallVector<unsigned, 4> architectures() const;

  bool empty() const { return BySm.empty(); }

private:
  struct Entry {
    KernelResources R;
    bool Ambiguous = false;
  };
  std::map<unsigned, llvm::StringMap<Entry>> BySm;
};

/// The key ResourceUsageTable files kernels under: the demangled name, with
/// anonymous namespaces spelled `(anonymous namespace)`.
std::string kernelLookupKey(llvm::StringRef Name);

/// Reads the kernels of \p Buffer (see the file comment for the formats).
/// Fails, with a message saying why, when the buffer is none of them or a
/// section is damaged.
llvm::Expected<ResourceUsageTable>
parseResourceUsage(llvm::MemoryBufferRef Buffer);

/// The kernels of the file at \p Path, read once per process and file
/// version (size and modification time): clangd and the checks of every
/// translation unit share it. Thread-safe.
llvm::Expected<std::shared_ptr<const ResourceUsageTable>>
readResourceUsage(llvm::StringRef Path);

/// The name clang gives kernel \p FD in device code (mangled, or the plain
/// name of an `extern "C"` kernel).
std::string kernelDeviceName(const clang::FunctionDecl *FD);

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_RESOURCES_RESOURCEUSAGE_H
