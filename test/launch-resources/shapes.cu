// Block and grid shapes over the limits every GPU has fail at launch with
// cudaErrorInvalidValue (measured on an H100), in every launch form and
// wherever the configuration is built; each has a counterpart that fits.
// Values cuda-tidy cannot prove stay silent. The rule needs no architecture:
// the host side says the same.
// RUN: %check_cuda_tidy --checks=cuda-launch-resources %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// RUN: %check_cuda_tidy --checks=cuda-launch-resources %s %t.host -- %cuda_args --cuda-gpu-arch=sm_90 --cuda-host-only
#include <cuda.h>
#include <cuda_runtime.h>

__global__ void fill(float *out) {
  out[blockIdx.x * blockDim.x * blockDim.y * blockDim.z + threadIdx.x] = 1.0f;
}

template <int Threads> __global__ void tiled(float *out) {
  out[blockIdx.x * Threads + threadIdx.x] = 2.0f;
}

void chevrons(float *out, int n) {
  fill<<<1, 1025>>>(out);
  // warning@-1:3 {{this launch of 'fill' with 1025 threads per block fails with cudaErrorInvalidValue: a block has at most 1024 threads}} [cuda-launch-resources]
  fill<<<1, 1024>>>(out);
  fill<<<1, dim3(32, 32, 2)>>>(out);
  // warning@-1:3 {{this launch of 'fill' with 2048 threads per block fails with cudaErrorInvalidValue}}
  fill<<<1, dim3(1, 1, 65)>>>(out);
  // warning@-1:3 {{this launch of 'fill' with a block of (1, 1, 65) fails with cudaErrorInvalidValue: a block's z dimension is at most 64}}
  fill<<<1, dim3(16, 1, 64)>>>(out);
  fill<<<dim3(1, 65536), 128>>>(out);
  // warning@-1:3 {{this launch of 'fill' with a grid of (1, 65536, 1) fails with cudaErrorInvalidValue: a grid's y dimension is at most 65535}}
  fill<<<dim3(1, 65535), 128>>>(out);
  fill<<<dim3(1, 1, 70000), 128>>>(out);
  // warning@-1:3 {{a grid's z dimension is at most 65535}}
  fill<<<2147483648u, 32>>>(out);
  // warning@-1:3 {{this launch of 'fill' with a grid of (2147483648, 1, 1) fails with cudaErrorInvalidValue: a grid's x dimension is at most 2147483647}}
  fill<<<2147483647u, 32>>>(out);
  // Unproven: the block depends on n.
  fill<<<1, n>>>(out);
}

// Configurations built away from the launch: a local assigned once, a
// constexpr, a template argument.
constexpr unsigned kBlock = 2048;
void locals(float *out) {
  dim3 block(64, 32);
  fill<<<8, block>>>(out);
  // warning@-1:3 {{this launch of 'fill' with 2048 threads per block}}
  fill<<<8, kBlock>>>(out);
  // warning@-1:3 {{this launch of 'fill' with 2048 threads per block}}
  dim3 fits(64, 16);
  fill<<<8, fits>>>(out);
}

template <int Threads> void launchTiled(float *out) {
  tiled<Threads><<<4, Threads>>>(out);
  // warning@-1:3 {{this launch of 'tiled<1536>' with 1536 threads per block fails with cudaErrorInvalidValue}}
}
template void launchTiled<1536>(float *);
// Silent: this instantiation fits.
template void launchTiled<256>(float *);

cudaError_t apiForms(float *out, cudaStream_t s) {
  void *args[] = {&out};
  cudaError_t e = cudaLaunchKernel((const void *)fill, dim3(1), dim3(2048),
                                   args, 0, s);
  // warning@-2:19 {{this launch of 'fill' with 2048 threads per block fails with cudaErrorInvalidValue}}
  e = cudaLaunchKernel((const void *)fill, dim3(1), dim3(1024), args, 0, s);
  e = cudaLaunchCooperativeKernel((const void *)fill, dim3(1, 1, 65536),
                                  dim3(128), args, 0, s);
  // warning@-2:7 {{this launch of 'fill' with a grid of (1, 1, 65536) fails with cudaErrorInvalidValue: a grid's z dimension is at most 65535}}
  e = cudaLaunchCooperativeKernel((const void *)fill, dim3(8), dim3(128),
                                  args, 0, s);
  return e;
}

// cudaLaunchKernelEx with the configuration filled by a helper.
static void configure(cudaLaunchConfig_t *c, unsigned threads) {
  c->gridDim = dim3(16);
  c->blockDim = dim3(threads);
  c->dynamicSmemBytes = 0;
  c->stream = nullptr;
  c->attrs = nullptr;
  c->numAttrs = 0;
}
cudaError_t exForms(float *out) {
  cudaLaunchConfig_t big = {};
  configure(&big, 4096);
  cudaError_t e = cudaLaunchKernelEx(&big, fill, out);
  // warning@-1:19 {{this launch of 'fill' with 4096 threads per block fails with cudaErrorInvalidValue}}
  cudaLaunchConfig_t ok = {};
  configure(&ok, 512);
  e = cudaLaunchKernelEx(&ok, fill, out);
  cudaLaunchConfig_t inline_ = {dim3(70000, 70000), dim3(128), 0, nullptr,
                                nullptr, 0};
  e = cudaLaunchKernelEx(&inline_, fill, out);
  // warning@-1:7 {{this launch of 'fill' with a grid of (70000, 70000, 1) fails with cudaErrorInvalidValue: a grid's y dimension is at most 65535}}
  return e;
}

// The driver API: the kernel is a CUfunction, its name the variable's.
CUresult driverForms(CUmodule mod, void **params) {
  CUfunction f;
  cuModuleGetFunction(&f, mod, "fill");
  CUresult r = cuLaunchKernel(f, 1, 1, 1, 1025, 1, 1, 0, nullptr, params,
                              nullptr);
  // warning@-2:16 {{this launch of 'f' with 1025 threads per block fails with CUDA_ERROR_INVALID_VALUE: a block has at most 1024 threads}}
  r = cuLaunchKernel(f, 1, 1, 1, 1024, 1, 1, 0, nullptr, params, nullptr);
  CUlaunchConfig config = {};
  config.gridDimX = 1;
  config.gridDimY = 1;
  config.gridDimZ = 1;
  config.blockDimX = 1;
  config.blockDimY = 1;
  config.blockDimZ = 128;
  r = cuLaunchKernelEx(&config, f, params, nullptr);
  // warning@-1:7 {{this launch of 'f' with a block of (1, 1, 128) fails with CUDA_ERROR_INVALID_VALUE: a block's z dimension is at most 64}}
  config.blockDimZ = 64;
  r = cuLaunchKernelEx(&config, f, params, nullptr);
  return r;
}
