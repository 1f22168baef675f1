// Global memory a kernel touches before it waits for the previous kernel,
// in kernels that wait (so they expect to be launched with programmatic
// stream serialization), and the accesses that stay silent.
// The same run applies the fixes, where there are (move-wait.cu checks
// them fully):
// RUN: %check_cuda_tidy --checks=cuda-programmatic-dependent-launch --fix \
// RUN:   %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

struct Params {
  const float *src;
  float *dst;
  int n;
  float scale;
};

__device__ float gTotal;
__constant__ float cScale;
__constant__ const float *cTable;

__device__ float loadAt(const float *p, int i) { return p[i]; }

struct TileScheduler {
  const int *counter;
  int first;
  __device__ explicit TileScheduler(const int *c) : counter(c) {
    first = *counter;
  }
};

// A wait in each branch: the fix copies the first to the top of the kernel.
__global__ void readBeforeBranchWait(const float *in, float *out, bool late) {
  float v = in[threadIdx.x];
  // warning@-1:13 {{'in' is read before this thread waits for the previous kernel}}
  // note@+3:5 {{'readBeforeBranchWait' waits for the previous kernel here}}
  // note@-4:17 {{no launch of 'readBeforeBranchWait' is visible; as it waits for the previous kernel, it is taken to be launched with programmatic stream serialization}}
  if (late)
    cudaGridDependencySynchronize();
  else
    cudaGridDependencySynchronize();
  out[threadIdx.x] = v;
}
// FIXED: void readBeforeBranchWait(const float *in, float *out, bool late) {
// FIXED-NEXT: {{^  }}cudaGridDependencySynchronize();
// FIXED-NEXT: {{^  }}float v = in[threadIdx.x];

// One warp role loads without waiting: each role is its own path.
__global__ void warpRoleWithoutWait(Params p) {
  int warp = threadIdx.x / 32;
  if (warp == 0) {
    cudaGridDependencySynchronize();
    p.dst[threadIdx.x] = p.src[threadIdx.x];
  } else if (warp == 1) {
    float s = p.src[threadIdx.x + 32];
    // warning@-1:15 {{'p.src' is read before this thread waits for the previous kernel}}
    // note@-5:5 {{'warpRoleWithoutWait' waits for the previous kernel here; some paths through it never wait}}
    // note@-9:17 {{no launch of 'warpRoleWithoutWait' is visible; as it waits for the previous kernel, it is taken to be launched with programmatic stream serialization}}
    p.dst[threadIdx.x] = s * p.scale;
    // warning@-1:5 {{'p.dst' is written before this thread waits for the previous kernel}}
    // note@-9:5 {{'warpRoleWithoutWait' waits for the previous kernel here; some paths through it never wait}}
  }
}

// A helper and a constructor called before the wait read through the
// pointers they are given.
__global__ void helperAndConstructor(Params p, const int *counter) {
  float v = loadAt(p.src, threadIdx.x);
  // warning@-1:13 {{this call to 'loadAt' reads global memory before this thread waits for the previous kernel}}
  // note@-48:57 {{'p' is read here}}
  // note@+7:5 {{'helperAndConstructor' waits for the previous kernel here}}
  // note@-5:17 {{no launch of 'helperAndConstructor' is visible; as it waits for the previous kernel, it is taken to be launched with programmatic stream serialization}}
  TileScheduler sched(counter);
  // warning@-1:17 {{this call to 'TileScheduler' reads global memory before this thread waits for the previous kernel}}
  // note@-47:13 {{'counter' is read here}}
  // note@+2:5 {{'helperAndConstructor' waits for the previous kernel here}}
  if (threadIdx.x == 0)
    cudaGridDependencySynchronize();
  __syncthreads();
  // Silent: the barrier orders every thread after thread 0's wait.
  p.dst[threadIdx.x] = v + sched.first;
}

// A grid-stride loop whose prologue reads before the wait in its body, and
// a __device__ variable.
__global__ void loopPrologue(const float *in, float *out, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    float v = in[i] + gTotal;
    // warning@-1:15 {{'in' is read before this thread waits for the previous kernel}}
    // note@+4:5 {{'loopPrologue' waits for the previous kernel here; some paths through it never wait}}
    // note@-5:17 {{no launch of 'loopPrologue' is visible; as it waits for the previous kernel, it is taken to be launched with programmatic stream serialization}}
    // warning@-4:23 {{'gTotal' is read before this thread waits for the previous kernel}}
    // note@+1:5 {{'loopPrologue' waits for the previous kernel here; some paths through it never wait}}
    cudaGridDependencySynchronize();
    out[i] = v;
  }
}

// Silent: the wait first; before it only by-value parameters, __constant__
// data, shared and local memory, the trigger (which orders nothing), and
// pointer arithmetic that touches no memory.
__global__ void waitFirst(Params p, const float *in, float *out) {
  __shared__ float tile[128];
  float local[4] = {p.scale, cScale, 0.f, 0.f};
  const float *row = in + blockIdx.x * p.n;
  const float *table = cTable;
  tile[threadIdx.x] = local[threadIdx.x % 4] * p.n;
  cudaTriggerProgrammaticLaunchCompletion();
  cudaGridDependencySynchronize();
  out[threadIdx.x] = row[threadIdx.x] + tile[threadIdx.x] + table[0];
  gTotal = p.src[0];
}

// Silent: a pointer whose origin is not known (returned by a function) is
// not taken to be global memory.
__device__ const float *pick(const float *a, const float *b, int i);
__global__ void unknownPointer(const float *a, const float *b, float *out) {
  const float *q = pick(a, b, threadIdx.x);
  float v = q[0];
  cudaGridDependencySynchronize();
  out[threadIdx.x] = v;
}

// No fix: the wait sits under #if, and a copy at the top would be compiled
// where the original is not.
__global__ void guardedWait(const float *in, float *out) {
  float v = in[threadIdx.x];
  // warning@-1:13 {{'in' is read before this thread waits for the previous kernel}}
  // note@+3:3 {{'guardedWait' waits for the previous kernel here}}
  // note@-4:17 {{no launch of 'guardedWait' is visible; as it waits for the previous kernel, it is taken to be launched with programmatic stream serialization}}
#if __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
  out[threadIdx.x] = v;
}
// FIXED: __global__ void guardedWait(const float *in, float *out) {
// FIXED-NEXT: {{^  }}float v = in[threadIdx.x];

// A read in one arm of a conditional lvalue, in a template the file never
// instantiates (read as written).
template <typename T>
__global__ void conditionalRead(T *out, const unsigned *lenPtr, unsigned maxLen) {
  const unsigned len = lenPtr ? *lenPtr : maxLen;
  // warning@-1:33 {{'lenPtr' is read before this thread waits for the previous kernel}}
  // note@+2:3 {{'conditionalRead' waits for the previous kernel here}}
  // note@-4:17 {{no launch of 'conditionalRead' is visible; as it waits for the previous kernel, it is taken to be launched with programmatic stream serialization}}
  cudaGridDependencySynchronize();
  out[threadIdx.x] = T(len);
}
