#include <cuda_runtime.h>
// A pre-Volta warp shuffle: nvcc 13 rejects it for every architecture it
// builds, and the hook must fail on it.
__device__ int sum(int v) { return v + __shfl_down(v, 1); }
