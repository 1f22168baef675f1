// A pre-Volta warp library, as such libraries were written: its own '__shfl'
// overloads for its structs, templates over the element type, and macros.
#ifndef WARP_COMPAT_CUH
#define WARP_COMPAT_CUH

#define WARP_SIZE 32
#define LANE_ID (threadIdx.x & (WARP_SIZE - 1))

struct KeyValue {
  int key;
  float value;
};

struct Vec3 {
  float x, y, z;
};

// The library's overload for its pair, member by member on the builtin.
__device__ inline KeyValue __shfl(const KeyValue &kv, int lane) {
  KeyValue r;
  r.key = __shfl(kv.key, lane);
  r.value = __shfl(kv.value, lane);
  return r;
}

// The library's overload for any other type, word by word (already on the
// '_sync' form inside).
template <typename T> __device__ T __shfl(const T &t, const int &lane) {
  T r;
  const int *src = reinterpret_cast<const int *>(&t);
  int *dst = reinterpret_cast<int *>(&r);
  for (int k = 0; k < (int)(sizeof(T) / sizeof(int)); ++k)
    dst[k] = __shfl_sync(0xffffffffu, src[k], lane);
  return r;
}

// Only ever the builtin: migrated.
template <typename T> __device__ T warpReduceSum(T v) {
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    v += __shfl_xor(v, offset);
  return v;
}

// Instantiated for 'KeyValue', 'Vec3' and 'float': the project's overloads
// and the builtin share the spelling, so it is left alone.
template <typename T> __device__ T warpBroadcast(const T &v, int src) {
  return __shfl(v, src);
}

// Only ever the project's overloads: not reported.
template <typename T> __device__ T warpBroadcastRecord(const T &v) {
  return __shfl(v, 0);
}

#define WARP_BCAST(v) __shfl((v), 0)

__device__ inline bool warpAll(int p) { return __all(p); }
__device__ inline unsigned warpBallot(int p) { return __ballot(p); }

#endif // WARP_COMPAT_CUH
