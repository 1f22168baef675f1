// Host harness for the races GPU suite: runs the kernels of the file named
// by KERNELS_FILE (all, or the one named on the command line) and checks
// each against a CPU reference. Exit status: the number of wrong results.
#include KERNELS_FILE
#include <cstdio>
#include <cstring>
#include <vector>

#include "../common/cuda_check.h"

template <typename T> struct Dev {
  T *P = nullptr;
  size_t N;
  explicit Dev(size_t N) : N(N) {
    CHECK(cudaMalloc((void **)&P, N * sizeof(T)));
    CHECK(cudaMemset(P, 0, N * sizeof(T)));
  }
  Dev(const std::vector<T> &H) : Dev(H.size()) {
    CHECK(cudaMemcpy(P, H.data(), N * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~Dev() { cudaFree(P); }
  std::vector<T> get() const {
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<T> H(N);
    CHECK(cudaMemcpy(H.data(), P, N * sizeof(T), cudaMemcpyDeviceToHost));
    return H;
  }
};

template <typename T>
static int compare(const char *Name, const std::vector<T> &Got,
                   const std::vector<T> &Want) {
  for (size_t I = 0; I < Want.size(); ++I)
    if (Got[I] != Want[I]) {
      std::printf("%-20s WRONG at %zu: got %lld, want %lld\n", Name, I,
                  (long long)Got[I], (long long)Want[I]);
      return 1;
    }
  std::printf("%-20s ok (%zu values match the CPU reference)\n", Name,
              Want.size());
  return 0;
}

static std::vector<int> values(size_t N, int Seed) {
  std::vector<int> V(N);
  for (size_t I = 0; I < N; ++I)
    V[I] = int((I * 7919 + Seed * 104729 + 13) % 201) - 100;
  return V;
}

static const int Blocks = 8, N = 256 * Blocks;

static int gemm(bool) {
  const int n = 64;
  std::vector<int> A = values(n * n, 1), B = values(n * n, 2), C(n * n);
  for (int R = 0; R < n; ++R)
    for (int Col = 0; Col < n; ++Col) {
      int S = 0;
      for (int K = 0; K < n; ++K)
        S += A[R * n + K] * B[K * n + Col];
      C[R * n + Col] = S;
    }
  Dev<int> DA(A), DB(B), DC(n * n);
  launchGemm(DA.P, DB.P, DC.P, n, false);
  return compare("gemmRacy", DC.get(), C);
}

static int reduce(bool Sync) {
  std::vector<int> In = values(N, 3), Want(Blocks, 0);
  for (int I = 0; I < N; ++I)
    Want[I / 256] += In[I];
  Dev<int> DIn(In), DOut(Blocks);
  launchReduce(DIn.P, DOut.P, Blocks, Sync);
  return compare(Sync ? "reduceSync" : "reduceRacy", DOut.get(), Want);
}

static int broadcast(bool) {
  std::vector<int> Scale = values(Blocks, 4), In = values(N, 5), Want(N);
  for (int I = 0; I < N; ++I)
    Want[I] = In[I] * Scale[I / 256];
  Dev<int> DS(Scale), DIn(In), DOut(N);
  launchBroadcast(DS.P, DIn.P, DOut.P, Blocks);
  return compare("broadcastRacy", DOut.get(), Want);
}

static int stencil(bool Sync) {
  std::vector<int> In = values(N, 6), Want(N);
  for (int I = 0; I < N; ++I)
    Want[I] = (I > 0 ? In[I - 1] : 0) + In[I] + (I + 1 < N ? In[I + 1] : 0);
  Dev<int> DIn(In), DOut(N);
  launchStencil(DIn.P, DOut.P, N, Sync);
  return compare(Sync ? "stencilSync" : "stencilRacy", DOut.get(), Want);
}

static int transpose(bool) {
  const int w = 128;
  std::vector<int> In = values(w * w, 7), Want(w * w);
  for (int Y = 0; Y < w; ++Y)
    for (int X = 0; X < w; ++X)
      Want[X * w + Y] = In[Y * w + X];
  Dev<int> DIn(In), DOut(w * w);
  launchTranspose(DIn.P, DOut.P, w);
  return compare("transposeRacy", DOut.get(), Want);
}

static int histogram(bool Sync) {
  const int n = 1 << 16;
  std::vector<unsigned char> Data(n);
  std::vector<unsigned> Want(256, 0);
  for (int I = 0; I < n; ++I)
    ++Want[Data[I] = (unsigned char)((I * 31 + I / 7) & 255)];
  Dev<unsigned char> DD(Data);
  Dev<unsigned> DB(256);
  launchHistogram(DD.P, n, DB.P, Blocks, Sync);
  return compare(Sync ? "histogramSync" : "histogramRacy", DB.get(), Want);
}

static int chunks(bool DoubleBuffered) {
  const int C = 6;
  std::vector<int> In = values(N * C, 8), Want(N, 0);
  for (int B = 0; B < Blocks; ++B)
    for (int K = 0; K < C; ++K)
      for (int T = 0; T < 256; ++T)
        Want[B * 256 + T] += In[(B * C + K) * 256 + 255 - T] * (K + 1);
  Dev<int> DIn(In), DOut(N);
  launchChunks(DIn.P, DOut.P, Blocks, C, DoubleBuffered);
  return compare(DoubleBuffered ? "chunksDoubleBuffered" : "chunksRacy",
                 DOut.get(), Want);
}

static int butterfly(bool) {
  std::vector<int> In = values(N, 9), Want(N);
  for (int I = 0; I < N; ++I)
    Want[I] = In[I] * 3 + In[(I / 256) * 256 + ((I % 256) ^ 32)];
  Dev<int> D(In);
  butterflyRacy<<<Blocks, 256>>>(D.P);
  return compare("butterflyRacy", D.get(), Want);
}

static int helpers(bool Sync) {
  std::vector<int> In = values(N, 10), Want(N);
  for (int I = 0; I < N; ++I)
    Want[I] = In[(I / 256) * 256 + (I % 256 + 32) % 256];
  Dev<int> DIn(In), DOut(N);
  launchHelpers(DIn.P, DOut.P, Blocks, Sync);
  return compare(Sync ? "helpersGroupSync" : "helpersRacy", DOut.get(), Want);
}

static int sumTwice(bool Sync) {
  std::vector<int> In = values(N, 11), Want(N);
  for (int B = 0; B < Blocks; ++B) {
    int Total = 0, Squares = 0;
    for (int T = 0; T < 256; ++T) {
      Total += In[B * 256 + T];
      Squares += In[B * 256 + T] * In[B * 256 + T];
    }
    for (int T = 0; T < 256; ++T)
      Want[B * 256 + T] = Squares - Total;
  }
  Dev<int> DIn(In), DOut(N);
  launchSumTwice(DIn.P, DOut.P, Blocks, Sync);
  return compare(Sync ? "sumTwiceSync" : "sumTwiceRacy", DOut.get(), Want);
}

static int rowSums(bool Sync) {
  const int Rows = Blocks * 4;
  std::vector<int> In = values(Rows * 256, 12), Want(Rows * 256);
  for (int R = 0; R < Rows; ++R) {
    int Total = 0;
    for (int T = 0; T < 256; ++T)
      Total += In[R * 256 + T];
    for (int T = 0; T < 256; ++T)
      Want[R * 256 + T] = In[R * 256 + T] * 256 - Total;
  }
  Dev<int> DIn(In), DOut(Rows * 256);
  launchRowSums(DIn.P, DOut.P, Blocks, Sync);
  return compare(Sync ? "rowSumsFinalSync" : "rowSumsRacy", DOut.get(), Want);
}

static int columns(bool Guarded) {
  const int n = 512, NCols = 4;
  std::vector<int> X = values(Blocks * n, 13), Y = values(NCols * n, 14),
                   Want(Blocks * NCols, 0);
  for (int B = 0; B < Blocks; ++B)
    for (int J = 0; J < NCols; ++J)
      for (int I = 0; I < n; ++I)
        Want[B * NCols + J] += X[B * n + I] * Y[J * n + I];
  Dev<int> DX(X), DY(Y), DD(Blocks * NCols);
  launchColumns(DX.P, DY.P, DD.P, Blocks, n, NCols, Guarded);
  return compare(Guarded ? "columnsGuarded" : "columnsSomeRacy", DD.get(),
                 Want);
}

static int groups(bool Block) {
  std::vector<int> In = values(N, 15), Want(N);
  for (int I = 0; I < N; ++I)
    Want[I] = In[(I / 256) * 256 + (I % 256 + 32) % 256];
  Dev<int> DIn(In), DOut(N);
  launchGroups(DIn.P, DOut.P, Blocks, Block);
  return compare(Block ? "groupBlockSync" : "groupTileRacy", DOut.get(), Want);
}

struct Case {
  const char *Name;
  int (*Run)(bool);
  bool Arg;
};
static const Case Cases[] = {
    {"gemmRacy", gemm, false},
    {"reduceRacy", reduce, false},
    {"reduceSync", reduce, true},
    {"broadcastRacy", broadcast, false},
    {"stencilRacy", stencil, false},
    {"stencilSync", stencil, true},
    {"transposeRacy", transpose, false},
    {"histogramRacy", histogram, false},
    {"histogramSync", histogram, true},
    {"chunksRacy", chunks, false},
    {"chunksDoubleBuffered", chunks, true},
    {"butterflyRacy", butterfly, false},
    {"helpersRacy", helpers, false},
    {"helpersGroupSync", helpers, true},
    {"sumTwiceRacy", sumTwice, false},
    {"sumTwiceSync", sumTwice, true},
    {"rowSumsRacy", rowSums, false},
    {"rowSumsFinalSync", rowSums, true},
    {"columnsGuarded", columns, true},
    {"columnsSomeRacy", columns, false},
    {"groupTileRacy", groups, false},
    {"groupBlockSync", groups, true},
};

int main(int Argc, char **Argv) {
  int Wrong = 0, Ran = 0;
  for (const Case &C : Cases)
    if (Argc < 2 || !std::strcmp(Argv[1], C.Name)) {
      Wrong += C.Run(C.Arg);
      ++Ran;
    }
  if (!Ran) {
    std::fprintf(stderr, "no kernel named %s\n", Argv[1]);
    return 100;
  }
  return Wrong;
}
