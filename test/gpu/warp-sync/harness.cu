// Host harness for the warp-sync GPU suite: runs each kernel of the file
// named by KERNELS_FILE and checks it against a CPU reference.
#include KERNELS_FILE
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <vector>

#include "../common/cuda_check.h"

static const int Block = 256, Blocks = 64, N = Block * Blocks;

static int compare(const char *Name, const std::vector<int> &Got,
                   const std::vector<int> &Want) {
  for (size_t I = 0; I < Want.size(); ++I)
    if (Got[I] != Want[I]) {
      std::printf("%-13s FAIL at %zu: got %d, want %d\n", Name, I, Got[I],
                  Want[I]);
      return 1;
    }
  std::printf("%-13s ok (%zu values match the CPU reference)\n", Name,
              Want.size());
  return 0;
}

int main() {
  std::vector<int> In(N);
  for (int I = 0; I < N; ++I)
    In[I] = (I * 7919 + 13) % 1000 - 500;
  int *DIn, *DOut;
  CHECK(cudaMalloc((void **)&DIn, N * sizeof(int)));
  CHECK(cudaMalloc((void **)&DOut, N * sizeof(int)));
  CHECK(cudaMemcpy(DIn, In.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  int Failures = 0;

  std::vector<int> Sums(Blocks, 0);
  for (int B = 0; B < Blocks; ++B)
    for (int T = 0; T < Block; ++T)
      Sums[B] += In[B * Block + T];
  std::vector<int> Got(Blocks);
  reduceInline<<<Blocks, Block>>>(DIn, DOut);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(Got.data(), DOut, Blocks * sizeof(int), cudaMemcpyDeviceToHost));
  Failures += compare("reduceInline", Got, Sums);
  reduceHelper<<<Blocks, Block>>>(DIn, DOut);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(Got.data(), DOut, Blocks * sizeof(int), cudaMemcpyDeviceToHost));
  Failures += compare("reduceHelper", Got, Sums);

  std::vector<int> Scan(N), All(N);
  for (int W = 0; W < N / 32; ++W) {
    int Acc = 0;
    for (int L = 0; L < 32; ++L)
      Scan[W * 32 + L] = Acc += In[W * 32 + L];
  }
  warpScan<<<Blocks, Block>>>(DIn, DOut);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(All.data(), DOut, N * sizeof(int), cudaMemcpyDeviceToHost));
  Failures += compare("warpScan", All, Scan);

  const int Steps = 5;
  std::vector<int> Rot(N);
  for (int I = 0; I < N; ++I) {
    int Base = I - I % 32;
    Rot[I] = In[Base + (I % 32 + Steps) % 32];
  }
  rotate<<<Blocks, Block>>>(DIn, DOut, Steps);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(All.data(), DOut, N * sizeof(int), cudaMemcpyDeviceToHost));
  Failures += compare("rotate", All, Rot);

  std::vector<int> Excl(N);
  for (int W = 0; W < N / 32; ++W) {
    int Acc = 0;
    for (int L = 0; L < 32; ++L) {
      Excl[W * 32 + L] = Acc;
      Acc += In[W * 32 + L];
    }
  }
  scanTwoDeep<<<Blocks, Block>>>(DIn, DOut);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(All.data(), DOut, N * sizeof(int), cudaMemcpyDeviceToHost));
  Failures += compare("scanTwoDeep", All, Excl);

  // Compaction: the order of the warps' ranges depends on the atomics, so
  // the kept indices are compared as a sorted list.
  std::vector<int> Kept;
  for (int I = 0; I < N; ++I)
    if (In[I] > 0)
      Kept.push_back(I);
  int *DTotal;
  CHECK(cudaMalloc((void **)&DTotal, sizeof(int)));
  CHECK(cudaMemset(DTotal, 0, sizeof(int)));
  CHECK(cudaMemset(DOut, 0xff, N * sizeof(int)));
  compact<<<Blocks, Block>>>(DIn, DOut, DTotal);
  CHECK(cudaGetLastError());
  int Total = 0;
  CHECK(cudaMemcpy(&Total, DTotal, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(All.data(), DOut, N * sizeof(int), cudaMemcpyDeviceToHost));
  if (Total != int(Kept.size())) {
    std::printf("%-13s FAIL: %d kept, want %zu\n", "compact", Total,
                Kept.size());
    ++Failures;
  } else {
    std::vector<int> Packed(All.begin(), All.begin() + Total);
    std::sort(Packed.begin(), Packed.end());
    Failures += compare("compact", Packed, Kept);
  }
  CHECK(cudaFree(DTotal));

  CHECK(cudaFree(DIn));
  CHECK(cudaFree(DOut));
  return Failures ? 1 : 0;
}
