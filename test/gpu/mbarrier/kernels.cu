// GPU suite for cuda-shared-memory-race's mbarrier waits and branches on
// memory the block agrees on (test/gpu/mbarrier/run.sh). *Good kernels
// are race-free (the check stays silent, racecheck reports 0 hazards, the
// output matches the CPU reference); *Bad kernels race (the check warns,
// racecheck reports hazards).
#include <cuda/ptx>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

constexpr int T = 256;

__device__ __forceinline__ unsigned smemAddr(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbarInit(uint64_t *bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smemAddr(bar)),
               "r"(count)
               : "memory");
}
__device__ __forceinline__ uint64_t mbarArrive(uint64_t *bar) {
  uint64_t state;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];"
               : "=l"(state)
               : "r"(smemAddr(bar))
               : "memory");
  return state;
}
__device__ __forceinline__ bool mbarTryWait(uint64_t *bar, unsigned parity) {
  unsigned ok;
  asm volatile("{\n .reg .pred p;\n"
               " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
               " selp.u32 %0, 1, 0, p;\n}"
               : "=r"(ok)
               : "r"(smemAddr(bar)), "r"(parity)
               : "memory");
  return ok != 0;
}
__device__ __forceinline__ void mbarWait(uint64_t *bar, unsigned parity) {
  asm volatile("{\n .reg .pred P1;\n"
               "LAB_WAIT:\n"
               " mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
               " @P1 bra DONE;\n"
               " bra LAB_WAIT;\n"
               "DONE:\n}" ::"r"(smemAddr(bar)),
               "r"(parity)
               : "memory");
}

//===-- mbarrier waits ----------------------------------------------------===//

// Thread 0 writes val; every thread arrives and spins on try_wait.
__global__ void spinGood(const float *in, const int *flags, float *out) {
  __shared__ uint64_t bar;
  __shared__ float val;
  if (threadIdx.x == 0)
    mbarInit(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0)
    val = in[blockIdx.x];
  mbarArrive(&bar);
  while (!mbarTryWait(&bar, 0)) {
  }
  out[blockIdx.x * T + threadIdx.x] = val + threadIdx.x;
}

// The same with CUTLASS's PTX-loop wait.
__global__ void ptxLoopGood(const float *in, const int *flags, float *out) {
  __shared__ uint64_t bar;
  __shared__ float val;
  if (threadIdx.x == 0)
    mbarInit(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0)
    val = in[blockIdx.x];
  mbarArrive(&bar);
  mbarWait(&bar, 0);
  out[blockIdx.x * T + threadIdx.x] = val + threadIdx.x;
}

// The same through cuda::ptx.
__global__ void cudaPtxGood(const float *in, const int *flags, float *out) {
  __shared__ uint64_t bar;
  __shared__ float val;
  if (threadIdx.x == 0)
    cuda::ptx::mbarrier_init(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0)
    val = in[blockIdx.x];
  uint64_t state = cuda::ptx::mbarrier_arrive(&bar);
  while (!cuda::ptx::mbarrier_try_wait(&bar, state)) {
  }
  out[blockIdx.x * T + threadIdx.x] = val + threadIdx.x;
}

// Warp 0 produces a row and arrives (count 32); the other warps wait.
__global__ void producerGood(const float *in, const int *flags, float *out) {
  __shared__ uint64_t full;
  __shared__ float row[32];
  if (threadIdx.x == 0)
    mbarInit(&full, 32);
  __syncthreads();
  if (threadIdx.x < 32) {
    row[threadIdx.x] = in[blockIdx.x * T + threadIdx.x];
    mbarArrive(&full);
    out[blockIdx.x * T + threadIdx.x] = row[threadIdx.x];
  } else {
    while (!mbarTryWait(&full, 0)) {
    }
    out[blockIdx.x * T + threadIdx.x] = row[threadIdx.x % 32];
  }
}

// Every thread arrives, none waits.
__global__ void noWaitBad(const float *in, const int *flags, float *out) {
  __shared__ uint64_t bar;
  __shared__ float val;
  if (threadIdx.x == 0)
    mbarInit(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0)
    val = in[blockIdx.x];
  mbarArrive(&bar);
  out[blockIdx.x * T + threadIdx.x] = val + threadIdx.x;
}

// The read comes between the arrive and the wait.
__global__ void readEarlyBad(const float *in, const int *flags, float *out) {
  __shared__ uint64_t bar;
  __shared__ float val;
  if (threadIdx.x == 0)
    mbarInit(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0)
    val = in[blockIdx.x];
  mbarArrive(&bar);
  out[blockIdx.x * T + threadIdx.x] = val + threadIdx.x;
  while (!mbarTryWait(&bar, 0)) {
  }
}

//===-- branches on memory ------------------------------------------------===//

// One flag per block: the block takes one arm.
__global__ void flagGood(const float *in, const int *flags, float *out) {
  __shared__ float tile[T];
  const int t = threadIdx.x;
  tile[t] = in[blockIdx.x * T + t];
  __syncthreads();
  if (flags[blockIdx.x]) {
    tile[t] = -1.f;
    out[blockIdx.x * T + t] = tile[t];
  } else {
    out[blockIdx.x * T + t] = tile[T - 1 - t];
  }
}

