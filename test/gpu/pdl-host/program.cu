// GPU proof for cuda-programmatic-dependent-launch's host model. A producer
// triggers the programmatic launch at entry, spins about 100 us, then
// writes act[]; each scenario launches kernels after it with
// cudaLaunchAttributeProgrammaticStreamSerialization, the last of which
// reads a buffer before its wait and computes out[i] from it. The check
// warns in the consumers that read what a kernel still running may write;
// those read stale data, the silent ones are right.
//
// Usage: program SCENARIO RUNS; prints "SCENARIO: wrong in W of RUNS runs".
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <cuda_runtime.h>

constexpr int Threads = 256;
constexpr int Blocks = 256;
constexpr int N = Threads * Blocks;

__device__ unsigned long long nowNs() {
  unsigned long long T;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(T));
  return T;
}

__global__ void producer(const float *weights, float *act) {
  cudaTriggerProgrammaticLaunchCompletion();
  unsigned long long Start = nowNs();
  while (nowNs() - Start < 100000)
    __nanosleep(1000);
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  act[I] = weights[I] * 2.f;
}

// Flagged: the producer writes act.
__global__ void readsActivation(const float *act, float *out) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  float V = act[I];
  cudaGridDependencySynchronize();
  out[I] = V + 1.f;
}

// Silent: the producer only reads the weights.
__global__ void readsWeights(const float *weights, float *out) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  float V = weights[I];
  cudaGridDependencySynchronize();
  out[I] = V + 1.f;
}

// Silent: copied by cudaMemcpyAsync, no kernel writes it.
__global__ void readsTable(const float *table, float *out) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  float V = table[I];
  cudaGridDependencySynchronize();
  out[I] = V + 1.f;
}

__global__ void waitsFirst(const float *in, float *out) {
  cudaGridDependencySynchronize();
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  out[I] = in[I];
}

__global__ void triggersFirst(const float *in, float *out) {
  cudaTriggerProgrammaticLaunchCompletion();
  cudaGridDependencySynchronize();
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  out[I] = in[I];
}

// Silent: waitsFirst lets it start only once the producer has finished.
__global__ void readsBehindWaiter(const float *act, float *out) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  float V = act[I];
  cudaGridDependencySynchronize();
  out[I] = V + 1.f;
}

// Flagged: triggersFirst lets it start while the producer still runs.
__global__ void readsBehindTrigger(const float *act, float *out) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  float V = act[I];
  cudaGridDependencySynchronize();
  out[I] = V + 1.f;
}

__global__ void waitsThenTriggers(const float *in, float *out) {
  cudaGridDependencySynchronize();
  cudaTriggerProgrammaticLaunchCompletion();
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  out[I] = in[I];
}

// Silent: waitsThenTriggers lets it start only after its own wait, when
// the producer has finished.
__global__ void readsBehindWaitTrigger(const float *act, float *out) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  float V = act[I];
  cudaGridDependencySynchronize();
  out[I] = V + 1.f;
}

// Silent: a cudaMemsetAsync between the producer and it; the memset starts
// after the producer has finished, and this kernel after the memset.
__global__ void readsBehindMemset(const float *act, float *out) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  float V = act[I];
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

struct Buffers {
  float *Weights, *Act, *Table, *Scratch, *Out;
};

