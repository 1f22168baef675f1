// cuda-divergent-barrier at cluster and grid scope on a GPU (sm_90). One
// case per process, named on the command line, so that a hung cooperative
// launch dies with its process:
//   grid-divergent   a grid.sync() in a loop whose trip count differs
//                    between blocks (1 and 2 alternating over 8 blocks);
//                    expected to hang: the program reports HANG after 5 s
//   grid-uniform     the correct form (uniform trip count, guarded body)
//   cluster-skip     a cluster of 2 exchanging partial sums through
//                    distributed shared memory for 8 rounds, where block 1
//                    skips the first cluster.sync(): expected wrong sums
//   cluster-uniform  the correct form
// Prints the case's outcome and exits 0 when it behaves as expected.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <chrono>
#include <thread>
namespace cg = cooperative_groups;

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      std::printf("%s: %s\n", #x, cudaGetErrorString(e_));                     \
      return 2;                                                                \
    }                                                                          \
  } while (0)

__global__ void gridSyncPerBlockLoop(const int *segEnd, float *o) {
  cg::grid_group grid = cg::this_grid();
  for (int i = 0; i < segEnd[blockIdx.x]; ++i) {
    if (threadIdx.x == 0)
      atomicAdd(&o[i], 1.f);
    grid.sync();
  }
}

__global__ void gridSyncUniform(const int *segEnd, float *o, int iters) {
  cg::grid_group grid = cg::this_grid();
  for (int i = 0; i < iters; ++i) {
    if (i < segEnd[blockIdx.x] && threadIdx.x == 0)
      atomicAdd(&o[i], 1.f);
    grid.sync();
  }
}

constexpr int Rounds = 8;

// Each round every block publishes in[block] * (round + 1) and adds its
// partner's value; a barrier between the write and the read, and one before
// the next write.
__global__ void __cluster_dims__(2, 1, 1)
    clusterExchange(const float *in, float *out, int skipRank) {
  __shared__ float partial;
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  float acc = 0.f;
  for (int round = 0; round < Rounds; ++round) {
    if (threadIdx.x == 0)
      partial = in[blockIdx.x] * (round + 1);
    if (!(rank == (unsigned)skipRank && round == 0))
      cluster.sync();
    float *peer = cluster.map_shared_rank(&partial, rank ^ 1);
    if (threadIdx.x == 0)
      acc += *peer;
    cluster.sync();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = acc;
}

static int gridCase(bool divergent) {
  int dev = 0, coop = 0;
  CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  if (!coop) {
    std::printf("no cooperative launch on this device\n");
    return 2;
  }
  const int blocks = 8;
  int hostSeg[blocks];
  for (int b = 0; b < blocks; ++b)
    hostSeg[b] = divergent ? 1 + b % 2 : 2;
  int *seg;
  float *o;
  CHECK(cudaMalloc(&seg, sizeof hostSeg));
  CHECK(cudaMalloc(&o, 4 * sizeof(float)));
  CHECK(cudaMemcpy(seg, hostSeg, sizeof hostSeg, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(o, 0, 4 * sizeof(float)));
  int iters = 2;
  void *argsDiv[] = {&seg, &o};
  void *argsUni[] = {&seg, &o, &iters};
  if (divergent)
    CHECK(cudaLaunchCooperativeKernel((void *)gridSyncPerBlockLoop,
                                      dim3(blocks), dim3(64), argsDiv));
  else
    CHECK(cudaLaunchCooperativeKernel((void *)gridSyncUniform, dim3(blocks),
                                      dim3(64), argsUni));
  auto start = std::chrono::steady_clock::now();
  while (cudaStreamQuery(0) == cudaErrorNotReady) {
    if (std::chrono::steady_clock::now() - start > std::chrono::seconds(5)) {
      std::printf("grid-%s: HANG (not finished after 5 s)\n",
                  divergent ? "divergent" : "uniform");
      std::fflush(stdout);
      std::_Exit(divergent ? 0 : 1);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(cudaGetLastError());
  float host[2];
  CHECK(cudaMemcpy(host, o, sizeof host, cudaMemcpyDeviceToHost));
  std::printf("grid-%s: finished, o[0]=%g o[1]=%g\n",
              divergent ? "divergent" : "uniform", host[0], host[1]);
  if (divergent)
    return 1; // expected to hang
  return host[0] == blocks && host[1] == blocks ? 0 : 1;
}

static int clusterCase(bool divergent) {
  const int clusters = 64, blocks = 2 * clusters;
  float hostIn[blocks], hostOut[blocks];
  for (int b = 0; b < blocks; ++b)
    hostIn[b] = float(b + 1);
  float *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  int wrong = 0;
  const int repeats = 20;
  for (int r = 0; r < repeats; ++r) {
    CHECK(cudaMemset(out, 0, sizeof hostOut));
    clusterExchange<<<blocks, 128>>>(in, out, divergent ? 1 : -1);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hostOut, out, sizeof hostOut, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b) {
      float want = hostIn[b ^ 1] * (Rounds * (Rounds + 1) / 2);
      if (hostOut[b] != want)
        ++wrong;
    }
  }
  std::printf("cluster-%s: %d of %d sums wrong over %d launches\n",
              divergent ? "skip" : "uniform", wrong, blocks * repeats,
              repeats);
  return divergent ? (wrong > 0 ? 0 : 1) : (wrong == 0 ? 0 : 1);
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "";
  if (!std::strcmp(which, "grid-divergent"))
    return gridCase(true);
  if (!std::strcmp(which, "grid-uniform"))
    return gridCase(false);
  if (!std::strcmp(which, "cluster-skip"))
    return clusterCase(true);
  if (!std::strcmp(which, "cluster-uniform"))
    return clusterCase(false);
  std::printf("usage: %s grid-divergent|grid-uniform|cluster-skip|"
              "cluster-uniform\n",
              argv[0]);
  return 2;
}
