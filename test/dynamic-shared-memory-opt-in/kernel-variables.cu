// Kernels held in variables (auto, function pointers, casts to void *) and
// sizes computed into locals are followed, for launches and opt-ins alike.
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in --fix --recheck %s %t.host -- %cuda_args --cuda-gpu-arch=sm_90 --cuda-host-only
#include <cuda_runtime.h>

template <int D> __global__ void shrink(float *y) {
  extern __shared__ float s[];
  s[threadIdx.x] = D;
  y[threadIdx.x] = s[threadIdx.x];
}

template <typename T, int DOut> bool launchShrink(float *y) {
  constexpr unsigned stages = 2, warps = 4;
  unsigned smem = stages * sizeof(T) * 8 * 16 * 16 * (warps + DOut / 16);
  auto kernel = shrink<DOut>;
  void *args[] = {(void *)&y};
  return cudaLaunchKernel((void *)kernel, dim3(4), dim3(128), args, smem,
                          nullptr) == cudaError_t();
  // warning@-2:10 {{'shrink<64>' is launched with 131072 bytes of dynamic shared memory without opting in above 49152 bytes}} [cuda-dynamic-shared-memory-opt-in]
  // note@-3:10 {{launches over 49152 bytes fail}}
  // FIXED: {{^  }}cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  // FIXED-NEXT: {{^  }}return cudaLaunchKernel((void *)kernel,
}
// 2 * 4 * 8 * 16 * 16 * (4 + 4) = 128 KiB.
template bool launchShrink<float, 64>(float *);
// Silent: 2 * 1 * 8 * 16 * 16 * (4 + 0) = 16 KiB.
template bool launchShrink<char, 8>(float *);

void direct(float *y) {
  auto kernel = shrink<64>;
  kernel<<<4, 128, 64 * 1024>>>(y);
  // warning@-1:3 {{'shrink<64>' is launched with 65536 bytes of dynamic shared memory without opting in}}
  // note@-2:3 {{launches over 49152 bytes fail}}
  // FIXED: {{^  }}cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
  // FIXED-NEXT: {{^  }}kernel<<<4, 128, 64 * 1024>>>(y);
}

void optedInThroughVariable(float *y) {
  // Silent: the opt-in names the same kernel through another variable.
  void (*fn)(float *) = shrink<32>;
  const void *entry = (const void *)fn;
  size_t bytes = 80 * 1024;
  cudaFuncSetAttribute(entry, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       bytes);
  fn<<<4, 128, bytes>>>(y);
}

void optedInForAnother(float *y) {
  // The opt-in is for shrink<16>; the launch is of shrink<24>.
  auto small = shrink<16>;
  auto large = shrink<24>;
  cudaFuncSetAttribute(small, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       96 * 1024);
  large<<<4, 128, 96 * 1024>>>(y);
  // warning@-1:3 {{'shrink<24>' is launched with 98304 bytes of dynamic shared memory without opting in}}
  // note@-2:3 {{launches over 49152 bytes fail}}
  // FIXED: {{^  }}cudaFuncSetAttribute(large, cudaFuncAttributeMaxDynamicSharedMemorySize, 96 * 1024);
}

void reassigned(float *y, bool wide) {
  // Silent: the variable is written twice, so its kernel is not known.
  auto kernel = shrink<8>;
  if (wide)
    kernel = shrink<12>;
  kernel<<<4, 128, 64 * 1024>>>(y);
  // Silent: the size is written twice.
  unsigned bytes = 64 * 1024;
  if (wide)
    bytes = 32 * 1024;
  shrink<4><<<4, 128, bytes>>>(y);
}

// A constant function pointer at namespace scope.
static void (*const kShrink2)(float *) = shrink<2>;
void launchConstant(float *y) {
  kShrink2<<<4, 128, 50 * 1024>>>(y);
  // warning@-1:3 {{'shrink<2>' is launched with 51200 bytes of dynamic shared memory without opting in}}
  // note@-2:3 {{launches over 49152 bytes fail}}
  // FIXED: {{^  }}cudaFuncSetAttribute(kShrink2, cudaFuncAttributeMaxDynamicSharedMemorySize, 50 * 1024);
}
