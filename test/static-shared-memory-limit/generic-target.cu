// For a generic target (sm_90) ptxas rejects more than 49152 bytes of static
// shared memory per kernel: the variables in the kernel, in the device
// functions it calls, and at namespace scope count; extern __shared__ does
// not. The host side has no architecture and assumes a generic target.
// RUN: %check_cuda_tidy --checks=cuda-static-shared-memory-limit %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// RUN: %check_cuda_tidy --checks=cuda-static-shared-memory-limit %s %t.host -- %cuda_args --cuda-host-only
#include <cuda_runtime.h>

struct Histogram {
  unsigned bins[1024];
  unsigned overflow;
};

__shared__ float gScratch[2048];

__device__ void stage(const float *in) {
  __shared__ double staging[2048];
  staging[threadIdx.x] = in[threadIdx.x];
  gScratch[threadIdx.x] = float(staging[threadIdx.x]);
}

__global__ void convolve(const float *in, float *out) {
  // warning@-1:17 {{kernel 'convolve' uses 61444 bytes of static shared memory, more than the 49152 bytes ptxas accepts}} [cuda-static-shared-memory-limit]
  // note@-2:17 {{move the largest arrays to 'extern __shared__' dynamic shared memory}}
  __shared__ float tile[8192];
  // note@-1:20 {{'tile' takes 32768 bytes of shared memory}}
  __shared__ Histogram hist;
  // note@-1:24 {{'hist' takes 4100 bytes of shared memory}}
  extern __shared__ float dynamicPart[];
  stage(in);
  // note@-14:21 {{'staging' takes 16384 bytes of shared memory}}
  // note@-18:18 {{'gScratch' takes 8192 bytes of shared memory}}
  tile[threadIdx.x] = in[threadIdx.x] + dynamicPart[0];
  hist.bins[threadIdx.x % 1024] += 1;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x] + gScratch[threadIdx.x];
}

// Silent: exactly 48 KiB builds.
__global__ void exactly(float *out) {
  __shared__ float a[8192];
  __shared__ float b[4096];
  a[threadIdx.x] = 1.0f;
  b[threadIdx.x] = a[threadIdx.x];
  out[threadIdx.x] = b[threadIdx.x];
}

// Silent: a large dynamic buffer is not static shared memory.
__global__ void dynamicOnly(float *out) {
  extern __shared__ float big[];
  out[threadIdx.x] = big[threadIdx.x];
}

// Per instantiation: only the instantiation that overflows is flagged.
template <typename T, int N> __global__ void transpose(const T *in, T *out) {
  // warning@-1:46 {{kernel 'transpose<double, 96>' uses 73728 bytes of static shared memory, more than the 49152 bytes ptxas accepts}}
  // note@-2:46 {{move the largest arrays}}
  __shared__ T block[N][N];
  // note@-1:16 {{'block' takes 73728 bytes of shared memory}}
  block[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = block[threadIdx.x][threadIdx.y];
}

void run(const float *fin, float *fout, const double *din, double *dout) {
  transpose<float, 64><<<1, dim3(64, 16)>>>(fin, fout);
  transpose<double, 96><<<1, dim3(96, 8)>>>(din, dout);
  // note@-1:3 {{in the instantiation 'transpose<double, 96>' requested here}}
}
