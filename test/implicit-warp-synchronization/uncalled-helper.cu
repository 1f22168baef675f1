// A warp-synchronous helper that nothing in the translation unit calls (a
// header's `warpReduce`, kept for the files that include it): it takes a
// pointer to volatile data, the mark of lanes that share memory, so it is
// analysed as run by one whole warp of 32 threads, with that pointer one
// array the lanes share and a parameter named `tid` (`lane`, `laneId`, ...)
// each lane's thread index. What is assumed is said in a note; there is no
// fix, since the lanes that call it are not known.
// RUN: %check_cuda_tidy %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__device__ void warpReduce(volatile float *sdata, unsigned int tid) {
  sdata[tid] += sdata[tid + 16];
  sdata[tid] += sdata[tid + 8];
}

// The thread index read in the helper itself.
__device__ int warpSum(volatile int *s) {
  int lane = threadIdx.x & 31;
  s[lane] += s[lane + 1];
  return s[0];
}

// Correct counterpart: every read is ordered before the writes by
// '__syncwarp'.
__device__ void warpReduceSynced(volatile float *sdata, unsigned int tid) {
  float v = sdata[tid] + sdata[tid + 16];
  __syncwarp();
  sdata[tid] = v;
  __syncwarp();
  v += sdata[tid + 8];
  __syncwarp();
  sdata[tid] = v;
}

// Silent: no volatile pointer, so nothing says that lanes share the memory
// (the pointer could be each thread's own).
__device__ void addNext(float *data, unsigned int tid) {
  data[tid] += data[tid + 16];
}

// Silent: the index is not named as the thread's, so which element each
// lane touches is not known.
__device__ void addAt(volatile float *data, unsigned int row) {
  data[row] += data[row + 16];
}

// Called from a kernel: analysed in its caller's context, as before (the
// kernel's threads each write their own element).
__device__ void scale(volatile float *data, unsigned int tid) {
  data[tid] *= 2.0f;
}

__global__ void scaleAll(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = out[threadIdx.x];
  scale(s, threadIdx.x);
  out[threadIdx.x] = s[threadIdx.x];
}

// warning@12:17 {{lanes of a warp exchange data through memory 'sdata' with no '__syncwarp' between the write and the read; no fix: the lanes that run it are not known}} [cuda-implicit-warp-synchronization]
// note@12:3 {{lane 16 writes the element here}}
// note@12:17 {{lane 0 reads it here, and no barrier orders the two}}
// note@11:17 {{'warpReduce' is called nowhere in this translation unit: it is analysed as run by one whole warp of 32 threads, with 'sdata' one array the lanes share, and 'tid' each lane's thread index}}
// note@12:17 {{since Volta (sm_70), independent thread scheduling lets the lanes of a warp run in any order: they are not in lockstep, and 'volatile' does not order them}}
// note@-52:17 {{and lane 0 reads it here with no barrier between}}
// note@12:3 {{the same exchange again: lane 8 writes the element here}}
// warning@19:14 {{lanes of a warp exchange data through memory 's' with no '__syncwarp' between the write and the read; no fix: the lanes that run it are not known}} [cuda-implicit-warp-synchronization]
// note@19:3 {{lane 1 writes the element here}}
// note@19:14 {{lane 0 reads it here, and no barrier orders the two}}
// note@17:16 {{'warpSum' is called nowhere in this translation unit: it is analysed as run by one whole warp of 32 threads, with 's' one array the lanes share}}
// note@19:14 {{since Volta (sm_70), independent thread scheduling lets the lanes of a warp run in any order: they are not in lockstep, and 'volatile' does not order them}}
