// Every runtime-API launch form with more than 48 KiB of dynamic shared
// memory and no opt-in gets cudaFuncSetAttribute inserted before it; the
// device side (default) and the host side see the same launches.
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in --fix --recheck %s %t.host -- %cuda_args --cuda-gpu-arch=sm_90 --cuda-host-only
#include <cuda_runtime.h>

__global__ void tiled(const float *in, float *out, int n) {
  extern __shared__ float tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = tile[blockDim.x - 1 - threadIdx.x];
}

template <typename T, int Rows>
__global__ void rows(const T *in, T *out) {
  extern __shared__ unsigned char raw[];
  T *buf = reinterpret_cast<T *>(raw);
  buf[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = buf[(threadIdx.x + Rows) % blockDim.x];
}

constexpr int kTileFloats = 16 * 1024;

void chevronForms(const float *in, float *out, int n, cudaStream_t stream) {
  // A constant expression.
  tiled<<<n / 256, 256, 64 * 1024, stream>>>(in, out, n);
  // warning@-1:3 {{'tiled' is launched with 65536 bytes of dynamic shared memory without opting in above 49152 bytes}} [cuda-dynamic-shared-memory-opt-in]
  // note@-2:3 {{launches over 49152 bytes fail with cudaErrorInvalidValue}}
  // FIXED: {{^  }}cudaFuncSetAttribute(tiled, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
  // FIXED-NEXT: {{^  }}tiled<<<n / 256, 256, 64 * 1024, stream>>>(in, out, n);

  // sizeof arithmetic on a constexpr variable.
  tiled<<<n / 256, 256, kTileFloats * sizeof(float)>>>(in, out, n);
  // warning@-1:3 {{'tiled' is launched with 65536 bytes}}
  // note@-2:3 {{launches over 49152 bytes fail}}
  // FIXED: cudaFuncSetAttribute(tiled, cudaFuncAttributeMaxDynamicSharedMemorySize, kTileFloats * sizeof(float));

  // A local assigned once, used inside a nested block at its indentation.
  size_t bytes;
  bytes = 50000;
  if (n > 0) {
    tiled<<<1, 256, bytes>>>(in, out, n);
    // warning@-1:5 {{'tiled' is launched with 50000 bytes}}
    // note@-2:5 {{launches over 49152 bytes fail}}
    // FIXED: {{^    }}cudaFuncSetAttribute(tiled, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
    // FIXED-NEXT: {{^    }}tiled<<<1, 256, bytes>>>(in, out, n);
  }
}

// A template argument: flagged in the instantiation, fixed once.
template <int Bytes> void launchWith(const float *in, float *out, int n) {
  tiled<<<1, 256, Bytes>>>(in, out, n);
  // warning@-1:3 {{'tiled' is launched with 98304 bytes}}
  // note@-2:3 {{launches over 49152 bytes fail}}
  // FIXED: cudaFuncSetAttribute(tiled, cudaFuncAttributeMaxDynamicSharedMemorySize, Bytes);
}
template void launchWith<96 * 1024>(const float *, float *, int);
// Silent: this instantiation stays within 48 KiB.
template void launchWith<1024>(const float *, float *, int);

void templateKernel(const double *in, double *out) {
  rows<double, 3><<<1, 128, sizeof(double) * 8192>>>(in, out);
  // warning@-1:3 {{'rows<double, 3>' is launched with 65536 bytes}}
  // note@-2:3 {{launches over 49152 bytes fail}}
  // FIXED: cudaFuncSetAttribute(rows<double, 3>, cudaFuncAttributeMaxDynamicSharedMemorySize, sizeof(double) * 8192);
}

cudaError_t apiForms(const float *in, float *out, int n) {
  void *args[] = {&in, &out, &n};
  cudaError_t err =
      cudaLaunchKernel((const void *)tiled, dim3(4), dim3(256), args, 80000, 0);
  // warning@-1:7 {{'tiled' is launched with 80000 bytes}}
  // note@-2:7 {{launches over 49152 bytes fail}}
  // FIXED: {{^  }}cudaFuncSetAttribute(tiled, cudaFuncAttributeMaxDynamicSharedMemorySize, 80000);
  // FIXED-NEXT: {{^  }}cudaError_t err =
  if (err)
    return err;
  return cudaLaunchCooperativeKernel(tiled, 4, 256, args, 70000);
  // warning@-1:10 {{'tiled' is launched with 70000 bytes}}
  // note@-2:10 {{launches over 49152 bytes fail}}
  // FIXED: {{^  }}cudaFuncSetAttribute(tiled, cudaFuncAttributeMaxDynamicSharedMemorySize, 70000);
  // FIXED-NEXT: {{^  }}return cudaLaunchCooperativeKernel(tiled, 4, 256, args, 70000);
}

void launchEx(const float *in, float *out, int n, cudaStream_t stream) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3((n + 255) / 256);
  config.blockDim = dim3(256);
  config.dynamicSmemBytes = 100 * 1024;
  config.stream = stream;
  cudaLaunchKernelEx(&config, tiled, in, out, n);
  // warning@-1:3 {{'tiled' is launched with 102400 bytes}}
  // note@-4:29 {{the dynamic shared memory size is set here}}
  // note@-3:3 {{launches over 49152 bytes fail}}
  // FIXED: {{^  }}cudaFuncSetAttribute(tiled, cudaFuncAttributeMaxDynamicSharedMemorySize, config.dynamicSmemBytes);
  // FIXED-NEXT: {{^  }}cudaLaunchKernelEx(&config, tiled, in, out, n);
}
