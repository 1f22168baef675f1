// The kernels of the library in warp_compat.cuh.
#include <cuda_runtime.h>
#include "warp_compat.cuh"

#define SHFL_UP(v, d) __shfl_up((v), (d))

__global__ void reduceKernel(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  v = warpReduceSum(v);
  int c = warpReduceSum(i < n ? 1 : 0);
  if (LANE_ID == 0) {
    atomicAdd(out, v);
    atomicAdd(reinterpret_cast<int *>(out) + 1, c);
  }
}

__global__ void gatherKernel(KeyValue *kv, Vec3 *pos, float *f) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  kv[t] = warpBroadcast(kv[t], 0);
  pos[t] = warpBroadcast(pos[t], 1);
  f[t] = warpBroadcast(f[t], 2);
  kv[t] = warpBroadcastRecord(kv[t]);
  pos[t] = warpBroadcastRecord(pos[t]);
  // One macro, expanded for the builtin and for the project's overload.
  kv[t].key += WARP_BCAST(kv[t].key);
  kv[t] = WARP_BCAST(kv[t]);
  // Only the builtin: fixed at the macro's definition.
  f[t] += SHFL_UP(f[t], 1);
  kv[t].key += warpBallot(kv[t].key > 0) + (warpAll(kv[t].key) ? 1 : 0);
}

__global__ void tailKernel(int *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // Lanes past the end leave the warp: no full mask.
  if (i >= n)
    return;
  int v = data[i];
  v += __shfl_down(v, 1);
  data[i] = v;
}
