// GPU proof of the source side of cuda-target-compatibility: kernels whose
// work sits under __CUDA_ARCH__ conditions, built for sm_90 and run on an
// H100 one per process (a trap ends the context). Each prints
// "NAME launch=<error> sync=<error> out=<written|untouched|partial>"; run.sh
// compares it with cuda-tidy's verdict on the kernel: an empty body or
// compiled-out stores leave the output untouched with cudaSuccess, a body
// that only traps fails, a kernel cuda-tidy is silent on writes its output.
#include <cassert>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

// Reported: a range or an upper bound leaves sm_90 an empty body.
__global__ void rangeBelowHopper(const int *in, int *out) {
#if __CUDA_ARCH__ < 900
  out[threadIdx.x] = in[threadIdx.x] + 1;
#endif
}

__global__ void ampereOnly(const int *in, int *out) {
#if __CUDA_ARCH__ == 800
  out[threadIdx.x] = in[threadIdx.x] + 1;
#endif
}

__global__ void voltaToAda(const int *in, int *out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700 && __CUDA_ARCH__ < 900
  out[threadIdx.x] = in[threadIdx.x] + 1;
#endif
}

__global__ void unusedElse(const int *in, int *out) {
#if __CUDA_ARCH__ < 900
  out[threadIdx.x] = in[threadIdx.x] + 1;
#else
  (void)in;
  (void)out;
#endif
}

// Reported: the stores are compiled out, the rest runs.
__global__ void storesBelowHopper(const int *in, int *out) {
  int i = threadIdx.x;
  int v = in[i] + 1;
#if __CUDA_ARCH__ < 900
  out[i] = v;
#else
  (void)v;
#endif
}

// Code only the architecture-specific target keeps, built for plain sm_90.
__global__ void hopperFeaturesOnly(const int *in, int *out) {
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
  out[threadIdx.x] = in[threadIdx.x] + 1;
#endif
}

// A remark: what sm_90 keeps only traps.
__global__ void trapsAboveAmpere(const int *in, int *out) {
#if __CUDA_ARCH__ >= 800 && __CUDA_ARCH__ < 900
  out[threadIdx.x] = in[threadIdx.x] + 1;
#else
  __trap();
#endif
}

__global__ void assertsAboveAmpere(const int *in, int *out) {
#if __CUDA_ARCH__ < 900
  out[threadIdx.x] = in[threadIdx.x] + 1;
#else
  assert(false);
#endif
}

// Silent: a lower bound, an '#else' that does the work, a guard that only
// picks how the value is computed, host-only code.
__global__ void lowerBound(const int *in, int *out) {
#if __CUDA_ARCH__ >= 800
  out[threadIdx.x] = in[threadIdx.x] + 1;
#endif
}

__global__ void withElse(const int *in, int *out) {
#if __CUDA_ARCH__ < 900
  out[threadIdx.x] = in[threadIdx.x] + 1;
#else
  out[threadIdx.x] = 1 + in[threadIdx.x];
#endif
}

__global__ void fasterPath(const int *in, int *out) {
  int v;
#if __CUDA_ARCH__ >= 800
  v = __ldg(in + threadIdx.x) + 1;
#else
  v = in[threadIdx.x] + 1;
#endif
  out[threadIdx.x] = v;
}

__host__ __device__ int bump(int v) {
#ifndef __CUDA_ARCH__
  std::printf("host bump\n");
#endif
  return v + 1;
}

__global__ void hostOnlyHelper(const int *in, int *out) {
  out[threadIdx.x] = bump(in[threadIdx.x]);
}

// Host code that picks a kernel by compute capability: on an H100 (9.0) no
// branch is taken and nothing is launched.
static void dispatchByMajor(const int *in, int *out) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  if (prop.major == 7)
    withElse<<<1, 64>>>(in, out);
  else if (prop.major == 8)
    lowerBound<<<1, 64>>>(in, out);
}

using Kernel = void (*)(const int *, int *);
struct Entry {
  const char *Name;
  Kernel K;
};
static const Entry Kernels[] = {
    {"rangeBelowHopper", rangeBelowHopper},
    {"ampereOnly", ampereOnly},
    {"voltaToAda", voltaToAda},
    {"unusedElse", unusedElse},
    {"storesBelowHopper", storesBelowHopper},
    {"hopperFeaturesOnly", hopperFeaturesOnly},
    {"trapsAboveAmpere", trapsAboveAmpere},
    {"assertsAboveAmpere", assertsAboveAmpere},
    {"lowerBound", lowerBound},
    {"withElse", withElse},
    {"fasterPath", fasterPath},
    {"hostOnlyHelper", hostOnlyHelper},
    {"dispatchByMajor", nullptr},
};

int main(int argc, char **argv) {
  if (argc != 2) {
    for (const Entry &E : Kernels)
      std::printf("%s\n", E.Name);
    return 0;
  }
  const Entry *Found = nullptr;
  for (const Entry &E : Kernels)
    if (!std::strcmp(E.Name, argv[1]))
      Found = &E;
  if (!Found) {
    std::printf("unknown kernel '%s'\n", argv[1]);
    return 2;
  }
  constexpr int N = 64;
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, N * sizeof(int));
  cudaMalloc(&out, N * sizeof(int));
  int host[N];
  for (int i = 0; i < N; ++i)
    host[i] = i;
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  cudaMemset(out, 0xff, N * sizeof(int));
  if (Found->K)
    Found->K<<<1, N>>>(in, out);
  else
    dispatchByMajor(in, out);
  cudaError_t Launch = cudaGetLastError();
  cudaError_t Sync = cudaDeviceSynchronize();
  for (int i = 0; i < N; ++i)
    host[i] = -2;
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  int Written = 0, Untouched = 0;
  for (int i = 0; i < N; ++i) {
    Written += host[i] == i + 1;
    Untouched += host[i] == -1;
  }
  std::printf("%s launch=%s sync=%s out=%s\n", Found->Name,
              cudaGetErrorName(Launch), cudaGetErrorName(Sync),
              Written == N ? "written" : Untouched == N ? "untouched" : "partial");
  return 0;
}
