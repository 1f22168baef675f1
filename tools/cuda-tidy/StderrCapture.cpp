//===--- StderrCapture.cpp - The process's stderr, through a filter -------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "tools/cuda-tidy/StderrCapture.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdio>
#include <fcntl.h>
#include <unistd.h>

using namespace llvm;

namespace cuda_tidy {

namespace {
/// What the crash handler needs, in storage it can read without allocating.
struct CrashCopy {
  char Path[4096] = {0};
  int SavedFd = -1;
  bool Armed = false;
};
CrashCopy TheCrashCopy;
} // namespace

/// Runs on a fatal signal, after LLVM's stack dump (registered earlier, at
/// InitLLVM) went into the capture file: copies that file to the real
/// stderr with async-signal-safe calls only.
static void copyBackOnCrash(void *) {
  if (!TheCrashCopy.Armed)
    return;
  int In = ::open(TheCrashCopy.Path, O_RDONLY);
  if (In < 0)
    return;
  char Buf[4096];
  ssize_t N;
  while ((N = ::read(In, Buf, sizeof(Buf))) > 0)
    if (::write(TheCrashCopy.SavedFd, Buf, static_cast<size_t>(N)) < 0)
      break;
  ::close(In);
}

std::unique_ptr<StderrCapture> StderrCapture::start(StringRef Path) {
  if (Path.size() >= sizeof(TheCrashCopy.Path) || TheCrashCopy.Armed)
    return nullptr;
  std::string P = Path.str();
  int Fd = ::open(P.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (Fd < 0)
    return nullptr;
  errs().flush();
  std::fflush(stderr);
  int Saved = ::dup(2);
  if (Saved < 0 || ::dup2(Fd, 2) < 0) {
    ::close(Fd);
    if (Saved >= 0)
      ::close(Saved);
    return nullptr;
  }
  ::close(Fd);
  std::unique_ptr<StderrCapture> C(new StderrCapture());
  C->Path = P;
  C->SavedFd = Saved;
  P.copy(TheCrashCopy.Path, P.size());
  TheCrashCopy.Path[P.size()] = '\0';
  TheCrashCopy.SavedFd = Saved;
  TheCrashCopy.Armed = true;
  static bool Registered = false;
  if (!Registered) {
    sys::AddSignalHandler(copyBackOnCrash, nullptr);
    Registered = true;
  }
  return C;
}

void StderrCapture::finish(function_ref<std::string(StringRef)> Filter) {
  if (SavedFd < 0)
    return;
  errs().flush();
  std::fflush(stderr);
  TheCrashCopy.Armed = false;
  ::dup2(SavedFd, 2);
  ::close(SavedFd);
  SavedFd = -1;
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path))
    errs() << Filter((*Buf)->getBuffer());
  errs().flush();
}

StderrCapture::~StderrCapture() {
  finish([](StringRef Text) { return Text.str(); });
}

} // namespace cuda_tidy
