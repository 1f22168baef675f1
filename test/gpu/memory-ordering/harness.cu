// Host harness of the cuda-memory-ordering GPU suite: runs one kernel of the
// file named by KERNELS_FILE, Repeats times, with a bounded wait (a kernel
// still running after TimeoutMs is reported as hung: exit status 3) and
// checks the result. Exit status: 0 right, 1 wrong, 2 CUDA error, 3 hung.
// Usage: harness KERNEL [REPEATS]. Written for cuda-tidy.
#include KERNELS_FILE
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "../common/cuda_check.h"

static constexpr int TimeoutMs = 5000;

/// Waits for the stream with a time limit; false when the kernel hung.
static bool waitBounded(cudaStream_t Stream) {
  auto Start = std::chrono::steady_clock::now();
  for (;;) {
    cudaError_t Status = cudaStreamQuery(Stream);
    if (Status == cudaSuccess)
      return true;
    if (Status != cudaErrorNotReady)
      CHECK(Status);
    if (std::chrono::steady_clock::now() - Start >
        std::chrono::milliseconds(TimeoutMs))
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s KERNEL [REPEATS]\n", argv[0]);
    return 2;
  }
  const char *Name = argv[1];
  int Repeats = argc > 2 ? std::atoi(argv[2]) : 1;
  const int Blocks = 132, Threads = 256, N = Blocks * Threads;
  int *In, *Partial, *Out, *Flag, *Data;
  CHECK(cudaMalloc(&In, N * sizeof(int)));
  CHECK(cudaMalloc(&Partial, N * sizeof(int)));
  CHECK(cudaMalloc(&Out, N * sizeof(int)));
  CHECK(cudaMalloc(&Flag, sizeof(int)));
  CHECK(cudaMalloc(&Data, sizeof(int)));
  std::vector<int> Ones(N, 1);
  CHECK(cudaMemcpy(In, Ones.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  cudaStream_t Stream;
  CHECK(cudaStreamCreateWithFlags(&Stream, cudaStreamNonBlocking));
  int Wrong = 0;
  for (int R = 0; R < Repeats; ++R) {
    CHECK(cudaMemset(Out, 0, N * sizeof(int)));
    CHECK(cudaMemset(Flag, 0, sizeof(int)));
    CHECK(cudaMemset(Data, 0, sizeof(int)));
    CHECK(cudaDeviceSynchronize());
    bool Spin = std::strncmp(Name, "spin", 4) == 0;
    if (!std::strcmp(Name, "spinPlainBad"))
      spinPlainBad<<<2, 32, 0, Stream>>>(Flag, Data, Out);
    else if (!std::strcmp(Name, "spinAtomicGood"))
      spinAtomicGood<<<2, 32, 0, Stream>>>(Flag, Data, Out);
    else if (!std::strcmp(Name, "spinVolatileGood"))
      spinVolatileGood<<<2, 32, 0, Stream>>>(Flag, Data, Out);
    else if (!std::strcmp(Name, "lastBlockBad"))
      lastBlockBad<<<Blocks, Threads, 0, Stream>>>(In, Partial, Out);
    else if (!std::strcmp(Name, "asmBarrierBad"))
      asmBarrierBad<<<Blocks, Threads, 0, Stream>>>(In, Partial, Out);
    else if (!std::strcmp(Name, "blockScopeBad"))
      blockScopeBad<<<Blocks, Threads, 0, Stream>>>(In, Partial, Out);
    else {
      std::fprintf(stderr, "unknown kernel %s\n", Name);
      return 2;
    }
    CHECK(cudaGetLastError());
    if (!waitBounded(Stream)) {
      std::printf("%-18s hung (still running after %d ms, run %d)\n", Name,
                  TimeoutMs, R + 1);
      std::fflush(stdout);
      std::_Exit(3); // Leave the running kernel to the driver's teardown.
    }
    std::vector<int> Got(N);
    CHECK(cudaMemcpy(Got.data(), Out, N * sizeof(int), cudaMemcpyDeviceToHost));
    bool Ok = true;
    if (Spin)
      Ok = Got[1] == 42;
    else if (!std::strcmp(Name, "asmBarrierBad"))
      for (int I = 0; I < N && Ok; ++I)
        Ok = Got[I] == 1;
    else
      Ok = Got[0] == N;
    Wrong += !Ok;
  }
  std::printf("%-18s finished %d runs, %d wrong\n", Name, Repeats, Wrong);
  return Wrong ? 1 : 0;
}
