// Indices the lane model cannot follow: only one read from memory may be
// any element (some input makes it collide); one built from the thread
// index and the kernel's arguments that the model leaves out is left
// alone. In the shapes of the CUDA samples' HSOpticalFlow (a halo whose
// index is declared, then assigned) and dwtHaar1D (the block size passed as
// an argument).
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race \
// RUN:   --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

#define BX 32
#define BY 6

__device__ int lower(int a, int b) { return a < b ? a : b; }
__device__ int upper(int a, int b) { return a < b ? b : a; }

// The tile's interior by every thread, the rows above and below it by the
// first row of threads: disjoint elements. silent.
__global__ void jacobiHalo(const float *u0, float *u1, int w, int h) {
  __shared__ float u[(BX + 2) * (BY + 2)];
  const int ix = blockIdx.x * BX + threadIdx.x, iy = blockIdx.y * BY + threadIdx.y;
  u[threadIdx.x + 1 + (threadIdx.y + 1) * (BX + 2)] = u0[lower(iy, h - 1) * w + lower(ix, w - 1)];
  if (threadIdx.y == 0) {
    int x, y, smPos;
    x = lower(ix, w - 1);
    y = upper(int(blockIdx.y * BY) - 1, 0);
    smPos = threadIdx.x + 1;
    u[smPos] = u0[y * w + x];
    y = lower(int(blockIdx.y * BY) + BY, h - 1);
    smPos += (BY + 1) * (BX + 2);
    u[smPos] = u0[y * w + x];
  }
  __syncthreads();
  const int c = threadIdx.x + 1 + (threadIdx.y + 1) * (BX + 2);
  u1[iy * w + ix] = 0.25f * (u[c - 1] + u[c + 1] + u[c - BX - 2] + u[c + BX + 2]);
}

// Two elements per thread, the block size passed as an argument: the
// launches pass blockDim.x. silent.
__global__ void haarStep(const float *in, float *out, int bdim) {
  extern __shared__ float s[];
  const int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 2 * bdim + tid];
  s[tid + bdim] = in[blockIdx.x * 2 * bdim + tid + bdim];
  __syncthreads();
  float a = s[2 * tid], b = s[2 * tid + 1];
  out[blockIdx.x * bdim + tid] = (a - b) * 0.70710678f;
}

// The counterpart: a bin declared, then read from memory: a warp counts
// into a bin that another warp has not zeroed yet.
__global__ void histogramAssigned(const unsigned char *data, int n,
                                  unsigned *bins) {
  __shared__ unsigned hist[256];
  hist[threadIdx.x] = 0;
  for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256) {
    unsigned bin;
    bin = data[i];
    atomicAdd(&hist[bin], 1u);
    // warning@-1:16 {{threads of different warps race on shared memory 'hist' with no barrier between a write and an atomic update}}
    // note@-6:3 {{thread 32 writes 'hist[32]' here}}
    // note@-3:16 {{thread 0, in another warp, atomically updates it here in the same barrier interval}}
    // note@-4:16 {{the element thread 0 accesses comes from a loaded value: some input makes it the one thread 32 writes}}
  }
  // FIXED: {{^}}  hist[threadIdx.x] = 0;{{$}}
  // FIXED-NEXT: {{^}}  __syncthreads();{{$}}
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], hist[threadIdx.x]);
}

// The loaded index on the first access: a gather from a bin read from
// memory, then each thread's own store with no barrier between. The note
// names the gathering thread (the first access's), not the writer.
__global__ void gatherThenStore(const unsigned char *data, unsigned *out) {
  __shared__ unsigned s[256];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  unsigned bin = data[blockIdx.x * 256 + threadIdx.x];
  unsigned v = s[bin];
  s[threadIdx.x] = v + 1;
  // warning@-1:3 {{threads of different warps race on shared memory 's' with no barrier between a read and a write}}
  // note@-3:16 {{thread 0 reads 's[32]' here}}
  // note@-3:3 {{thread 32, in another warp, writes it here in the same barrier interval}}
  // note@-5:16 {{the element thread 0 accesses comes from a loaded value: some input makes it the one thread 32 writes}}
  // FIXED: {{^}}  unsigned v = s[bin];{{$}}
  // FIXED-NEXT: {{^}}  __syncthreads();{{$}}
  // FIXED-NEXT: {{^}}  s[threadIdx.x] = v + 1;{{$}}
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
}

void launch(const float *u0, float *u1, int w, int h, const unsigned char *data,
            int n, unsigned *bins) {
  jacobiHalo<<<dim3(w / BX, h / BY), dim3(BX, BY)>>>(u0, u1, w, h);
  dim3 block(256);
  haarStep<<<n / 512, block, 2 * block.x * sizeof(float)>>>(u0, u1, block.x);
  histogramAssigned<<<64, 256>>>(data, n, bins);
  gatherThenStore<<<64, 256>>>(data, bins);
}
