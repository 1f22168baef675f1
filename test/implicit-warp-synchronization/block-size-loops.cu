// Loops whose values come from blockDim, when no launch gives the block
// size. The largest block is evaluated first; where it exchanges nowhere,
// only the loops read blockDim, and every smaller block's loop values are
// among the largest block's, no smaller block can exchange (its warps are
// the first warps of the largest, running the same iterations). A loop
// whose values in a smaller block are new is evaluated there.
// RUN: %check_cuda_tidy --checks=cuda-implicit-warp-synchronization %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// The tree reduction: k takes blockDim.x / 2, ..., 1; a smaller block
// takes a tail of those values, and a barrier ends every step. Silent.
__global__ void treeSum(const float *in, float *out) {
  __shared__ float s[1024];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k)
      s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

// The partner is blockDim.x / 32 threads away: in a block of 1024 threads
// it is in another warp (a race between warps, not this check's), in
// smaller blocks it is a lane of the same warp. The one value of k in a
// block of 32 threads (1) is not among the largest block's (32): the
// smaller blocks are evaluated, and the exchange is found there.
__global__ void partnerByBlockSize(float *o) {
  __shared__ float s[1024];
  int t = threadIdx.x;
  for (unsigned k = blockDim.x / 32; k < 64; k *= 64) {
    s[t] = o[t];
    o[t] = s[t ^ k];
    // warning@-1:12 {{lanes of a warp exchange data through shared memory 's' with no '__syncwarp' between the write and the read}}
    // note@-3:5 {{lane 1 writes the element here}}
    // note@-3:12 {{lane 0 reads it here, and no barrier orders the two}}
    // note@-4:12 {{independent thread scheduling}}
    __syncthreads();
  }
}

// The same exchange with the partner a fixed distance away: the loop's
// value is 1 in every block size. Reported from the largest block.
__global__ void fixedPartner(float *o) {
  __shared__ float s[1024];
  int t = threadIdx.x;
  for (unsigned k = blockDim.x / blockDim.x; k < 64; k *= 64) {
    s[t] = o[t];
    o[t] = s[t ^ k];
    // warning@-1:12 {{lanes of a warp exchange data through shared memory 's' with no '__syncwarp' between the write and the read}}
    // note@-3:5 {{lane 1 writes the element here}}
    // note@-3:12 {{lane 0 reads it here, and no barrier orders the two}}
    // note@-4:12 {{independent thread scheduling}}
    __syncthreads();
  }
}
