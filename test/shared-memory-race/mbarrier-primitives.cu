// The toolkit's mbarrier primitives (__mbarrier_*): a try or test in the
// exit test of a loop that leaves only on success orders what the
// arriving threads wrote, like the inline PTX forms (mbarrier.cu). A
// single test whose result is not looped on does not.
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race %s %t -- %cuda_args --cuda-gpu-arch=sm_90 -std=c++17
#include <cuda_awbarrier_primitives.h>

// Silent: every thread arrives and spins on the token until the phase
// completes.
__global__ void primitiveSpin(float *out) {
  __shared__ __mbarrier_t bar;
  __shared__ float val;
  if (threadIdx.x == 0)
    __mbarrier_init(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0)
    val = 42.f;
  __mbarrier_token_t token = __mbarrier_arrive(&bar);
  while (!__mbarrier_try_wait(&bar, token, 1000)) {
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = val;
}

// Silent: the same with test_wait in an endless loop left by its success.
__global__ void primitiveTestLoop(float *out) {
  __shared__ __mbarrier_t bar;
  __shared__ float val;
  if (threadIdx.x == 0)
    __mbarrier_init(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0)
    val = 42.f;
  __mbarrier_token_t token = __mbarrier_arrive(&bar);
  while (true) {
    if (__mbarrier_test_wait(&bar, token))
      break;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = val;
}

// Races: one test, its answer ignored.
__global__ void primitiveTestOnce(float *out) {
  __shared__ __mbarrier_t bar;
  __shared__ float val;
  if (threadIdx.x == 0)
    __mbarrier_init(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0)
    val = 42.f;
  __mbarrier_token_t token = __mbarrier_arrive(&bar);
  __mbarrier_test_wait(&bar, token);
  out[blockIdx.x * blockDim.x + threadIdx.x] = val;
  // warning@-1:48 {{threads of different warps race on shared memory 'val' with no barrier between a write and a read in blocks of 64 to 1024 threads}}
  // note@-5:5 {{thread 0 writes 'val' here}}
  // note@-3:48 {{thread 32, in another warp, reads it here in the same barrier interval}}
}
