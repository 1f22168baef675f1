// Block-wide sums and votes over a float array.
#pragma once

/// Adds the n values of in into *out (one atomic add per block).
__global__ void blockSum(const float *in, float *out, int n);

/// Counts the positive values of in into *count.
__global__ void countPositive(const float *in, unsigned *count, int n);
