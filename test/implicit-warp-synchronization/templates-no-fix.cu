// Templates whose warp exchanges get no fix: one edit of the template's
// spelling serves every instantiation, so it is offered only when it is
// right for each of them.
// RUN: %check_cuda_tidy %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// The lanes that run the exchange differ between instantiations: a full
// mask is wrong for tail<16>, a half mask for tail<32>.
template <int Active> __device__ void pairTail(volatile int *s) {
  int t = threadIdx.x;
  if (t < Active) {
    s[t] = t;
    s[t] += s[t ^ 1];
    // warning@-1:13 {{lanes of a warp exchange data through shared memory 'buf' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
    // note@-3:5 {{lane 1 writes the element here}}
    // note@-3:13 {{lane 0 reads it here, and no barrier orders the two}}
    // note@26:5 {{shared memory 'buf' is passed to 'pairTail' here}}
    // note@-5:13 {{independent thread scheduling}}
    // note@-6:13 {{no automatic fix: the lanes that run it differ between the template's instantiations, or are not known in one of them}}
  }
}

__global__ void tails(int *out) {
  __shared__ int buf[32];
  if (blockIdx.x == 0)
    pairTail<32>(buf);
  else
    pairTail<16>(buf);
  out[threadIdx.x] = buf[threadIdx.x];
}

// A class template's static member, instantiated through a kernel: a
// neighbour exchange, reported at its spelling.
template <typename T> struct WarpRing {
  __device__ static T rotate(T *s, T v) {
    int lane = threadIdx.x % 32;
    s[lane] = v;
    return s[(lane + 1) % 32];
    // warning@-1:12 {{lanes of a warp exchange data through shared memory 'ring' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
    // note@-3:5 {{lane 1 writes the element here}}
    // note@-3:12 {{lane 0 reads it here, and no barrier orders the two}}
    // note@+8:21 {{shared memory 'ring' is passed to 'rotate' here}}
    // note@-5:12 {{independent thread scheduling}}
    // note@-6:12 {{no automatic fix: the statement's form is not supported}}
  }
};

__global__ void useRing(int *io) {
  __shared__ int ring[32];
  io[threadIdx.x] = WarpRing<int>::rotate(ring, io[threadIdx.x]);
}

