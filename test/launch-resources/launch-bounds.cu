// A launch with more threads per block than the kernel's __launch_bounds__
// allow fails with cudaErrorInvalidValue (measured on an H100: a kernel
// with __launch_bounds__(256) launched with 512 threads). Launches within
// the bound, and kernels without one, are silent.
// RUN: %check_cuda_tidy --checks=cuda-launch-resources %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__global__ void __launch_bounds__(256) scale(float *x, float a) {
  x[blockIdx.x * blockDim.x + threadIdx.x] *= a;
}
// note@-3:17 {{the bound is set here}}

template <int Block>
__global__ void __launch_bounds__(Block) reduce(const float *in, float *out) {
  out[blockIdx.x] = in[blockIdx.x * Block + threadIdx.x];
}
// note@-3:17 {{the bound is set here}}

__global__ void unbounded(float *x) { x[threadIdx.x] = 0.0f; }

constexpr int kThreads = 512;

void run(float *x, const float *in, float *out, int n) {
  scale<<<n / 512, 512>>>(x, 2.0f);
  // warning@-1:3 {{this launch of 'scale' with 512 threads fails with cudaErrorInvalidValue: its '__launch_bounds__' allow at most 256 threads per block}} [cuda-launch-resources]
  scale<<<n / 256, 256>>>(x, 2.0f);
  scale<<<n / 128, dim3(16, 8)>>>(x, 2.0f);
  unbounded<<<1, 1024>>>(x);
  // The template's bound is its argument: only a larger block fails.
  reduce<128><<<n, kThreads>>>(in, out);
  // warning@-1:3 {{this launch of 'reduce<128>' with 512 threads fails with cudaErrorInvalidValue: its '__launch_bounds__' allow at most 128 threads per block}}
  reduce<512><<<n, kThreads>>>(in, out);
  // Unproven block: silent.
  scale<<<1, n>>>(x, 2.0f);
}
