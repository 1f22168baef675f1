// The kernels of scale.cu, which includes this file (as Rodinia's
// benchmarks include their *_kernel.cu files).
texture<float, 1, cudaReadModeElementType> texValues;

__global__ void scaleKernel(float *out, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = factor * tex1Dfetch(texValues, i);
}
