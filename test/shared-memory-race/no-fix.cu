// Races the check reports with no fix (and why), and a race past a barrier
// that only some threads reach.
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race,cuda-divergent-barrier \
// RUN:   %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__device__ void store(float *s, float v) { s[threadIdx.x] = v; }
__device__ float neighbour(const float *s) {
  return s[(threadIdx.x + 32) % blockDim.x];
}

// A barrier only some threads reach orders nothing (and is reported by
// cuda-divergent-barrier).
__global__ void divergentBarrier(float *data, int n) {
  __shared__ float s[256];
  store(s, data[threadIdx.x]);
  if (threadIdx.x < n)
    __syncthreads();
    // warning@-1:5 {{'__syncthreads' is reached by only some threads of the block}}
    // note@-3:7 {{the condition depends on 'threadIdx.x', which differs between threads}}
  data[threadIdx.x] = neighbour(s);
  // warning@-1:23 {{threads of different warps race on shared memory 's' with no barrier between a write and a read}}
  // note@-16:44 {{thread 32 writes 's[32]' here}}
  // note@-15:10 {{thread 0, in another warp, reads it here in the same barrier interval}}
  // note@-9:3 {{the first access is made in this call to 'store'}}
  // note@-5:23 {{the second access is made in this call to 'neighbour'}}
}

// Thread 0 fills a value in one arm that the other threads read in the
// other: no point between the arms is reached by every thread.
__global__ void arms(float *data) {
  __shared__ float total;
  if (threadIdx.x == 0)
    total = data[0];
  else
    data[threadIdx.x] += total;
    // warning@-1:26 {{threads of different warps race on shared memory 'total' with no barrier between a write and a read}}
    // note@-4:5 {{thread 0 writes 'total' here}}
    // note@-3:26 {{thread 32, in another warp, reads it here in the same barrier interval}}
    // note@-7:3 {{this branch sends threads of the block down both arms}}
    // note@-5:26 {{no automatic fix: the accesses are on the two arms of a branch that splits the block: no point between them is reached by every thread}}
}

// Every thread adds into one element: a barrier cannot order the updates.
__global__ void sharedSum(const float *data, float *out) {
  __shared__ float sum;
  if (threadIdx.x == 0)
    sum = 0.f;
  __syncthreads();
  sum += data[threadIdx.x];
  // warning@-1:3 {{threads of different warps race on shared memory 'sum' with no barrier between an update and an update}}
  // note@-2:3 {{thread 32 updates 'sum' here}}
  // note@-3:3 {{thread 0, in another warp, updates it here in the same barrier interval}}
  // note@-4:3 {{no automatic fix: threads of different warps update the element in the same statement: a barrier cannot order their updates; make the update atomic or give each thread its own element}}
  __syncthreads();
  if (threadIdx.x == 0)
    *out = sum;
}

// The same with atomicAdd: silent.
__global__ void sharedSumAtomic(const float *data, float *out) {
  __shared__ float sum;
  if (threadIdx.x == 0)
    sum = 0.f;
  __syncthreads();
  atomicAdd(&sum, data[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0)
    *out = sum;
}

// A block sum through the caller's scratch, with a barrier between its
// write and its read.
__device__ float blockSum(float *scratch, float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, o);
  if (threadIdx.x % 32 == 0)
    scratch[threadIdx.x / 32] = v;
  __syncthreads();
  return threadIdx.x % 32 < blockDim.x / 32 ? scratch[threadIdx.x % 32] : 0.0f;
}

// Two calls in one expression: the second call's write races with the first
// call's read, and no statement boundary lies between them.
__global__ void ratio(const float *a, const float *b, float *out) {
  __shared__ float scratch[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float r = blockSum(scratch, a[i]) / blockSum(scratch, b[i]);
  // warning@-1:45 {{threads of different warps race on shared memory 'scratch' with no barrier between a read and a write}}
  // note@-10:47 {{thread 1 reads 'scratch[1]' here}}
  // note@-13:5 {{thread 32, in another warp, writes it here in the same barrier interval}}
  // note@-4:19 {{the first access is made after the last barrier of this call to 'blockSum'}}
  // note@-5:45 {{the second access is made before the first barrier of this call to 'blockSum'}}
  // note@-6:45 {{no automatic fix: both accesses are in one statement that cannot be split where every thread of the block runs it}}
  if (threadIdx.x == 0)
    out[blockIdx.x] = r;
}

void launch(float *data, float *out, int n) {
  divergentBarrier<<<1, 256>>>(data, n);
  arms<<<1, 256>>>(data);
  sharedSum<<<1, 256>>>(data, out);
  sharedSumAtomic<<<1, 256>>>(data, out);
  ratio<<<1, 256>>>(data, data, out);
}
