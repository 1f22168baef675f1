// Host harness for the template warp-sync GPU suite: runs each
// instantiation of the file named by KERNELS_FILE against a CPU reference.
#include KERNELS_FILE
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../common/compare.h"
#include "../common/cuda_check.h"

static const int Blocks = 64;

template <unsigned Block, typename T> static int runReduce(const char *Name) {
  const int N = Block * Blocks;
  std::vector<T> In(N), Want(Blocks), Got(Blocks);
  for (int I = 0; I < N; ++I)
    In[I] = T((I * 7919 + 13) % 1000 - 500);
  for (int B = 0; B < Blocks; ++B) {
    T Sum = 0;
    for (unsigned I = 0; I < Block; ++I)
      Sum += In[B * Block + I];
    Want[B] = Sum;
  }
  T *DIn, *DOut;
  CHECK(cudaMalloc((void **)&DIn, N * sizeof(T)));
  CHECK(cudaMalloc((void **)&DOut, Blocks * sizeof(T)));
  CHECK(cudaMemcpy(DIn, In.data(), N * sizeof(T), cudaMemcpyHostToDevice));
  reduceT<Block, T><<<Blocks, Block>>>(DIn, DOut);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(Got.data(), DOut, Blocks * sizeof(T),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaFree(DIn));
  CHECK(cudaFree(DOut));
  return compare(Name, Got, Want);
}

template <typename T> static int runScan(const char *Name) {
  const int N = 256 * Blocks;
  std::vector<T> In(N), Want(N), Got(N);
  for (int I = 0; I < N; ++I)
    In[I] = T((I * 31 + 7) % 100 - 50);
  for (int W = 0; W < N / 32; ++W) {
    T Run = 0;
    for (int L = 0; L < 32; ++L)
      Want[W * 32 + L] = Run += In[W * 32 + L];
  }
  T *DIn, *DOut;
  CHECK(cudaMalloc((void **)&DIn, N * sizeof(T)));
  CHECK(cudaMalloc((void **)&DOut, N * sizeof(T)));
  CHECK(cudaMemcpy(DIn, In.data(), N * sizeof(T), cudaMemcpyHostToDevice));
  warpScanT<T><<<Blocks, 256>>>(DIn, DOut);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(Got.data(), DOut, N * sizeof(T), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(DIn));
  CHECK(cudaFree(DOut));
  return compare(Name, Got, Want);
}

int main() {
  int Failed = 0;
  Failed += runReduce<256, int>("reduceT<256, int>");
  Failed += runReduce<128, int>("reduceT<128, int>");
  Failed += runReduce<256, long long>("reduceT<256, long long>");
  Failed += runScan<int>("warpScanT<int>");
  Failed += runScan<long long>("warpScanT<long long>");
  return Failed ? 1 : 0;
}
