#include <cuda_runtime.h>
__device__ int sum(int v) { return v + __shfl_down_sync(0xffffffffu, v, 1); }
