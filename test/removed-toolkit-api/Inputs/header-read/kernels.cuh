#pragma once
__global__ void scaleKernel(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * tex1Dfetch(texValues, i);
}
