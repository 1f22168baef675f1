// Runs one kernel of KERNELS_FILE (named on the command line) on one block of
// 128 threads and checks its results against the CPU. Exit 0: right; 1:
// wrong results; 2: a CUDA error.
#include KERNELS_FILE
#include <cstdio>
#include <cstring>

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  const int N = 128;
  int h[N], want[N];
  for (int i = 0; i < N; ++i)
    h[i] = i * 7 + 3;
  for (int i = 0; i < N; ++i) {
    int lane = i % 32, warp0 = i - lane;
    want[i] = h[i];
    if (!strcmp(argv[1], "halfWarpBroadcast") && lane < 16)
      want[i] = h[warp0];
    if (!strcmp(argv[1], "upperPairs") && lane >= 16)
      want[i] = h[i] + h[i ^ 1];
  }
  int *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  if (!strcmp(argv[1], "halfWarpBroadcast"))
    halfWarpBroadcast<<<1, 128>>>(d);
  else if (!strcmp(argv[1], "upperPairs"))
    upperPairs<<<1, 128>>>(d);
  else
    return 2;
  cudaError_t E = cudaDeviceSynchronize();
  if (E != cudaSuccess) {
    printf("%s: CUDA error: %s\n", argv[1], cudaGetErrorString(E));
    return 2;
  }
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < N; ++i)
    wrong += h[i] != want[i];
  printf("%s: %d of %d values wrong\n", argv[1], wrong, N);
  return wrong ? 1 : 0;
}
