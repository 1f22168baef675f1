#include "lane.cuh"
__global__ void whole(int *o) { o[threadIdx.x] = firstOf(o[threadIdx.x]); }
