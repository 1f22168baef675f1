//===--- ResourceUsageTest.cpp - Tests of the register count reader -------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/resources/ResourceUsage.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

using namespace cuda_tidy;

static llvm::Expected<ResourceUsageTable> parse(llvm::StringRef Text) {
  return parseResourceUsage(llvm::MemoryBufferRef(Text, "test"));
}

TEST(ResourceUsage, PtxasVerboseOutput) {
  auto T = parse(
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function '_Z4gemmPKfS0_Pfi' for "
      "'sm_90'\n"
      "ptxas info    : Function properties for _Z4gemmPKfS0_Pfi\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 72 registers, used 0 barriers, 380 bytes cmem[0]\n"
      "ptxas info    : Compiling entry function '_Z4gemmPKfS0_Pfi' for "
      "'sm_80'\r\n"
      "ptxas info    : Used 70 registers, used 0 barriers\r\n"
      // -rdc: a device function's properties do not belong to the entry.
      "ptxas info    : Compiling entry function '_Z5otherPf' for 'sm_90a'\n"
      "ptxas info    : Function properties for _Z6helperv\n"
      "ptxas info    : Used 40 registers, used 0 barriers\n");
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  EXPECT_EQ(T->lookup(90, "_Z4gemmPKfS0_Pfi")->Registers, 72u);
  EXPECT_EQ(T->lookup(80, "_Z4gemmPKfS0_Pfi")->Registers, 70u);
  // Demangled names find the same kernel.
  EXPECT_EQ(
      T->lookup(90, "gemm(float const*, float const*, float*, int)")->Registers,
      72u);
  EXPECT_FALSE(T->lookup(90, "_Z5otherPf"));
  EXPECT_FALSE(T->lookup(75, "_Z4gemmPKfS0_Pfi"));
  EXPECT_EQ(T->architectures(), (llvm::SmallVector<unsigned, 4>{80, 90}));
}

TEST(ResourceUsage, AnonymousNamespacesMatch) {
  // nvcc names the namespace after the file; clang mangles it
  // _GLOBAL__N_1. Internal linkage (clang's 'L') does not matter either.
  EXPECT_EQ(
      kernelLookupKey("_ZN40_GLOBAL__N__5cbf37c9_8_names_cu_4c6df5c12akEPi"),
      kernelLookupKey("_ZN12_GLOBAL__N_12akEPi"));
  EXPECT_EQ(kernelLookupKey("_Z2skPi"), kernelLookupKey("_ZL2skPi"));
  EXPECT_EQ(kernelLookupKey("_ZN2ns3snkEPi"),
            kernelLookupKey("_ZN2nsL3snkEPi"));
  EXPECT_NE(kernelLookupKey("_Z2skPi"), kernelLookupKey("_Z2skPf"));
  // extern "C" kernels are not mangled.
  EXPECT_EQ(kernelLookupKey("plain_kernel"), "plain_kernel");
}

TEST(ResourceUsage, DamagedInputIsAnErrorNotACrash) {
  // A fatbin header whose container runs past the end.
  std::string Fatbin("\x50\xed\x55\xba\x01\x00\x10\x00\xff\xff\x00\x00\x00"
                     "\x00\x00\x00",
                     16);
  auto T = parse(Fatbin);
  EXPECT_FALSE(bool(T));
  llvm::consumeError(T.takeError());
  // A container holding an entry that runs past it.
  std::string Entry = std::string("\x50\xed\x55\xba\x01\x00\x10\x00\x10\x00"
                                  "\x00\x00\x00\x00\x00\x00",
                                  16) +
                      std::string("\x02\x00\x01\x01\x40\x00\x00\x00\xff\xff"
                                  "\xff\xff\x00\x00\x00\x00",
                                  16);
  T = parse(Entry);
  EXPECT_FALSE(bool(T));
  llvm::consumeError(T.takeError());
  // A truncated ELF file.
  T = parse(llvm::StringRef("\177ELF\x02\x01\x01\x00", 8));
  EXPECT_FALSE(bool(T));
  llvm::consumeError(T.takeError());
  // Text that names no kernel.
  T = parse("hello\n");
  EXPECT_FALSE(bool(T));
  llvm::consumeError(T.takeError());
}

TEST(ResourceUsage, DuplicateNames) {
  ResourceUsageTable T;
  // An -rdc executable: the relocatable image's count, then the linked one.
  T.add(90, "_Z1kPf", KernelResources{32, true});
  T.add(90, "_Z1kPf", KernelResources{40, false});
  T.add(90, "_Z1kPf", KernelResources{30, true});
  EXPECT_EQ(T.lookup(90, "_Z1kPf")->Registers, 40u);
  // The same template kernel from two translation units.
  T.add(90, "_Z1tIiEvPT_", KernelResources{24, false});
  T.add(90, "_Z1tIiEvPT_", KernelResources{24, false});
  EXPECT_EQ(T.lookup(90, "_Z1tIiEvPT_")->Registers, 24u);
  // Two static kernels of one name in two translation units: ambiguous.
  T.add(90, "_Z6kernelPf", KernelResources{16, false});
  T.add(90, "_Z6kernelPf", KernelResources{64, false});
  EXPECT_FALSE(T.lookup(90, "_Z6kernelPf"));
  // Other architectures are separate.
  T.add(80, "_Z6kernelPf", KernelResources{16, false});
  EXPECT_EQ(T.lookup(80, "_Z6kernelPf")->Registers, 16u);
}
