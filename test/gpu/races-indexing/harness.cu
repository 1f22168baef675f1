// Host harness for the races-indexing GPU suite: runs the kernel named on
// the command line once on fixed inputs (racecheck watches it). Exit
// status 0 unless a CUDA call fails.
#include "kernels.cu"
#include <cstdio>
#include <cstring>
#include <vector>

#include "../common/cuda_check.h"

template <typename T> static T *device(size_t N, int Seed) {
  std::vector<T> H(N);
  for (size_t I = 0; I < N; ++I)
    H[I] = T((I * 7919 + Seed * 104729 + 13) % 201);
  T *P = nullptr;
  CHECK(cudaMalloc((void **)&P, N * sizeof(T)));
  CHECK(cudaMemcpy(P, H.data(), N * sizeof(T), cudaMemcpyHostToDevice));
  return P;
}

int main(int Argc, char **Argv) {
  if (Argc < 2) {
    std::fprintf(stderr, "usage: %s KERNEL\n", Argv[0]);
    return 2;
  }
  const char *K = Argv[1];
  auto Is = [&](const char *Name) { return std::strcmp(K, Name) == 0; };
  const int W = 64, H = 64;
  float *A = device<float>(W * H, 1), *B = device<float>(W * H, 2),
        *C = device<float>(W * H, 3);
  int *Perm = device<int>(8, 0);
  CHECK(cudaMemset(Perm, 0, 8 * sizeof(int)));
  const int One = 1;
  CHECK(cudaMemcpy(Perm, &One, sizeof(int), cudaMemcpyHostToDevice));
  unsigned char *Bytes = device<unsigned char>(4096, 4);
  unsigned *Bins = device<unsigned>(BINS, 0);
  if (Is("samplesLayout"))
    launchDerived(0, A, B, W, H);
  else if (Is("rowsThenColumns"))
    launchDerived(1, A, B, W, H);
  else if (Is("rowsThenColumnsNoBarrier"))
    launchDerived(2, A, B, W, H);
  else if (Is("ownElements"))
    launchTables(0, A, Perm, B, 4);
  else if (Is("constOffsets"))
    launchTables(1, A, Perm, B, 4);
  else if (Is("mirrored"))
    launchTables(2, A, Perm, B, 4);
  else if (Is("writtenTable"))
    launchTables(3, A, Perm, B, 4);
  else if (Is("columnHistogram"))
    launchColumns(0, Bytes, 4096, Bins);
  else if (Is("rowZeroed"))
    launchColumns(1, Bytes, 4096, Bins);
  else if (Is("matrixMul"))
    matrixMul<<<dim3(W / BLOCK_SIZE, H / BLOCK_SIZE), dim3(BLOCK_SIZE, BLOCK_SIZE)>>>(C, A, B, W, W);
  else if (Is("matrixMulNoFirst"))
    matrixMulNoFirst<<<dim3(W / BLOCK_SIZE, H / BLOCK_SIZE), dim3(BLOCK_SIZE, BLOCK_SIZE)>>>(C, A, B, W, W);
  else if (Is("matrixMulNoSecond"))
    matrixMulNoSecond<<<dim3(W / BLOCK_SIZE, H / BLOCK_SIZE), dim3(BLOCK_SIZE, BLOCK_SIZE)>>>(C, A, B, W, W);
  else if (Is("transposeCoalesced"))
    transposeCoalesced<<<dim3(W / TILE_DIM, H / TILE_DIM), dim3(TILE_DIM, BLOCK_ROWS)>>>(C, A);
  else if (Is("transposeNoBarrier"))
    transposeNoBarrier<<<dim3(W / TILE_DIM, H / TILE_DIM), dim3(TILE_DIM, BLOCK_ROWS)>>>(C, A);
  else if (Is("guardedTile"))
    guardedTile<<<1, dim3(16, 16)>>>(C, A, W);
  else {
    std::fprintf(stderr, "unknown kernel %s\n", K);
    return 2;
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::printf("%s ran\n", K);
  return 0;
}
