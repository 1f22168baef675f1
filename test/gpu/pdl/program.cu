// GPU proof for cuda-programmatic-dependent-launch. A producer triggers the
// programmatic launch at entry, spins about 100 us, then writes mid[] (and
// reads aux[] after the spin); each consumer is launched after it with
// cudaLaunchAttributeProgrammaticStreamSerialization (but the plain one)
// and computes out[i] = mid[i] + 1. The kernels the check flags read stale
// data (or clobber aux[]); the silent ones and the fixed forms are right.
//
// Usage: program KERNEL RUNS; prints "KERNEL: wrong in W of RUNS runs".
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <cuda_runtime.h>
#include <vector>

constexpr int Threads = 256;
constexpr int Blocks = 256;
constexpr int N = Threads * Blocks;

__constant__ float cOffset;

__device__ unsigned long long nowNs() {
  unsigned long long T;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(T));
  return T;
}

__global__ void producer(const float *in, const float *aux, float *mid) {
  cudaTriggerProgrammaticLaunchCompletion();
  unsigned long long Start = nowNs();
  while (nowNs() - Start < 100000)
    __nanosleep(1000);
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  mid[I] = in[I] * 2.f + aux[I];
}

// Flagged: the read before the wait.
__global__ void readBeforeWait(const float *mid, float *out) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  float V = mid[I];
  cudaGridDependencySynchronize();
  out[I] = V + 1.f;
}

__device__ float loadAt(const float *P, int I) { return P[I]; }

// Flagged: a helper reads before the wait.
__global__ void helperBeforeWait(const float *mid, float *out) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  float V = loadAt(mid, I);
  cudaGridDependencySynchronize();
  out[I] = V + 1.f;
}

struct Reader {
  float Value;
  __device__ Reader(const float *P, int I) { Value = P[I]; }
};

// Flagged: a constructor reads before the wait.
__global__ void constructorBeforeWait(const float *mid, float *out) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Reader R(mid, I);
  cudaGridDependencySynchronize();
  out[I] = R.Value + 1.f;
}

// Flagged: a grid-stride loop reads in its first iteration before the wait
// in its body.
__global__ void loopPrologue(const float *mid, float *out) {
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += gridDim.x * blockDim.x) {
    float V = mid[I];
    cudaGridDependencySynchronize();
    out[I] = V + 1.f;
  }
}

// Flagged: warp 0 waits; the other warps read without waiting.
__global__ void warpRoleNoWait(const float *mid, float *out) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x / 32 == 0) {
    cudaGridDependencySynchronize();
    out[I] = mid[I] + 1.f;
  } else {
    out[I] = mid[I] + 1.f;
  }
}

// Flagged: the wait is compiled only for sm_100 and later; built for sm_90.
__global__ void waitOnlyOnBlackwell(const float *mid, float *out) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
#if __CUDA_ARCH__ >= 1000
  cudaGridDependencySynchronize();
#endif
  out[I] = mid[I] + 1.f;
}

// Flagged: launched with the attribute, never waits.
__global__ void neverWaits(const float *mid, float *out) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  out[I] = mid[I] + 1.f;
}

// Flagged: writes aux[] before the wait while the producer still reads it.
__global__ void writeBeforeWait(float *aux, const float *mid, float *out) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  aux[I] = 0.f;
  cudaGridDependencySynchronize();
  out[I] = mid[I] + 1.f;
}

// Silent: the wait first; before it only parameters, __constant__ data and
// shared memory.
__global__ void waitFirst(const float *mid, float *out, float Scale) {
  __shared__ float Tile[Threads];
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Tile[threadIdx.x] = Scale * cOffset;
  cudaGridDependencySynchronize();
  out[I] = mid[I] + 1.f + Tile[threadIdx.x];
}

// Silent: each warp role waits (the hand fix of warpRoleNoWait).
__global__ void warpRolesWait(const float *mid, float *out) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x / 32 == 0) {
    cudaGridDependencySynchronize();
    out[I] = mid[I] + 1.f;
  } else {
    cudaGridDependencySynchronize();
    out[I] = mid[I] + 1.f;
  }
}

// Silent: the wait compiled from sm_90 on (the hand fix of
// waitOnlyOnBlackwell).
__global__ void waitFromHopper(const float *mid, float *out) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
#if __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
  out[I] = mid[I] + 1.f;
}

// Silent: the same body as readBeforeWait, launched without the attribute.
__global__ void readBeforeWaitInOrder(const float *mid, float *out) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  float V = mid[I];
  cudaGridDependencySynchronize();
  out[I] = V + 1.f;
}

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t Err = (call);                                                  \
    if (Err != cudaSuccess) {                                                  \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(Err));                                   \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

