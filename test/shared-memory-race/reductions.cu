// Block reductions in the shape of the CUDA samples' reduce kernels and of
// LLM kernels' layernorm: a tree over shared memory needs a barrier between
// the steps while partners are in different warps (strides of 32 or more).
// RUN: %check_cuda_tidy --checks=cuda-shared-memory-race,cuda-divergent-barrier \
// RUN:   --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// The barrier was hoisted out of the loop: for strides of 32 or more a
// thread reads its partner's partial sum before that warp has written it.
__global__ void reduceNoSync(const float *in, float *out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    // warning@-1:21 {{threads of different warps race on shared memory 'sdata' with no barrier between an update and a read}}
    // note@-2:7 {{thread 64 updates 'sdata[64]' here}}
    // note@-3:21 {{thread 0, in another warp, reads it here in the same barrier interval}}
    // note@-6:3 {{the next iteration of this loop reaches the second access before any barrier}}
  }
  // FIXED: {{^}}      sdata[tid] += sdata[tid + s];{{$}}
  // FIXED: {{^}}    __syncthreads();{{$}}
  // FIXED-NEXT: {{^}}  }{{$}}
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// The barrier in the loop: silent.
__global__ void reduceSync(const float *in, float *out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// Two passes through one scratch array (mean, then variance): thread 0
// reads the total from scratch[0] while another warp already overwrites
// its element for the second pass.
__global__ void meanVariance(const float *x, float *mean, float *var, int n) {
  __shared__ float scratch[128];
  int t = threadIdx.x;
  float v = x[blockIdx.x * 128 + t];
  scratch[t] = v;
  __syncthreads();
  for (int s = 64; s > 0; s >>= 1) {
    if (t < s)
      scratch[t] += scratch[t + s];
    __syncthreads();
  }
  float m = scratch[0] / 128;
  scratch[t] = (v - m) * (v - m);
  // warning@-1:3 {{threads of different warps race on shared memory 'scratch' with no barrier between a read and a write}}
  // note@-3:13 {{thread 32 reads 'scratch[0]' here}}
  // note@-3:3 {{thread 0, in another warp, writes it here in the same barrier interval}}
  // FIXED: {{^}}  float m = scratch[0] / 128;{{$}}
  // FIXED-NEXT: {{^}}  __syncthreads();{{$}}
  // FIXED-NEXT: {{^}}  scratch[t] = (v - m) * (v - m);{{$}}
  __syncthreads();
  for (int s = 64; s > 0; s >>= 1) {
    if (t < s)
      scratch[t] += scratch[t + s];
    __syncthreads();
  }
  if (t == 0) {
    mean[blockIdx.x] = m;
    var[blockIdx.x] = scratch[0] / 128;
  }
}

// The barrier between the passes: silent.
__global__ void meanVarianceSync(const float *x, float *mean, float *var,
                                 int n) {
  __shared__ float scratch[128];
  int t = threadIdx.x;
  float v = x[blockIdx.x * 128 + t];
  scratch[t] = v;
  __syncthreads();
  for (int s = 64; s > 0; s >>= 1) {
    if (t < s)
      scratch[t] += scratch[t + s];
    __syncthreads();
  }
  float m = scratch[0] / 128;
  __syncthreads();
  scratch[t] = (v - m) * (v - m);
  __syncthreads();
  for (int s = 64; s > 0; s >>= 1) {
    if (t < s)
      scratch[t] += scratch[t + s];
    __syncthreads();
  }
  if (t == 0) {
    mean[blockIdx.x] = m;
    var[blockIdx.x] = scratch[0] / 128;
  }
}

void run(const float *x, float *m, float *v, float *o, int n) {
  reduceNoSync<<<n / 256, 256>>>(x, o);
  reduceSync<<<n / 256, 256>>>(x, o);
  meanVariance<<<n / 128, 128>>>(x, m, v, n);
  meanVarianceSync<<<n / 128, 128>>>(x, m, v, n);
}
