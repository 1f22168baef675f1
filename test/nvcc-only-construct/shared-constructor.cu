// A __shared__ object whose default constructor is not empty: nvcc builds it
// (warning 20054-D: the constructor is not run, the kernel initialises the
// object itself), clang 22 rejects it ("initialization is not supported for
// __shared__ variables"). cuda-nvcc-only-construct reports it once as a
// remark, the run does not fail, and the other checks still analyse the
// kernel around it. An explicit initialiser is an error for nvcc too and
// stays one.
// RUN: %check_cuda_tidy --checks=cuda-nvcc-only-construct,cuda-divergent-barrier %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// The shape of libcu++'s cuda::barrier: members with default initialisers.
struct Phase {
  unsigned expected = 0;
  unsigned arrived = 0;
  __device__ void arrive() { atomicAdd(&arrived, 1u); }
};

__device__ void initPhase(Phase *p, unsigned n) { p->expected = n; }

__global__ void stagedCopy(const float *in, float *out) {
  __shared__ Phase phase;
  // remark@-1 {{'__shared__' variable 'phase' of type 'Phase' has a default constructor that is not empty: an nvcc extension clang rejects; the file is analysed without its declaration}} [cuda-nvcc-only-construct]
  // note@-2 {{nvcc accepts it with a warning (20054-D) and does not run the constructor}}
  __shared__ float tile[256];
  if (threadIdx.x == 0)
    initPhase(&phase, blockDim.x);
  __syncthreads();
  tile[threadIdx.x] = in[threadIdx.x];
  if (threadIdx.x < 32)
    __syncthreads();
  // warning@-1 {{'__syncthreads' is reached by only some warps of the block}}
  // note@-3 {{the condition depends on 'threadIdx.x'}}
  out[threadIdx.x] = tile[255 - threadIdx.x];
}

// An array of them, in a template instantiated twice: one remark.
template <int Stages> __global__ void pipelined(float *out) {
  __shared__ Phase stages[Stages];
  // remark@-1 {{'__shared__' variable 'stages' of type 'Phase[Stages]' has a default constructor}}
  // note@-2 {{nvcc accepts it with a warning (20054-D)}}
  if (threadIdx.x < Stages)
    initPhase(&stages[threadIdx.x], blockDim.x);
  __syncthreads();
  out[threadIdx.x] = 1.f;
}
template __global__ void pipelined<2>(float *);
template __global__ void pipelined<4>(float *);

// In a template whose type does not depend on its parameters clang rejects
// the instantiation, not the pattern: the remark still names the variable
// and its type (it named neither).
template <int Width> __global__ void phasedTemplate(float *out) {
  __shared__ Phase gate;
  // remark@-1 {{'__shared__' variable 'gate' of type 'Phase' has a default constructor that is not empty}}
  // note@-2 {{nvcc accepts it with a warning (20054-D)}}
  if (threadIdx.x == 0)
    initPhase(&gate, Width);
  __syncthreads();
  out[threadIdx.x] = 1.f;
}
template __global__ void phasedTemplate<32>(float *);

// A template that is never instantiated: clang accepts its pattern, so
// there is nothing to report.
template <int Width> __global__ void phasedUnused(float *out) {
  __shared__ Phase idle;
  if (threadIdx.x == 0)
    initPhase(&idle, Width);
  __syncthreads();
  out[threadIdx.x] = 1.f;
}

// Trivially constructible shared memory is not reported.
struct Plain {
  unsigned expected;
};
__global__ void plainShared(unsigned *out) {
  __shared__ Plain p;
  if (threadIdx.x == 0)
    p.expected = blockDim.x;
  __syncthreads();
  out[threadIdx.x] = p.expected;
}
