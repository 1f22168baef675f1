//===--- ResourceUsage.cpp - Kernel resources recorded by the build ------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/resources/ResourceUsage.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/GlobalDecl.h"
#include "clang/AST/Mangle.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include <mutex>

using namespace llvm;

namespace cuda_tidy {

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

std::string kernelLookupKey(StringRef Name) {
  std::string Text =
      Name.starts_with("_Z") ? llvm::demangle(Name.str()) : Name.str();
  // nvcc names an anonymous namespace _GLOBAL__N__<hash>_<file>_<hash>,
  // clang's demangled names say (anonymous namespace).
  static constexpr StringRef Anonymous = "_GLOBAL__N_";
  std::string Out;
  StringRef Rest = Text;
  while (true) {
    size_t At = Rest.find(Anonymous);
    if (At == StringRef::npos)
      break;
    Out += Rest.take_front(At);
    Rest = Rest.drop_front(At);
    size_t End = 0;
    while (End < Rest.size() && (isAlnum(Rest[End]) || Rest[End] == '_'))
      ++End;
    Out += "(anonymous namespace)";
    Rest = Rest.drop_front(End);
  }
  Out += Rest;
  return Out;
}

void ResourceUsageTable::add(unsigned Sm, StringRef Name, KernelResources R) {
  auto [It, New] = BySm[Sm].try_emplace(kernelLookupKey(Name), Entry{R});
  Entry &E = It->second;
  if (New || (R.Relocatable && !E.R.Relocatable))
    return;
  if (E.R.Relocatable && !R.Relocatable) {
    E = Entry{R};
    return;
  }
  if (E.R.Registers != R.Registers)
    E.Ambiguous = true;
}

std::optional<KernelResources>
ResourceUsageTable::lookup(unsigned Sm, StringRef Name) const {
  auto It = BySm.find(Sm);
  if (It == BySm.end())
    return std::nullopt;
  auto K = It->second.find(kernelLookupKey(Name));
  if (K == It->second.end() || K->second.Ambiguous)
    return std::nullopt;
  return K->second.R;
}

SmallVector<unsigned, 4> ResourceUsageTable::architectures() const {
  SmallVector<unsigned, 4> Out;
  for (const auto &[Sm, Kernels] : BySm)
    Out.push_back(Sm);
  return Out;
}

//===----------------------------------------------------------------------===//
// Cubins
//===----------------------------------------------------------------------===//

using ELFT = object::ELF64LE;

/// Attribute formats of `.nv.info` records: no value, byte, half word (all
/// in a 4-byte record) and sized (a 16-bit size, then that many bytes).
enum : uint8_t { EifmtNval = 1, EifmtBval = 2, EifmtHval = 3, EifmtSval = 4 };
/// The attribute that holds a function's register count.
static constexpr uint8_t EiattrRegcount = 0x2f;

static Error cubinError(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(), "cubin: " + Why);
}