// Thread 0 reads the flag, a barrier publishes it.
__global__ void sharedFlagGood(const float *in, const int *flags, float *out) {
  __shared__ float tile[T];
  __shared__ int s_flag;
  const int t = threadIdx.x;
  tile[t] = in[blockIdx.x * T + t];
  if (t == 0)
    s_flag = flags[blockIdx.x];
  __syncthreads();
  if (s_flag) {
    tile[t] = -1.f;
    out[blockIdx.x * T + t] = tile[t];
  } else {
    out[blockIdx.x * T + t] = tile[T - 1 - t];
  }
}

// The flag is written in the same barrier interval it is read in.
__global__ void sharedFlagBad(const float *in, const int *flags, float *out) {
  __shared__ float tile[T];
  __shared__ int s_flag;
  const int t = threadIdx.x;
  tile[t] = in[blockIdx.x * T + t];
  __syncthreads();
  if (t == 0)
    s_flag = flags[blockIdx.x];
  if (s_flag) {
    tile[t] = -1.f;
    out[blockIdx.x * T + t] = tile[t];
  } else {
    out[blockIdx.x * T + t] = tile[T - 1 - t];
  }
}

// One flag per pair of warps: the block splits.
__global__ void flagPerPairBad(const float *in, const int *flags, float *out) {
  __shared__ float tile[T];
  const int t = threadIdx.x;
  tile[t] = in[blockIdx.x * T + t];
  __syncthreads();
  if (flags[t / 64]) {
    tile[t] = -1.f;
    out[blockIdx.x * T + t] = tile[t];
  } else {
    out[blockIdx.x * T + t] = tile[T - 1 - t];
  }
}

//===-- host -----------------------------------------------------------===//

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t Err = (call);                                                  \
    if (Err != cudaSuccess) {                                                  \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(Err));                                   \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

enum class Ref { Broadcast, Row, Branch, None };
struct Entry {
  const char *Name;
  void (*Kernel)(const float *, const int *, float *);
  Ref Want;
};

static const Entry Kernels[] = {
    {"spinGood", spinGood, Ref::Broadcast},
    {"ptxLoopGood", ptxLoopGood, Ref::Broadcast},
    {"cudaPtxGood", cudaPtxGood, Ref::Broadcast},
    {"producerGood", producerGood, Ref::Row},
    {"noWaitBad", noWaitBad, Ref::Broadcast},
    {"readEarlyBad", readEarlyBad, Ref::Broadcast},
    {"flagGood", flagGood, Ref::Branch},
    {"sharedFlagGood", sharedFlagGood, Ref::Branch},
    {"sharedFlagBad", sharedFlagBad, Ref::Branch},
    {"flagPerPairBad", flagPerPairBad, Ref::None},
};

/// Runs kernel Name on Blocks blocks of T threads Trials times; prints how
/// many trials gave a wrong output. Exit status 1 when any did.
int main(int argc, char **argv) {
  if (argc < 2) {
    for (const Entry &E : Kernels)
      std::printf("%s\n", E.Name);
    return 0;
  }
  const Entry *E = nullptr;
  for (const Entry &C : Kernels)
    if (!std::strcmp(C.Name, argv[1]))
      E = &C;
  if (!E) {
    std::fprintf(stderr, "no kernel %s\n", argv[1]);
    return 2;
  }
  const int Blocks = argc > 2 ? std::atoi(argv[2]) : 2048;
  const int Trials = argc > 3 ? std::atoi(argv[3]) : 5;
  const size_t N = size_t(Blocks) * T;
  float *In, *Out;
  int *Flags;
  CHECK(cudaMalloc(&In, N * sizeof(float)));
  CHECK(cudaMalloc(&Out, N * sizeof(float)));
  CHECK(cudaMalloc(&Flags, Blocks * sizeof(int)));
  std::vector<float> H(N), Got(N), Want(N);
  std::vector<int> HF(Blocks);
  for (int B = 0; B < Blocks; ++B)
    HF[B] = B & 1;
  CHECK(cudaMemcpy(Flags, HF.data(), Blocks * sizeof(int), cudaMemcpyHostToDevice));
  int Wrong = 0;
  for (int Trial = 0; Trial < Trials; ++Trial) {
    for (size_t I = 0; I < N; ++I)
      H[I] = float(int((I * 7919 + Trial * 104729 + 13) % 201) - 100);
    for (int B = 0; B < Blocks; ++B)
      for (int Th = 0; Th < T; ++Th) {
        const size_t At = size_t(B) * T + Th;
        switch (E->Want) {
        case Ref::Broadcast:
          Want[At] = H[B] + Th;
          break;
        case Ref::Row:
          Want[At] = H[size_t(B) * T + Th % 32];
          break;
        case Ref::Branch:
          Want[At] = HF[B] ? -1.f : H[size_t(B) * T + T - 1 - Th];
          break;
        case Ref::None:
          Want[At] = 0.f;
          break;
        }
      }
    CHECK(cudaMemcpy(In, H.data(), N * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(Out, 0, N * sizeof(float)));
    E->Kernel<<<Blocks, T>>>(In, Flags, Out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(Got.data(), Out, N * sizeof(float), cudaMemcpyDeviceToHost));
    size_t Bad = 0;
    if (E->Want != Ref::None)
      for (size_t I = 0; I < N; ++I)
        Bad += Got[I] != Want[I];
    if (Bad)
      ++Wrong;
    std::printf("%s trial %d: %zu of %zu values wrong\n", E->Name, Trial, Bad, N);
  }
  std::printf("%s: wrong in %d of %d trials\n", E->Name, Wrong, Trials);
  return Wrong ? 1 : 0;
}
