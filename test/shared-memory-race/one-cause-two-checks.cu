// One missing barrier, one warning, across the race check and the warp
// check (issue 37, a hash-table insert's shape): thread 0 clears a flag
// that every thread then reads in loop tests and after the loops. The race
// check reports the first read; its fix (a barrier before the probing
// loop, one at the end of the key loop) orders every other read of that
// write, by threads of other warps (notes of the warning) and by lanes of
// warp 0 (the warp check stays silent on them, in the instantiation of one
// warp per block too, where no race between warps exists: the same edit of
// the template orders it). The recheck proves it: once the fix is applied,
// neither check reports anything.
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race,cuda-implicit-warp-synchronization \
// RUN:   --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

template <int Trials>
__global__ void insertKeys(const unsigned *keys, unsigned *table, int n) {
  __shared__ unsigned s[64];
  volatile unsigned *done = &s[0];
  for (int k = 0; k < n; ++k) {
    if (threadIdx.x == 0)
      *done = 0;
    for (int trial = 0; trial < Trials && !*done; ++trial) {
      // warning@-1:44 {{threads of different warps race on shared memory 's' with no barrier between a write and a read}} [cuda-shared-memory-race]
      // note@-3:7 {{thread 0 writes 's[0]' here}}
      // note@-3:44 {{thread 32, in another warp, reads it here in the same barrier interval}}
      // note@-7:3 {{the next iteration of this loop reaches the second access before any barrier}}
      for (int j = 0; j < 4 && !*done; ++j)
        table[(keys[k] + trial * 4 + j) % 1024] = threadIdx.x;
      // note@-8:7 {{the same missing barrier: thread 0 writes 's[0]' here}}
      // note@-3:33 {{and thread 32, in another warp, reads it here; the same '__syncthreads()' orders the two}}
    }
    if (!*done)
      table[k] = 0;
    // note@-13:7 {{the same missing barrier: thread 0 writes 's[0]' here}}
    // note@-3:10 {{and thread 32, in another warp, reads it here; the same '__syncthreads()' orders the two}}
  }
}
// FIXED: {{^}}      *done = 0;{{$}}
// FIXED-NEXT: {{^}}    __syncthreads();{{$}}
// FIXED-NEXT: {{^}}    for (int trial = 0; trial < Trials && !*done; ++trial) {{{$}}
// FIXED: {{^}}      table[k] = 0;{{$}}
// FIXED: {{^}}    __syncthreads();{{$}}
// FIXED-NEXT: {{^}}  }{{$}}

// The correct counterpart: the barriers are there; nothing to report.
template <int Trials>
__global__ void insertKeysSynced(const unsigned *keys, unsigned *table,
                                 int n) {
  __shared__ unsigned s[64];
  volatile unsigned *done = &s[0];
  for (int k = 0; k < n; ++k) {
    if (threadIdx.x == 0)
      *done = 0;
    __syncthreads();
    for (int trial = 0; trial < Trials && !*done; ++trial) {
      for (int j = 0; j < 4 && !*done; ++j)
        table[(keys[k] + trial * 4 + j) % 1024] = threadIdx.x;
    }
    if (!*done)
      table[k] = 0;
    __syncthreads();
  }
}

// Two causes, two warnings: the race's barrier goes before the read of
// 's[0]'; the exchange between neighbour lanes written after it is not
// ordered by it, so the warp check reports it.
__global__ void twoCauses(const float *in, float *out) {
  __shared__ float s[128];
  unsigned t = threadIdx.x;
  if (t == 0)
    s[0] = in[blockIdx.x];
  float b = s[0];
  // warning@-1:13 {{threads of different warps race on shared memory 's' with no barrier between a write and a read}} [cuda-shared-memory-race]
  // note@-3:5 {{thread 0 writes 's[0]' here}}
  // note@-3:13 {{thread 32, in another warp, reads it here in the same barrier interval}}
  s[t + 64] = b + t;
  out[blockIdx.x * 64 + t] = s[(t ^ 1) + 64];
  // warning@-1:30 {{lanes of a warp exchange data through shared memory 's' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
  // note@-3:3 {{lane 1 writes the element here}}
  // note@-3:30 {{lane 0 reads it here, and no barrier orders the two}}
  // note@-4:30 {{independent thread scheduling}}
}
// FIXED: {{^}}    s[0] = in[blockIdx.x];{{$}}
// FIXED-NEXT: {{^}}  __syncthreads();{{$}}
// FIXED-NEXT: {{^}}  float b = s[0];{{$}}
// FIXED: {{^}}  s[t + 64] = b + t;{{$}}
// FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}

void launch(const unsigned *keys, unsigned *table, int n, const float *in,
            float *out) {
  insertKeys<2><<<n, 32>>>(keys, table, n);
  insertKeys<4><<<n, 64>>>(keys, table, n);
  insertKeysSynced<2><<<n, 64>>>(keys, table, n);
  insertKeysSynced<4><<<n, 64>>>(keys, table, n);
  twoCauses<<<n, 64>>>(in, out);
}
