// Values affine in the thread index: a loop test in which the thread index
// cancels is the same in every thread of the block, and the barriers in its
// loop are reached by all of them. Each silent kernel has a counterpart
// beside it whose test does vary, and which must still warn.
// RUN: %check_cuda_tidy --checks=cuda-divergent-barrier %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ float f(int j) { return j * 0.5f; }

// The grid-stride loop rebased to the block's first thread: 'j - threadIdx.x'
// is 'blockIdx.x * blockDim.x' plus steps of the grid, the same in every
// thread of the block.
__global__ void rebasedLoop(float *out, int n) {
  __shared__ float buf[256];
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  while (j - threadIdx.x < n) {
    buf[threadIdx.x] = j < n ? f(j) : 0.0f;
    __syncthreads();
    if (j < n)
      out[j] = buf[blockDim.x - 1 - threadIdx.x];
    __syncthreads();
    j += gridDim.x * blockDim.x;
  }
}

// The loop before the fix: threads past 'n' leave it while the others wait.
__global__ void unrebasedLoop(float *out, int n) {
  __shared__ float buf[256];
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  while (j < n) {
    buf[threadIdx.x] = f(j);
    __syncthreads();
    out[j] = buf[blockDim.x - 1 - threadIdx.x];
    __syncthreads();
    j += gridDim.x * blockDim.x;
  }
}

// The same as a for loop with a signed index and the base in a helper.
__device__ int globalId() { return blockIdx.x * blockDim.x + threadIdx.x; }
__device__ int gridStride() { return gridDim.x * blockDim.x; }
__global__ void rebasedFor(float *out, int n) {
  __shared__ float buf[256];
  for (int j = globalId(); j - (int)threadIdx.x < n; j += gridStride()) {
    buf[threadIdx.x] = j < n ? f(j) : 0.0f;
    __syncthreads();
    if (j < n)
      out[j] = buf[(threadIdx.x + 1) % blockDim.x];
    __syncthreads();
  }
}

// A step that differs between threads makes the rebased test vary again.
__global__ void varyingStep(float *out, int n) {
  __shared__ float buf[256];
  for (int j = globalId(); j - (int)threadIdx.x < n; j += threadIdx.x + 1) {
    buf[threadIdx.x] = j < n ? f(j) : 0.0f;
    __syncthreads();
    if (j < n)
      out[j] = buf[(threadIdx.x + 1) % blockDim.x];
  }
}

// So does an update that only some threads make.
__global__ void partialUpdate(float *out, int n) {
  __shared__ float buf[256];
  int j = globalId();
  while (j - threadIdx.x < n) {
    buf[threadIdx.x] = j < n ? f(j) : 0.0f;
    __syncthreads();
    if (j < n)
      out[j] = buf[(threadIdx.x + 1) % blockDim.x];
    if (threadIdx.x == 0)
      j += 1;
    j += gridDim.x * blockDim.x;
  }
}

// Cooperative groups, as hash-table kernels write it: groups of CG threads
// share one key, and the test is rebased to the block's first group. A
// power of two that divides the block size keeps the division exact.
template <int CG>
__global__ void groupedRebased(const int *keys, bool *found, long n) {
  __shared__ bool buffer[128 / CG];
  auto block = cg::this_thread_block();
  auto t = block.thread_rank() / CG;
  long idx = (blockIdx.x * (long)blockDim.x + threadIdx.x) / CG;
  long stride = gridDim.x * (long)blockDim.x / CG;
  while (idx - t < n) {
    if (idx < n && block.thread_rank() % CG == 0)
      buffer[t] = keys[idx] > 0;
    block.sync();
    if (idx < n && block.thread_rank() % CG == 0)
      found[idx] = buffer[t];
    block.sync();
    idx += stride;
  }
}
template __global__ void groupedRebased<4>(const int *, bool *, long);

// Groups of three: '(base + threadIdx.x) / 3 - threadIdx.x / 3' differs
// between threads of the block (base = 128 gives 42 - 0 and 43 - 0).
template __global__ void groupedRebased<3>(const int *, bool *, long);

// The mergesort's range: 'last - first' is the same in every thread.
__global__ void mergeRanges(const int *in, int *out, int step) {
  __shared__ int s[512];
  int first = blockIdx.x * 512 + 4 * threadIdx.x;
  int last = first + 4 * step;
  int range = last - first;
  for (int i = 0; i < range; ++i) {
    s[4 * threadIdx.x % 512] = in[first + i];
    __syncthreads();
    out[first + i] = s[(4 * threadIdx.x + 4) % 512];
    __syncthreads();
  }
}