/// Launches the consumer Name after the producer; false for an unknown name.
static bool launchConsumer(const char *Name, float *aux, const float *mid,
                           float *out, cudaStream_t Stream) {
  cudaLaunchAttribute Attrs[1];
  Attrs[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  Attrs[0].val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t Config = {};
  Config.gridDim = dim3(Blocks);
  Config.blockDim = dim3(Threads);
  Config.stream = Stream;
  Config.attrs = Attrs;
  Config.numAttrs = 1;
  std::string K = Name;
  if (K == "readBeforeWait")
    CHECK(cudaLaunchKernelEx(&Config, readBeforeWait, mid, out));
  else if (K == "helperBeforeWait")
    CHECK(cudaLaunchKernelEx(&Config, helperBeforeWait, mid, out));
  else if (K == "constructorBeforeWait")
    CHECK(cudaLaunchKernelEx(&Config, constructorBeforeWait, mid, out));
  else if (K == "loopPrologue")
    CHECK(cudaLaunchKernelEx(&Config, loopPrologue, mid, out));
  else if (K == "warpRoleNoWait")
    CHECK(cudaLaunchKernelEx(&Config, warpRoleNoWait, mid, out));
  else if (K == "waitOnlyOnBlackwell")
    CHECK(cudaLaunchKernelEx(&Config, waitOnlyOnBlackwell, mid, out));
  else if (K == "neverWaits")
    CHECK(cudaLaunchKernelEx(&Config, neverWaits, mid, out));
  else if (K == "writeBeforeWait")
    CHECK(cudaLaunchKernelEx(&Config, writeBeforeWait, aux, mid, out));
  else if (K == "waitFirst")
    CHECK(cudaLaunchKernelEx(&Config, waitFirst, mid, out, 0.f));
  else if (K == "warpRolesWait")
    CHECK(cudaLaunchKernelEx(&Config, warpRolesWait, mid, out));
  else if (K == "waitFromHopper")
    CHECK(cudaLaunchKernelEx(&Config, waitFromHopper, mid, out));
  else if (K == "readBeforeWaitInOrder")
    readBeforeWaitInOrder<<<Blocks, Threads, 0, Stream>>>(mid, out);
  else
    return false;
  return true;
}

int main(int Argc, char **Argv) {
  if (Argc < 3) {
    std::fprintf(stderr, "usage: %s KERNEL RUNS\n", Argv[0]);
    return 2;
  }
  int Runs = std::atoi(Argv[2]);
  std::vector<float> In(N), Aux(N, 5.f);
  for (int I = 0; I < N; ++I)
    In[I] = float(I % 1000);
  float *DIn, *DAux, *DMid, *DOut;
  CHECK(cudaMalloc(&DIn, N * sizeof(float)));
  CHECK(cudaMalloc(&DAux, N * sizeof(float)));
  CHECK(cudaMalloc(&DMid, N * sizeof(float)));
  CHECK(cudaMalloc(&DOut, N * sizeof(float)));
  CHECK(cudaMemcpy(DIn, In.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  float Zero = 0.f;
  CHECK(cudaMemcpyToSymbol(cOffset, &Zero, sizeof(float)));
  cudaStream_t Stream;
  CHECK(cudaStreamCreate(&Stream));
  int Wrong = 0;
  std::vector<float> Mid(N), Out(N);
  for (int R = 0; R < Runs; ++R) {
    CHECK(cudaMemcpyAsync(DAux, Aux.data(), N * sizeof(float),
                          cudaMemcpyHostToDevice, Stream));
    CHECK(cudaMemsetAsync(DMid, 0, N * sizeof(float), Stream));
    CHECK(cudaMemsetAsync(DOut, 0, N * sizeof(float), Stream));
    producer<<<Blocks, Threads, 0, Stream>>>(DIn, DAux, DMid);
    if (!launchConsumer(Argv[1], DAux, DMid, DOut, Stream)) {
      std::fprintf(stderr, "unknown kernel %s\n", Argv[1]);
      return 2;
    }
    CHECK(cudaStreamSynchronize(Stream));
    CHECK(cudaMemcpy(Mid.data(), DMid, N * sizeof(float),
                     cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(Out.data(), DOut, N * sizeof(float),
                     cudaMemcpyDeviceToHost));
    bool Ok = true;
    for (int I = 0; I < N && Ok; ++I) {
      float WantMid = In[I] * 2.f + 5.f;
      Ok = Mid[I] == WantMid && Out[I] == WantMid + 1.f;
    }
    Wrong += !Ok;
  }
  std::printf("%s: wrong in %d of %d runs\n", Argv[1], Wrong, Runs);
  return 0;
}
