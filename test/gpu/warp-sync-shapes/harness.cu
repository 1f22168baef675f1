// Host harness for the block-shape, moving-index and global-memory warp-sync
// GPU suite: runs each kernel of the file named by KERNELS_FILE against a CPU
// reference (inclusive scans over groups of Width consecutive elements).
#include KERNELS_FILE
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../common/cuda_check.h"

static const int Blocks = 128;

template <typename T, typename Launch>
static int run(const char *Name, int PerBlock, int Width, Launch L) {
  const int N = PerBlock * Blocks;
  std::vector<T> In(N), Want(N), Got(N);
  for (int I = 0; I < N; ++I)
    In[I] = T((I * 37 + 11) % 50);
  for (int G = 0; G < N / Width; ++G) {
    T Run = 0;
    for (int K = 0; K < Width; ++K)
      Want[G * Width + K] = Run += In[G * Width + K];
  }
  T *D;
  CHECK(cudaMalloc((void **)&D, N * sizeof(T)));
  CHECK(cudaMemcpy(D, In.data(), N * sizeof(T), cudaMemcpyHostToDevice));
  L(D, Blocks);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(Got.data(), D, N * sizeof(T), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(D));
  for (int I = 0; I < N; ++I)
    if (Got[I] != Want[I]) {
      std::printf("%-18s FAIL at %d: got %lld, want %lld\n", Name, I,
                  (long long)Got[I], (long long)Want[I]);
      return 1;
    }
  std::printf("%-18s ok (%d values match the CPU reference)\n", Name, N);
  return 0;
}

int main() {
  int Failed = 0;
  Failed += run<float>("rowScan", 256, 32, launchRowScan);
  Failed += run<float>("cubeScan", 64, 8, launchCubeScan);
  Failed += run<unsigned>("movingIndexScan", 256, 32, launchMovingIndexScan);
  Failed += run<int>("globalWarpScan", 256, 32, launchGlobalWarpScan);
  return Failed ? 1 : 0;
}
