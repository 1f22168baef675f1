// Copies and waits inside the user's helpers (a cp.async wrapper taking the
// destination, an mbarrier wait loop), reads through ldmatrix and const
// element pointers, and ring offsets kept in variables the check does not
// follow.
// RUN: %check_cuda_tidy --checks=cuda-async-copy-ordering --fix --recheck \
// RUN:   %if nvcc %{ %nvcc_sm90 %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

constexpr int Tile = 256;

__device__ __forceinline__ void cpAsync4(float *smem, const float *gmem) {
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(addr),
               "l"(gmem)
               : "memory");
}
__device__ __forceinline__ void commitGroup() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
template <int N> __device__ __forceinline__ void waitGroup() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

// The copy is issued through the helper; its argument names the tile.
__global__ void helperNoWait(const float *in, float *out) {
  __shared__ float tile[Tile];
  const int t = threadIdx.x;
  cpAsync4(&tile[t], in + blockIdx.x * Tile + t);
  commitGroup();
  __syncthreads();
  out[blockIdx.x * Tile + t] = tile[Tile - 1 - t];
  // warning@-1:32 {{'tile' is read before the asynchronous copy into it completes}}
  // note@-5:3 {{the asynchronous copy into 'tile' is issued here}}
  // note@-4:3 {{'__syncthreads' orders the threads, not the copy}}
}
// FIXED-LABEL: void helperNoWait(
// FIXED: commitGroup();
// FIXED-NEXT: asm volatile("cp.async.wait_all;" ::: "memory");
// FIXED-NEXT: __syncthreads();

// Silent: the helper's wait_group 0 completes it.
__global__ void helperWaited(const float *in, float *out) {
  __shared__ float tile[Tile];
  const int t = threadIdx.x;
  cpAsync4(&tile[t], in + blockIdx.x * Tile + t);
  commitGroup();
  waitGroup<0>();
  __syncthreads();
  out[blockIdx.x * Tile + t] = tile[Tile - 1 - t];
}

// Read through ldmatrix, before the wait.
__global__ void ldmatrixNoWait(const float *in, float *out) {
  __shared__ alignas(16) float tile[Tile];
  const int t = threadIdx.x;
  cpAsync4(&tile[t], in + blockIdx.x * Tile + t);
  commitGroup();
  __syncthreads();
  unsigned r;
  const unsigned row = static_cast<unsigned>(__cvta_generic_to_shared(&tile[(t % 8) * 4]));
  asm volatile("ldmatrix.sync.aligned.x1.m8n8.shared.b16 {%0}, [%1];\n"
               : "=r"(r) : "r"(row));
  // warning@-1:32 {{'tile' is read before the asynchronous copy into it completes}}
  // note@-8:3 {{the asynchronous copy into 'tile' is issued here}}
  // note@-7:3 {{'__syncthreads' orders the threads, not the copy}}
  out[blockIdx.x * Tile + t] = float(r);
}
// FIXED-LABEL: void ldmatrixNoWait(
// FIXED: commitGroup();
// FIXED-NEXT: asm volatile("cp.async.wait_all;" ::: "memory");
// FIXED-NEXT: __syncthreads();

// Silent: a double buffer whose halves are picked by offsets flipped with
// '^=' (the offsets change other than by a loop step, so the halves are
// not compared; this one is correct: the prefetch goes to the other half).
__global__ void flippedHalves(const float *in, float *out, int tiles) {
  __shared__ float buf[2 * Tile];
  const int t = threadIdx.x;
  int store = 0, load = Tile;
  float sum = 0.f;
  cpAsync4(&buf[store + t], in + t);
  commitGroup();
  waitGroup<0>();
  __syncthreads();
  for (int k = 1; k < tiles; ++k) {
    store ^= Tile;
    load ^= Tile;
    cpAsync4(&buf[store + t], in + k * Tile + t);
    commitGroup();
    sum += buf[load + (t + 1) % Tile];
    waitGroup<0>();
    __syncthreads();
  }
  out[blockIdx.x * Tile + t] = sum;
}
