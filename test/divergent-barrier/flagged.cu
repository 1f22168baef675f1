// Block barriers that only some threads of the block reach.
// RUN: %check_cuda_tidy --checks=cuda-divergent-barrier %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// A shared-memory tree reduction with the barrier moved inside the branch:
// the threads with tid >= s never arrive.
__global__ void reduceBroken(const float *in, float *out, int n) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
      __syncthreads();
      // warning@-1:7 {{'__syncthreads' is reached by only some threads of the block}} [cuda-divergent-barrier]
      // note@-4:9 {{the condition depends on 'tid', which differs between threads}}
      // note@-10:3 {{'tid' is set from 'threadIdx.x' here}}
    }
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// A flag set by one lane per warp decides the barrier: the note follows
// 'leader' back to the lane id.
__global__ void leaderOnly(int *data) {
  int lane = threadIdx.x & 31;
  bool leader = false;
  if (lane == 0)
    leader = true;
  if (leader) {
    data[threadIdx.x / 32] = 1;
    __syncthreads();
    // warning@-1:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
    // note@-4:7 {{the condition depends on 'leader', which differs between threads}}
    // note@-6:5 {{'leader' is set under a condition on 'lane' here}}
    // note@-10:3 {{'lane' is set from 'threadIdx.x' here}}
  }
}

// A whole warp skips the barrier: synccheck does not report this, the
// block still waits for the missing warps.
__global__ void firstWarpOnly(float *data) {
  int warp = threadIdx.x / 32;
  if (warp == 0) {
    data[threadIdx.x] *= 2.0f;
    __syncthreads();
    // warning@-1:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
    // note@-4:7 {{the condition depends on 'warp', which differs between warps}}
    // note@-6:3 {{'warp' is set from 'threadIdx.x' here}}
  }
}

// A grid-stride loop whose trip count depends on the thread: the last
// iteration's barrier waits for threads that have left the loop.
__global__ void histogramStride(const unsigned char *in, unsigned *bins,
                                int n) {
  __shared__ unsigned local[256];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    atomicAdd(&local[in[i]], 1u);
    __syncthreads();
    // warning@-1:5 {{'__syncthreads' is reached by only some threads of the block}}
    // note@-5:3 {{the loop's trip count depends on 'i', which differs between threads}}
    // note@-6:8 {{'i' is set from 'threadIdx.x' here}}
  }
  bins[threadIdx.x] = local[threadIdx.x];
}

// Per-thread work counts: 'while (work[threadIdx.x]-- > 0)'.
__global__ void drainQueue(int *work, float *acc) {
  __shared__ float tile[128];
  while (work[threadIdx.x]-- > 0) {
    tile[threadIdx.x] = acc[threadIdx.x];
    __syncthreads();
    // warning@-1:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
    // note@-4:3 {{the loop's trip count depends on 'threadIdx.x', which differs between threads}}
    acc[threadIdx.x] += tile[(threadIdx.x + 1) % 128];
  }
}

// A device function that returns early: the thread goes back to its caller
// and stays alive, so the barrier after the return is divergent.
__device__ void loadHalo(float *tile, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x + 1] = in[i];
  __syncthreads();
  // warning@-1:3 {{'__syncthreads' is reached by only some threads of the block}}
  // note@-4:5 {{threads that return here leave 'loadHalo' without reaching the barrier}}
  // note@-6:7 {{the condition depends on 'i', which differs between threads}}
  // note@-8:3 {{'i' is set from 'threadIdx.x' here}}
}

__global__ void stencil(const float *in, float *out, int n) {
  __shared__ float tile[258];
  loadHalo(tile, in, n);
  out[threadIdx.x] = tile[threadIdx.x] + tile[threadIdx.x + 2];
}

// A helper that synchronises the block, called by one thread: the report is
// at the call, with a note at the barrier.
__device__ void publish(float *shared, float v) {
  shared[0] = v;
  __syncthreads();
  // note@-1:3 {{'__syncthreads' is reached here}}
}