/// Reads the register counts of a cubin for SM number \p Sm (from its ELF
/// header when 0).
static Error parseCubin(ArrayRef<uint8_t> Data, unsigned Sm,
                        ResourceUsageTable &Out) {
  Expected<object::ELFFile<ELFT>> File = object::ELFFile<ELFT>::create(
      StringRef(reinterpret_cast<const char *>(Data.data()), Data.size()));
  if (!File)
    return File.takeError();
  if (File->getHeader().e_machine != ELF::EM_CUDA)
    return cubinError("not a CUDA ELF file");
  if (Sm == 0) // The SM number is in bits 8-15 of e_flags.
    Sm = (File->getHeader().e_flags >> 8) & 0xff;
  bool Relocatable = File->getHeader().e_type == ELF::ET_REL;
  Expected<typename ELFT::ShdrRange> Sections = File->sections();
  if (!Sections)
    return Sections.takeError();
  const typename ELFT::Shdr *Symtab = nullptr;
  for (const typename ELFT::Shdr &S : *Sections)
    if (S.sh_type == ELF::SHT_SYMTAB)
      Symtab = &S;
  if (!Symtab)
    return cubinError("no symbol table");
  Expected<typename ELFT::SymRange> Symbols = File->symbols(Symtab);
  if (!Symbols)
    return Symbols.takeError();
  Expected<StringRef> Strings = File->getStringTableForSymtab(*Symtab);
  if (!Strings)
    return Strings.takeError();
  for (const typename ELFT::Shdr &S : *Sections) {
    Expected<StringRef> Name = File->getSectionName(S);
    if (!Name)
      return Name.takeError();
    if (*Name != ".nv.info")
      continue;
    Expected<ArrayRef<uint8_t>> Info = File->getSectionContents(S);
    if (!Info)
      return Info.takeError();
    ArrayRef<uint8_t> Rest = *Info;
    while (Rest.size() >= 4) {
      uint8_t Format = Rest[0], Attr = Rest[1];
      size_t Size = 4;
      if (Format == EifmtSval)
        Size += support::endian::read16le(Rest.data() + 2);
      else if (Format != EifmtNval && Format != EifmtBval &&
               Format != EifmtHval)
        return cubinError("unknown .nv.info record format " + Twine(Format));
      if (Size > Rest.size())
        return cubinError(".nv.info record past the end of its section");
      if (Format == EifmtSval && Attr == EiattrRegcount && Size >= 12) {
        uint32_t Index = support::endian::read32le(Rest.data() + 4);
        uint32_t Regs = support::endian::read32le(Rest.data() + 8);
        if (Index >= Symbols->size())
          return cubinError("register count for symbol " + Twine(Index) +
                            ", which does not exist");
        Expected<StringRef> Sym = (*Symbols)[Index].getName(*Strings);
        if (!Sym)
          return Sym.takeError();
        Out.add(Sm, *Sym, KernelResources{Regs, Relocatable});
      }
      Rest = Rest.drop_front(Size);
    }
  }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Fatbins
//===----------------------------------------------------------------------===//

static constexpr uint32_t FatbinMagic = 0xBA55ED50;
static constexpr uint16_t FatbinKindCubin = 2;
/// Entry flags: compressed by CUDA 13's fatbinary (zstd), and by older ones.
static constexpr uint64_t FatbinZstd = 0x8000, FatbinOlderCompression = 0x2000;

static Error fatbinError(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(), "fatbin: " + Why);
}

