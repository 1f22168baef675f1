// Shapes of stencil, transpose and histogram kernels: a value or a tile
// written by some threads and read by threads of other warps.
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race,cuda-divergent-barrier \
// RUN:   --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// Thread 0 loads a per-block value that every thread reads.
__global__ void broadcast(const float *scale, const float *in, float *out) {
  __shared__ float s;
  if (threadIdx.x == 0)
    s = scale[blockIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = in[threadIdx.x] * s;
  // warning@-1:66 {{threads of different warps race on shared memory 's' with no barrier between a write and a read}}
  // note@-3:5 {{thread 0 writes 's' here}}
  // note@-3:66 {{thread 32, in another warp, reads it here in the same barrier interval}}
  // FIXED: {{^}}    s = scale[blockIdx.x];{{$}}
  // FIXED-NEXT: {{^}}  __syncthreads();{{$}}
  // FIXED-NEXT: {{^}}  out[blockIdx.x * blockDim.x + threadIdx.x] = in[threadIdx.x] * s;{{$}}
}

// With the barrier after the load: silent.
__global__ void broadcastSync(const float *scale, const float *in,
                              float *out) {
  __shared__ float s;
  if (threadIdx.x == 0)
    s = scale[blockIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = in[threadIdx.x] * s;
}

// A 1-D stencil: each thread loads its element, the edge threads the halo,
// and every thread reads its neighbours (the first of each warp reads what
// the last of the warp before wrote).
__global__ void stencil(const float *in, float *out, int n) {
  __shared__ float tile[256 + 2];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int t = threadIdx.x + 1;
  tile[t] = in[i];
  if (threadIdx.x == 0)
    tile[0] = i > 0 ? in[i - 1] : 0.f;
  if (threadIdx.x == blockDim.x - 1)
    tile[t + 1] = i + 1 < n ? in[i + 1] : 0.f;
  out[i] = tile[t - 1] + tile[t] + tile[t + 1];
  // warning@-1:12 {{threads of different warps race on shared memory 'tile' with no barrier between a write and a read}}
  // note@-7:3 {{thread 31 writes 'tile[32]' here}}
  // note@-3:12 {{thread 32, in another warp, reads it here in the same barrier interval}}
  // The right neighbour's read is the same missing barrier: a note of the
  // one warning, not a second warning.
  // note@-11:3 {{the same missing barrier: thread 32 writes 'tile[33]' here}}
  // note@-7:36 {{and thread 31, in another warp, reads it here; the same '__syncthreads()' orders the two}}
  // FIXED: {{^}}    tile[t + 1] = i + 1 < n ? in[i + 1] : 0.f;{{$}}
  // FIXED-NEXT: {{^}}  __syncthreads();{{$}}
  // FIXED-NEXT: {{^}}  out[i] = tile[t - 1] + tile[t] + tile[t + 1];{{$}}
}

__global__ void stencilSync(const float *in, float *out, int n) {
  __shared__ float tile[256 + 2];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int t = threadIdx.x + 1;
  tile[t] = in[i];
  if (threadIdx.x == 0)
    tile[0] = i > 0 ? in[i - 1] : 0.f;
  if (threadIdx.x == blockDim.x - 1)
    tile[t + 1] = i + 1 < n ? in[i + 1] : 0.f;
  __syncthreads();
  out[i] = tile[t - 1] + tile[t] + tile[t + 1];
}

// A transpose through a tile (32 x 8 threads, each four rows): thread
// (x, y) reads the element thread (y, x) wrote.
__global__ void transpose(const float *in, float *out, int w) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * w + x] = tile[threadIdx.x][threadIdx.y + j];
  // warning@-1:28 {{threads of different warps race on shared memory 'tile' with no barrier between a write and a read}}
  // note@-6:5 {{thread 32 writes 'tile[1][0]' here}}
  // note@-3:28 {{thread 1, in another warp, reads it here in the same barrier interval}}
  // FIXED: {{^}}  y = blockIdx.x * 32 + threadIdx.y;{{$}}
  // FIXED-NEXT: {{^}}  __syncthreads();{{$}}
  // FIXED-NEXT: {{^}}  for (int j = 0; j < 32; j += 8){{$}}
}

__global__ void transposeSync(const float *in, float *out, int w) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * w + x] = tile[threadIdx.x][threadIdx.y + j];
}

// A histogram zeroed and then counted into: a warp counts into a bin that
// another warp has not zeroed yet.
__global__ void histogram(const unsigned char *data, int n, unsigned *bins) {
  __shared__ unsigned h[256];
  h[threadIdx.x] = 0;
  for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256)
    atomicAdd(&h[data[i]], 1u);
  // warning@-1:16 {{threads of different warps race on shared memory 'h' with no barrier between a write and an atomic update}}
  // note@-4:3 {{thread 32 writes 'h[32]' here}}
  // note@-3:16 {{thread 0, in another warp, atomically updates it here in the same barrier interval}}
  // note@-4:16 {{the element thread 0 accesses comes from a loaded value: some input makes it the one thread 32 writes}}
  // FIXED: {{^}}  h[threadIdx.x] = 0;{{$}}
  // FIXED-NEXT: {{^}}  __syncthreads();{{$}}
  // FIXED-NEXT: {{^}}  for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256){{$}}
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

__global__ void histogramSync(const unsigned char *data, int n,
                              unsigned *bins) {
  __shared__ unsigned h[256];
  h[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256)
    atomicAdd(&h[data[i]], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

void launch(const float *in, float *out, const float *scale, int n, int w,
            const unsigned char *data, unsigned *bins) {
  broadcast<<<n / 128, 128>>>(scale, in, out);
  broadcastSync<<<n / 128, 128>>>(scale, in, out);
  stencil<<<n / 256, 256>>>(in, out, n);
  stencilSync<<<n / 256, 256>>>(in, out, n);
  transpose<<<dim3(w / 32, w / 32), dim3(32, 8)>>>(in, out, w);
  transposeSync<<<dim3(w / 32, w / 32), dim3(32, 8)>>>(in, out, w);
  histogram<<<64, 256>>>(data, n, bins);
  histogramSync<<<64, 256>>>(data, n, bins);
}
