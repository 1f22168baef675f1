// Kernels for the stride-loop and split-call warp-sync GPU suite: warp
// exchanges written for lanes in lockstep, in block-stride loops (directly
// and through a helper the loop hands its position to) and split over two
// calls of helpers. Each is right only if its lanes run in lockstep; the
// fix cuda-implicit-warp-synchronization offers must make it right on
// sm_70 and later. The harness checks the results against a CPU reference.
#include <cuda_runtime.h>

// Sums of 32-element segments: each warp reduces one segment per iteration
// of the block's stride loop, with a tree written for lockstep lanes.
__device__ void segmentTail(volatile float *s, int pos) {
  if ((pos & 31) < 16) s[pos] += s[pos + 16];
  if ((pos & 31) < 8) s[pos] += s[pos + 8];
  if ((pos & 31) < 4) s[pos] += s[pos + 4];
  if ((pos & 31) < 2) s[pos] += s[pos + 2];
  if ((pos & 31) < 1) s[pos] += s[pos + 1];
}

__global__ void segmentSums(const float *in, float *out) {
  __shared__ float s[2048 + 32];
  for (int pos = threadIdx.x; pos < 2048; pos += 256)
    s[pos] = in[blockIdx.x * 2048 + pos];
  if (threadIdx.x < 32)
    s[2048 + threadIdx.x] = 0;
  __syncthreads();
  for (int pos = threadIdx.x; pos < 2048; pos += 256)
    segmentTail(s, pos);
  __syncthreads();
  if (threadIdx.x < 64)
    out[blockIdx.x * 64 + threadIdx.x] = s[threadIdx.x * 32];
}

void launchSegmentSums(const float *in, float *out, int blocks) {
  segmentSums<<<blocks, 256>>>(in, out);
}

// Each 32-element group rotated left by one, in place, in a block-stride
// loop: a lane reads its neighbour's element before the neighbour
// overwrites it.
__global__ void groupRotate(int *io) {
  __shared__ int r[1024];
  for (int c = threadIdx.x; c < 1024; c += blockDim.x)
    r[c] = io[blockIdx.x * 1024 + c];
  __syncthreads();
  for (int c = threadIdx.x; c < 1024; c += blockDim.x) {
    int v = r[(c & ~31) | ((c + 1) & 31)];
    r[c] = v;
  }
  __syncthreads();
  for (int c = threadIdx.x; c < 1024; c += blockDim.x)
    io[blockIdx.x * 1024 + c] = r[c];
}

void launchGroupRotate(int *io, int blocks) { groupRotate<<<blocks, 256>>>(io); }

// One step of a tree: the element at p gains the one d further on. Two
// calls make two levels; the second reads what the first wrote.
__device__ void addFrom(volatile float *p, int d) { *p += p[d]; }

__global__ void pairTree(float *io) {
  __shared__ float s[128];
  unsigned t = threadIdx.x;
  s[t] = io[blockIdx.x * 64 + t];
  s[t + 64] = 0;
  __syncthreads();
  if (t < 32) {
    addFrom(&s[t], 32);
    addFrom(&s[(2 * t) & 63], 1);
  }
  __syncthreads();
  io[blockIdx.x * 64 + t] = s[t];
}

void launchPairTree(float *io, int blocks) { pairTree<<<blocks, 64>>>(io); }

// A value handed to the next lane through shared memory by two helpers.
__device__ void put(volatile int *s, int i, int v) { s[i] = v; }
__device__ int take(volatile int *s, int i) { return s[i]; }

__global__ void handOff(int *io) {
  __shared__ int s[256];
  int lane = threadIdx.x & 31, base = threadIdx.x - lane;
  int g = blockIdx.x * 256 + threadIdx.x;
  put(s, threadIdx.x, io[g]);
  io[g] = take(s, base + ((lane + 1) & 31));
}

void launchHandOff(int *io, int blocks) { handOff<<<blocks, 256>>>(io); }