/// Reads the cubins of the fatbin containers in \p Data. \p Skipped counts
/// images compressed in a form LLVM cannot decompress.
static Error parseFatbin(ArrayRef<uint8_t> Data, ResourceUsageTable &Out,
                         unsigned &Skipped) {
  using namespace support::endian;
  size_t Pos = 0;
  while (Pos + 16 <= Data.size()) {
    if (read32le(Data.data() + Pos) != FatbinMagic) {
      // Containers of several objects are 8-byte aligned; padding is zero.
      Pos += 8;
      continue;
    }
    uint16_t HeaderSize = read16le(Data.data() + Pos + 6);
    uint64_t Size = read64le(Data.data() + Pos + 8);
    if (HeaderSize < 16 || Pos + HeaderSize + Size > Data.size())
      return fatbinError("a container runs past the end of the data");
    ArrayRef<uint8_t> Entries = Data.slice(Pos + HeaderSize, Size);
    while (Entries.size() >= 16) {
      uint16_t Kind = read16le(Entries.data());
      uint32_t EntryHeader = read32le(Entries.data() + 4);
      uint64_t Payload = read64le(Entries.data() + 8);
      if (EntryHeader < 48 || EntryHeader > Entries.size() ||
          Payload > Entries.size() - EntryHeader)
        return fatbinError("an entry runs past the end of its container");
      uint32_t Compressed = read32le(Entries.data() + 16);
      uint32_t Sm = read32le(Entries.data() + 28);
      uint64_t Flags = read64le(Entries.data() + 40);
      uint64_t Uncompressed =
          EntryHeader >= 64 ? read64le(Entries.data() + 56) : 0;
      ArrayRef<uint8_t> Image = Entries.slice(EntryHeader, Payload);
      Entries = Entries.drop_front(EntryHeader + Payload);
      if (Kind != FatbinKindCubin)
        continue;
      SmallVector<uint8_t, 0> Inflated;
      if (Flags & FatbinZstd) {
        if (!compression::zstd::isAvailable() || Compressed > Image.size() ||
            Uncompressed == 0) {
          ++Skipped;
          continue;
        }
        Inflated.resize(Uncompressed);
        size_t Length = Uncompressed;
        if (Error E = compression::zstd::decompress(
                Image.take_front(Compressed), Inflated.data(), Length))
          return E;
        Inflated.resize(Length);
        Image = Inflated;
      } else if (Flags & FatbinOlderCompression) {
        ++Skipped;
        continue;
      }
      if (Error E = parseCubin(Image, Sm, Out))
        return E;
    }
    Pos += HeaderSize + Size;
  }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// ptxas -v
//===----------------------------------------------------------------------===//

/// Reads "Compiling entry function 'NAME' for 'sm_NN'" and the "Used N
/// registers" that follows it.
static void parsePtxasLog(StringRef Text, ResourceUsageTable &Out) {
  std::string Entry;
  unsigned Sm = 0;
  SmallVector<StringRef, 0> Lines;
  Text.split(Lines, '\n');
  for (StringRef Line : Lines) {
    static constexpr StringRef Compiling = "Compiling entry function '";
    size_t At = Line.find(Compiling);
    if (At != StringRef::npos) {
      StringRef Rest = Line.drop_front(At + Compiling.size());
      auto [Name, After] = Rest.split("' for '");
      Entry.clear();
      Sm = 0;
      StringRef Arch = After.split('\'').first;
      if (Arch.consume_front("sm_")) {
        Arch = Arch.take_while(isDigit);
        if (!Arch.getAsInteger(10, Sm) && !Name.empty())
          Entry = Name.str();
      }
      continue;
    }
    static constexpr StringRef Properties = "Function properties for ";
    At = Line.find(Properties);
    if (At != StringRef::npos) {
      // Another function's properties (a device function of -rdc code)
      // until the next entry.
      StringRef Name = Line.drop_front(At + Properties.size()).trim();
      if (Name.trim('\'') != Entry)
        Entry.clear();
      continue;
    }
    size_t Used = Line.find("Used ");
    if (Used == StringRef::npos || Entry.empty())
      continue;
    StringRef Count = Line.drop_front(Used + 5);
    unsigned Regs = 0;
    if (Count.consumeInteger(10, Regs) || !Count.starts_with(" register"))
      continue;
    Out.add(Sm, Entry, KernelResources{Regs, false});
    Entry.clear();
  }
}

//===----------------------------------------------------------------------===//
// Files
//===----------------------------------------------------------------------===//

Expected<ResourceUsageTable> parseResourceUsage(MemoryBufferRef Buffer) {
  ResourceUsageTable Table;
  StringRef Data = Buffer.getBuffer();
  ArrayRef<uint8_t> Bytes(reinterpret_cast<const uint8_t *>(Data.data()),
                          Data.size());
  unsigned Skipped = 0;
  auto Done = [&]() -> Expected<ResourceUsageTable> {
    if (Table.empty() && Skipped)
      return createStringError(inconvertibleErrorCode(),
                               "its cubins are compressed in a form cuda-tidy "
                               "cannot read (rebuild with nvcc 13, or with "
                               "'-Xfatbin -compress=false')");
    return std::move(Table);
  };
  if (Data.starts_with("\177ELF")) {
    if (Data.size() < 20 || Data[4] != ELF::ELFCLASS64 ||
        Data[5] != ELF::ELFDATA2LSB)
      return createStringError(inconvertibleErrorCode(),
                               "not a 64-bit little-endian ELF file");
    Expected<object::ELFFile<ELFT>> File = object::ELFFile<ELFT>::create(Data);
    if (!File)
      return File.takeError();
    if (File->getHeader().e_machine == ELF::EM_CUDA) {
      if (Error E = parseCubin(Bytes, 0, Table))
        return std::move(E);
      return Done();
    }
    Expected<typename ELFT::ShdrRange> Sections = File->sections();
    if (!Sections)
      return Sections.takeError();
    bool Found = false;
    for (const typename ELFT::Shdr &S : *Sections) {
      Expected<StringRef> Name = File->getSectionName(S);
      if (!Name)
        return Name.takeError();
      if (*Name != ".nv_fatbin" && *Name != "__nv_relfatbin")
        continue;
      Found = true;
      Expected<ArrayRef<uint8_t>> Contents = File->getSectionContents(S);
      if (!Contents)
        return Contents.takeError();
      if (Error E = parseFatbin(*Contents, Table, Skipped))
        return std::move(E);
    }
    if (!Found)
      return createStringError(inconvertibleErrorCode(),
                               "the file holds no device code (no "
                               "'.nv_fatbin' or '__nv_relfatbin' section)");
    return Done();
  }
  if (Bytes.size() >= 4 &&
      support::endian::read32le(Bytes.data()) == FatbinMagic) {
    if (Error E = parseFatbin(Bytes, Table, Skipped))
      return std::move(E);
    return Done();
  }
  parsePtxasLog(Data, Table);
  if (Table.empty())
    return createStringError(
        inconvertibleErrorCode(),
        "not an object file, fatbin, cubin or 'ptxas -v' output that names a "
        "kernel's registers");
  return std::move(Table);
}

Expected<std::shared_ptr<const ResourceUsageTable>>
readResourceUsage(StringRef Path) {
  sys::fs::file_status Status;
  if (std::error_code EC = sys::fs::status(Path, Status))
    return createStringError(EC, "%s", EC.message().c_str());
  struct Cached {
    uint64_t Size;
    sys::TimePoint<> Modified;
    std::shared_ptr<const ResourceUsageTable> Table;
    std::string Error;
  };
  static std::mutex Mutex;
  static StringMap<Cached> Cache;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = Cache.find(Path);
    if (It != Cache.end() && It->second.Size == Status.getSize() &&
        It->second.Modified == Status.getLastModificationTime()) {
      if (!It->second.Table)
        return createStringError(inconvertibleErrorCode(), "%s",
                                 It->second.Error.c_str());
      return It->second.Table;
    }
  }
  Cached Entry{Status.getSize(), Status.getLastModificationTime(), nullptr, ""};
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buffer) {
    Entry.Error = Buffer.getError().message();
  } else if (Expected<ResourceUsageTable> Table =
                 parseResourceUsage((*Buffer)->getMemBufferRef())) {
    Entry.Table = std::make_shared<const ResourceUsageTable>(std::move(*Table));
  } else {
    Entry.Error = toString(Table.takeError());
  }
  std::lock_guard<std::mutex> Lock(Mutex);
  Cache[Path] = Entry;
  if (!Entry.Table)
    return createStringError(inconvertibleErrorCode(), "%s",
                             Entry.Error.c_str());
  return Entry.Table;
}

//===----------------------------------------------------------------------===//
// Kernel names
//===----------------------------------------------------------------------===//

std::string kernelDeviceName(const clang::FunctionDecl *FD) {
  clang::ASTContext &Ctx = FD->getASTContext();
  std::unique_ptr<clang::MangleContext> Mangler(Ctx.createMangleContext());
  if (!Mangler->shouldMangleDeclName(FD))
    return FD->getName().str();
  std::string Name;
  raw_string_ostream OS(Name);
  // The kernel itself, not the host-side stub that launches it.
  Mangler->mangleName(clang::GlobalDecl(FD, clang::KernelReferenceKind::Kernel),
                      OS);
  return Name;
}

} // namespace cuda_tidy
