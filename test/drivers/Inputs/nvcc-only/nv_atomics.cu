// Code written for nvcc: its scoped atomics (builtins of nvcc 12.8 and later,
// with the toolkit's order and scope constants) and a `__NVCC__` test that
// picks the CUDA spelling of a helper.
#include <cuda_runtime.h>

#if defined(__NVCC__)
#define BOTH __host__ __device__
#else
#define BOTH
#endif

BOTH inline int twice(int v) { return 2 * v; }

__global__ void bump(unsigned long long *counter, int *out) {
  unsigned long long seen =
      __nv_atomic_load_n(counter, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_fetch_add(counter, 1ull, __NV_ATOMIC_RELAXED);
  unsigned long long expected = seen;
  __nv_atomic_compare_exchange_n(counter, &expected, seen + 2, false,
                                 __NV_ATOMIC_ACQ_REL, __NV_ATOMIC_RELAXED,
                                 __NV_THREAD_SCOPE_BLOCK);
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
  out[threadIdx.x] = twice(int(seen));
}