// A range whose end depends on the thread by another factor does vary.
__global__ void unevenRanges(const int *in, int *out, int step) {
  __shared__ int s[512];
  int first = blockIdx.x * 512 + 4 * threadIdx.x;
  int last = 2 * first + step;
  for (int i = 0; i < last - first; ++i) {
    s[4 * threadIdx.x % 512] = in[first + i];
    __syncthreads();
    out[first + i] = s[(4 * threadIdx.x + 4) % 512];
  }
}

// Division of an affine value whose uniform part the divisor divides.
__global__ void halves(float *out, int n) {
  __shared__ float buf[256];
  unsigned pair = (blockIdx.x * blockDim.x + threadIdx.x) / 2;
  for (unsigned k = pair - threadIdx.x / 2; k < n; k += blockDim.x) {
    buf[threadIdx.x] = out[k];
    __syncthreads();
    out[k] = buf[blockDim.x - 1 - threadIdx.x];
    __syncthreads();
  }
}

// ... and one whose uniform part it need not divide: with 'base' odd,
// '(base + threadIdx.x) / 2 - threadIdx.x / 2' takes two values.
__global__ void unevenHalves(float *out, int n, unsigned base) {
  __shared__ float buf[256];
  unsigned pair = (base + threadIdx.x) / 2;
  for (unsigned k = pair - threadIdx.x / 2; k < n; k += blockDim.x) {
    buf[threadIdx.x] = out[k];
    __syncthreads();
    out[k] = buf[blockDim.x - 1 - threadIdx.x];
  }
}

// Two-dimensional blocks: both thread coefficients cancel.
__global__ void rows2d(float *out, int n) {
  __shared__ float tile[16][17];
  int k = blockIdx.x * 256 + 16 * threadIdx.y + threadIdx.x;
  while (k - 16 * threadIdx.y - threadIdx.x < n) {
    tile[threadIdx.y][threadIdx.x] = out[k];
    __syncthreads();
    out[k] = tile[threadIdx.x][threadIdx.y];
    __syncthreads();
    k += gridDim.x * 256;
  }
}

// Only threadIdx.x cancels: the test still depends on threadIdx.y.
__global__ void rows2dHalf(float *out, int n) {
  __shared__ float tile[16][17];
  int k = blockIdx.x * 256 + 16 * threadIdx.y + threadIdx.x;
  while (k - threadIdx.x < n) {
    tile[threadIdx.y][threadIdx.x] = out[k];
    __syncthreads();
    out[k] = tile[threadIdx.x][threadIdx.y];
    k += gridDim.x * 256;
  }
}

// The counterparts' warnings, by line: unrebasedLoop (34, 36), varyingStep
// (60), partialUpdate (72), groupedRebased<3> (94, 97), unevenRanges (128),
// unevenHalves (152), rows2dHalf (176).
// warning@34:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
// note@32:3 {{the loop's trip count depends on 'j', which differs between threads}}
// note@31:3 {{'j' is set from 'threadIdx.x' here}}
// note@36:5 {{'__syncthreads' here is in the same loop}}
// warning@60:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
// note@58:3 {{the loop's trip count depends on 'j', which differs between threads}}
// note@58:8 {{'j' is set from the result of 'globalId' here}}
// warning@72:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
// note@70:3 {{the loop's trip count depends on 'j', which differs between threads}}
// note@69:3 {{'j' is set from the result of 'globalId' here}}
// warning@94:5 {{threads that skip this 'thread_block::sync' leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
// note@91:3 {{the loop's trip count depends on 'idx', which differs between threads}}
// note@89:3 {{'idx' is set from 'threadIdx.x' here}}
// note@97:5 {{'thread_block::sync' here is in the same loop}}
// warning@128:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
// note@126:3 {{the loop's trip count depends on 'last', which differs between threads}}
// note@125:3 {{'last' is set from 'first' here}}
// note@124:3 {{'first' is set from 'threadIdx.x' here}}
// warning@152:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
// note@150:3 {{the loop's trip count depends on 'k', which differs between threads}}
// note@150:8 {{'k' is set from 'pair' here}}
// note@149:3 {{'pair' is set from 'threadIdx.x' here}}
// warning@176:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
// note@174:3 {{the loop's trip count depends on 'k', which differs between threads}}
// note@173:3 {{'k' is set from 'threadIdx.y' here}}

// Forms through parameters: the helper's test on its parameter 'j' varies
// with what the callers pass, so it is judged at each call, with 'j' bound
// to the call's argument. Bound to the global index, 'j - threadIdx.x' is
// the block's first index: silent, in the helper and at the call.
__device__ void rebasedHelper(float *out, int j, int n) {
  __shared__ float buf[256];
  while (j - threadIdx.x < n) {
    buf[threadIdx.x] = j < n ? out[j] : 0.0f;
    __syncthreads();
    if (j < n)
      out[j] = buf[blockDim.x - 1 - threadIdx.x];
    __syncthreads();
    j += gridDim.x * blockDim.x;
  }
}
__global__ void callsRebasedHelper(float *out, int n) {
  rebasedHelper(out, globalId(), n);
}

