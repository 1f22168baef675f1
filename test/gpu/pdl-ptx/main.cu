// GPU proof for cuda-programmatic-dependent-launch on old PTX: runs the
// producer and then the consumer RUNS times and counts the runs in which
// some out[i] is not in[i] * 2 + 1.
//
// Usage: main RUNS; prints "ptxVersion P: wrong in W of RUNS runs".
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

void launchProducer(const float *in, float *mid, int Blocks, int Threads);
int launchConsumer(const float *mid, float *out, int Blocks, int Threads);

int main(int argc, char **argv) {
  int Runs = argc > 1 ? atoi(argv[1]) : 50;
  const int Threads = 256, Blocks = 256, N = Threads * Blocks;
  std::vector<float> In(N), Out(N);
  for (int I = 0; I < N; ++I)
    In[I] = float(I % 1000);
  float *DIn, *DMid, *DOut;
  cudaMalloc(&DIn, N * sizeof(float));
  cudaMalloc(&DMid, N * sizeof(float));
  cudaMalloc(&DOut, N * sizeof(float));
  cudaMemcpy(DIn, In.data(), N * sizeof(float), cudaMemcpyHostToDevice);
  int Wrong = 0, Ptx = 0;
  for (int R = 0; R < Runs; ++R) {
    cudaMemset(DMid, 0, N * sizeof(float));
    cudaMemset(DOut, 0, N * sizeof(float));
    cudaDeviceSynchronize();
    launchProducer(DIn, DMid, Blocks, Threads);
    Ptx = launchConsumer(DMid, DOut, Blocks, Threads);
    if (cudaError_t E = cudaDeviceSynchronize()) {
      printf("error: %s\n", cudaGetErrorString(E));
      return 2;
    }
    cudaMemcpy(Out.data(), DOut, N * sizeof(float), cudaMemcpyDeviceToHost);
    for (int I = 0; I < N; ++I)
      if (Out[I] != In[I] * 2.f + 1.f) {
        ++Wrong;
        break;
      }
  }
  printf("ptxVersion %d: wrong in %d of %d runs\n", Ptx, Wrong, Runs);
  return 0;
}
