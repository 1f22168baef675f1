// A pre-Volta sum reduction, as it was commonly written for Kepler and
// Maxwell: warp-level shuffles and votes without a lane mask. It no longer
// builds with CUDA 13 (sm_75 and later); cuda-tidy migrates it.
#include <cstdio>
#include <cuda_runtime.h>

__device__ float warpReduceSum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  return v;
}

__global__ void blockSum(const float *in, float *out, int n) {
  __shared__ float partial[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  v = warpReduceSum(v);
  int lane = threadIdx.x % warpSize;
  int warp = threadIdx.x / warpSize;
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / warpSize ? partial[lane] : 0.0f;
    v = warpReduceSum(v);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

// Counts the blocks' warps in which any element is negative.
__global__ void countNegativeWarps(const float *in, int *count) {
  unsigned votes = __ballot(in[blockIdx.x * blockDim.x + threadIdx.x] < 0.0f);
  if (threadIdx.x % warpSize == 0 && votes != 0)
    atomicAdd(count, 1);
}

int main() {
  const int n = 1 << 20;
  float *in, *out;
  int *count;
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMallocManaged(&out, sizeof(float));
  cudaMallocManaged(&count, sizeof(int));
  for (int i = 0; i < n; ++i)
    in[i] = (i % 7 == 0) ? -1.0f : 1.0f;
  *out = 0.0f;
  *count = 0;
  blockSum<<<n / 256, 256>>>(in, out, n);
  countNegativeWarps<<<n / 256, 256>>>(in, count);
  cudaDeviceSynchronize();
  std::printf("sum = %.0f, warps with a negative element = %d\n", *out, *count);
  return 0;
}
