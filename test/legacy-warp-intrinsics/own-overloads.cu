// A pre-Volta library's own '__shfl' for its types: a call is migrated only
// where overload resolution picks the CUDA headers' '__shfl' in every
// instantiation or expansion. Where any picks the project's function there is
// no fix, not even on a note; where none picks the builtin, no warning.
// Both the proven fixes and the note fixes leave code that nvcc builds.
// The calls left unfixed keep their warnings, so the fixed files are not
// rechecked for silence here; migration/ rechecks a whole library.
// RUN: %check_cuda_tidy --fix %if nvcc %{ %nvcc_fixed %} \
// RUN:   --checks=cuda-legacy-warp-intrinsics %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// RUN: %check_cuda_tidy --fix-notes --fixed-prefix=NOTES %if nvcc %{ %nvcc_fixed %} \
// RUN:   --checks=cuda-legacy-warp-intrinsics %s %t.notes -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

struct Vec3 { float x, y, z; };

// The project's own overload for any type, word by word.
template <typename T>
__device__ T __shfl(const T &t, const int &i) {
  // note@-1:14 {{no automatic fix: in other instantiations or expansions the call goes to the project's own '__shfl' declared here}}
  // note@-2:14 {{no automatic fix: in other instantiations or expansions the call goes to the project's own '__shfl' declared here}}
  // note@-3:14 {{no automatic fix: the template is not instantiated, and the call may go to the project's own '__shfl' declared here}}
  T r;
  const int *src = reinterpret_cast<const int *>(&t);
  int *dst = reinterpret_cast<int *>(&r);
  for (int k = 0; k < (int)(sizeof(T) / sizeof(int)); ++k)
    dst[k] = __shfl_sync(0xffffffffu, src[k], i);
  return r;
}

// Every instantiation picks the project's '__shfl': silent, unchanged.
template <typename T>
__device__ T broadcast(const T &v) { return __shfl(v, 0); }
// FIXED: __device__ T broadcast(const T &v) { return __shfl(v, 0); }
// NOTES: __device__ T broadcast(const T &v) { return __shfl(v, 0); }
__global__ void useVec(Vec3 *p) { p[threadIdx.x] = broadcast(p[threadIdx.x]); }

// One instantiation picks the builtin (int), one the project's (Vec3): the
// warning stays, with no fix.
template <typename T>
__device__ T broadcastAny(const T &v) { return __shfl(v, 0); }
// warning@-1:48 {{'__shfl' is not available on sm_70 and later; use '__shfl_sync'}}
// FIXED: __device__ T broadcastAny(const T &v) { return __shfl(v, 0); }
// NOTES: __device__ T broadcastAny(const T &v) { return __shfl(v, 0); }
__global__ void useMixed(Vec3 *p, int *q) {
  p[threadIdx.x] = broadcastAny(p[threadIdx.x]);
  q[threadIdx.x] = broadcastAny(q[threadIdx.x]);
}

// Every instantiation picks the builtin: migrated, with the full mask since
// the whole warp calls it.
template <typename T>
__device__ T broadcastScalar(T v) { return __shfl(v, 0); }
// warning@-1:44 {{'__shfl' is not available on sm_70 and later; use '__shfl_sync'}}
// FIXED: __device__ T broadcastScalar(T v) { return __shfl_sync(0xffffffff, v, 0); }
// NOTES: __device__ T broadcastScalar(T v) { return __shfl_sync(0xffffffff, v, 0); }
__global__ void useScalar(int *q, float *f) {
  q[threadIdx.x] = broadcastScalar(q[threadIdx.x]);
  f[threadIdx.x] = broadcastScalar(f[threadIdx.x]);
}

// The same in a branch only some lanes take: the fix waits on a note.
template <typename T>
__device__ T headLanes(T v) { return __shfl(v, 1); }
// warning@-1:38 {{'__shfl' is not available on sm_70 and later; use '__shfl_sync'}}
// note@-2:38 {{use '__activemask()' to keep the lanes that are active here}}
// FIXED: __device__ T headLanes(T v) { return __shfl(v, 1); }
// NOTES: __device__ T headLanes(T v) { return __shfl_sync(__activemask(), v, 1); }
__global__ void useHead(int *q) {
  if (threadIdx.x % 32 < 8)
    q[threadIdx.x] = headLanes(q[threadIdx.x]);
  // note@-1:22 {{the whole warp is not proven to reach the call, so a full mask could hang or read lanes that are absent: 'headLanes' is called here, where the condition depends on 'threadIdx.x'}}
}

// A macro expanded with both kinds of argument: no fix at its definition.
#define WARP_BCAST(v) __shfl((v), 0)
// warning@-1:23 {{'__shfl' is not available on sm_70 and later; use '__shfl_sync'}}
// FIXED: #define WARP_BCAST(v) __shfl((v), 0)
// NOTES: #define WARP_BCAST(v) __shfl((v), 0)
__global__ void useMacro(Vec3 *p, int *q) {
  p[threadIdx.x] = WARP_BCAST(p[threadIdx.x]);
  q[threadIdx.x] = WARP_BCAST(q[threadIdx.x]);
}

// A template never instantiated whose lookup also finds the project's
// '__shfl': which one it calls is unknown, so no fix.
template <typename T>
__device__ T unused(T v) { return __shfl(v, 2); }
// warning@-1:35 {{'__shfl' is not available on sm_70 and later; use '__shfl_sync'}}
// FIXED: __device__ T unused(T v) { return __shfl(v, 2); }
// NOTES: __device__ T unused(T v) { return __shfl(v, 2); }
