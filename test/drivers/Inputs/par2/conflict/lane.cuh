// Called by the whole warp in whole.cu and by half of it in half.cu: the
// two files prove different fixes for the same call.
__device__ int firstOf(int v) { return __shfl(v, 0); }
