// GPU proof for cuda-programmatic-dependent-launch on old PTX: the producer,
// built for sm_90. It triggers the programmatic launch at entry, spins about
// 100 us, then writes mid[].
#include <cuda_runtime.h>

__device__ unsigned long long nowNs() {
  unsigned long long T;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(T));
  return T;
}

__global__ void producer(const float *in, float *mid) {
  cudaTriggerProgrammaticLaunchCompletion();
  unsigned long long Start = nowNs();
  while (nowNs() - Start < 100000)
    __nanosleep(1000);
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  mid[I] = in[I] * 2.f;
}

void launchProducer(const float *in, float *mid, int Blocks, int Threads) {
  producer<<<Blocks, Threads>>>(in, mid);
}
