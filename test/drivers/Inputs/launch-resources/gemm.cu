// A kernel ptxas gives 72 registers on sm_90 (66 accumulators live across a
// loop), launched with 1024 threads: cudaErrorLaunchOutOfResources.
template <int N>
__device__ __forceinline__ void accumulate(const float *in, float *out,
                                           int steps) {
  float acc[N];
#pragma unroll
  for (int k = 0; k < N; ++k)
    acc[k] = in[threadIdx.x + k];
  for (int s = 0; s < steps; ++s) {
    float x = in[s];
#pragma unroll
    for (int k = 0; k < N; ++k)
      acc[k] = acc[k] * x + acc[(k + 1) % N];
  }
  float sum = 0;
#pragma unroll
  for (int k = 0; k < N; ++k)
    sum += acc[k] * (k + 1);
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

__global__ void gemm(const float *in, float *out, int steps) {
  accumulate<66>(in, out, steps);
}

__global__ void light(float *out) { out[threadIdx.x] = 1.0f; }

void run(const float *in, float *out) {
  gemm<<<1, 1024>>>(in, out, 8);
  gemm<<<1, 256>>>(in, out, 8);
  light<<<1, 1024>>>(out);
}
