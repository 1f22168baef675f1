#include "warp_helpers.cuh"
__global__ void useHelper(int *o) { o[threadIdx.x] = broadcastFirst(o[threadIdx.x]); }
