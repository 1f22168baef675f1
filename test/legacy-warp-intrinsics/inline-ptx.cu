// Pre-Volta warp instructions in inline PTX: ptxas rejects 'shfl' and 'vote'
// without '.sync' for sm_70 and later. Where the whole warp reaches the asm
// statement they become the '.sync' form with the immediate full mask; the
// fixed file assembles for sm_75 to sm_120 and is silent.
// RUN: %check_cuda_tidy --fix --recheck %if nvcc %{ %nvcc_fixed %} \
// RUN:   --checks=cuda-legacy-warp-intrinsics %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__device__ int shflUpAsm(int v, int d) {
  int r;
  asm volatile("shfl.up.b32 %0, %1, %2, 0;" : "=r"(r) : "r"(v), "r"(d));
  // warning@-1:17 {{'shfl.up.b32' without '.sync' is not supported on sm_70 and later; use 'shfl.sync.up.b32' with a member mask}} [cuda-legacy-warp-intrinsics]
  // FIXED: asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(r) : "r"(v), "r"(d));
  return r;
}

// The string split over several literals, as multi-line asm is written.
__device__ float shflDownAsm(float v, int d) {
  float r;
  asm volatile("shfl.down.b32 %0, %1, "
               "%2, 0x1f;"
               // warning@-2:17 {{'shfl.down.b32' without '.sync'}}
               // FIXED: asm volatile("shfl.sync.down.b32 %0, %1, "
               // FIXED-NEXT: "%2, 0x1f, 0xffffffff;"
               : "=f"(r)
               : "f"(v), "r"(d));
  return r;
}

// Two instructions in one statement block: a double moved as two halves.
__device__ double shflIdxAsm(double v, int lane) {
  double r;
  asm volatile("{\n\t"
               ".reg .b32 lo, hi;\n\t"
               "mov.b64 {lo, hi}, %1;\n\t"
               "shfl.idx.b32 lo, lo, %2, 0x1f;\n\t"
               // warning@-1:17 {{'shfl.idx.b32' without '.sync'}}
               "shfl.idx.b32 hi, hi, %2, 0x1f;\n\t"
               // warning@-1:17 {{'shfl.idx.b32' without '.sync'}}
               "mov.b64 %0, {lo, hi};\n\t"
               "}"
               : "=d"(r)
               : "d"(v), "r"(lane));
  // FIXED: "shfl.sync.idx.b32 lo, lo, %2, 0x1f, 0xffffffff;\n\t"
  // FIXED: "shfl.sync.idx.b32 hi, hi, %2, 0x1f, 0xffffffff;\n\t"
  return r;
}

// A butterfly with the predicate output, and votes of every kind.
__device__ int shflXorValid(int v, int m, int *valid) {
  int r, ok;
  asm volatile("{ .reg .pred p; shfl.bfly.b32 %0|p, %2, %3, 0x1f; selp.s32 %1, 1, 0, p; }"
               // warning@-1:33 {{'shfl.bfly.b32' without '.sync'}}
               // FIXED: asm volatile("{ .reg .pred p; shfl.sync.bfly.b32 %0|p, %2, %3, 0x1f, 0xffffffff; selp.s32 %1, 1, 0, p; }"
               : "=r"(r), "=r"(ok)
               : "r"(v), "r"(m));
  *valid = ok;
  return r;
}

__device__ unsigned ballotAsm(int pred) {
  unsigned r;
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\tvote.ballot.b32 %0, p;\n\t}"
               // warning@-1:64 {{'vote.ballot.b32' without '.sync' is not supported on sm_70 and later; use 'vote.sync.ballot.b32' with a member mask}}
               // FIXED: asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\tvote.sync.ballot.b32 %0, p, 0xffffffff;\n\t}"
               : "=r"(r)
               : "r"(pred));
  return r;
}

__device__ int votesAsm(int pred) {
  int all, any, uni;
  asm volatile("{\n\t"
               ".reg .pred p, q;\n\t"
               "setp.ne.u32 p, %3, 0;\n\t"
               "vote.all.pred q, p;\n\t"
               // warning@-1:17 {{'vote.all.pred' without '.sync'}}
               "selp.s32 %0, 1, 0, q;\n\t"
               "vote.any.pred q, !p;\n\t"
               // warning@-1:17 {{'vote.any.pred' without '.sync'}}
               "selp.s32 %1, 1, 0, q;\n\t"
               "@p vote.uni.pred q, p;\n\t"
               // warning@-1:20 {{'vote.uni.pred' without '.sync'}}
               "selp.s32 %2, 1, 0, q;\n\t"
               "}"
               : "=r"(all), "=r"(any), "=r"(uni)
               : "r"(pred));
  // FIXED: "vote.sync.all.pred q, p, 0xffffffff;\n\t"
  // FIXED: "vote.sync.any.pred q, !p, 0xffffffff;\n\t"
  // FIXED: "@p vote.sync.uni.pred q, p, 0xffffffff;\n\t"
  return all + 2 * any + 4 * uni;
}

// A template: one warning and one fix for its two instantiations.
template <typename T> __device__ T shflUpWord(T v, int d) {
  T r;
  asm volatile("shfl.up.b32 %0, %1, %2, 0;" : "=r"(r) : "r"(v), "r"(d));
  // warning@-1:17 {{'shfl.up.b32' without '.sync'}}
  // FIXED: asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(r) : "r"(v), "r"(d));
  return r;
}

// Every lane of every warp calls the helpers: the full mask is proven.
__global__ void kernel(int *out, float *f, double *d) {
  int t = threadIdx.x;
  int valid;
  out[t] = shflUpAsm(out[t], 1) + shflXorValid(out[t], 1, &valid) + valid;
  f[t] = shflDownAsm(f[t], 2);
  d[t] = shflIdxAsm(d[t], 0);
  out[t] += ballotAsm(out[t] > 0) + votesAsm(out[t]);
  out[t] += shflUpWord(out[t], 1) + shflUpWord((unsigned)out[t], 2);
}

// Silent: already the '.sync' forms, and other instructions named alike.
__device__ int migrated(int v, int d) {
  int r;
  asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(r) : "r"(v), "r"(d));
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, 0xffffffff; }"
               : "=r"(r) : "r"(r));
  asm volatile("activemask.b32 %0;" : "=r"(r));
  return r;
}

// Silent: legacy asm kept for pre-Volta compilations on purpose.
__device__ int oldArch(int v) {
  int r = v;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
  asm volatile("shfl.idx.b32 %0, %1, 0, 0x1f;" : "=r"(r) : "r"(v));
#endif
  return r;
}

__global__ void kernel2(int *out) {
  out[threadIdx.x] = migrated(out[threadIdx.x], 1) + oldArch(out[0]);
}
