// GPU suite for cuda-nvcc-only-construct's fix: PTX special registers read
// with one '%' in asm with operands (what nvcc accepts) and with '%%' (what
// the fix writes). Both builds must read the same registers: a nonzero,
// non-decreasing %globaltimer, %laneid equal to the lane, %smid below the
// number of SMs.
#include <cstdio>
#include <cuda_runtime.h>

__device__ unsigned long long globalTime() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

__device__ unsigned laneAndSm(unsigned *sm) {
  unsigned lane, s;
  asm volatile("mov.u32 %0, %laneid;\n\tmov.u32 %1, %smid;" : "=r"(lane), "=r"(s));
  *sm = s;
  return lane;
}

__global__ void stamp(unsigned long long *t, unsigned *lane, unsigned *sm) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  t[2 * i] = globalTime();
  lane[i] = laneAndSm(&sm[i]);
  t[2 * i + 1] = globalTime();
}

int main() {
  const int N = 4 * 128;
  unsigned long long *t;
  unsigned *lane, *sm;
  cudaMallocManaged(&t, 2 * N * sizeof(*t));
  cudaMallocManaged(&lane, N * sizeof(*lane));
  cudaMallocManaged(&sm, N * sizeof(*sm));
  stamp<<<4, 128>>>(t, lane, sm);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("launch failed\n");
    return 2;
  }
  int Sms = 0;
  cudaDeviceGetAttribute(&Sms, cudaDevAttrMultiProcessorCount, 0);
  int Bad = 0;
  for (int i = 0; i < N; ++i)
    Bad += t[2 * i] == 0 || t[2 * i + 1] < t[2 * i] ||
           lane[i] != unsigned(i % 32) || sm[i] >= unsigned(Sms);
  std::printf("%d of %d threads read wrong registers (globaltimer %llu..%llu)\n",
              Bad, N, t[0], t[2 * N - 1]);
  return Bad ? 1 : 0;
}
