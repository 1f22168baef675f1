// Host harness for the stride-loop and split-call warp-sync GPU suite: runs
// each kernel of the file named by KERNELS_FILE and compares its results
// with a CPU reference of what lanes in lockstep compute.
#include KERNELS_FILE
#include <cstdio>
#include <vector>

#include "../common/compare.h"
#include "../common/cuda_check.h"

static const int Blocks = 64;

template <typename T> static std::vector<T> input(int N) {
  std::vector<T> In(N);
  for (int I = 0; I < N; ++I)
    In[I] = T((I * 37 + 11) % 50);
  return In;
}

template <typename T> static T *toDevice(const std::vector<T> &V) {
  T *D;
  CHECK(cudaMalloc((void **)&D, V.size() * sizeof(T)));
  CHECK(cudaMemcpy(D, V.data(), V.size() * sizeof(T), cudaMemcpyHostToDevice));
  return D;
}

template <typename T> static std::vector<T> fromDevice(T *D, int N) {
  std::vector<T> V(N);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(V.data(), D, N * sizeof(T), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(D));
  return V;
}

static int segmentSums() {
  std::vector<float> In = input<float>(Blocks * 2048), Want(Blocks * 64, 0);
  for (int K = 0; K < Blocks * 64; ++K)
    for (int L = 0; L < 32; ++L)
      Want[K] += In[K * 32 + L];
  float *DIn = toDevice(In), *DOut = toDevice(std::vector<float>(Want.size()));
  launchSegmentSums(DIn, DOut, Blocks);
  std::vector<float> Got = fromDevice(DOut, int(Want.size()));
  CHECK(cudaFree(DIn));
  return compare("segmentSums", Got, Want);
}

static int groupRotate() {
  std::vector<int> In = input<int>(Blocks * 1024), Want(In.size());
  for (size_t I = 0; I < In.size(); ++I)
    Want[I] = In[(I & ~size_t(31)) | ((I + 1) & 31)];
  int *D = toDevice(In);
  launchGroupRotate(D, Blocks);
  return compare("groupRotate", fromDevice(D, int(In.size())), Want);
}

static int pairTree() {
  std::vector<float> In = input<float>(Blocks * 64), Want(In.size());
  for (int B = 0; B < Blocks; ++B) {
    float S[128] = {};
    for (int K = 0; K < 64; ++K)
      S[K] = In[B * 64 + K];
    for (int T = 0; T < 32; ++T) // first call, all lanes at once
      S[T] += S[T + 32];
    float Next[128];
    for (int K = 0; K < 128; ++K)
      Next[K] = S[K];
    for (int T = 0; T < 32; ++T) // second call, all lanes at once
      Next[(2 * T) & 63] = S[(2 * T) & 63] + S[((2 * T) & 63) + 1];
    for (int K = 0; K < 64; ++K)
      Want[B * 64 + K] = Next[K];
  }
  float *D = toDevice(In);
  launchPairTree(D, Blocks);
  return compare("pairTree", fromDevice(D, int(In.size())), Want);
}

static int handOff() {
  std::vector<int> In = input<int>(Blocks * 256), Want(In.size());
  for (size_t I = 0; I < In.size(); ++I)
    Want[I] = In[(I & ~size_t(31)) | ((I + 1) & 31)];
  int *D = toDevice(In);
  launchHandOff(D, Blocks);
  return compare("handOff", fromDevice(D, int(In.size())), Want);
}

int main() {
  int Failed = segmentSums() + groupRotate() + pairTree() + handOff();
  return Failed ? 1 : 0;
}
