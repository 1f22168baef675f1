// The demo's kernels (kernels.cu) and what main.cu checks them against.
#pragma once

/// out[b] = the sum of in[b * blockDim.x ...] over block b.
__global__ void blockSum(const float *in, float *out, int n);

/// Copies the first `count` values of each row through shared memory and
/// doubles them.
__global__ void doubleRow(const float *in, float *out, int count);

/// y[i] = a * x[i] + y[i]; written for blocks of at most 256 threads.
__global__ void __launch_bounds__(256) saxpy(float a, const float *x,
                                             float *y, int n);
