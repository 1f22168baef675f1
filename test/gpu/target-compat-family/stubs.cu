// GPU proof for cuda-target-compatibility's feature-macro stubs: the shapes
// of test/target-compatibility/feature-stubs.cu. Built for plain sm_90 the
// stubs launch with cudaSuccess and write nothing (cuda-tidy warns); built
// for sm_90a they compute every output (silent). portableElse computes
// everything on both (silent); trapStub fails its launch on sm_90 (last: a
// trap ends the context).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void messageStub(float *out, const float *in, int n) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * in[i];
#else
  if (threadIdx.x == 0 && blockIdx.x == 0)
    printf("ERROR: This kernel only supports sm90a\n");
#endif
}

__global__ void voidStub(float *out, const float *in, int n) {
#if defined(__CUDA_ARCH_SPECIFIC__) && __CUDA_ARCH_SPECIFIC__ == 900
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * in[i];
#else
  (void)out;
  (void)in;
  (void)n;
#endif
}

__global__ void returnStub(float *out, const float *in, int n) {
#if !defined(__CUDA_ARCH_FEAT_SM90_ALL)
  return;
#else
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * in[i];
#endif
}

__global__ void portableElse(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  if (i < n)
    out[i] = 2.0f * in[i];
#else
  if (i < n)
    out[i] = in[i] + in[i];
#endif
}

__global__ void trapStub(float *out, const float *in, int n) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * in[i];
#else
  __trap();
#endif
}

using Kernel = void (*)(float *, const float *, int);

static void run(const char *Name, Kernel K, float *Out, const float *In,
                int N) {
  cudaMemset(Out, 0xff, N * sizeof(float)); // NaN: not written.
  K<<<(N + 255) / 256, 256>>>(Out, In, N);
  cudaError_t Launch = cudaGetLastError();
  cudaError_t Sync = cudaDeviceSynchronize();
  static float Host[4096];
  int Written = 0;
  if (Sync == cudaSuccess) {
    cudaMemcpy(Host, Out, N * sizeof(float), cudaMemcpyDeviceToHost);
    for (int I = 0; I < N; ++I)
      Written += Host[I] == 2.0f * I;
  }
  printf("%-13s launch=%s sync=%s written=%d/%d\n", Name,
         cudaGetErrorName(Launch), cudaGetErrorName(Sync), Written, N);
}

int main() {
  const int N = 4096;
  float *In, *Out;
  cudaMalloc(&In, N * sizeof(float));
  cudaMalloc(&Out, N * sizeof(float));
  static float Host[N];
  for (int I = 0; I < N; ++I)
    Host[I] = float(I);
  cudaMemcpy(In, Host, sizeof(Host), cudaMemcpyHostToDevice);
  run("messageStub", messageStub, Out, In, N);
  run("voidStub", voidStub, Out, In, N);
  run("returnStub", returnStub, Out, In, N);
  run("portableElse", portableElse, Out, In, N);
  run("trapStub", trapStub, Out, In, N);
  return 0;
}
