// In blocks whose x extent is a multiple of 32 each warp lies in one row, so
// 'threadIdx.y' is the same in all its lanes: a full-mask '__syncwarp' under
// a condition on 'threadIdx.y' is reached by whole warps. The kernel's
// launches in the translation unit give the shape; each silent kernel has a
// counterpart beside it, launched otherwise or not at all, that must still
// warn (with no launch in sight nothing is assumed of the block's shape).
// The lanes that skip a barrier go on working after it (lanes that only
// exit need not arrive: skip-then-exit.cu).
// RUN: %check_cuda_tidy --checks=cuda-divergent-barrier %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// Silent: launched with dim3(32, 8), a row is a warp.
__global__ void rowsOfWarps(float *data, int rows) {
  int i = threadIdx.y * 32 + threadIdx.x;
  if (threadIdx.y < rows) {
    data[i] += data[i ^ 1];
    __syncwarp();
    data[i] *= 2.0f;
  }
  data[threadIdx.x] *= 2.0f;
}

// Silent: launched with dim3(64, 2, 4), a layer is 128 threads, so
// 'threadIdx.z' is warp-uniform too.
__global__ void layersOfWarps(float *data, int layers) {
  if (threadIdx.z < layers) {
    data[threadIdx.x] += 1.0f;
    __syncwarp();
  }
  data[threadIdx.x] *= 2.0f;
}

// Counterpart: launched with dim3(16, 8), a warp spans two rows, and the
// condition splits it.
__global__ void rowsOfHalfWarps(float *data, int rows) {
  int i = threadIdx.y * 16 + threadIdx.x;
  if (threadIdx.y < rows) {
    data[i] += data[i ^ 1];
    __syncwarp();
    // warning@-1:5 {{'__syncwarp' with a full mask is reached by only some lanes of the warp}}
    // note@-4:7 {{the condition depends on 'threadIdx.y', which differs between threads}}
    data[i] *= 2.0f;
  }
  data[threadIdx.x] *= 2.0f;
}

// Counterpart: 'threadIdx.z' in blocks of dim3(8, 2, 4), 16 threads a
// layer.
__global__ void layersOfHalfWarps(float *data, int layers) {
  if (threadIdx.z < layers) {
    data[threadIdx.x] += 1.0f;
    __syncwarp();
    // warning@-1:5 {{'__syncwarp' with a full mask is reached by only some lanes of the warp}}
    // note@-4:7 {{the condition depends on 'threadIdx.z', which differs between threads}}
  }
  data[threadIdx.x] *= 2.0f;
}

// Counterpart: launched with dim3(32, 8) here and with dim3(48, 4) there:
// not every launch has rows of whole warps.
__global__ void mixedRows(float *data, int rows) {
  if (threadIdx.y < rows) {
    data[threadIdx.x] += 1.0f;
    __syncwarp();
    // warning@-1:5 {{'__syncwarp' with a full mask is reached by only some lanes of the warp}}
    // note@-4:7 {{the condition depends on 'threadIdx.y', which differs between threads}}
  }
  data[threadIdx.x] *= 2.0f;
}

// Counterpart: no launch in this file, so the block's shape is unknown; a
// note says what is assumed.
__global__ void unlaunchedRows(float *data, int rows) {
  if (threadIdx.y < rows) {
    data[threadIdx.x] += 1.0f;
    __syncwarp();
    // warning@-1:5 {{'__syncwarp' with a full mask is reached by only some lanes of the warp}}
    // note@-4:7 {{the condition depends on 'threadIdx.y', which differs between threads}}
    // note@-5:7 {{no launch of 'unlaunchedRows' in this file shows its block's shape; 'threadIdx.y' is the same in every lane of a warp only where the block's x extent is a multiple of 32}}
  }
  data[threadIdx.x] *= 2.0f;
}

// Silent or not, '__syncthreads' under a 'threadIdx.y' condition is reached
// by only some warps of the block.
__global__ void rowsBlockBarrier(float *data, int rows) {
  if (threadIdx.y < rows) {
    data[threadIdx.x] += 1.0f;
    __syncthreads();
    // warning@-1:5 {{'__syncthreads' is reached by only some warps of the block}}
    // note@-4:7 {{the condition depends on 'threadIdx.y', which differs between warps}}
  }
  data[threadIdx.x] *= 2.0f;
}

void launch(float *data, int rows) {
  rowsOfWarps<<<1, dim3(32, 8)>>>(data, rows);
  layersOfWarps<<<1, dim3(64, 2, 4)>>>(data, rows);
  rowsOfHalfWarps<<<1, dim3(16, 8)>>>(data, rows);
  layersOfHalfWarps<<<1, dim3(8, 2, 4)>>>(data, rows);
  mixedRows<<<1, dim3(32, 8)>>>(data, rows);
  mixedRows<<<1, dim3(48, 4)>>>(data, rows);
  rowsBlockBarrier<<<1, dim3(32, 8)>>>(data, rows);
}