/// One run of a scenario; returns the value out[i] must hold for input
/// value W (weights[i] = table[i] = W), or a negative number for an
/// unknown scenario.
static float scenario(const std::string &Name, const Buffers &B,
                      const float *HostTable, cudaStream_t Stream) {
  cudaLaunchAttribute Attrs[1];
  Attrs[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  Attrs[0].val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t Config = {};
  Config.gridDim = dim3(Blocks);
  Config.blockDim = dim3(Threads);
  Config.stream = Stream;
  Config.attrs = Attrs;
  Config.numAttrs = 1;
  CHECK(cudaMemcpyAsync(B.Table, HostTable, N * sizeof(float),
                        cudaMemcpyHostToDevice, Stream));
  producer<<<Blocks, Threads, 0, Stream>>>(B.Weights, B.Act);
  if (Name == "activation") {
    CHECK(cudaLaunchKernelEx(&Config, readsActivation, (const float *)B.Act,
                             B.Out));
    return 2.f;
  }
  if (Name == "weights") {
    CHECK(cudaLaunchKernelEx(&Config, readsWeights,
                             (const float *)B.Weights, B.Out));
    return 1.f;
  }
  if (Name == "table") {
    CHECK(cudaLaunchKernelEx(&Config, readsTable, (const float *)B.Table,
                             B.Out));
    return 1.f;
  }
  if (Name == "behindWaiter") {
    CHECK(cudaLaunchKernelEx(&Config, waitsFirst, (const float *)B.Weights,
                             B.Scratch));
    CHECK(cudaLaunchKernelEx(&Config, readsBehindWaiter, (const float *)B.Act,
                             B.Out));
    return 2.f;
  }
  if (Name == "behindTrigger") {
    CHECK(cudaLaunchKernelEx(&Config, triggersFirst, (const float *)B.Weights,
                             B.Scratch));
    CHECK(cudaLaunchKernelEx(&Config, readsBehindTrigger,
                             (const float *)B.Act, B.Out));
    return 2.f;
  }
  if (Name == "behindWaitTrigger") {
    CHECK(cudaLaunchKernelEx(&Config, waitsThenTriggers,
                             (const float *)B.Weights, B.Scratch));
    CHECK(cudaLaunchKernelEx(&Config, readsBehindWaitTrigger,
                             (const float *)B.Act, B.Out));
    return 2.f;
  }
  if (Name == "behindMemset") {
    CHECK(cudaMemsetAsync(B.Scratch, 0, N * sizeof(float), Stream));
    CHECK(cudaLaunchKernelEx(&Config, readsBehindMemset, (const float *)B.Act,
                             B.Out));
    return 2.f;
  }
  return -1.f;
}

int main(int Argc, char **Argv) {
  if (Argc < 3) {
    std::fprintf(stderr, "usage: %s SCENARIO RUNS\n", Argv[0]);
    return 2;
  }
  int Runs = std::atoi(Argv[2]);
  std::vector<float> In(N), Out(N);
  for (int I = 0; I < N; ++I)
    In[I] = float(I % 1000);
  Buffers B;
  CHECK(cudaMalloc(&B.Weights, N * sizeof(float)));
  CHECK(cudaMalloc(&B.Act, N * sizeof(float)));
  CHECK(cudaMalloc(&B.Table, N * sizeof(float)));
  CHECK(cudaMalloc(&B.Scratch, N * sizeof(float)));
  CHECK(cudaMalloc(&B.Out, N * sizeof(float)));
  CHECK(cudaMemcpy(B.Weights, In.data(), N * sizeof(float),
                   cudaMemcpyHostToDevice));
  cudaStream_t Stream;
  CHECK(cudaStreamCreate(&Stream));
  int Wrong = 0;
  for (int R = 0; R < Runs; ++R) {
    CHECK(cudaMemsetAsync(B.Act, 0, N * sizeof(float), Stream));
    CHECK(cudaMemsetAsync(B.Table, 0, N * sizeof(float), Stream));
    CHECK(cudaMemsetAsync(B.Out, 0, N * sizeof(float), Stream));
    CHECK(cudaStreamSynchronize(Stream));
    float Scale = scenario(Argv[1], B, In.data(), Stream);
    if (Scale < 0) {
      std::fprintf(stderr, "unknown scenario %s\n", Argv[1]);
      return 2;
    }
    CHECK(cudaStreamSynchronize(Stream));
    CHECK(cudaMemcpy(Out.data(), B.Out, N * sizeof(float),
                     cudaMemcpyDeviceToHost));
    bool Ok = true;
    for (int I = 0; I < N && Ok; ++I)
      Ok = Out[I] == In[I] * Scale + 1.f;
    Wrong += !Ok;
  }
  std::printf("%s: wrong in %d of %d runs\n", Argv[1], Wrong, Runs);
  return 0;
}
