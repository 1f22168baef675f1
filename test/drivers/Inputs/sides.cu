#include <cuda_runtime.h>
__device__ int shuffled(int v) { return __shfl_down(v, 1); }
#ifndef __CUDA_ARCH__
int hostOnly() { int x; return x; }
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 1000
__device__ int sm100Only() { int y; return y; }
#endif