// Through a second helper that passes its own parameter on: silent.
__device__ void forwardsRebased(float *out, int j, int n) {
  rebasedHelper(out, j, n);
}
__global__ void callsForwardsRebased(float *out, int n) {
  forwardsRebased(out, blockIdx.x * blockDim.x + threadIdx.x, n);
}

// Counterparts: the same helper bound to an index whose thread part does
// not cancel (twice the thread index), or to the block's first index (no
// thread part at all: 'j - threadIdx.x' is then the thread's own), warns at
// the call.
__global__ void callsRebasedHelperDoubled(float *out, int n) {
  rebasedHelper(out, blockIdx.x * blockDim.x + 2 * threadIdx.x, n);
  // warning@-1:3 {{'rebasedHelper' waits at '__syncthreads', and threads that it sends back without reaching the barrier leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
  // note@-2:22 {{parameter 'j' of 'rebasedHelper' decides whether it reaches the barrier, and gets 'threadIdx.x' here}}
  // note@-27:5 {{'__syncthreads' is reached here}}
}
__global__ void callsRebasedHelperBlockBase(float *out, int n) {
  rebasedHelper(out, blockIdx.x * blockDim.x, n);
  // warning@-1:3 {{'rebasedHelper' waits at '__syncthreads'}}
  // note@-32:5 {{'__syncthreads' is reached here}}
}
__global__ void callsForwardsDoubled(float *out, int n) {
  forwardsRebased(out, 2 * globalId(), n);
  // warning@-1:3 {{'forwardsRebased' waits at '__syncthreads'}}
  // note@-2:24 {{parameter 'j' of 'forwardsRebased' decides whether it reaches the barrier, and gets the result of 'globalId' here}}
  // note@-38:5 {{'__syncthreads' is reached here}}
}

// In a template pattern (a header's kernel the file never instantiates)
// the group size CG is unknown, and '(base + t) / CG - t / CG' is the same
// in every thread only when CG divides the base, which no pattern shows.
// A barrier under 'if constexpr (CG == 1)' exists only in instantiations
// where CG is 1, though, and there the test is the block's: silent.
template <int CG>
__global__ void groupedPattern(float *out, long n) {
  __shared__ float buf[256];
  auto block = cg::this_thread_block();
  auto t = block.thread_rank();
  long idx = (blockIdx.x * (long)blockDim.x + threadIdx.x) / CG;
  while (idx - t / CG < n) {
    if constexpr (CG == 1) {
      buf[t] = idx < n ? out[idx] : 0.0f;
      block.sync();
      if (idx < n)
        out[idx] = buf[blockDim.x - 1 - t];
    } else {
      if (idx < n && t % CG == 0)
        out[idx] *= 2.0f;
    }
    idx += gridDim.x * (long)blockDim.x / CG;
  }
}

// Counterparts: the barrier outside any 'if constexpr' (CG unknown), and
// under 'if constexpr (CG == 3)', where the test does differ between
// threads, warn.
template <int CG>
__global__ void groupedPatternAnySize(float *out, long n) {
  __shared__ float buf[256];
  auto block = cg::this_thread_block();
  auto t = block.thread_rank();
  long idx = (blockIdx.x * (long)blockDim.x + threadIdx.x) / CG;
  while (idx - t / CG < n) {
    buf[t] = idx < n ? out[idx] : 0.0f;
    block.sync();
    // warning@-1:5 {{threads that skip this 'thread_block::sync' leave the kernel}}
    // note@-4:3 {{the loop's trip count depends on 'idx', which differs between threads}}
    // note@-6:3 {{'idx' is set from 'threadIdx.x' here}}
    if (idx < n)
      out[idx] = buf[blockDim.x - 1 - t];
    idx += gridDim.x * (long)blockDim.x / CG;
  }
}
template <int CG>
__global__ void groupedPatternOfThree(float *out, long n) {
  __shared__ float buf[256];
  auto block = cg::this_thread_block();
  auto t = block.thread_rank();
  long idx = (blockIdx.x * (long)blockDim.x + threadIdx.x) / CG;
  while (idx - t / CG < n) {
    if constexpr (CG == 3) {
      buf[t] = idx < n ? out[idx] : 0.0f;
      block.sync();
      // warning@-1:7 {{threads that skip this 'thread_block::sync' leave the kernel}}
      // note@-5:3 {{the loop's trip count depends on 'idx', which differs between threads}}
      // note@-7:3 {{'idx' is set from 'threadIdx.x' here}}
      if (idx < n)
        out[idx] = buf[blockDim.x - 1 - t];
    }
    idx += gridDim.x * (long)blockDim.x / CG;
  }
}
