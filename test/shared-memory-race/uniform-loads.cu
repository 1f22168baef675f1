// A branch whose condition reads memory at an address that is the same in
// every thread of the block, memory no thread of the block writes since
// the last barrier, is taken the same way by the whole block: a write on
// one arm and a read on the other do not meet. So is a branch on a local
// that an arm reassigns with a value the same in every thread. A load
// whose address differs between threads, memory written in the same
// barrier interval, or a value only some threads assign still split the
// block.
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

constexpr int N = 256;

// Silent: one flag per block, read-only in the kernel.
__global__ void flagPerBlock(const int *flags, float *out) {
  __shared__ float tile[N];
  if (flags[blockIdx.x]) {
    tile[threadIdx.x] = threadIdx.x;
  } else {
    out[blockIdx.x * N + threadIdx.x] = tile[N - 1 - threadIdx.x];
  }
}

// Silent: a scalar through a kernel pointer parameter.
__global__ void flagThroughPointer(const int *mode, float *out) {
  __shared__ float tile[N];
  if (*mode) {
    tile[threadIdx.x] = threadIdx.x;
  } else {
    out[blockIdx.x * N + threadIdx.x] = tile[N - 1 - threadIdx.x];
  }
}

// Silent: thread 0 decides, a barrier publishes the decision, every thread
// reads the same shared value.
__global__ void sharedDecision(const float *in, float *out) {
  __shared__ float tile[N];
  __shared__ int s_done;
  if (threadIdx.x == 0)
    s_done = in[blockIdx.x] > 0.f;
  __syncthreads();
  if (s_done) {
    tile[threadIdx.x] = threadIdx.x;
  } else {
    out[blockIdx.x * N + threadIdx.x] = tile[N - 1 - threadIdx.x];
  }
}

// Silent: the decision kept in a local before the branch, and a member of
// a struct passed by value.
struct Params {
  int mode;
  const float *in;
};
__global__ void localAndMember(const int *flags, Params p, float *out) {
  __shared__ float tile[N];
  const int f = flags[blockIdx.x] + p.mode;
  if (f > 1) {
    tile[threadIdx.x] = p.in[threadIdx.x];
  } else {
    out[blockIdx.x * N + threadIdx.x] = tile[N - 1 - threadIdx.x];
  }
  __syncthreads();
  if (p.mode) {
    tile[threadIdx.x] = threadIdx.x;
  } else {
    out[blockIdx.x * N + threadIdx.x] = tile[N - 1 - threadIdx.x];
  }
}

// Silent: k is reassigned in an arm, with a value every thread gives it.
__global__ void reassignedUniform(float *out, int n) {
  __shared__ float tile[N];
  int k = n;
  if (k > 4)
    k = 4;
  if (k == 4) {
    tile[threadIdx.x] = threadIdx.x;
  } else {
    out[blockIdx.x * N + threadIdx.x] = tile[N - 1 - threadIdx.x];
  }
}

// Races: thread 0 writes the flag in the same barrier interval, so threads
// of other warps may read it before or after (and the branch splits).
__global__ void sharedNoBarrier(const float *in, float *out) {
  __shared__ float tile[N];
  __shared__ int s_done;
  if (threadIdx.x == 0)
    s_done = in[blockIdx.x] > 0.f;
  if (s_done) {
    // warning@-1:7 {{threads of different warps race on shared memory 's_done' with no barrier between a write and a read}}
    // note@-3:5 {{thread 0 writes 's_done' here}}
    // note@-3:7 {{thread 32, in another warp, reads it here in the same barrier interval}}
    tile[threadIdx.x] = threadIdx.x;
  } else {
    out[blockIdx.x * N + threadIdx.x] = tile[N - 1 - threadIdx.x];
    // warning@-1:41 {{threads of different warps race on shared memory 'tile' with no barrier between a write and a read}}
    // note@-4:5 {{thread 255 writes 'tile[255]' here}}
    // note@-3:41 {{thread 0, in another warp, reads it here in the same barrier interval}}
    // note@-10:3 {{this branch sends threads of the block down both arms}}
    // note@-5:41 {{no automatic fix: the accesses are on the two arms of a branch that splits the block: no point between them is reached by every thread}}
  }
}

// Races: a thread of the block writes the flag the others read.
__global__ void flagWritten(int *flags, float *out) {
  __shared__ float tile[N];
  if (threadIdx.x == 64)
    flags[blockIdx.x] = 0;
  if (flags[blockIdx.x]) {
    tile[threadIdx.x] = threadIdx.x;
  } else {
    out[blockIdx.x * N + threadIdx.x] = tile[N - 1 - threadIdx.x];
    // warning@-1:41 {{threads of different warps race on shared memory 'tile' with no barrier between a write and a read}}
    // note@-4:5 {{thread 255 writes 'tile[255]' here}}
    // note@-3:41 {{thread 0, in another warp, reads it here in the same barrier interval}}
    // note@-7:3 {{this branch sends threads of the block down both arms}}
    // note@-5:41 {{no automatic fix: the accesses are on the two arms of a branch that splits the block: no point between them is reached by every thread}}
  }
}

// Races: one flag per pair of warps, so the block splits.
__global__ void flagPerWarpPair(const int *flags, float *out) {
  __shared__ float tile[N];
  if (flags[threadIdx.x / 64]) {
    tile[threadIdx.x] = threadIdx.x;
  } else {
    out[blockIdx.x * N + threadIdx.x] = tile[N - 1 - threadIdx.x];
    // warning@-1:41 {{threads of different warps race on shared memory 'tile' with no barrier between a write and a read}}
    // note@-4:5 {{thread 255 writes 'tile[255]' here}}
    // note@-3:41 {{thread 0, in another warp, reads it here in the same barrier interval}}
    // note@-7:3 {{this branch sends threads of the block down both arms}}
    // note@-5:41 {{no automatic fix: the accesses are on the two arms of a branch that splits the block: no point between them is reached by every thread}}
  }
}

void launch(const int *flags, int *wflags, const int *mode, Params p,
            const float *in, float *out) {
  flagPerBlock<<<4, N>>>(flags, out);
  flagThroughPointer<<<4, N>>>(mode, out);
  sharedDecision<<<4, N>>>(in, out);
  localAndMember<<<4, N>>>(flags, p, out);
  reassignedUniform<<<4, N>>>(out, 3);
  sharedNoBarrier<<<4, N>>>(in, out);
  flagWritten<<<4, N>>>(wflags, out);
  flagPerWarpPair<<<4, N>>>(flags, out);
}
