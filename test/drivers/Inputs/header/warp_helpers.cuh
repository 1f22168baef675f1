#pragma once
#include <cuda_runtime.h>
// A helper in a header: analysed when the header itself is named.
__device__ inline int broadcastFirst(int v) { return __shfl(v, 0); }