__global__ void publishFromLeader(float *out) {
  __shared__ float slot[1];
  if (threadIdx.x == 0)
    publish(slot, out[0]);
  // warning@-1:5 {{'publish' waits at '__syncthreads' and is called by only some threads of the block}}
  // note@-3:7 {{the condition depends on 'threadIdx.x', which differs between threads}}
  out[threadIdx.x] = slot[0];
}

// The helper's own condition is on a parameter; one call passes a lane
// index, the other a block-uniform value (silent).
__device__ void syncIfBelow(int k, int limit) {
  if (k < limit)
    __syncthreads();
  // note@-1:5 {{'__syncthreads' is reached here}}
}

__global__ void parameterDecides(int limit) {
  syncIfBelow(blockIdx.x, limit);
  syncIfBelow(threadIdx.x, limit);
  // warning@-1:3 {{'syncIfBelow' waits at '__syncthreads', and threads that it sends back without reaching the barrier leave the kernel without reaching another}}
  // note@-2:15 {{parameter 'k' of 'syncIfBelow' decides whether it reaches the barrier, and gets 'threadIdx.x' here}}
}

// Cooperative groups' block barrier, in both spellings, and bar.sync in
// inline assembly.
__global__ void groupsAndAsm(float *data) {
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() < 48) {
    data[block.thread_rank()] = 0.0f;
    block.sync();
    // warning@-1:5 {{'thread_block::sync' is reached by only some threads of the block}}
    // note@-4:7 {{the condition depends on the result of 'thread_rank', which differs between threads}}
    cg::sync(block);
    // note@-1:5 {{'cooperative_groups::sync' here is under the same condition}}
  }
  if (threadIdx.x % 2)
    asm volatile("bar.sync 0;");
  // warning@-1:5 {{threads that skip this 'bar.sync' leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
  // note@-3:7 {{the condition depends on 'threadIdx.x', which differs between threads}}
}

// The result of an atomic is different in every thread.
__global__ void ticket(int *counter, float *data) {
  int t = atomicAdd(counter, 1);
  if (t < 64)
    __syncthreads();
  // warning@-1:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
  // note@-3:7 {{the condition depends on 't', which differs between threads}}
  // note@-5:3 {{'t' is set from the result of 'atomicAdd' here}}
}

// A full-mask __syncwarp under a lane condition: half the warp never
// arrives, and goes on working (lanes that only exit need not arrive:
// skip-then-exit.cu).
__global__ void halfWarpSync(float *data) {
  if (threadIdx.x % 32 < 16) {
    data[threadIdx.x] += data[threadIdx.x + 16];
    __syncwarp();
    // warning@-1:5 {{'__syncwarp' with a full mask is reached by only some lanes of the warp}}
    // note@-4:7 {{the condition depends on 'threadIdx.x', which differs between threads}}
  }
  data[threadIdx.x] *= 2.0f;
}

// A template: reported once, however many instantiations.
// tiledSum<128> alone would be warp-divergent; tiledSum<48> is not.
template <int Block> __global__ void tiledSum(float *data) {
  if (threadIdx.x < Block / 2)
    __syncthreads();
  // warning@-1:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
  // note@-3:7 {{the condition depends on 'threadIdx.x', which differs between threads}}
}
template __global__ void tiledSum<128>(float *);
template __global__ void tiledSum<48>(float *);

// A barrier in a lambda that one thread calls.
__global__ void lambdaCall(float *data) {
  auto flush = [&] {
    data[0] = 1.0f;
    __syncthreads();
    // note@-1:5 {{'__syncthreads' is reached here}}
  };
  if (threadIdx.x == 0)
    flush();
  // warning@-1:5 {{threads that skip this call to the lambda, which waits at '__syncthreads', leave the kernel without reaching another barrier}}
  // note@-3:7 {{the condition depends on 'threadIdx.x', which differs between threads}}
}

// A template that the translation unit never instantiates is analysed as
// written: 'v' has a dependent type, the condition still varies with
// threadIdx.x.
template <typename T> __device__ void maybe(T v) {
  if (v < threadIdx.x)
    __syncthreads();
  // warning@-1:5 {{'__syncthreads' is reached by only some threads of the block}}
  // note@-3:7 {{the condition depends on 'threadIdx.x', which differs between threads}}
}
