// A function whose body clang could not parse (here a call to an undeclared
// barrier helper, kept as a RecoveryExpr) may hide the barrier that orders
// its accesses: the race, barrier and warp checks are silent there. Another
// function of the same file that parsed is checked as usual.
// RUN: %check_cuda_tidy --checks=-*,cuda-shared-memory-race,cuda-divergent-barrier,cuda-implicit-warp-synchronization %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// Silent: 'blockBarrier' was not declared (the include that declares it is
// missing); it may be the barrier between the write and the read.
__global__ void reverseBroken(float *out, const float *in) {
  __shared__ float tile[256];
  tile[threadIdx.x] = in[threadIdx.x];
  blockBarrier();
  // error@-1 {{use of undeclared identifier 'blockBarrier'}}
  out[threadIdx.x] = tile[255 - threadIdx.x];
}

// Reported: this one parsed, and has no barrier at all.
__global__ void reverseRacy(float *out, const float *in) {
  __shared__ float tile[256];
  tile[threadIdx.x] = in[threadIdx.x];
  // note@-1 {{thread 255 writes 'tile[255]' here}}
  out[threadIdx.x] = tile[255 - threadIdx.x];
  // warning@-1 {{threads of different warps race on shared memory 'tile' with no barrier between a write and a read}}
  // note@-2 {{in another warp, reads it here}}
}

void run(float *out, const float *in) {
  reverseBroken<<<1, 256>>>(out, in);
  reverseRacy<<<1, 256>>>(out, in);
}
