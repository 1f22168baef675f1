// Pre-CUDA-12 code that binds a texture reference with an offset it never
// reads, the CUDA Handbook's shape. cuda-removed-toolkit-api puts the
// texture-object rewrite on a note (right when the memory is aligned, as
// cudaMalloc's is); run.sh applies it with --fix-notes and the fixed
// program compares what the kernel read with the input.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err = (call);                                                  \
    if (err != cudaSuccess) {                                                  \
      printf("CUDA error %s at line %d\n", cudaGetErrorString(err), __LINE__); \
      return 1;                                                                \
    }                                                                          \
  } while (0)

texture<float, 1, cudaReadModeElementType> texIn;

__global__ void twice(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * tex1Dfetch(texIn, i);
}

int main() {
  const int n = 1000;
  static float host[n], got[n];
  for (int i = 0; i < n; ++i)
    host[i] = 0.25f * i - 7.0f;
  float *in, *out;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMemcpy(in, host, n * sizeof(float), cudaMemcpyHostToDevice));
  size_t offset;
  CHECK(cudaBindTexture(&offset, texIn, in, n * sizeof(float)));
  twice<<<(n + 255) / 256, 256>>>(out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(got, out, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaUnbindTexture(texIn));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  bool right = true;
  for (int i = 0; i < n; ++i)
    right &= got[i] == 2.0f * host[i];
  printf("tex1Dfetch bound with an unread offset: %s\n",
         right ? "right" : "WRONG");
  return right ? 0 : 1;
}
