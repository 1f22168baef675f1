// An opt-in and a launch written together in a dispatch macro's argument,
// the way inference libraries instantiate a kernel per type or flag
// (`DISPATCH_BOOL(flag, kFlag, { cudaFuncSetAttribute(...); k<<<...>>>();
// })`): the macro expands the argument once per case, and each copy opts
// its kernel in before it launches it.
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in %s %t.host -- %cuda_args --cuda-gpu-arch=sm_90 --cuda-host-only
#include <cuda_runtime.h>

template <bool Wide> __global__ void tile(const float *in, float *out) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = buf[Wide ? blockDim.x - 1 - threadIdx.x : threadIdx.x];
}

template <typename T> __global__ void rows(const T *in, T *out) {
  extern __shared__ unsigned char raw[];
  T *buf = reinterpret_cast<T *>(raw);
  buf[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = buf[0];
}

#define DISPATCH_BOOL(cond, NAME, ...)                                         \
  if (cond) {                                                                  \
    constexpr bool NAME = true;                                                \
    __VA_ARGS__                                                                \
  } else {                                                                     \
    constexpr bool NAME = false;                                               \
    __VA_ARGS__                                                                \
  }

#define DISPATCH_TYPE(isDouble, T, ...)                                        \
  [&] {                                                                        \
    if (isDouble) {                                                            \
      using T = double;                                                        \
      __VA_ARGS__();                                                           \
    } else {                                                                   \
      using T = float;                                                         \
      __VA_ARGS__();                                                           \
    }                                                                          \
  }()

constexpr size_t kBytes = 100 * 1024;

// Silent: each copy opts its instantiation in before launching it.
void runTile(const float *in, float *out, bool wide) {
  DISPATCH_BOOL(wide, kWide, {
    cudaFuncSetAttribute(tile<kWide>,
                         cudaFuncAttributeMaxDynamicSharedMemorySize, kBytes);
    tile<kWide><<<4, 256, kBytes>>>(in, out);
  })
}

// Silent: the same through a lambda the macro calls.
void runRows(const void *in, void *out, bool isDouble) {
  DISPATCH_TYPE(isDouble, scalar_t, [&] {
    cudaFuncSetAttribute(rows<scalar_t>,
                         cudaFuncAttributeMaxDynamicSharedMemorySize, kBytes);
    rows<scalar_t><<<4, 256, kBytes>>>(static_cast<const scalar_t *>(in),
                                       static_cast<scalar_t *>(out));
  });
}

template <bool Wide> __global__ void tileLate(const float *in, float *out) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = buf[Wide ? blockDim.x - 1 - threadIdx.x : threadIdx.x];
}

// The launch before the opt-in in the macro's argument fails the first
// time, in each copy (one report for the macro's spelling).
void runTileLate(const float *in, float *out, bool wide) {
  DISPATCH_BOOL(wide, kWide, {
    tileLate<kWide><<<4, 256, kBytes>>>(in, out);
    cudaFuncSetAttribute(tileLate<kWide>,
                         cudaFuncAttributeMaxDynamicSharedMemorySize, kBytes);
  })
  // warning@-5:3 {{'tileLate<true>' is launched with 102400 bytes of dynamic shared memory without opting in above 49152 bytes}}
  // note@-6:3 {{launches over 49152 bytes fail with cudaErrorInvalidValue}}
  // note@-7:3 {{no automatic fix: the statement starts inside a macro}}
}
