// Threads that skip a block barrier and then only leave the kernel: NVIDIA's
// own samples do this and it runs clean under synccheck on an H100 (the
// skipping threads exit), yet CUDA calls a barrier in non-uniform code
// undefined and it hangs on AMD. These get their own message, which the
// ReportSkipThenExit option silences; forms where the skipping threads do
// more work (a store, another barrier) keep the divergence message.
// RUN: %check_cuda_tidy --checks=cuda-divergent-barrier %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// RUN: %check_cuda_tidy --checks=cuda-divergent-barrier --expect-prefix=OFF \
// RUN:   --config="{CheckOptions: {cuda-divergent-barrier.ReportSkipThenExit: false}}" \
// RUN:   %s %t.off -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// The bounds check wraps the whole kernel body (a transpose tile).
__global__ void transposeTail(const float *in, float *out, int n) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  if (x < n && y < n) {
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    // warning@-1:5 {{threads that skip this '__syncthreads' leave the kernel without reaching another; this works on current NVIDIA GPUs but is undefined in CUDA and hangs on AMD}}
    // note@-4:7 {{the condition depends on 'x', which differs between threads}}
    // note@-6:7 {{'x' is set from 'threadIdx.x' here}}
    out[x * n + y] = tile[threadIdx.x][threadIdx.y];
  }
}

// A device function that returns early, called last.
__device__ void scaleRow(float *row, int i, int n) {
  __shared__ float s[256];
  if (i >= n)
    return;
  s[threadIdx.x] = row[i];
  __syncthreads();
  row[i] = s[255 - threadIdx.x];
}
__global__ void scaleRows(float *rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  scaleRow(rows, i, n);
  // warning@-1:3 {{'scaleRow' waits at '__syncthreads', and threads that it sends back without reaching the barrier leave the kernel without reaching another}}
  // note@-2:18 {{parameter 'i' of 'scaleRow' decides whether it reaches the barrier, and gets 'i' here}}
  // note@-4:3 {{'i' is set from 'threadIdx.x' here}}
  // note@-9:3 {{'__syncthreads' is reached here}}
}

// A per-thread loop that ends the kernel.
__global__ void drain(const int *count, float *acc) {
  __shared__ float s[128];
  for (int k = 0; k < count[threadIdx.x]; ++k) {
    s[threadIdx.x] = acc[threadIdx.x];
    __syncthreads();
    // warning@-1:5 {{threads that skip this '__syncthreads' leave the kernel}}
    // note@-4:3 {{the loop's trip count depends on 'threadIdx.x', which differs between threads}}
    acc[threadIdx.x] += s[(threadIdx.x + 1) % 128];
  }
}

// The skipping threads store after the branch: they are not done.
__global__ void tailThenStore(const float *in, float *out, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[threadIdx.x] = in[i];
    __syncthreads();
    // warning@-1:5 {{'__syncthreads' is reached by only some threads of the block}}
    // note@-4:7 {{the condition depends on 'i', which differs between threads}}
    // note@-6:3 {{'i' is set from 'threadIdx.x' here}}
    // OFF-warning@-4:5 {{'__syncthreads' is reached by only some threads of the block}}
    // OFF-note@-7:7 {{the condition depends on 'i', which differs between threads}}
    // OFF-note@-9:3 {{'i' is set from 'threadIdx.x' here}}
    out[i] = s[255 - threadIdx.x];
  }
  out[n + i] = 0.0f;
}

// The skipping threads reach another barrier: they wait there while the
// others wait at the first one.
__global__ void twoBarriers(float *data, int n) {
  __shared__ float s[256];
  if (threadIdx.x < n) {
    s[threadIdx.x] = data[threadIdx.x];
    __syncthreads();
    // warning@-1:5 {{'__syncthreads' is reached by only some threads of the block}}
    // note@-4:7 {{the condition depends on 'threadIdx.x', which differs between threads}}
    // OFF-warning@-3:5 {{'__syncthreads' is reached by only some threads of the block}}
    // OFF-note@-6:7 {{the condition depends on 'threadIdx.x', which differs between threads}}
  }
  __syncthreads();
  data[threadIdx.x] = s[0];
}

// The device function's skippers return to a kernel that still stores.
__global__ void scaleRowsThenMark(float *rows, int *done, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  scaleRow(rows, i, n);
  // warning@-1:3 {{'scaleRow' waits at '__syncthreads' under a condition that these arguments make differ between threads}}
  // note@-2:18 {{parameter 'i' of 'scaleRow' decides whether it reaches the barrier, and gets 'i' here}}
  // note@-4:3 {{'i' is set from 'threadIdx.x' here}}
  // note@33:3 {{'__syncthreads' is reached here}}
  // OFF-warning@-5:3 {{'scaleRow' waits at '__syncthreads' under a condition that these arguments make differ between threads}}
  // OFF-note@-6:18 {{parameter 'i' of 'scaleRow' decides whether it reaches the barrier, and gets 'i' here}}
  // OFF-note@-8:3 {{'i' is set from 'threadIdx.x' here}}
  // OFF-note@33:3 {{'__syncthreads' is reached here}}
  done[i] = 1;
}

// Correct: the whole block reaches the barrier, the bounds check guards only
// the memory accesses.
__global__ void transposeGuarded(const float *in, float *out, int n) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  if (x < n && y < n)
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  if (x < n && y < n)
    out[x * n + y] = tile[threadIdx.x][threadIdx.y];
}

// Correct: a full-mask '__syncwarp' that the upper half of each warp skips
// to leave the kernel. Only the lanes of the mask that have not exited must
// arrive (the programming guide's rule for '__syncwarp'), so this is defined
// CUDA, with or without the option.
__global__ void halfWarpThenExit(float *data) {
  unsigned lane = threadIdx.x % 32;
  if (lane >= 16)
    return;
  data[threadIdx.x] += data[threadIdx.x + 16];
  __syncwarp();
  data[threadIdx.x] *= 2.0f;
}

// Correct: the same with the skipped '__syncwarp' inside the branch, which
// the kernel then leaves.
__global__ void halfWarpSyncLast(float *data) {
  if (threadIdx.x % 32 < 16) {
    data[threadIdx.x] += data[threadIdx.x + 16];
    __syncwarp();
    data[threadIdx.x] *= 2.0f;
  }
}

// Counterpart: the lanes that skip go on to a store after the branch: they
// are alive and never arrive.
__global__ void halfWarpSyncThenWork(float *data) {
  if (threadIdx.x % 32 < 16) {
    data[threadIdx.x] += data[threadIdx.x + 16];
    __syncwarp();
    // warning@-1:5 {{'__syncwarp' with a full mask is reached by only some lanes of the warp}}
    // note@-4:7 {{the condition depends on 'threadIdx.x', which differs between threads}}
    // OFF-warning@-3:5 {{'__syncwarp' with a full mask is reached by only some lanes of the warp}}
    // OFF-note@-6:7 {{the condition depends on 'threadIdx.x', which differs between threads}}
  }
  data[threadIdx.x + 32] = 0.0f;
}
