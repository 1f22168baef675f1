#include <cuda_runtime.h>
// nvcc --default-stream per-thread defines CUDA_API_PER_THREAD_DEFAULT_STREAM;
// the analysis must see the same code.
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
__device__ int perThread(int v) { return __shfl_down(v, 1); }
#endif
