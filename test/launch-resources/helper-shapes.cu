// Launch shapes that come through a launch helper's parameters, or from a
// helper that returns the dim3: each is judged with the values of each call
// of the helper that proves them, with a note at that call. Each positive
// has a counterpart that fits; a value not proven at the call stays silent.
// RUN: %check_cuda_tidy --checks=cuda-launch-resources %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__global__ void fill(float *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

__global__ void __launch_bounds__(128) bounded(float *out) {
  // note@-1:17 {{the bound is set here}}
  // note@-2:17 {{the bound is set here}}
  out[blockIdx.x * blockDim.x + threadIdx.x] = 2.0f;
}

// The block size is the helper's parameter.
void launchWith(float *out, int threads) {
  fill<<<1, threads>>>(out);
  // warning@-1:3 {{this launch of 'fill' with 2048 threads per block fails with cudaErrorInvalidValue: a block has at most 1024 threads}} [cuda-launch-resources]
}

// Through a local dim3 and a second helper.
void launchBlock(float *out, int x, int y, int z) {
  dim3 block(x, y, z);
  void *args[] = {&out};
  cudaLaunchKernel((const void *)fill, dim3(4), block, args, 0, 0);
  // warning@-1:3 {{this launch of 'fill' with a block of (1, 1, 65) fails with cudaErrorInvalidValue: a block's z dimension is at most 64}}
}
void launchColumn(float *out, int depth) { launchBlock(out, 1, 1, depth); }

// The kernel's bounds allow 128 threads.
void launchBounded(float *out, int threads) {
  bounded<<<8, threads>>>(out);
  // warning@-1:3 {{this launch of 'bounded' with 256 threads fails with cudaErrorInvalidValue: its '__launch_bounds__' allow at most 128 threads per block}}
}

// The kernel is a parameter too.
template <typename Kernel>
void launchKernel(Kernel k, float *out, unsigned threads) {
  k<<<1, threads>>>(out);
  // warning@-1:3 {{this launch of 'bounded' with 512 threads fails with cudaErrorInvalidValue: its '__launch_bounds__' allow at most 128 threads per block}}
}

// A helper returns the block.
dim3 blockOf() { return dim3(64, 32); }
dim3 smallBlock() { return dim3(32, 8); }
dim3 blockFor(int x) { return dim3(x, 32); }
// Silent: more than one return, the shape is not proven.
dim3 blockEither(bool wide) {
  if (wide)
    return dim3(64, 32);
  return dim3(32, 32);
}

// A helper that launches only the sizes its guard admits (as HeCBench's
// bitpermute does): a call with a larger size takes the other path, or
// returns before the launch.
void launchGuarded(float *out, int lg) {
  size_t n = (size_t)1 << lg;
  if (n <= 1024)
    fill<<<1, n>>>(out);
  else
    fill<<<n / 32, 32>>>(out);
}
void launchOrReturn(float *out, int threads) {
  if (threads > 1024 || threads == 0) {
    return;
  }
  fill<<<1, threads>>>(out);
}
// A guard that admits the call's size does not excuse it.
void launchLooseGuard(float *out, int lg) {
  size_t n = (size_t)1 << lg;
  if (n <= 4096 && lg > 0)
    fill<<<1, n>>>(out);
  // warning@-1:5 {{this launch of 'fill' with 2048 threads per block fails with cudaErrorInvalidValue: a block has at most 1024 threads}}
}

// A size chosen by a comparison of the helper's parameter.
void launchAtLeastWarp(float *out, int n) {
  int block = n < 32 ? 32 : n;
  fill<<<1, block>>>(out);
  // warning@-1:3 {{this launch of 'fill' with 2048 threads per block fails with cudaErrorInvalidValue: a block has at most 1024 threads}}
}

void guardedCalls(float *out) {
  launchAtLeastWarp(out, 2048);
  // note@-1:3 {{with the arguments of this call of 'launchAtLeastWarp'}}
  launchAtLeastWarp(out, 8);
  launchGuarded(out, 11);
  launchOrReturn(out, 2048);
  launchLooseGuard(out, 11);
  // note@-1:3 {{with the arguments of this call of 'launchLooseGuard'}}
}

void run(float *out, int n) {
  launchWith(out, 2048);
  // note@-1:3 {{with the arguments of this call of 'launchWith'}}
  // Silent: 256 threads fit; n is not proven.
  launchWith(out, 256);
  launchWith(out, n);
  launchBounded(out, 256);
  // note@-1:3 {{with the arguments of this call of 'launchBounded'}}
  // Silent: within the bound.
  launchBounded(out, 128);
  launchKernel(bounded, out, 512);
  // note@-1:3 {{with the arguments of this call of 'launchKernel<void (*)(float *)>'}}
  // Silent: 'fill' has no bounds, and 1024 threads fit.
  launchKernel(fill, out, 1024);
  launchColumn(out, 65);
  // note@-1:3 {{with the arguments of this call of 'launchColumn'}}
  // Silent: 64 is the z limit.
  launchColumn(out, 64);
  fill<<<1, blockOf()>>>(out);
  // warning@-1:3 {{this launch of 'fill' with 2048 threads per block fails with cudaErrorInvalidValue}}
  fill<<<1, smallBlock()>>>(out);
  fill<<<1, blockFor(64)>>>(out);
  // warning@-1:3 {{this launch of 'fill' with 2048 threads per block fails}}
  fill<<<1, blockFor(32)>>>(out);
  fill<<<1, blockEither(n > 4)>>>(out);
}
