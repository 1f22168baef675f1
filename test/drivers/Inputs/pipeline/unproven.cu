#include <cuda_runtime.h>
// No caller in this file: the lanes that call it are unknown, so the fix
// (__activemask()) is offered on a note and waits for review.
__device__ int broadcastFirst(int v) { return __shfl(v, 0); }
