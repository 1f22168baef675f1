#include <cuda_runtime.h>
__device__ int shuffled(int v) { return __shfl_down(v, 1); }
// A null dereference that the clang static analyzer reports
// (clang-analyzer-core.NullDereference) when it is turned on.
int hostDeref() {
  int *p = nullptr;
  return *p;
}
