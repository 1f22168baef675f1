// GPU proof for test/target-compatibility/helper-results.cu and
// wrappers.cu. On an H100/H200:
//  - scaleAll (a helper whose value is computed only under
//    '__CUDA_ARCH__ < 900') and histogram (an atomic under the same guard),
//    built as sm_90 cubins: cudaSuccess, 0 of N right; built as compute_80
//    PTX (JIT-compiled with __CUDA_ARCH__ 800): N of N;
//  - hopperMma (a CuTe-shaped warpgroup helper under '__CUDA_ARCH__ >=
//    900'), built as compute_90 PTX: the helper's stand-in traps and the
//    launch fails; built for sm_90a: cudaSuccess.
#include <cstdio>
#include <cuda_runtime.h>

__device__ float scaleOf(float x) {
  float y = 0.0f;
#if __CUDA_ARCH__ < 900
  y = x * 2.0f;
#endif
  return y;
}

__global__ void scaleAll(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = scaleOf(in[i]);
}

__global__ void histogram(const int *keys, unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int k = keys[i];
#if __CUDA_ARCH__ < 900
  atomicAdd(&bins[k], 1u);
#endif
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define MMA_SM90A_ENABLED
#endif

// CuTe's shape: the instruction under the derived macro, else a trap.
__device__ inline void warpgroupArrive() {
#if defined(MMA_SM90A_ENABLED)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#else
  printf("wgmma.fence without MMA_SM90A_ENABLED\n");
  __trap();
#endif
}

__global__ void hopperMma(float *out) {
#if __CUDA_ARCH__ >= 900
  warpgroupArrive();
#endif
  out[threadIdx.x] = 1.0f;
}

static const char *mode() {
#ifdef MODE
  return MODE;
#else
  return "?";
#endif
}

int main() {
  const int n = 4096;
  float *in, *out;
  int *keys;
  unsigned *bins;
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMallocManaged(&out, n * sizeof(float));
  cudaMallocManaged(&keys, n * sizeof(int));
  cudaMallocManaged(&bins, 16 * sizeof(unsigned));
  for (int i = 0; i < n; ++i) {
    in[i] = float(i);
    out[i] = -1.0f;
    keys[i] = i % 16;
  }
  for (int b = 0; b < 16; ++b)
    bins[b] = 0;
  scaleAll<<<n / 256, 256>>>(in, out, n);
  cudaError_t e1 = cudaDeviceSynchronize();
  int right = 0;
  for (int i = 0; i < n; ++i)
    right += out[i] == 2.0f * in[i];
  printf("%s scaleAll: %s, %d of %d right\n", mode(), cudaGetErrorName(e1), right, n);
  histogram<<<n / 256, 256>>>(keys, bins, n);
  cudaError_t e2 = cudaDeviceSynchronize();
  unsigned counted = 0;
  for (int b = 0; b < 16; ++b)
    counted += bins[b];
  printf("%s histogram: %s, %u of %d counted\n", mode(), cudaGetErrorName(e2), counted, n);
  hopperMma<<<1, 128>>>(out);
  cudaError_t e3 = cudaDeviceSynchronize();
  printf("%s hopperMma: %s\n", mode(), cudaGetErrorName(e3));
  return 0;
}
